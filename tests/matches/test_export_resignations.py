"""Offers to resign in the ``.mat`` file, checked against GNU Backgammon.

What gnubg itself writes (``export match mat``) for a game where a resignation is
offered and declined, then a bigger one offered and accepted: nothing at all for the
declined offer (the play that follows is written as usual), and for the accepted one a
``Wins N points`` line in the winner's column, N the points offered, as for any
resignation. Its import reads such a line back as an accepted resignation of N over the
cube. So the record keeps the offers and answers, and the file says what the format can.
"""

from __future__ import annotations

import os
import re
import subprocess
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from accounts.models import User
from challenges import services as challenge_services
from gammon import Color, FixedDice, position_id
from gammon.mat import MatPlay, MatResign, MatRoll
from matches import record, resignations, turns
from matches.export import export_mat, replay_match
from matches.models import Game, Match
from tests.matches.gnubg_mat import gnubg_import

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def headless(text: str) -> str:
    """The file without its header tags (site, date): the games as written, the players
    called alice and bob (gnubg's match keeps the names it started with)."""
    lines = []
    for line in text.splitlines(True):
        if line.startswith("; ["):
            continue
        score = re.fullmatch(r" \S+ : (\d+) +\S+ : (\d+)\n", line)
        if score:
            line = f" {'alice : ' + score[1]:<31}bob : {score[2]}\n"
        lines.append(line)
    return "".join(lines)


def gnubg_own_file(gnubg: str, commands: list[str], tmp_path: Path) -> str:
    """What gnubg writes for a match it is given, move by move, with manual dice."""
    out = tmp_path / "gnubg.mat"
    script = [
        "set player 0 name alice",
        "set player 1 name bob",
        "set player 0 human",
        "set player 1 human",
        "set rng manual",
        *commands,
        f"export match mat {out}",
    ]
    env = {**os.environ, "HOME": str(tmp_path), "LANG": "C", "LC_ALL": "C"}
    run = subprocess.run(
        [gnubg, "-t", "-q"],
        input="\n".join(script) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )
    assert out.exists(), run.stdout[-2000:] + run.stderr[-2000:]
    assert "declines the single game" in run.stdout and "accepts and wins a gammon" in run.stdout
    return out.read_text()


def start(
    player: User, opponent: User, monkeypatch: pytest.MonkeyPatch, dice: list[int], **options: Any
) -> Game:
    """alice (White) against bob, with scripted dice."""
    monkeypatch.setattr(challenge_services, "secrets", SimpleNamespace(randbelow=lambda n: 0))
    monkeypatch.setattr(record, "dice", FixedDice(dice))
    challenge = challenge_services.challenge_create(
        challenger=player, opponent=opponent, now=NOW, **options
    )
    match = challenge_services.challenge_accept(challenge_id=challenge.pk, user=opponent, now=NOW)
    game = match.current_game
    assert game is not None
    return game


def offer(game: Game, level: int) -> None:
    game.refresh_from_db()
    resignations.game_offer_resignation(
        game_id=game.pk,
        player=game.match.player(game.turn_color),
        level=level,
        expected_ply=game.ply,
        now=NOW,
    )


def answer(game: Game, accept: bool) -> None:
    game.refresh_from_db()
    resignations.game_answer_resignation(
        game_id=game.pk,
        player=game.match.player(game.turn_color),
        accept=accept,
        expected_ply=game.ply,
        now=NOW,
    )


@pytest.mark.gnubg
def test_our_file_is_the_one_gnubg_writes_for_a_declined_then_an_accepted_offer(
    player: User, opponent: User, monkeypatch: pytest.MonkeyPatch, gnubg: str, tmp_path: Path
) -> None:
    # White opens 3-1; Black rolls 6-4, offers a single game, declined, and plays; White,
    # before rolling, offers a gammon, accepted; the next game opens 5-2.
    theirs = gnubg_own_file(
        gnubg,
        ["new match 3", "3 1", "move 8/5 6/5", "roll", "6 4", "resign 1", "reject"]
        + ["move 24/18 13/9", "resign 2", "accept", "5 2"],
        tmp_path,
    )
    game = start(player, opponent, monkeypatch, [3, 1, 6, 4, 5, 2], length=3)
    common: dict[str, Any] = {"game_id": game.pk, "expected_ply": None, "now": NOW}
    turns.game_play_move(player=player, play_text="8/5 6/5", **common)
    turns.game_roll(player=opponent, **common)
    offer(game, 1)
    answer(game, accept=False)
    turns.game_play_move(player=opponent, play_text="24/18 13/9", **common)
    offer(game, 2)
    answer(game, accept=True)
    ours = export_mat(game.match, xg_header=False)

    assert headless(ours) == headless(theirs)
    assert " Game 1\n" in ours and "Wins 2 points\n" in ours

    (tmp_path / "import").mkdir()
    result = gnubg_import(gnubg, ours, tmp_path / "import")
    assert result.messages == []
    assert result.score() == (0, 2)
    assert [r["action"] for r in result.games[0]["records"]][-1] == "resign"


@pytest.mark.gnubg
@pytest.mark.parametrize("mover", [Color.WHITE, Color.BLACK])
def test_gnubg_imports_offers_made_after_a_roll(
    mover: Color,
    player: User,
    opponent: User,
    monkeypatch: pytest.MonkeyPatch,
    gnubg: str,
    tmp_path: Path,
) -> None:
    """The offerer has rolled: their roll is written alone, then the ``Wins`` line."""
    (tmp_path / "import").mkdir()
    game = start(player, opponent, monkeypatch, [3, 1, 6, 4, 5, 2, 2, 6], length=5)
    common: dict[str, Any] = {"game_id": game.pk, "expected_ply": None, "now": NOW}
    if mover == Color.BLACK:
        turns.game_play_move(player=player, play_text="8/5 6/5", **common)
        turns.game_roll(player=opponent, **common)
    offer(game, 1)
    answer(game, accept=False)
    offer(game, 3)
    answer(game, accept=True)
    match = Match.objects.get(pk=game.match_id)
    records = replay_match(match)[0].game.records
    assert [type(r) for r in records[-2:]] == [MatRoll, MatResign]
    assert records[-1] == MatResign(mover, 3)
    assert all(isinstance(r, MatPlay) for r in records[:-2])
    text = export_mat(match, xg_header=False)

    result = gnubg_import(gnubg, text, tmp_path / "import")

    assert result.messages == []
    assert result.score() == match.score == ((0, 3) if mover == Color.WHITE else (3, 0))
    assert result.positions_after_plays()[0] == [
        position_id(p) for p in replay_match(match)[0].positions
    ]
    assert result.reexport.split(" Game 1\n")[1] == text.split(" Game 1\n")[1]
