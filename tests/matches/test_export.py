"""Matches exported as .mat files, checked against GNU Backgammon itself.

Each match is played through the matches services with scripted dice (a
seeded ``FixedDice``), a seeded random player for the long stretches, and
scripted doubles, drops and resignations. gnubg then imports the file and:

- prints nothing but its banner and a board (any warning fails the test);
- reaches, after every play, the Position ID our engine reaches;
- ends on our score;
- exports the match again, byte for byte our file apart from the date line.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from challenges import services as challenge_services
from gammon import Color, FixedDice, Variant, position_id
from gammon.mat import MatDouble, MatDrop, MatPlay, MatResign, MatRoll, MatTake, MatWin
from matches import endings, resignations, selectors, turns
from matches import record as game_flow
from matches.bots import bot_act
from matches.export import ReplayedGame, export_mat, match_record, replay_match
from matches.models import Game, Match
from tests.bot_games import BotGames, Starter, recipe
from tests.matches.gnubg_mat import gnubg_import, without_date

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)

# --------------------------------------------------------------------------- gnubg


def steps_sorted(text: str) -> str:
    """Each play's steps in one order, so that files differing only in that compare equal."""

    def column(match: re.Match[str]) -> str:
        return match.group(1) + " ".join(sorted(match.group(2).split()))

    return re.sub(r"(\d\d: )((?:\d+/\d+\*? ?){1,4})", column, text)


def ours(replayed: list[ReplayedGame]) -> list[list[str]]:
    return [[position_id(p) for p in game.positions] for game in replayed]


# --------------------------------------------------------------------------- matches


@pytest.fixture
def new_match(
    player: User, opponent: User, monkeypatch: pytest.MonkeyPatch
) -> Callable[..., Match]:
    """Start a match, alice (White) against bob (Black), with dice from ``seed``."""

    monkeypatch.setattr(challenge_services, "secrets", SimpleNamespace(randbelow=lambda n: 0))

    def start(seed: int, **options: Any) -> Match:
        rng = random.Random(seed)
        dice = FixedDice([rng.randint(1, 6) for _ in range(40000)])
        monkeypatch.setattr(game_flow, "dice", dice)
        challenge = challenge_services.challenge_create(
            challenger=player, opponent=opponent, now=NOW, **options
        )
        return challenge_services.challenge_accept(
            challenge_id=challenge.pk, user=opponent, now=NOW
        )

    return start


def act(game: Game, action: str) -> Game:
    """``double``, ``take``, ``drop``, ``roll`` or ``resign`` for whoever must act."""
    match = game.match
    user = match.white if game.turn == 0 else match.black
    common: dict[str, Any] = {
        "game_id": game.pk,
        "player": user,
        "expected_ply": game.ply,
        "now": NOW,
    }
    functions = {
        "double": turns.game_double,
        "take": turns.game_take,
        "drop": turns.game_drop,
        "roll": turns.game_roll,
        "resign": endings.game_resign,
    }
    return functions[action](**common)


def play_out(
    match: Match,
    seed: int,
    *,
    double_rate: float = 0.04,
    resign_rate: float = 0.0,
    games: int = 50,
) -> Match:
    """Random legal play to the end, or the session ended after ``games`` games.

    Resignations come only before a roll (see ``test_gnubg_reads_a_resignation_after_``
    and ``test_export_resignations``); where a game is resigned by an offer, the random
    player accepts it or declines it.
    """
    rng = random.Random(seed)
    for _ in range(20000):
        match.refresh_from_db()
        if match.status != Match.Status.PLAYING:
            return match
        game = match.current_game
        assert game is not None
        if game.state == Game.State.ROLLING and game.number > games:
            user = match.white if game.turn == 0 else match.black
            endings.game_resign(
                game_id=game.pk, player=user, expected_ply=game.ply, now=NOW, whole_match=True
            )
            continue
        if game.state == Game.State.ROLLING and rng.random() < resign_rate:
            if match.resignation == "offer":  # a random offer; bot_act answers it next
                offers = selectors.game_resignation_offers(game, game.turn_color)
                resignations.game_offer_resignation(
                    game_id=game.pk,
                    player=match.player(game.turn_color),
                    level=rng.choice(offers).level,
                    expected_ply=game.ply,
                    now=NOW,
                )
            else:
                act(game, "resign")
            continue
        bot_act(game, rng, NOW, double_rate=double_rate)
    raise AssertionError("the match did not finish")


def play_until(match: Match, seed: int, done: Callable[[Game], bool]) -> Game:
    """Random legal play (no cube) until ``done(game)`` holds for the current game."""
    rng = random.Random(seed)
    for _ in range(20000):
        match.refresh_from_db()
        game = match.current_game
        assert game is not None
        if done(game):
            return game
        bot_act(game, rng, NOW)
    raise AssertionError("never reached")


