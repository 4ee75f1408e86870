"""The site as a cluster of hosts on this machine, each a network namespace, running the
production set-up of the README (run as root):

    .venv/bin/python -m deploy.cluster.cluster [--workdir /tmp/bg-cluster] [--keep]

builds it, says where each part runs, and waits; Ctrl-C (or SIGTERM) tears it all down.
``deploy/cluster/season.py`` drives a season of play through it. The hosts:

- ``lb``      HAProxy: HTTP and WebSocket, round robin over the web hosts, health-checked
- ``web1/2``  uvicorn serving ``backgammon.asgi`` (pages, API, sockets), ``GNUBG_REMOTE``
- ``db``      PostgreSQL 15, its own cluster (initdb) in the work directory
- ``redis``   redis-server: cache, Celery broker, the live layer
- ``work1``   Celery workers for ``analysis`` and ``bots``, with gnubg
- ``work2``   Celery workers for ``celery``, ``email`` and ``clock``, and the one beat
- ``mail``    an SMTP sink recording every message (``deploy/cluster/mailsink.py``)

A crashed run's leftovers (namespaces, their processes, the bridge, the work directory)
are removed before building, and the tear-down is the same removal, so both are
idempotent.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import FrameType, TracebackType
from typing import TextIO

from . import hosts
from .hosts import HOSTS, Host
from .services import ROOT, Service, wait_for


def postgres_binaries() -> Path:
    """Debian's PostgreSQL programs, the newest version installed (15 on this machine)."""
    versions = sorted(
        Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name), reverse=True
    )
    return versions[0] if versions else Path("/usr/lib/postgresql/15/bin")


PG_BIN = postgres_binaries()
HAPROXY = "/usr/sbin/haproxy"
SITE = HOSTS["lb"].address
DB_PORT = 5432
REDIS_PORT = 6379
WEB_PORT = 8000
SMTP_PORT = 2525
DEFAULT_WORKDIR = Path("/tmp/bg-cluster")
LOCK_FILE = Path("/run/lock/bg-cluster.lock")
SNAPSHOT_IGNORE = shutil.ignore_patterns(
    ".venv",
    ".git",
    "tests",
    "bench",
    "test-output",
    "staticfiles",
    "db.sqlite3*",
    "__pycache__",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
    ".hypothesis",
    "*.egg-info",
)


def site_environment(*, remote_gnubg: bool) -> dict[str, str]:
    """The production environment every process of the site gets (README's table)."""
    keep = ("PATH", "HOME", "LANG", "LC_ALL", "TZ", "VIRTUAL_ENV")
    env = {key: os.environ[key] for key in keep if key in os.environ}
    path = env.get("PATH", "/usr/bin:/bin")
    env.update(
        PATH=path if "/usr/games" in path else f"{path}:/usr/games",
        DJANGO_SETTINGS_MODULE="backgammon.settings",
        DJANGO_ENV="production",
        SECRET_KEY="cluster-only-not-a-secret-0123456789-abcdefghijklmnopqrstuvwxyz",
        SITE_URL=f"http://{SITE}",
        ALLOWED_HOSTS=SITE,
        DATABASE_URL=f"postgres://postgres@{HOSTS['db'].address}:{DB_PORT}/backgammon",
        # As the README's production section says of an ASGI server: a connection kept
        # past its request stays with a thread that never serves another.
        DATABASE_CONN_MAX_AGE="0",
        REDIS_URL=f"redis://{HOSTS['redis'].address}:{REDIS_PORT}/0",
        EMAIL_URL=f"smtp://{HOSTS['mail'].address}:{SMTP_PORT}",
        TRUSTED_PROXY_COUNT="1",
        # Players of a season are always on the site: their e-mails go at once, not
        # after five minutes away, so that the season can count them.
        NOTIFY_AWAY_AFTER_SECONDS="0",
        NOTIFICATION_RETRY_BASE_SECONDS="5",
        # A killed analysis worker's match is queued again within a season.
        ANALYSIS_STALL_SECONDS="30",
        LIMIT_API_ACTIONS_PER_MINUTE="600",
        LIMIT_BOT_MATCHES="20",
        PYTHONUNBUFFERED="1",
        LOG_LEVEL="WARNING",
    )
    if remote_gnubg:
        env["GNUBG_REMOTE"] = "true"
    return env


def port_open(address: str, port: int) -> bool:
    try:
        with socket.create_connection((address, port), timeout=1):
            return True
    except OSError:
        return False


