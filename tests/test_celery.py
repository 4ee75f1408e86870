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


def test_with_redis_the_broker_is_the_transport_whose_acks_cannot_stop_a_worker() -> None:
    from tests.test_settings import settings_of

    seen = settings_of({"REDIS_URL": "redis://127.0.0.1:6379/0"}, "CELERY_BROKER_TRANSPORT")
    assert seen == {"CELERY_BROKER_TRANSPORT": "backgammon.broker:Transport"}


@pytest.mark.redis
@pytest.mark.parametrize("refused", ["ack", "reject"])
def test_an_ack_redis_did_not_answer_frees_the_workers_slot_and_keeps_the_message(
    refused: str,
) -> None:
    """The cluster's Redis cut: the analysis worker (one task at a time) failed to
    acknowledge a finished task and never took another, while its queue grew. With
    ``backgammon.broker`` the slot is freed and the message stays in Redis's unacked
    hash, to be delivered again after the visibility timeout."""
    import os
    import uuid

    import redis
    from kombu import Connection

    name = f"test-ack-{uuid.uuid4().hex}"
    with Connection(os.environ["REDIS_URL"], transport="backgammon.broker:Transport") as conn:
        queue = conn.SimpleQueue(name)
        channel = queue.channel
        channel.basic_qos(0, 1, False)  # one task at a time, as `-c 1` with prefetch 1
        try:
            queue.put({"task": 1})
            message = queue.get(timeout=5)
            qos = channel.qos
            assert not qos.can_consume(), "one message in flight fills a prefetch of one"

            class Unanswered:
                def execute(self) -> None:
                    raise redis.exceptions.TimeoutError("Timeout reading from redis")

            qos._remove_from_indices = lambda *args, **kwargs: Unanswered()
            errors = conn.connection_errors + conn.channel_errors
            logger = __import__("logging").getLogger("test.broker")
            if refused == "ack":
                message.ack_log_error(logger, errors)
            else:
                message.reject_log_error(logger, errors)

            assert qos.can_consume(), "the worker would never take another task"
            kept = channel.client.hget(qos.unacked_key, message.delivery_tag)
            assert kept is not None, "the message must stay in Redis, to be delivered again"
        finally:
            client = channel.client
            client.hdel(qos.unacked_key, message.delivery_tag)
            client.zrem(qos.unacked_index_key, message.delivery_tag)
            queue.clear()
            queue.close()


@pytest.mark.parametrize(("stall", "every"), [("30", 30.0), ("900", 300.0)])
def test_the_analyses_sweep_runs_as_often_as_a_stall_can_be_told(stall: str, every: float) -> None:
    """The cluster's season (a stall of 30 s) waited up to five minutes for an analysis
    whose task was lost with Redis's link."""
    from tests.test_settings import settings_of

    beat = settings_of({"ANALYSIS_STALL_SECONDS": stall}, "CELERY_BEAT_SCHEDULE")
    assert beat["CELERY_BEAT_SCHEDULE"]["sweep-analyses"]["schedule"] == every  # type: ignore[index]