def scripted_cube_match(new_match: Callable[..., Match]) -> Match:
    """A 5-point match: a double taken, a redouble dropped, a resignation, then play."""
    match = new_match(21, length=5)
    game = play_until(match, 1, lambda g: g.state == Game.State.ROLLING and g.ply > 6)
    game = act(game, "double")
    game = act(game, "take")
    game = play_until(match, 2, lambda g: g.state == Game.State.ROLLING and g.cube_owner == g.turn)
    game = act(game, "double")
    act(game, "drop")  # the cube of 2 to the doubler
    game = play_until(match, 3, lambda g: g.state == Game.State.ROLLING and g.ply > 10)
    offer, *bigger = selectors.game_resignation_offers(game, game.turn_color)
    common: dict[str, Any] = {"game_id": game.pk, "expected_ply": None, "now": NOW}
    offerer, answerer = game.match.player(game.turn_color), game.match.player(game.turn_color.other)
    resignations.game_offer_resignation(player=offerer, level=offer.level, **common)
    resignations.game_answer_resignation(player=answerer, accept=False, **common)
    resignations.game_offer_resignation(player=offerer, level=bigger[0].level, **common)
    resignations.game_answer_resignation(player=answerer, accept=True, **common)
    return play_out(match, 4)


#: Each match, and what its record must contain; together they cover every kind.
MATCHES: dict[str, tuple[Callable[[Callable[..., Match]], Match], set[str]]] = {
    "cube and resignation": (
        scripted_cube_match,
        {"double-take", "double-drop", "resignation", "crawford", "hit", "enter", "pass"},
    ),
    "7 points, random cube": (
        lambda new: play_out(new(5, length=7), 5, double_rate=0.06),
        {"double-take", "double-drop", "crawford", "post-crawford", "bear-off", "bear-off win"},
    ),
    "5 points, resignations": (
        lambda new: play_out(new(17, length=5), 17, double_rate=0.05, resign_rate=0.02),
        {"double-take", "crawford", "post-crawford", "resignation", "bear-off win"},
    ),
    "money session": (  # resigned at once, as the match option "immediate" keeps it
        lambda new: play_out(
            new(7, length=0, cube_limit=None, resignation="immediate"),
            7,
            double_rate=0.03,
            resign_rate=0.02,
            games=6,
        ),
        {"double-take", "double-drop", "resignation", "bear-off win"},
    ),
    "nackgammon": (
        lambda new: play_out(new(8, length=3, variant="nackgammon"), 8),
        {"hit", "bear-off", "bear-off win"},
    ),
    "hypergammon": (
        lambda new: play_out(new(9, length=3, variant="hypergammon"), 9),
        {"hit", "bear-off", "bear-off win"},
    ),
}


def recorded(name: str, build: Callable[[Callable[..., Match]], Match]) -> str:
    """Register ``build`` as a set of tests/bot_games.py: played once per session, alice
    (White) against bob, each match's dice from its seed, every action at ``NOW``."""

    def one_match(start: Starter) -> list[Match]:
        return [build(partial(start, now=NOW))]

    recipe(f"export: {name}")(one_match)
    return f"export: {name}"


SETS = {name: recorded(name, build) for name, (build, _) in MATCHES.items()}
XG_HEADER = recorded(
    "nackgammon for the XG header",
    lambda new: play_out(new(11, length=3, variant="nackgammon"), 11, double_rate=0.05),
)
ONE_POINT = recorded("one point", lambda new: play_out(new(5, length=1), 1))


def features(replayed: list[ReplayedGame], match: Match) -> set[str]:
    found: set[str] = set()
    length = match.length
    crawford_seen = False
    for game in replayed:
        records = game.game.records
        score = game.game.score
        if length and length - 1 in score and not crawford_seen:
            crawford_seen = True
            found.add("crawford")
        elif crawford_seen:
            found.add("post-crawford")
        for record, following in zip(records, [*records[1:], None], strict=True):
            if isinstance(record, MatDouble) and isinstance(following, MatTake):
                found.add("double-take")
            if isinstance(record, MatDrop):
                found.add("double-drop")
            if isinstance(record, MatResign):
                found.add("resignation")
            if isinstance(record, MatWin):
                found.add("bear-off win")
            if isinstance(record, MatPlay):
                if not record.steps:
                    found.add("pass")
                if any(step.dest == 0 for step in record.steps):
                    found.add("bear-off")
                if any(step.hit for step in record.steps):
                    found.add("hit")
                if any(step.source == 25 for step in record.steps):
                    found.add("enter")
    return found


