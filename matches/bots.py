"""A random player, used by the demo data, the tests and the benchmarks.

It plays only through the services, exactly as a person on the website would.
"""

from __future__ import annotations

import random
from datetime import datetime
from typing import TypedDict

from accounts.models import User
from gammon import legal_plays

from . import record, resignations, selectors, turns
from .models import Game, Match


class TurnArgs(TypedDict):
    """The arguments every turn service takes."""

    game_id: int
    player: User
    expected_ply: int
    now: datetime


def bot_act(
    game: Game,
    rng: random.Random,
    now: datetime,
    *,
    double_rate: float = 0.0,
    resign_rate: float = 0.0,
) -> Game:
    """Make one action for whoever must act in ``game``; returns the game after it.

    ``resign_rate``: the chance, before a roll or a move, of offering a resignation (a
    random one of those open); an offer is accepted once in four, and declined otherwise.
    """
    match: Match = game.match
    user: User = match.white if game.turn == 0 else match.black
    common = TurnArgs(game_id=game.pk, player=user, expected_ply=game.ply, now=now)
    if game.state == Game.State.DOUBLED:
        if rng.random() < 0.5:
            return turns.game_take(**common)
        return turns.game_drop(**common)
    if game.state == Game.State.RESIGNING:
        accept = rng.random() < 0.25
        return resignations.game_answer_resignation(accept=accept, **common)
    if resign_rate and rng.random() < resign_rate:
        offers = selectors.game_resignation_offers(game, game.turn_color)
        if offers:
            level = rng.choice(offers).level
            return resignations.game_offer_resignation(level=level, **common)
    if game.state == Game.State.ROLLING:
        state = record.match_state(match, game)
        if rng.random() < double_rate and state.can_double(game.turn_color):
            return turns.game_double(**common)
        return turns.game_roll(**common)
    plays = legal_plays(game.position(), game.dice or (0, 0))
    text = str(rng.choice(plays)) if plays else "pass"
    return turns.game_play_move(play_text=text, **common)


def bot_play_match(
    match: Match, rng: random.Random, now: datetime, *, max_actions: int = 20000, **options: float
) -> Match:
    """Play ``match`` to its end (or ``max_actions``), with random legal actions."""
    for _ in range(max_actions):
        match.refresh_from_db()
        if match.status != Match.Status.PLAYING:
            break
        game = match.current_game
        assert game is not None
        bot_act(game, rng, now, **options)
    return match
