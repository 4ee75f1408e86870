"""Running a coroutine from a test, whatever the test's thread already runs."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def run_apart(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run ``coroutine`` in an event loop of its own, on a thread of its own: a browser
    test leaves Playwright's loop running on the main thread of its worker, and
    ``asyncio.run`` refuses to start under a running loop."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()