def test_the_matches_cover_every_kind_of_record() -> None:
    covered = set().union(*(expected for _, expected in MATCHES.values()))
    assert covered >= {
        "double-take",
        "double-drop",
        "crawford",
        "post-crawford",
        "resignation",
        "pass",
        "bear-off",
        "bear-off win",
        "hit",
        "enter",
    }


@pytest.mark.gnubg
@pytest.mark.parametrize("name", list(MATCHES))
def test_gnubg_imports_the_match_as_played(
    name: str, bot_games: BotGames, player: User, opponent: User, gnubg: str, tmp_path: Path
) -> None:
    _, expected = MATCHES[name]
    (match,) = bot_games.load(SETS[name], alice=player, bob=opponent)
    assert match.status == Match.Status.FINISHED
    text = export_mat(match, xg_header=False)
    replayed = replay_match(match)
    assert features(replayed, match) >= expected

    result = gnubg_import(gnubg, text, tmp_path, jacoby=match.jacoby)

    assert result.messages == []
    assert len(result.games) == match.games.count()
    assert result.positions_after_plays() == ours(replayed)
    assert result.score() == match.score
    assert without_date(result.reexport) == without_date(text)


@pytest.mark.gnubg
def test_gnubg_reads_the_xg_header(
    bot_games: BotGames, player: User, opponent: User, gnubg: str, tmp_path: Path
) -> None:
    (match,) = bot_games.load(XG_HEADER, alice=player, bob=opponent)
    text = export_mat(match, xg_header=True)
    assert '; [Player 1 "alice"]' in text and '; [Crawford "On"]' in text
    assert " and the match" in text

    result = gnubg_import(gnubg, text, tmp_path)

    assert result.messages == []
    assert result.positions_after_plays() == ours(replay_match(match))
    assert result.score() == match.score
    assert steps_sorted(without_date(result.reexport)) == steps_sorted(
        without_date(export_mat(match, xg_header=False))
    )


@pytest.mark.gnubg
@pytest.mark.parametrize("resigner", ["mover", "other"])
@pytest.mark.parametrize("mover", ["white", "black"])
def test_gnubg_reads_a_resignation_after_an_unplayed_roll(
    mover: str, resigner: str, new_match: Callable[..., Match], gnubg: str, tmp_path: Path
) -> None:
    """A roll followed by a resignation: gnubg's own writer misplaces two of these four
    cases, so only the import is checked, not gnubg's re-export."""
    match = new_match(13, length=5, resignation="immediate")
    color = 0 if mover == "white" else 1
    game = play_until(
        match,
        3,
        lambda g: g.state == Game.State.ROLLING and g.turn == color and g.ply > 8,
    )
    game = act(game, "roll")
    assert game.state == Game.State.MOVING
    resigning = color if resigner == "mover" else 1 - color
    user = match.white if resigning == 0 else match.black
    endings.game_resign(game_id=game.pk, player=user, expected_ply=game.ply, now=NOW)
    match.refresh_from_db()
    replayed = replay_match(match)
    assert isinstance(replayed[0].game.records[-2], MatRoll)

    result = gnubg_import(gnubg, export_mat(match, xg_header=False), tmp_path)

    assert result.messages == []
    assert result.positions_after_plays() == ours(replayed)
    assert result.score() == match.score


@pytest.mark.gnubg
def test_gnubg_reads_a_money_time_out_as_the_gammon_it_costs(
    new_match: Callable[..., Match], gnubg: str, tmp_path: Path
) -> None:
    """The format has no time-out: it is written as the resignation it amounts to."""
    match = new_match(23, length=0, cube_limit=None)
    game = play_until(match, 2, lambda g: g.state == Game.State.ROLLING and g.ply > 6)
    endings.game_time_out(game_id=game.pk, now=NOW + timedelta(days=365))
    match = play_out(match, 3, games=2)
    replayed = replay_match(match)
    assert replayed[0].game.records[-1] == MatResign(Color(game.turn), 2)

    text = export_mat(match, xg_header=False)
    result = gnubg_import(gnubg, text, tmp_path)

    assert result.messages == []
    assert result.positions_after_plays() == ours(replayed)
    assert result.score() == match.score
    assert without_date(result.reexport) == without_date(text)


# --------------------------------------------------------------------------- without gnubg


def test_the_record_replays_the_stored_plays(
    bot_games: BotGames, player: User, opponent: User
) -> None:
    (match,) = bot_games.load(SETS["cube and resignation"], alice=player, bob=opponent)
    record = match_record(match)
    assert record.players == ("alice", "bob")
    assert (record.length, record.variant, record.finished) == (5, Variant.STANDARD, True)
    first = record.games[0].records
    assert [type(r) for r in first[-2:]] == [MatDouble, MatDrop]
    assert MatTake in {type(r) for r in first}
    assert record.games[1].score in {(2, 0), (0, 2)}
    assert sum(record.games[-1].score) < sum(match.score)


