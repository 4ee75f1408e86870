"""Pushing small events to the live connections, after the commit.

:func:`after_commit` is what the receivers call, inside the transaction that made the
change: the event leaves only once the change is committed, on the same hook as the
e-mail tasks (``transaction.on_commit``), so no page hears of a move that was rolled
back. A push that cannot leave (Redis down, a full channel) is logged and dropped: it
costs freshness only, since every page falls back to its poll, and the next event or poll
brings it up to date. A push never fails the request that caused it.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.db import transaction

log = logging.getLogger(__name__)

#: The consumer's handler of a pushed event (``LiveConsumer.live_event``).
MESSAGE_TYPE = "live.event"


#: After a push that could not leave, none is tried for this long (per process): while
#: Redis is down a move must not wait for one connection attempt per push.
RETRY_AFTER_SECONDS = 5.0
_unavailable_until = 0.0


_aside = ThreadPoolExecutor(max_workers=1, thread_name_prefix="live-push")


def _loop_running_here() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


#: The loop a process's pushes to an out-of-process layer (Redis) run on, with its pid.
_pushing: tuple[int, asyncio.AbstractEventLoop] | None = None
_pushing_lock = threading.Lock()


def _pushing_loop() -> asyncio.AbstractEventLoop:
    """One event loop per process, on a thread of its own, for every push to Redis.

    ``async_to_sync`` called from plain sync code (a WSGI worker, a Celery task, a
    command) makes a new loop per call, and channels-redis a new connection per loop:
    three pushes a move cost three connections (about 5 ms of CPU each, measured by
    bench/api_moves.py). On one loop the layer keeps its connection. Made again after a
    fork (a prefork worker does not inherit the thread)."""
    global _pushing
    with _pushing_lock:
        if _pushing is None or _pushing[0] != os.getpid():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="live-push-loop", daemon=True).start()
            _pushing = (os.getpid(), loop)
        return _pushing[1]


def send(group: str, event: dict[str, Any]) -> bool:
    """Send ``event`` to ``group`` now; False (and a warning) if it could not leave."""
    global _unavailable_until
    layer = get_channel_layer()
    if layer is None or time.monotonic() < _unavailable_until:
        return False
    message = {"type": MESSAGE_TYPE, "event": event}
    try:
        if not isinstance(layer, InMemoryChannelLayer):
            # Redis is outside the process: any loop may publish, so the one kept for it.
            sending = asyncio.run_coroutine_threadsafe(
                layer.group_send(group, message), _pushing_loop()
            )
            sending.result(timeout=5)
        elif _loop_running_here():
            # Sync code called from async code on this thread: the layer's coroutine runs
            # on a thread of its own (async_to_sync refuses to block a running loop).
            _aside.submit(async_to_sync(layer.group_send), group, message).result(timeout=5)
        else:
            async_to_sync(layer.group_send)(group, message)
    except Exception as error:  # noqa: BLE001 - any layer failure costs freshness only
        _unavailable_until = time.monotonic() + RETRY_AFTER_SECONDS
        log.warning(
            "live pushes not sent for %.0f s (to %s: %s): the pages poll meanwhile",
            RETRY_AFTER_SECONDS,
            group,
            error,
        )
        return False
    return True


def after_commit(group: str, event: dict[str, Any]) -> None:
    """Send ``event`` to ``group`` once the current transaction commits (at once outside
    one; never if it rolls back)."""
    transaction.on_commit(lambda: send(group, event))
