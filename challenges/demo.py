"""Demo matches and challenges for local development (``manage.py demo_data``).

A fresh checkout should show a dashboard with something on it: games in every
state, an open challenge, one addressed to alice, and a finished match. The
bots play through the services with seeded dice, so the demo is the same
every time and everything in it passes ``manage.py replay_games``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TextIO

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from gammon import SeededDice
from matches import record, turns
from matches.bots import bot_act, bot_play_match
from matches.models import Game, Match

from . import services
from .models import Challenge

__all__ = ["create_demo_data"]


@dataclass(frozen=True)
class _DemoMatch:
    message: str
    challenger: str
    opponent: str
    seed: int
    actions: int
    #: Whose move the game is left at: every demo player has a game waiting for them.
    waiting_for: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    double_taken: bool = False
    finish: bool = False


MATCHES: Sequence[_DemoMatch] = (
    _DemoMatch(
        "Demo: a 5-point match, mid-game", "alice", "bob", seed=1, actions=24, waiting_for="bob"
    ),
    _DemoMatch(
        "Demo: a 7-point match with the cube on 2",
        "carol",
        "alice",
        seed=2,
        actions=14,
        options={"length": 7},
        double_taken=True,
        waiting_for="alice",
    ),
    _DemoMatch(
        "Demo: a money session",
        "bob",
        "carol",
        seed=3,
        actions=18,
        options={"length": 0, "cube_limit": None, "jacoby": True},
        waiting_for="carol",
    ),
    _DemoMatch(
        "Demo: a Nackgammon match",
        "alice",
        "carol",
        seed=4,
        actions=11,
        options={"variant": "nackgammon", "length": 3},
        waiting_for="alice",
    ),
    _DemoMatch(
        "Demo: a finished 3-point match",
        "bob",
        "alice",
        seed=5,
        actions=0,
        options={"length": 3},
        finish=True,
    ),
)

#: (message, challenger, opponent or None for anyone, options)
CHALLENGES: Sequence[tuple[str, str, str | None, dict[str, Any]]] = (
    ("Demo: anyone for a 5-pointer?", "carol", None, {"length": 5}),
    ("Demo: a rematch, alice?", "bob", "alice", {"length": 7, "days_per_move": 5}),
)


@contextmanager
def _seeded_dice(seed: int) -> Iterator[None]:
    """Let the services throw reproducible dice for a while (single-threaded commands only)."""
    previous = record.dice
    record.dice = SeededDice(seed)
    try:
        yield
    finally:
        record.dice = previous


def _play(match: Match, spec: _DemoMatch, now: datetime) -> None:
    rng = random.Random(spec.seed)
    if spec.finish:
        bot_play_match(match, rng, now, double_rate=0.2)
        return
    for _ in range(spec.actions):
        game = match.current_game
        assert game is not None
        bot_act(game, rng, now)
    if spec.double_taken:
        _double_and_take(match, rng, now)
    # The colours were drawn at random: play on until the game waits for its player.
    for _ in range(8):
        game = match.current_game
        assert game is not None
        if not spec.waiting_for or match.player(game.turn_color).username == spec.waiting_for:
            return
        bot_act(game, rng, now)


def _double_and_take(match: Match, rng: random.Random, now: datetime) -> None:
    for _ in range(200):  # act until someone may double, then double and take
        game = match.current_game
        assert game is not None
        if game.state == Game.State.ROLLING and record.match_state(match, game).can_double(
            game.turn_color
        ):
            doubler = match.player(game.turn_color)
            game = turns.game_double(
                game_id=game.pk, player=doubler, expected_ply=game.ply, now=now
            )
            taker = match.player(game.turn_color)
            turns.game_take(game_id=game.pk, player=taker, expected_ply=game.ply, now=now)
            return
        bot_act(game, rng, now)


def _describe(match: Match) -> str:
    length = "money session" if match.is_money else f"{match.length}-point match"
    game = match.current_game
    where = f"finished {match.score_white}-{match.score_black}"
    if match.status == Match.Status.PLAYING and game is not None:
        where = f"game {game.number}, ply {game.ply}, cube {game.cube_value}"
    return f"{length} ({match.variant}), {match.white} (White) v {match.black}: {where}"


def create_demo_data(*, users: Sequence[User], stdout: TextIO) -> None:
    """Create the demo matches and challenges that do not exist yet. Idempotent.

    Each is recognised by its message, so running the command twice (or after
    playing on in a demo game) creates nothing new.
    """
    by_name = {user.username: user for user in users}
    now = timezone.now()
    for spec in MATCHES:
        challenger, opponent = by_name[spec.challenger], by_name[spec.opponent]
        existing = Challenge.objects.filter(challenger=challenger, message=spec.message).first()
        if existing is not None and existing.match is not None:
            stdout.write(f"Demo match #{existing.match.pk} already exists: {spec.message}\n")
            continue
        with transaction.atomic(), _seeded_dice(spec.seed):
            challenge = services.challenge_create(
                challenger=challenger,
                opponent=opponent,
                now=now,
                message=spec.message,
                **spec.options,
            )
            match = services.challenge_accept(challenge_id=challenge.pk, user=opponent, now=now)
            _play(match, spec, now)
        match.refresh_from_db()
        stdout.write(f"Created demo match #{match.pk}: {_describe(match)}\n")
    for message, challenger_name, opponent_name, options in CHALLENGES:
        challenger = by_name[challenger_name]
        invited = by_name[opponent_name] if opponent_name else None
        exists = Challenge.objects.filter(
            challenger=challenger,
            message=message,
            status=Challenge.Status.OPEN,
            expires_at__gt=now,
        ).exists()
        if exists:
            stdout.write(f"Demo challenge already open: {message}\n")
            continue
        challenge = services.challenge_create(
            challenger=challenger, opponent=invited, now=now, message=message, **options
        )
        to = invited.username if invited else "anyone"
        stdout.write(f"Created demo challenge #{challenge.pk} by {challenger} to {to}\n")