def _scripted(
    player: User, opponent: User, monkeypatch: pytest.MonkeyPatch, dice: list[int], **options: Any
) -> Match:
    monkeypatch.setattr(challenge_services, "secrets", SimpleNamespace(randbelow=lambda n: 0))
    monkeypatch.setattr(game_flow, "dice", FixedDice(dice))
    challenge = challenge_services.challenge_create(
        challenger=player, opponent=opponent, now=NOW, **options
    )
    return challenge_services.challenge_accept(challenge_id=challenge.pk, user=opponent, now=NOW)


def test_a_draw_offered_during_a_turn_leaves_the_turn_whole(
    player: User, opponent: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 12: roll, offer a draw, play, the offer declined: one roll, written once."""
    match = _scripted(player, opponent, monkeypatch, [5, 2, 6, 3], length=3)
    game = match.current_game
    assert game is not None
    game = turns.game_play_move(
        game_id=game.pk, player=match.white, play_text="13/11 13/8", expected_ply=None, now=NOW
    )
    common: dict[str, Any] = {"game_id": game.pk, "expected_ply": None, "now": NOW}
    turns.game_roll(player=match.black, **common)
    endings.match_offer_draw(player=match.black, **common)
    turns.game_play_move(player=match.black, play_text="24/18 18/15", **common)
    endings.match_answer_draw(player=match.white, accept=False, **common)
    records = replay_match(match)[0].game.records
    assert [type(r) for r in records] == [MatPlay, MatPlay]
    assert "  1) 52: 13/11 13/8              63: 24/18 18/15 \n" in export_mat(match)


def test_blacks_unplayed_opening_roll_is_in_blacks_column(
    player: User, opponent: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 12: a money session, Black wins the opening roll and White resigns."""
    match = _scripted(player, opponent, monkeypatch, [2, 5], length=0, cube_limit=None)
    game = match.current_game
    assert game is not None and game.turn == Color.BLACK
    endings.game_resign(
        game_id=game.pk, player=match.white, expected_ply=game.ply, now=NOW, whole_match=True
    )
    assert replay_match(match)[0].game.records == (
        MatRoll(Color.BLACK, (2, 5)),
        MatResign(Color.WHITE, 2),
    )
    assert export_mat(match).endswith(
        " alice : 0                      bob : 0\n"
        "  1)                             52: \n"
        "                                  Wins 2 points\n\n"
    )


def test_an_unfinished_match_exports_up_to_the_last_action(
    new_match: Callable[..., Match],
) -> None:
    match = new_match(3, length=3)
    game = play_until(match, 1, lambda g: g.state == Game.State.ROLLING and g.ply > 4)
    act(game, "double")
    text = export_mat(match)
    assert text.rstrip().endswith("Doubles => 2")
    assert "Wins" not in text


def test_players_and_spectators_may_download_the_file(
    bot_games: BotGames, player: User, opponent: User, player_client: Client
) -> None:
    (match,) = bot_games.load(ONE_POINT, alice=player, bob=opponent)
    for client in (player_client, Client()):
        response = client.get(f"/matches/{match.pk}/export.mat")
        assert response.status_code == 200
        assert response["Content-Type"] == "text/plain; charset=utf-8"
        assert response["Content-Disposition"] == (
            f'attachment; filename="match-{match.pk}-alice-bob.mat"'
        )
        assert response.content.decode() == export_mat(match, xg_header=True)
    plain = Client().get(f"/matches/{match.pk}/export.mat?header=gnubg")
    assert plain.content.decode() == export_mat(match, xg_header=False)


def test_the_match_page_links_to_the_file(new_match: Callable[..., Match]) -> None:
    match = new_match(5, length=3)
    page = Client().get(f"/matches/{match.pk}/")
    assert page.status_code == 200
    assert f'href="/matches/{match.pk}/export.mat"' in page.content.decode()


def test_the_api_offers_the_same_file(bot_games: BotGames, player: User, opponent: User) -> None:
    (match,) = bot_games.load(ONE_POINT, alice=player, bob=opponent)
    response = Client().get(f"/api/matches/{match.pk}/export.mat")
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment;")
    assert response.content.decode() == export_mat(match)


def test_an_unknown_match_is_not_found(db: None) -> None:
    assert Client().get("/matches/999/export.mat").status_code == 404
    assert Client().get("/api/matches/999/export.mat").status_code == 404
