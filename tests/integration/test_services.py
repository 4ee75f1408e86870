"""Smoke tests for the real services CI provides: PostgreSQL, Redis and a Celery worker."""

import os
import uuid

import pytest
from celery import shared_task
from celery.contrib.testing.worker import start_worker
from django.core.cache import cache, caches
from django.db import connection

from backgammon.celery import app


@pytest.mark.postgres
@pytest.mark.django_db
def test_the_database_is_postgresql() -> None:
    with connection.cursor() as cursor:
        cursor.execute("select version()")
        assert "PostgreSQL" in cursor.fetchone()[0]


@pytest.mark.redis
def test_the_cache_is_redis() -> None:
    key = f"test-{uuid.uuid4()}"
    cache.set(key, {"ply": 3}, timeout=30)
    assert cache.get(key) == {"ply": 3}
    assert type(caches["default"]).__name__ == "ResilientRedisCache"
    cache.delete(key)


@shared_task
def multiply(x: int, y: int) -> int:
    return x * y


@pytest.mark.celery_worker
def test_a_real_worker_runs_a_task_from_the_broker() -> None:
    queue = f"test-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    with start_worker(app, perform_ping_check=False, queues=[queue], shutdown_timeout=10):
        result = multiply.apply_async((6, 7), queue=queue)
        assert result.get(timeout=20) == 42
