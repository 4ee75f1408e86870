"""A whole session with seeded dice and seeded choices: four players over several
games, each decision picked among those the line-up offers (so every action offered must
be accepted), moves from the legal plays, games ended by bearing off, a resignation or
the cube. After each test the package's conftest replays every chouette and checks its
points sum to zero; here every game's places must hold each player exactly once."""

from __future__ import annotations

import random

import pytest

from chouettes import seating, selectors
from chouettes.models import Chouette
from gammon import legal_plays
from matches import endings
from tests.matches.api_helpers import SeededDice

from .helpers import Table, seat_table

pytestmark = pytest.mark.django_db


def play_one_decision(table: Table, rng: random.Random) -> selectors.Action:
    """Someone awaited (or allowed) does one thing the line-up offers them."""
    panel = selectors.panel(table.chouette, None)
    board = panel.board
    assert board is not None and panel.side is not None
    choices = [
        (line.seat.player, action)
        for line in panel.lines
        for action in panel.actions_for(line.seat.player_id)
    ]
    assert choices, "nobody may act in a live game"
    user, action = rng.choice(choices)
    name = table.names[user.pk]
    if action is selectors.Action.MOVE:
        if rng.random() < 0.02 * board.ply / 10:
            endings.game_resign(
                game_id=board.pk, player=user, expected_ply=board.ply, now=table.tick()
            )
        elif board.state == "rolling":
            table.roll_board(name)
        else:
            plays = legal_plays(board.position(), board.dice or (0, 0))
            table.move(name, str(rng.choice(plays)))
    elif action is selectors.Action.PROPOSE:
        table.act("team_propose_double", name)
    elif action is selectors.Action.VOTE:
        table.act("team_vote", name, agree=rng.random() < 0.7)
    elif action is selectors.Action.BOX_ANSWER:
        table.act("box_answer", name, take=rng.random() < 0.6)
    elif action is selectors.Action.BOX_DOUBLE:
        table.act("box_double", name)
    elif action is selectors.Action.ANSWER:
        table.act("team_answer", name, take=rng.random() < 0.6)
    elif action is selectors.Action.SUGGEST:
        plays = legal_plays(board.position(), board.dice or (0, 0))
        table.act("play_suggest", name, play_text=str(rng.choice(plays)))
    return action


def test_a_session_of_several_games(monkeypatch: pytest.MonkeyPatch) -> None:
    players, seed = 4, 2
    rng = random.Random(seed)
    table = seat_table(monkeypatch, players, places_from_dice=True, cube_limit=8)
    monkeypatch.setattr("matches.record.dice", SeededDice(seed))
    seating.chouette_start(chouette_id=table.chouette.pk, user=table.users["ann"], now=table.tick())
    seen: set[selectors.Action] = set()
    for _ in range(4000):
        if table.chouette.games.count() > 3:
            break
        seen.add(play_one_decision(table, rng))
    table.chouette.refresh_from_db()
    assert table.chouette.status == Chouette.Status.PLAYING
    games = list(table.chouette.games.order_by("number"))
    assert len(games) == 4
    for game in games:
        assert sorted(game.rules_places().players) == sorted(u.pk for u in table.users.values())
    assert sum(table.points().values()) == 0
    assert seen == set(selectors.Action)  # every kind of decision was offered and taken
