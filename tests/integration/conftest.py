"""Fixtures of the integration tests (their servers: tests/integration/servers.py)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest


@pytest.fixture
def database_url(tmp_path: Path) -> Iterator[str]:
    """A new, empty database for the server: on the PostgreSQL of DATABASE_URL, else SQLite."""
    configured = os.environ.get("DATABASE_URL", "")
    if not configured.startswith(("postgres://", "postgresql://")):
        yield f"sqlite:///{tmp_path / 'site.sqlite3'}"
        return
    import psycopg

    parts = urlsplit(configured)
    name = f"bg_redis_down_{uuid.uuid4().hex[:12]}"
    admin_url = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
