"""The live tests' sockets hear only their own process's pushes."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from channels.layers import channel_layers
from pytest_django.fixtures import Settings


@pytest.fixture(autouse=True)
def _own_redis_channels(settings: Settings) -> Iterator[None]:
    """With ``REDIS_URL`` set, the channel layer is Redis's publish/subscribe, whose
    channels ignore the database number: every test process on the machine (another
    xdist worker, another checkout's run) shares ``game.8`` with this one, and game ids
    repeat between test databases. A prefix of this process's own keeps their pushes out
    of this one's sockets (a stray ``{"kind": "game", "id": 8, ...}`` failed tests that
    check a socket hears nothing)."""
    layer = settings.CHANNEL_LAYERS["default"]
    config = layer.get("CONFIG", {})
    if "prefix" not in config:
        yield  # the in-memory layer: this process's alone
        return
    settings.CHANNEL_LAYERS = {
        "default": {**layer, "CONFIG": {**config, "prefix": f"{config['prefix']}-{os.getpid()}"}}
    }
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()
