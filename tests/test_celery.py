"""Without REDIS_URL (and in every unmarked test) tasks run eagerly, in-process."""

import pytest
from celery import shared_task
from django.db import transaction

from backgammon.celery import app

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
