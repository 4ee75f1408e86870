"""Without REDIS_URL (and in every unmarked test) tasks run eagerly, in-process."""

import socket
import threading
from collections.abc import Iterator

import pytest
from celery import shared_task
from django.db import transaction

from backgammon.celery import app
from notifications import tasks as notification_tasks

calls: list[int] = []


@shared_task
def record(value: int) -> int:
    calls.append(value)
    return value


def test_shared_tasks_bind_to_the_project_app() -> None:
    assert record.app is app
    assert app.main == "backgammon"


@pytest.mark.django_db
def test_a_task_queued_on_commit_runs_after_the_commit(django_capture_on_commit_callbacks) -> None:  # type: ignore[no-untyped-def]
    calls.clear()
    with django_capture_on_commit_callbacks(execute=True):
        with transaction.atomic():
            transaction.on_commit(lambda: record.delay(7))
            assert calls == []
    assert calls == [7]


def test_email_and_clock_tasks_are_routed_to_their_queues() -> None:
    route = app.amqp.router.route
    assert route({}, "matches.tasks.email_move_notice")["queue"].name == "email"
    assert route({}, "matches.tasks.clock_expire_overdue")["queue"].name == "clock"
    assert route({}, "stats.tasks.recount")["queue"].name == "celery"


@pytest.fixture
def mute_redis() -> Iterator[str]:
    """A server that accepts connections and never answers (a Redis that hangs)."""
    server = socket.create_server(("127.0.0.1", 0))
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def serve() -> None:
        server.settimeout(0.1)
        while not stop.is_set():
            try:
                accepted.append(server.accept()[0])
            except TimeoutError:
                continue

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"redis://127.0.0.1:{server.getsockname()[1]}/0"
    finally:
        stop.set()
        thread.join(5)
        assert not thread.is_alive(), "the mute server did not stop"
        for conn in accepted:
            conn.close()
        server.close()


def test_handing_an_email_to_a_redis_that_never_answers_gives_up(mute_redis: str) -> None:
    """The broker's socket timeouts (settings.CELERY_BROKER_TRANSPORT_OPTIONS) bound a
    publish: without them it waits for an answer forever, and so would the request."""

    previous = app.conf.broker_url, app.conf.task_always_eager
    app.conf.broker_url = app.conf.broker_write_url = app.conf.broker_read_url = mute_redis
    app.conf.task_always_eager = False
    app._pool = None
    app.amqp._producer_pool = None
    results: list[bool] = []
    try:
        call = threading.Thread(
            target=lambda: results.append(notification_tasks.enqueue(1)),
            daemon=True,
        )
        call.start()
        call.join(60)
        assert not call.is_alive(), "the hand-off did not give up"
        assert results == [False]
    finally:
        app.conf.broker_url = app.conf.broker_write_url = app.conf.broker_read_url = previous[0]
        app.conf.task_always_eager = previous[1]
        app._pool = None
        app.amqp._producer_pool = None
