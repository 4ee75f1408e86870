"""Thin receivers: a challenge to a bot is answered by the bot (:mod:`.services`)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from challenges.models import Challenge
from challenges.signals import challenge_created

from . import services


def _on_challenge_created(
    sender: type, *, challenge: Challenge, now: datetime, **kwargs: Any
) -> None:
    services.bot_answer_challenge(challenge=challenge, now=now)


def connect() -> None:
    challenge_created.connect(_on_challenge_created, dispatch_uid="bots.answer_challenge")
