"""The site served over ASGI (uvicorn) in a thread of the test process, for browser tests
that need the live sockets: pytest-django's ``live_server`` is WSGI and refuses them.

A test module overrides ``live_server`` with :func:`serving`; the pages then
open their socket as in production. It runs in this process, against the test database,
so the tests may still script the dice (``matches.record.dice``) and read the rows.
The test's own thread may act through the services too: its pushes (``live.push.send``)
are sent from the server's event loop, as the server's own are (the in-memory channel
layer serves the one loop it was first used on; only Redis's bridges two).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest.mock import patch

import pytest
from asgiref.sync import SyncToAsync
from channels.layers import get_channel_layer
from django.db import connections
from django.test.utils import modify_settings

from live import push
from tests.worker import free_port, wait_for

HOST = "127.0.0.1"  # in ALLOWED_HOSTS when the ASGI application (its origin check) is built


class AsgiLiveServer:
    """``url``, as pytest-django's live server has, and what its helper fixture enables."""

    def __init__(self) -> None:
        import uvicorn
        from channels.routing import ProtocolTypeRouter
        from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

        from backgammon.asgi import application, http

        # The static files as the WSGI live server serves them (collectstatic never ran).
        app = ProtocolTypeRouter(
            {
                "http": ASGIStaticFilesHandler(http),
                "websocket": application.application_mapping["websocket"],
            }
        )
        self.port = free_port()
        self.url = f"http://{HOST}:{self.port}"
        config = uvicorn.Config(
            app, host=HOST, port=self.port, lifespan="off", log_level="warning", ws="auto"
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self._run, name="asgi-live-server", daemon=True)
        self._live_server_modified_settings = modify_settings(ALLOWED_HOSTS={"append": HOST})
        self.loop: asyncio.AbstractEventLoop | None = None
        self.send = push.send

    def _run(self) -> None:
        asyncio.run(self._serve())

    async def _serve(self) -> None:
        self.loop = asyncio.get_running_loop()
        await self.server.serve()

    def send_from_server(self, group: str, event: dict[str, Any]) -> bool:
        """``live.push.send`` for the test's thread: the push leaves from the server's loop."""
        if threading.current_thread() is not threading.main_thread():
            return self.send(group, event)  # the server's own threads
        message = {"type": push.MESSAGE_TYPE, "event": event}
        layer = get_channel_layer()
        assert self.loop is not None, "the server runs"
        asyncio.run_coroutine_threadsafe(layer.group_send(group, message), self.loop).result(5)
        return True

    def start(self) -> None:
        self.thread.start()
        wait_for(lambda: self.server.started or not self.thread.is_alive(), 30, "uvicorn")
        assert self.server.started, "the ASGI live server did not start"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(30)
        # The views ran on asgiref's one thread for sync code: let its connection go, so
        # that the test database can be flushed and dropped.
        SyncToAsync.single_thread_executor.submit(connections.close_all).result(10)


@contextmanager
def serving() -> Iterator[AsgiLiveServer]:
    """The ASGI live server, for a test that has ``transactional_db``."""
    # Each request closes its connection (the views run on a thread the test never joins).
    settings: dict[str, Any] = connections.settings["default"]
    kept = settings.get("CONN_MAX_AGE")
    settings["CONN_MAX_AGE"] = 0
    server = AsgiLiveServer()
    server.start()
    try:
        with patch.object(push, "send", server.send_from_server):
            yield server
    finally:
        server.stop()
        settings["CONN_MAX_AGE"] = kept


@pytest.fixture(name="live_server")
def asgi_live_server(transactional_db: None) -> Iterator[AsgiLiveServer]:
    """pytest-django's ``live_server``, served over ASGI with its sockets: a module
    imports it to have its pages so served."""
    with serving() as server:
        yield server