def haproxy_config(web: list[Host], socket_path: Path) -> str:
    """HAProxy: one HTTP frontend, the web hosts health-checked each second. A request
    is sent again elsewhere only when it never reached a server (``conn-failure``): a
    move that a dying server may have stored is answered 502/503, and the client sends
    it again with the same ply."""
    servers = "\n".join(f"    server {host.name} {host.address}:{WEB_PORT} check" for host in web)
    return f"""global
    maxconn 4096
    stats socket {socket_path} mode 600 level admin

defaults
    mode http
    log stdout format raw local0 err
    timeout connect 2s
    timeout client 60s
    timeout server 60s
    timeout tunnel 1h
    retries 3
    option redispatch
    retry-on conn-failure

frontend site
    bind {SITE}:80
    option forwardfor
    default_backend web

backend web
    balance roundrobin
    option httpchk
    http-check send meth GET uri /api/bots/ ver HTTP/1.1 hdr Host {SITE}
    default-server inter 1s fall 2 rise 1
{servers}
"""


class Cluster:
    """The hosts and their services; ``with Cluster(...) as cluster:`` builds and tears
    down. Each fault the season injects is a method here."""

    def __init__(
        self, workdir: Path = DEFAULT_WORKDIR, *, say: Callable[[str], None] = print
    ) -> None:
        self.workdir = workdir
        self.say = say
        self.logs = workdir / "logs"
        self.site = workdir / "site"
        self.services: dict[str, Service] = {}
        self.mail_file = workdir / "mail.jsonl"
        self.haproxy_socket = workdir / "haproxy.sock"
        self.web_env = site_environment(remote_gnubg=True)
        self.worker_env = site_environment(remote_gnubg=False)
        self._lock_file: TextIO | None = None

    # ------------------------------------------------------------------ build, tear down

    def __enter__(self) -> Cluster:
        try:
            self.build()
        except BaseException:
            self.teardown()
            raise
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.teardown()

    def build(self) -> None:
        started = time.monotonic()
        self._lock()
        self.teardown(quiet=True)
        self.logs.mkdir(parents=True)
        self._snapshot()
        hosts.create_network()
        self._start_db()
        self._start_redis()
        self._add_mail()
        self.start("mail")
        wait_for(lambda: port_open(HOSTS["mail"].address, SMTP_PORT), 30, "the mail sink")
        static = self._background(["manage.py", "collectstatic", "--noinput", "-v0"])
        self.manage("migrate", "--noinput", "-v0")
        self.manage("create_bots")
        if static.wait(600) != 0:
            raise RuntimeError("collectstatic failed")
        for name in ("web1", "web2"):
            self._add_web(name)
            self.start(name)
        self._add_workers()
        for name in ("analysis@work1", "bots@work1", "mail@work2", "beat@work2"):
            self.start(name)
        self._add_lb()
        self.start("lb")
        for name in ("web1", "web2"):
            self.wait_web(name)
        wait_for(self.lb_ready, 30, "the load balancer")
        self.say(f"cluster built in {time.monotonic() - started:.1f} s; site at http://{SITE}/")

    def _lock(self, seconds: float = 1800) -> None:
        """One cluster at a time on this machine (its names and addresses are fixed): a
        second build waits for the first to be torn down. The kernel frees the lock of
        a crashed run, whose leftovers the build then removes."""
        if self._lock_file is not None:
            return
        LOCK_FILE.parent.mkdir(parents=True, exist_ok=True)
        handle = LOCK_FILE.open("w")
        deadline = time.monotonic() + seconds
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError as busy:
                if time.monotonic() > deadline:
                    handle.close()
                    raise TimeoutError(
                        f"another cluster held {LOCK_FILE} {seconds:.0f} s"
                    ) from busy
                time.sleep(2)
        self._lock_file = handle

    def teardown(self, *, quiet: bool = False) -> None:
        """Stop every service, remove the hosts and the bridge, and the work directory
        (its logs are kept by ``keep_logs`` first when asked)."""
        services = list(self.services.values())
        for service in services:
            service.signal(signal.SIGTERM)
        deadline = time.monotonic() + 5
        for service in services:
            if service.process is not None:
                try:
                    service.process.wait(max(0.1, deadline - time.monotonic()))
                except subprocess.TimeoutExpired:
                    service.kill()
        hosts.destroy_network()
        if self.workdir.exists():
            shutil.rmtree(self.workdir, ignore_errors=True)
        if not quiet:
            self.say("cluster torn down")
            if self._lock_file is not None:
                self._lock_file.close()
                self._lock_file = None

    def keep_logs(self, target: Path) -> None:
        """Copy the logs (and the mail sink's record) to ``target`` before the tear-down."""
        target.mkdir(parents=True, exist_ok=True)
        for path in [*self.logs.glob("*.log"), self.mail_file]:
            if path.exists():
                shutil.copy(path, target / path.name)

    # ------------------------------------------------------------------ the services

    def add(self, name: str, host: str, argv: list[str], env: dict[str, str], **kw: str) -> None:
        self.services[name] = Service(
            name, HOSTS[host], argv, env=env, log=self.logs / f"{name}.log", cwd=self.site, **kw
        )

    def _snapshot(self) -> None:
        """The site's code as it is now, copied: the hosts run this copy, so a change in
        the checkout during a season (a commit, an edit) reaches no host half-way."""
        shutil.copytree(ROOT, self.site, ignore=SNAPSHOT_IGNORE, symlinks=True)

    def start(self, name: str) -> None:
        self.services[name].start()

    def _start_db(self) -> None:
        data = self.workdir / "pgdata"
        run_dir = self.workdir / "pgrun"
        for path in (data, run_dir):
            path.mkdir(parents=True)
            shutil.chown(path, "postgres", "postgres")
        os.chmod(self.workdir, 0o755)
        subprocess.run(
            ["setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups"]
            + [str(PG_BIN / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust"]
            + ["-E", "UTF8", "--locale=C.UTF-8"],
            check=True,
            capture_output=True,
        )
        with (data / "pg_hba.conf").open("a") as hba:
            hba.write(f"host all all {hosts.NETWORK}.0/{hosts.PREFIX_LENGTH} trust\n")
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8"}
        self.add(
            "db",
            "db",
            [str(PG_BIN / "postgres"), "-D", str(data)]
            + ["-c", f"listen_addresses={HOSTS['db'].address}", "-p", str(DB_PORT)]
            + ["-c", f"unix_socket_directories={run_dir}", "-c", "max_connections=300"],
            env,
            user="postgres",
        )
        self.start("db")
        wait_for(lambda: port_open(HOSTS["db"].address, DB_PORT), 60, "PostgreSQL")
        create = HOSTS["db"].command(
            ["setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups"]
            + [str(PG_BIN / "psql"), "-h", str(run_dir), "-p", str(DB_PORT)]
            + ["-U", "postgres", "-c", "CREATE DATABASE backgammon"]
        )
        # The port opens before the server accepts sessions ("starting up"): try again.
        wait_for(
            lambda: subprocess.run(create, capture_output=True).returncode == 0,
            60,
            "PostgreSQL to create the database",
        )

    def _start_redis(self) -> None:
        self.add(
            "redis",
            "redis",
            ["redis-server", "--bind", HOSTS["redis"].address, "--port", str(REDIS_PORT)]
            + ["--save", "", "--appendonly", "no", "--protected-mode", "no"],
            {"PATH": os.environ.get("PATH", "/usr/bin:/bin")},
        )
        self.start("redis")
        wait_for(lambda: port_open(HOSTS["redis"].address, REDIS_PORT), 30, "Redis")

    def _add_mail(self) -> None:
        self.add(
            "mail",
            "mail",
            [sys.executable, "-m", "deploy.cluster.mailsink", HOSTS["mail"].address]
            + [str(SMTP_PORT), str(self.mail_file)],
            {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONUNBUFFERED": "1"},
        )

    def _add_web(self, name: str) -> None:
        self.add(
            name,
            name,
            [sys.executable, "-m", "uvicorn", "backgammon.asgi:application"]
            + ["--host", "0.0.0.0", "--port", str(WEB_PORT), "--workers", str(os.cpu_count() or 1)]
            + ["--proxy-headers", "--forwarded-allow-ips", SITE, "--no-access-log"],
            self.web_env,
        )

    def _add_workers(self) -> None:
        celery = [sys.executable, "-m", "celery", "-A", "backgammon"]
        beat_schedule = self.workdir / "celerybeat-schedule"
        self.add(
            "analysis@work1",
            "work1",
            [*celery, "worker", "-Q", "analysis", "-c", "1", "-n", "analysis@work1"]
            + ["--loglevel=WARNING"],
            self.worker_env,
        )
        self.add(
            "bots@work1",
            "work1",
            [*celery, "worker", "-Q", "bots", "-c", "2", "-n", "bots@work1", "--loglevel=WARNING"],
            self.worker_env,
        )
        self.add(
            "mail@work2",
            "work2",
            [*celery, "worker", "-Q", "celery,email,clock", "-c", "2", "-n", "mail@work2"]
            + ["--loglevel=WARNING"],
            self.worker_env,
        )
        self.add(
            "beat@work2",
            "work2",
            [*celery, "beat", "-s", str(beat_schedule), "--loglevel=WARNING"],
            self.worker_env,
        )

    def _add_lb(self) -> None:
        config = self.workdir / "haproxy.cfg"
        config.write_text(haproxy_config([HOSTS["web1"], HOSTS["web2"]], self.haproxy_socket))
        self.add(
            "lb",
            "lb",
            [HAPROXY, "-W", "-db", "-f", str(config)],
            {"PATH": os.environ.get("PATH", "/usr/bin:/bin")},
        )

    # ------------------------------------------------------------------ readiness, commands

    def web_ready(self, name: str) -> bool:
        service = self.services[name]
        if not service.alive():
            raise RuntimeError(f"{name} exited:\n{service.output()}")
        return port_open(HOSTS[name].address, WEB_PORT)

    def wait_web(self, name: str, seconds: float = 90) -> float:
        return wait_for(lambda: self.web_ready(name), seconds, f"{name} to serve")

    def lb_ready(self) -> bool:
        return port_open(SITE, 80) and self.haproxy("show stat").count(",UP,") >= 1

    def haproxy(self, command: str) -> str:
        """One command on HAProxy's runtime socket (``show stat``, ``disable server web/web2``)."""
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            conn.settimeout(5)
            try:
                conn.connect(str(self.haproxy_socket))
            except OSError:
                return ""
            conn.sendall(command.encode() + b"\n")
            chunks = []
            while chunk := conn.recv(65536):
                chunks.append(chunk)
        return b"".join(chunks).decode(errors="replace")

    def servers_up(self) -> list[str]:
        lines = self.haproxy("show stat").splitlines()
        return [
            line.split(",")[1]
            for line in lines
            if line.startswith("web,") and ",UP," in line and not line.startswith("web,BACKEND")
        ]

    def run_site(self, argv: list[str], *, timeout: float = 600) -> str:
        """Run a command of the site (``manage.py ...``) on ``work2``; returns its stdout."""
        done = subprocess.run(
            HOSTS["work2"].command([sys.executable, *argv]),
            cwd=self.site,
            env=self.worker_env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(argv)} failed ({done.returncode}):\n{done.stderr}")
        return done.stdout

    def _background(self, argv: list[str]) -> subprocess.Popen[bytes]:
        """A command of the site on ``work2`` that runs while the build goes on."""
        with (self.logs / "build.log").open("ab") as out:
            return subprocess.Popen(
                HOSTS["work2"].command([sys.executable, *argv]),
                cwd=self.site,
                env=self.worker_env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )

    def manage(self, *args: str, timeout: float = 600) -> str:
        return self.run_site(["manage.py", *args], timeout=timeout)

    # ------------------------------------------------------------------ faults

    def kill(self, name: str) -> None:
        self.services[name].kill()

    def restart_db(self) -> float:
        """A fast shutdown (SIGINT) and a start; returns the seconds it was down."""
        started = time.monotonic()
        db = self.services["db"]
        db.signal(signal.SIGINT)
        assert db.process is not None
        db.process.wait(60)
        db.start()
        wait_for(lambda: port_open(HOSTS["db"].address, DB_PORT), 60, "PostgreSQL again")
        return time.monotonic() - started

    def set_link(self, name: str, up: bool) -> None:
        hosts.set_link(HOSTS[name], up)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workdir", type=Path, default=DEFAULT_WORKDIR)
    parser.add_argument(
        "--down", action="store_true", help="only tear down what a crashed run left"
    )
    args = parser.parse_args(argv)
    problem = hosts.capable()
    if problem:
        print(problem, file=sys.stderr)
        return 2
    cluster = Cluster(args.workdir)
    if args.down:
        cluster.teardown()
        return 0

    def stop(number: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    with cluster:
        for name, service in cluster.services.items():
            print(f"  {name:16} on {service.host.name:6} {service.host.address}")
        print("Ctrl-C tears it down")
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
