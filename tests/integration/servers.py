"""The site's production server in subprocesses, for the integration tests: a database of
its own that other processes can open, the server's environment, uvicorn serving
``backgammon.asgi``, and a browser-like session that signs in through the form."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import requests

from tests.worker import free_port, wait_for

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "a long test password 7"


def server_env(database_url: str, redis_url: str, tmp_path: Path) -> dict[str, str]:
    """The environment of a server process of the site: this one's, with its own database,
    Redis and an e-mail folder, the tests' own variables left out."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "PYTEST_", "TRUSTED_PROXY"))
    }
    env.update(
        DJANGO_SETTINGS_MODULE="backgammon.settings",
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
        EMAIL_URL=f"file://{tmp_path / 'mail'}",
        PYTHONUNBUFFERED="1",
    )
    return env


def migrate(env: dict[str, str]) -> None:
    """Migrate the server's database, in a process of the site."""
    done = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr


def run_python(env: dict[str, str], code: str) -> str:
    """Run ``code`` in a Django process of the site (same env); returns its stdout."""
    done = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


class Site:
    """One server process (uvicorn) of the site, on a free port."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log
        with log.open("ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "uvicorn", "backgammon.asgi:application"]
                + ["--host", "127.0.0.1", "--port", str(self.port), "--lifespan", "off"],
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        wait_for(self._ready, 60, "the server to answer")

    def _ready(self) -> bool:
        if self.process.poll() is not None:
            raise AssertionError(f"the server exited:\n{self.output()}")
        try:
            requests.get(f"{self.url}/", timeout=5)
        except requests.ConnectionError:
            return False
        return True

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def stop(self) -> None:
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)


def csrf_token(html: str) -> str:
    match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    assert match, "no CSRF token on the page"
    return match.group(1)


def sign_in(site: Site, username: str) -> tuple[requests.Session, requests.Response]:
    browser = requests.Session()
    form = browser.get(f"{site.url}/accounts/login/", timeout=30)
    assert form.status_code == 200
    answer = browser.post(
        f"{site.url}/accounts/login/",
        data={
            "csrfmiddlewaretoken": csrf_token(form.text),
            "login": username,
            "password": PASSWORD,
        },
        allow_redirects=False,
        timeout=30,
    )
    return browser, answer
