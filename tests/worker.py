"""A real Celery worker for the tests: its own redis-server on a free port as the broker
(stopped and started at will, and no other test's worker takes its tasks), the worker as
a subprocess of ``celery worker`` on the queues a test names, and the test database
(PostgreSQL) passed to it through DATABASE_URL.

Test modules import the fixtures they use (``redis``, ``live_db_url``) and ``Worker``.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from backgammon.celery import app

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(check: Callable[[], Any], timeout: float = 30, what: str = "condition") -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


# --------------------------------------------------------------------------- SMTP


class Redis:
    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        executable = shutil.which("redis-server")
        if executable is None:
            pytest.fail("redis-server is not installed")
        self.process = subprocess.Popen(
            [executable, "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
            + ["--appendonly", "no"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for(self._up, 10, "redis-server")

    def _up(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(10)
            self.process = None


def use_broker(url: str) -> None:
    app.conf.broker_url = url
    app.conf.broker_write_url = url
    app.conf.broker_read_url = url
    app._pool = None
    app.amqp._producer_pool = None


@pytest.fixture
def redis() -> Iterator[Redis]:
    server = Redis()
    server.start()
    previous = app.conf.broker_url
    use_broker(server.url)
    try:
        yield server
    finally:
        use_broker(previous)
        server.stop()


def worker_env(redis: Redis, database_url: str) -> dict[str, str]:
    """A worker's environment: this one, with the test's broker and database, and gnubg
    found where Debian installs it (/usr/games is often not on PATH)."""
    return {
        **os.environ,
        "DATABASE_URL": database_url,
        "REDIS_URL": redis.url,
        "PYTHONUNBUFFERED": "1",
        "PATH": os.environ.get("PATH", "") + ":/usr/games",
    }


class Worker:
    """``celery worker`` on ``queues``: one process (``solo``), or ``processes`` of a
    prefork pool, as the site runs its ``bots`` workers (README)."""

    def __init__(
        self,
        env: dict[str, str],
        log: Path,
        queues: str = "email,clock,celery",
        processes: int = 1,
    ) -> None:
        self.env = env
        self.queues = queues
        self.log = log
        self.pool = ["-P", "solo"] if processes == 1 else ["-P", "prefork", "-c", str(processes)]
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, **extra_env: str) -> None:
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "backgammon.celery", "worker"]
                + self.pool
                + ["-Q", self.queues, "--without-heartbeat"]
                + ["--without-gossip", "--without-mingle", "-l", "INFO"],
                cwd=ROOT,
                env={**self.env, **extra_env},
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        wait_for(lambda: b"ready." in self.log.read_bytes(), 60, "the worker to be ready")

    def kill(self) -> None:
        if self.process is not None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)
            self.process = None

    def wait_idle(self, timeout: float = 90) -> None:
        """Wait until no task is queued, waiting for its countdown or running, so whatever
        e-mail was sent is all that will be sent (no beat runs in these tests).

        The queues are read in the broker, then the worker is asked what it holds: it
        answers between tasks, so an answer naming none means none is left.
        """
        from redis import Redis as RedisClient

        client = RedisClient.from_url(self.env["REDIS_URL"])

        def idle() -> bool:
            lists = [k for k in client.scan_iter() if client.type(k) == b"list"]
            if any(client.llen(k) for k in lists):
                return False
            inspect = app.control.inspect(timeout=1, limit=1)
            answers = [inspect.active(), inspect.reserved(), inspect.scheduled()]
            return all(a is not None and not any(a.values()) for a in answers)

        try:
            wait_for(idle, timeout, "the worker to be idle")
        finally:
            client.close()

    def stop(self) -> None:
        if self.process is not None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()
            self.process = None


@pytest.fixture
def live_db_url() -> str:
    s = connection.settings_dict
    return (
        f"postgres://{s['USER'] or 'postgres'}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/"
        f"{s['NAME']}"
    )
