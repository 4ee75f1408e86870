"""The demo's computer players: ``demo_data`` calls :func:`create_demo_data`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from accounts.models import User

from . import services


def create_demo_data(*, users: Sequence[User], stdout: Any) -> None:
    bots = services.bots_create()
    state = "" if services.bots_available() else " (unavailable here: gnubg is not installed)"
    stdout.write(f"Computer players{state}: " + ", ".join(b.user.username for b in bots))
