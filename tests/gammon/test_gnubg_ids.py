"""gnubg Position IDs and Match IDs, checked against IDs that GNU Backgammon 1.07 printed.

The literal data below came from Debian's gnubg 1.07.001 (``gnubg -t -q -p script.py``):
``gnubg.positionid(board)`` for random legal boards, each read back with ``set board <id>``
and ``gnubg.board()``; and ``gnubg.matchid()`` with ``gnubg.posinfo()``/``gnubg.cubeinfo()``
after driving gnubg into each state with its own commands (``new match 7``, ``double``,
``take``, ``resign gammon``, ``set crawford on``, ...).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from gammon.errors import RulesError
from gammon.gnubg_ids import (
    MAX_SCORE,
    GameState,
    InvalidIdError,
    MatchKey,
    match_id,
    match_key_from_id,
    position_from_id,
    position_id,
)
from gammon.position import Color, Position, Variant

# (player on roll's checkers, opponent's checkers, Position ID); each side counted from its
# own side, 25 = bar, missing checkers are borne off.
GNUBG_POSITIONS: list[tuple[dict[int, int], dict[int, int], str]] = [
    # The start, and positions from gnubg's own games.
    ({24: 2, 13: 5, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 5}, "4HPwATDgc/ABMA"),
    # Opponent opened 31 with 8/5 6/5.
    ({24: 2, 13: 5, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 2, 6: 4, 5: 2}, "sGfwATDgc/ABMA"),
    # Opponent opened 52 with 24/22 13/8.
    ({24: 2, 13: 5, 8: 3, 6: 5}, {24: 1, 22: 1, 13: 4, 8: 4, 6: 5}, "4PPgASTgc/ABMA"),
    # Set with `set board` and shown by `show board`: X on roll with 14 on the ace and one
    # on the bar, O with 15 on its 6 point.
    ({1: 14, 25: 1}, {6: 15}, "4P8PAAD/PwAAQA"),
    # Random legal boards.
    (
        {1: 1},
        {1: 1, 2: 2, 3: 2, 4: 1, 5: 1, 6: 1, 11: 1, 12: 1, 13: 1, 16: 1, 17: 1, 18: 1, 19: 1},
        "bRVUVAEBAAAAAA",
    ),
    ({3: 1, 25: 1}, {3: 1, 4: 1, 6: 1, 25: 1}, "lAAAiAAAQAAAAA"),
    ({7: 1, 11: 2, 20: 1}, {3: 1, 25: 1}, "BAAAAsIAAgAAAA"),
    (
        {1: 3, 3: 1, 4: 1, 5: 2, 8: 1, 11: 1, 14: 2, 19: 1, 21: 1, 22: 1, 24: 1},
        {5: 1, 19: 1, 23: 1},
        "EAAIcWpEDFICAA",
    ),
    (
        {1: 2, 2: 1, 3: 2, 6: 1, 7: 1, 11: 1, 12: 1, 13: 1, 17: 2, 21: 1, 23: 1, 25: 1},
        {3: 1, 7: 1, 25: 1},
        "hAAAtEahwpAEAA",
    ),
    ({3: 1}, {1: 1, 13: 2}, "AWAAQAAAAAAAAA"),
    (
        {12: 1, 13: 1, 25: 1},
        {1: 1, 2: 1, 3: 3, 4: 5, 6: 1, 11: 1, 15: 1, 22: 1, 25: 1},
        "dZ8gBEQAKAAEAA",
    ),
    ({6: 1}, {1: 1, 2: 1, 3: 3, 4: 3, 5: 1, 6: 2, 7: 1, 15: 1, 17: 1, 21: 1}, "ddcCJAQgAAAAAA"),
    ({1: 1, 2: 1, 3: 1, 5: 3, 6: 2, 9: 1, 13: 1, 19: 1, 22: 1, 24: 1, 25: 2}, {}, "AAAAKjdCINIAAA"),
    ({1: 1, 22: 1}, {}, "AAAAAgCAAAAAAA"),
    ({}, {1: 1, 2: 2, 3: 1, 4: 4, 5: 2, 6: 2, 25: 1}, "rbcBABAAAAAAAA"),
    ({1: 1, 2: 3, 3: 1, 4: 2, 5: 2, 6: 2, 12: 1, 20: 2, 25: 1}, {4: 1, 12: 1}, "CBAA6NoGAgwCAA"),
    ({1: 2, 2: 1, 3: 1, 5: 3, 6: 2, 11: 2, 13: 1, 19: 1, 22: 1, 25: 1}, {2: 1}, "AgAArNxgAhEBAA"),
    (
        {1: 3, 2: 2, 3: 3, 4: 1, 5: 1, 6: 1, 7: 1, 10: 2, 15: 1},
        {1: 1, 3: 1, 14: 1},
        "CYAAcLsqBgEAAA",
    ),
    (
        {1: 1},
        {1: 2, 2: 2, 3: 1, 4: 1, 6: 1, 8: 1, 15: 1, 18: 1, 20: 1, 21: 1, 22: 1},
        "W0lApEIAAAAAAA",
    ),
    ({2: 1, 3: 3, 5: 2, 6: 1, 10: 1, 12: 2, 16: 1, 23: 1, 25: 3}, {}, "AAAAdBYyBOQAAA"),
    (
        {7: 1, 10: 1},
        {1: 1, 2: 2, 3: 1, 4: 1, 5: 2, 6: 1, 9: 1, 20: 4, 21: 1, 23: 1},
        "rRYB8BJABAAAAA",
    ),
    ({2: 1, 3: 2, 4: 2, 5: 4, 6: 3, 7: 1, 11: 1, 25: 1}, {2: 1, 15: 1}, "AoAA0PYuBAACAA"),
    ({4: 1, 15: 1}, {1: 2, 2: 2, 3: 3, 4: 1, 5: 1, 6: 3, 14: 1, 16: 1, 18: 1}, "29UBkgAIgAAAAA"),
    ({1: 3, 3: 1, 5: 1, 6: 2, 7: 2, 12: 2, 16: 1, 18: 1, 20: 1, 23: 1}, {1: 1}, "AQAAnLTBkEQAAA"),
    ({}, {1: 2, 2: 3, 3: 1, 4: 1, 5: 2, 6: 1, 7: 1, 10: 1, 14: 1, 20: 1, 25: 1}, "u1oRAkEAAAAAAA"),
    (
        {1: 2, 2: 2, 3: 2, 5: 2, 6: 2, 8: 1, 9: 1, 12: 1, 19: 1, 23: 1},
        {1: 1, 3: 2, 5: 1},
        "mQAAYJtNERACAA",
    ),
    ({}, {2: 3, 3: 1, 4: 2, 5: 2, 6: 3, 9: 1, 12: 1, 18: 1, 25: 1}, "ru2IQEAAAAAAAA"),
    ({20: 1}, {6: 1, 16: 1}, "IAABAABAAAAAAA"),
    (
        {4: 1, 5: 1, 6: 2, 9: 1},
        {1: 3, 3: 2, 4: 2, 5: 1, 6: 1, 7: 1, 10: 1, 12: 1, 14: 1, 25: 2},
        "Z6tIAmCoEQAAAA",
    ),
    ({1: 3, 2: 2, 4: 1, 5: 3, 7: 1, 11: 1, 15: 1, 23: 1, 25: 2}, {}, "AAAAbjohBMgAAA"),
    ({2: 2, 3: 1, 4: 3, 5: 4, 8: 1, 13: 1, 19: 1, 20: 1, 25: 1}, {4: 1}, "CAAAWPcIAgUBAA"),
    ({17: 1, 25: 1}, {2: 1, 3: 3, 4: 2, 6: 2, 7: 2, 9: 2, 11: 1, 14: 1, 25: 1}, "utlMBEAAAAECAA"),
    ({1: 1, 3: 1, 13: 2}, {1: 3}, "BwAAkAAMAAAAAA"),
    (
        {6: 1, 7: 1, 25: 1},
        {1: 3, 3: 2, 4: 1, 5: 4, 6: 1, 7: 1, 9: 1, 11: 1, 20: 1},
        "Z72SAAKgAAAEAA",
    ),
    ({1: 2, 4: 1, 23: 1}, {5: 1}, "EAAAjAAACAAAAA"),
    ({3: 1, 13: 1}, {4: 1, 7: 1}, "iAAAIAABAAAAAA"),
    ({1: 5, 2: 1, 4: 1, 5: 1, 6: 2, 11: 1, 13: 1, 22: 1, 25: 2}, {22: 1}, "AAAgfKlBAogBAA"),
    ({11: 1, 13: 1, 21: 1}, {2: 1, 3: 1, 5: 1}, "SgAAAEACBAAAAA"),
    ({1: 3, 4: 1, 10: 1, 22: 1, 25: 1}, {}, "AAAAjkAAiAAAAA"),
    ({}, {5: 1, 11: 1, 20: 1, 25: 1}, "EAggCAAAAAAAAA"),
    ({}, {3: 1, 5: 1, 22: 1}, "JACAAAAAAAAAAA"),
    ({1: 1, 2: 2}, {1: 1, 8: 1}, "AQEAaAAAAAAAAA"),
    ({3: 1, 5: 1, 6: 1, 17: 1, 20: 1}, {21: 1}, "AAAQkAIgAgAAAA"),
    (
        {4: 1, 8: 1, 14: 1, 25: 1},
        {2: 2, 4: 2, 5: 1, 6: 2, 9: 1, 10: 1, 12: 1, 16: 1, 19: 2, 25: 2},
        "Zo0SYmAIgQAIAA",
    ),
]

GNUBG_MATCH_IDS = [
    pytest.param(
        "MAHlAAAAAAAE",
        MatchKey(
            cube_value=1,
            cube_owner=None,
            on_roll=Color.WHITE,
            crawford=False,
            game_state=GameState(1),
            turn=Color.WHITE,
            double_offered=False,
            resigned=0,
            dice=(2, 1),
            match_length=7,
            score=(0, 0),
            jacoby=False,
        ),
        id="new 7-point match, opening roll",
    ),
    pytest.param(
        "MIHlAAAAAAAE",
        MatchKey(
            cube_value=1,
            cube_owner=None,
            on_roll=Color.WHITE,
            crawford=False,
            game_state=GameState(1),
            turn=Color.WHITE,
            double_offered=False,
            resigned=0,
            dice=(3, 1),
            match_length=7,
            score=(0, 0),
            jacoby=False,
        ),
        id="dice set to 3-1",
    ),
    pytest.param(
        "cAngAAAAAAAE",
        MatchKey(
            cube_value=1,
            cube_owner=None,
            on_roll=Color.BLACK,
            crawford=False,
            game_state=GameState(1),
            turn=Color.BLACK,
            double_offered=False,
            resigned=0,
            dice=(0, 0),
            match_length=7,
            score=(0, 0),
            jacoby=False,
        ),
        id="after 31 played, next player not rolled",
    ),
    pytest.param(
        "cBHgAAAAAAAE",
        MatchKey(
            cube_value=1,
            cube_owner=None,
            on_roll=Color.BLACK,
            crawford=False,
            game_state=GameState(1),
            turn=Color.WHITE,
            double_offered=True,
            resigned=0,
            dice=(0, 0),
            match_length=7,
            score=(0, 0),
            jacoby=False,
        ),
        id="double offered",
    ),
    pytest.param(
        "QQngAAAAAAAE",
        MatchKey(
            cube_value=2,
            cube_owner=Color.WHITE,
            on_roll=Color.BLACK,
            crawford=False,
            game_state=GameState(1),
            turn=Color.BLACK,
            double_offered=False,
            resigned=0,
            dice=(0, 0),
            match_length=7,
            score=(0, 0),
            jacoby=False,
        ),
        id="double taken, cube 2",
    ),
    pytest.param(
        "QQn7AAAAAAAE",
        MatchKey(
            cube_value=2,
            cube_owner=Color.WHITE,
            on_roll=Color.BLACK,
            crawford=False,
            game_state=GameState(1),
            turn=Color.BLACK,
            double_offered=False,
            resigned=0,
            dice=(6, 6),
            match_length=7,
            score=(0, 0),
            jacoby=False,
        ),
        id="doubles rolled",
    ),
    pytest.param(
        "QQn7AEAAKAAE",
        MatchKey(
            cube_value=2,
            cube_owner=Color.WHITE,
            on_roll=Color.BLACK,
            crawford=False,
            game_state=GameState(1),
            turn=Color.BLACK,
            double_offered=False,
            resigned=0,
            dice=(6, 6),
            match_length=7,
            score=(4, 5),
            jacoby=False,
        ),
        id="score 4-5 in 7",
    ),
    pytest.param(
        "Qwn7AEAAKAAE",
        MatchKey(
            cube_value=8,
            cube_owner=Color.WHITE,
            on_roll=Color.BLACK,
            crawford=False,
            game_state=GameState(1),
            turn=Color.BLACK,
            double_offered=False,
            resigned=0,
            dice=(6, 6),
            match_length=7,
            score=(4, 5),
            jacoby=False,
        ),
        id="cube 8 owned by player 0",
    ),
    pytest.param(
        "cwn7AEAAKAAE",
        MatchKey(
            cube_value=8,
            cube_owner=None,
            on_roll=Color.BLACK,
            crawford=False,
            game_state=GameState(1),
            turn=Color.BLACK,
            double_offered=False,
            resigned=0,
            dice=(6, 6),
            match_length=7,
            score=(4, 5),
            jacoby=False,
        ),
        id="cube centred",
    ),
    pytest.param(
        "sAGlAEAAEAAE",
        MatchKey(
            cube_value=1,
            cube_owner=None,
            on_roll=Color.WHITE,
            crawford=True,
            game_state=GameState(1),
            turn=Color.WHITE,
            double_offered=False,
            resigned=0,
            dice=(2, 1),
            match_length=5,
            score=(4, 2),
            jacoby=False,
        ),
        id="5-point match 4-2 crawford",
    ),
    pytest.param(
        "cIkqA0ABaAAE",
        MatchKey(
            cube_value=1,
            cube_owner=None,
            on_roll=Color.BLACK,
            crawford=False,
            game_state=GameState(1),
            turn=Color.BLACK,
            double_offered=False,
            resigned=0,
            dice=(5, 2),
            match_length=25,
            score=(20, 13),
            jacoby=False,
        ),
        id="25-point match 20-13",
    ),
    pytest.param(
        "cMFqAAAAAAAE",
        MatchKey(
            cube_value=1,
            cube_owner=None,
            on_roll=Color.BLACK,
            crawford=False,
            game_state=GameState(1),
            turn=Color.WHITE,
            double_offered=False,
            resigned=2,
            dice=(5, 2),
            match_length=3,
            score=(0, 0),
            jacoby=False,
        ),
        id="resign gammon offered",
    ),
    pytest.param(
        "cIlqAAAAAAAE",
        MatchKey(
            cube_value=1,
            cube_owner=None,
            on_roll=Color.BLACK,
            crawford=False,
            game_state=GameState(1),
            turn=Color.BLACK,
            double_offered=False,
            resigned=0,
            dice=(5, 2),
            match_length=3,
            score=(0, 0),
            jacoby=False,
        ),
        id="resignation rejected",
    ),
    pytest.param(
        "MAEPAAAAAAAA",
        MatchKey(
            cube_value=1,
            cube_owner=None,
            on_roll=Color.WHITE,
            crawford=False,
            game_state=GameState(1),
            turn=Color.WHITE,
            double_offered=False,
            resigned=0,
            dice=(6, 3),
            match_length=0,
            score=(0, 0),
            jacoby=True,
        ),
        id="money session, jacoby on",
    ),
    pytest.param(
        "VAkTAAAAAAAE",
        MatchKey(
            cube_value=16,
            cube_owner=Color.BLACK,
            on_roll=Color.BLACK,
            crawford=False,
            game_state=GameState(1),
            turn=Color.BLACK,
            double_offered=False,
            resigned=0,
            dice=(6, 4),
            match_length=0,
            score=(0, 0),
            jacoby=False,
        ),
        id="money session, jacoby off, cube 16 owned by 1",
    ),
    pytest.param(
        "MAEyAQAAAAAE",
        MatchKey(
            cube_value=1,
            cube_owner=None,
            on_roll=Color.WHITE,
            crawford=False,
            game_state=GameState(1),
            turn=Color.WHITE,
            double_offered=False,
            resigned=0,
            dice=(4, 4),
            match_length=9,
            score=(0, 0),
            jacoby=False,
        ),
        id="9-point match, player 0 rolled 44",
    ),
    pytest.param(
        "MAFmAaAAUAAE",
        MatchKey(
            cube_value=1,
            cube_owner=None,
            on_roll=Color.WHITE,
            crawford=False,
            game_state=GameState(1),
            turn=Color.WHITE,
            double_offered=False,
            resigned=0,
            dice=(4, 1),
            match_length=11,
            score=(10, 10),
            jacoby=False,
        ),
        id="11-point match, double match point",
    ),
    pytest.param(
        "cCPlABAAAAAE",
        MatchKey(
            cube_value=1,
            cube_owner=None,
            on_roll=Color.BLACK,
            crawford=False,
            game_state=GameState(3),
            turn=Color.WHITE,
            double_offered=False,
            resigned=1,
            dice=(2, 1),
            match_length=7,
            score=(1, 0),
            jacoby=False,
        ),
        id="game over after resignation accepted",
    ),
]


def raw_position_id(opponent: list[int], on_roll: list[int]) -> str:
    """Encode gnubg's two boards without any checks, to build IDs gnubg would refuse."""
    import base64

    key = bit = 0
    for side in (opponent, on_roll):
        for count in side:
            key |= ((1 << count) - 1) << bit
            bit += count + 1
    return base64.b64encode(key.to_bytes(10, "little")).decode()[:14]


# Position IDs ---------------------------------------------------------------


@pytest.mark.parametrize(("mine", "theirs", "pid"), GNUBG_POSITIONS)
def test_position_id_matches_gnubg(mine: dict[int, int], theirs: dict[int, int], pid: str) -> None:
    assert position_id(Position.from_sides(mine, theirs)) == pid


@pytest.mark.parametrize(("mine", "theirs", "pid"), GNUBG_POSITIONS)
def test_position_from_id_matches_gnubg(
    mine: dict[int, int], theirs: dict[int, int], pid: str
) -> None:
    assert position_from_id(pid) == Position.from_sides(mine, theirs)
    black = position_from_id(pid, Color.BLACK)
    assert black == Position.from_sides(mine, theirs, turn=Color.BLACK)


def test_there_are_enough_gnubg_examples() -> None:
    assert len(GNUBG_POSITIONS) >= 20
    assert len(GNUBG_MATCH_IDS) >= 10


def test_the_id_is_the_same_whoever_is_on_roll() -> None:
    position = Position.from_sides({6: 15}, {1: 15})
    assert position_id(position) == position_id(position.mirror().mirror())
    assert position_id(position) != position_id(position.mirror())


def test_nackgammon_start_round_trips() -> None:
    start = Position.start(Variant.NACKGAMMON)
    assert position_from_id(position_id(start)) == start


def test_hypergammon_needs_its_checker_count() -> None:
    start = Position.start(Variant.HYPERGAMMON)
    pid = position_id(start)
    assert position_from_id(pid, checkers=3) == start
    assert position_from_id(pid).off == (12, 12)


def test_more_than_fifteen_checkers_cannot_be_encoded() -> None:
    crowded = Position(tuple([16] + [0] * 23))
    with pytest.raises(InvalidIdError):
        position_id(crowded)


@pytest.mark.parametrize(
    "pid",
    [
        "",
        "4HPwATDgc/ABM",  # too short
        "4HPwATDgc/ABMAA",  # too long
        "4HPwATDgc/ABM=",  # padding is not part of an ID
        "4HPwATDgc-ABMA",  # not the base64 alphabet
        "//////////////",  # 80 checkers
        "4HPwATDgc/ABMB",  # a bit past the 80 the key holds
        "4HPwATDgc/ABMQ",  # a 31st checker where the start already uses every bit
        "AAAAAAAAAAAAAB",  # unused trailing bit
    ],
)
def test_malformed_position_ids_are_refused(pid: str) -> None:
    with pytest.raises(InvalidIdError):
        position_from_id(pid)


def test_a_point_held_by_both_sides_is_refused() -> None:
    opponent = [1] + [0] * 24  # opponent's ace point is my 24 point
    on_roll = [0] * 23 + [1, 0]
    with pytest.raises(InvalidIdError, match="both sides on one point"):
        position_from_id(raw_position_id(opponent, on_roll))


def test_more_than_fifteen_checkers_a_side_is_refused() -> None:
    with pytest.raises(InvalidIdError, match="more than 15"):
        position_from_id(raw_position_id([16] + [0] * 24, [0] * 25))
    with pytest.raises(InvalidIdError, match="more than 3"):
        position_from_id("4HPwATDgc/ABMA", checkers=3)


def test_both_sides_on_the_bar_against_closed_boards_is_refused() -> None:
    side = [2] * 6 + [0] * 18 + [1]
    with pytest.raises(InvalidIdError, match="shut out"):
        position_from_id(raw_position_id(side, side))


def test_invalid_id_is_a_rules_error_with_a_code() -> None:
    with pytest.raises(RulesError) as caught:
        position_from_id("nope")
    assert isinstance(caught.value, ValueError)
    assert caught.value.code == "invalid_id"


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """Any board gnubg can encode: 15 checkers a side over points, bar and off."""
    points = [0] * 24
    bar = [0, 0]
    off = [0, 0]
    for side, sign in ((0, 1), (1, -1)):
        for _ in range(15):
            free = [i for i in range(24) if points[i] * sign >= 0]
            slot = draw(st.sampled_from([*free, "bar", "off"]))
            if slot == "bar":
                bar[side] += 1
            elif slot == "off":
                off[side] += 1
            else:
                assert isinstance(slot, int)
                points[slot] += sign
    turn = draw(st.sampled_from(Color))
    position = Position(tuple(points), (bar[0], bar[1]), (off[0], off[1]), turn)
    mover = position  # the mover's view already
    shut_out = all(n >= 2 for n in mover.points[:6]) and all(n <= -2 for n in mover.points[18:])
    assume(not (shut_out and bar[0] and bar[1]))
    return position


@given(positions())
def test_position_ids_round_trip(position: Position) -> None:
    pid = position_id(position)
    assert len(pid) == 14
    assert position_from_id(pid, position.turn) == position


@given(st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"))
def test_any_string_decodes_or_raises_invalid_id(text: str) -> None:
    try:
        position = position_from_id(text)
    except InvalidIdError:
        return
    assert position_id(position) == text


# Match IDs ------------------------------------------------------------------


@pytest.mark.parametrize(("mid", "key"), GNUBG_MATCH_IDS)
def test_match_id_matches_gnubg(mid: str, key: MatchKey) -> None:
    assert match_id(key) == mid


@pytest.mark.parametrize(("mid", "key"), GNUBG_MATCH_IDS)
def test_match_key_from_id_matches_gnubg(mid: str, key: MatchKey) -> None:
    assert match_key_from_id(mid) == key


def test_match_key_stores_the_higher_die_first_as_gnubg_does() -> None:
    assert MatchKey(dice=(2, 5)) == MatchKey(dice=(5, 2))
    # gnubg showed dice 2-5 as cInqADAAKAAE (7-point match, 3-5, player 1 on roll).
    key = MatchKey(on_roll=Color.BLACK, turn=Color.BLACK, dice=(2, 5), match_length=7, score=(3, 5))
    assert match_id(key) == "cInqADAAKAAE"


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"cube_value": 0}, "power of two"),
        ({"cube_value": 6}, "power of two"),
        ({"cube_value": 1 << 16}, "power of two"),
        ({"resigned": 4}, "resignation"),
        ({"dice": (7, 1)}, "dice"),
        ({"dice": (3, 0)}, "both dice"),
        ({"match_length": MAX_SCORE + 1}, "match length"),
        ({"match_length": 5, "score": (6, 0)}, "scores"),
        ({"score": (-1, 0)}, "scores"),
        ({"crawford": True}, "Crawford"),
    ],
)
def test_impossible_match_keys_are_refused(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidIdError, match=message):
        MatchKey(**fields)


def _set_bits(mid: str, start: int, width: int, value: int) -> str:
    import base64

    bits = int.from_bytes(base64.b64decode(mid), "little")
    bits &= ~(((1 << width) - 1) << start)
    bits |= value << start
    return base64.b64encode(bits.to_bytes(9, "little")).decode()


@pytest.mark.parametrize(
    "mid",
    [
        "",
        "cAngAAAAAAA",  # too short
        "cAngAAAAAAAEA",  # too long
        "cAngAAAAAA==",  # padding
        "cAngAAAAAA-E",  # not base64
        _set_bits("cAngAAAAAAAE", 67, 1, 1),  # unused bit
        _set_bits("cAngAAAAAAAE", 4, 2, 2),  # cube owner 2
        _set_bits("cAngAAAAAAAE", 8, 3, 5),  # game state 5
        _set_bits("cAngAAAAAAAE", 15, 3, 7),  # a die showing 7
        _set_bits(_set_bits("cAngAAAAAAAE", 15, 3, 2), 18, 3, 5),  # lower die first
        _set_bits("cAngAAAAAAAE", 36, 15, 8),  # score past the match length
        _set_bits("cAngAAAAAAAE", 21, 15, 65),  # match longer than gnubg allows
        _set_bits("cIkJAAAAAAAA", 7, 1, 1),  # Crawford game in money play
    ],
)
def test_malformed_match_ids_are_refused(mid: str) -> None:
    with pytest.raises(InvalidIdError):
        match_key_from_id(mid)


@st.composite
def match_keys(draw: st.DrawFn) -> MatchKey:
    length = draw(st.integers(0, MAX_SCORE))
    top = length if length else (1 << 15) - 1
    rolled = draw(st.booleans())
    dice = (draw(st.integers(1, 6)), draw(st.integers(1, 6))) if rolled else (0, 0)
    return MatchKey(
        cube_value=1 << draw(st.integers(0, 15)),
        cube_owner=draw(st.sampled_from([None, Color.WHITE, Color.BLACK])),
        on_roll=draw(st.sampled_from(Color)),
        crawford=bool(length) and draw(st.booleans()),
        game_state=draw(st.sampled_from(GameState)),
        turn=draw(st.sampled_from(Color)),
        double_offered=draw(st.booleans()),
        resigned=draw(st.integers(0, 3)),
        dice=dice,
        match_length=length,
        score=(draw(st.integers(0, top)), draw(st.integers(0, top))),
        jacoby=draw(st.booleans()),
    )


@given(match_keys())
def test_match_ids_round_trip(key: MatchKey) -> None:
    mid = match_id(key)
    assert len(mid) == 12
    assert match_key_from_id(mid) == key


@given(st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"))
def test_any_string_decodes_or_raises_invalid_match_id(text: str) -> None:
    try:
        key = match_key_from_id(text)
    except InvalidIdError:
        return
    assert match_id(key) == text


# The shared oracle file ---------------------------------------------------------

ORACLE = Path(__file__).resolve().parent.parent / "data" / "gnubg_ids.jsonl"


def _oracle_lines() -> list[dict[str, Any]]:
    if not ORACLE.exists():
        return []
    with ORACLE.open() as lines:
        return [json.loads(line) for line in lines if line.strip()]


@pytest.mark.skipif(not ORACLE.exists(), reason="tests/data/gnubg_ids.jsonl not generated")
def test_every_id_in_the_gnubg_oracle_file() -> None:
    records = _oracle_lines()
    positions_seen = matches_seen = 0
    for record in records:
        if "position_id" in record and "points" in record:
            position = Position(tuple(record["points"]), tuple(record["bar"]), tuple(record["off"]))
            assert position_id(position) == record["position_id"], record
            assert position_from_id(record["position_id"]) == position, record
            positions_seen += 1
        if "match_id" in record:
            owner = record["cube_owner"]
            expected = MatchKey(
                cube_value=record["cube_value"],
                cube_owner=None if owner == -1 else Color(owner),
                on_roll=Color(record["player_on_roll"]),
                crawford=bool(record["crawford"]),
                game_state=GameState(record["game_state"]),
                turn=Color(record["turn"]),
                double_offered=bool(record["double_offered"]),
                resigned=record["resigned"],
                dice=tuple(record["dice"]),
                match_length=record["match_length"],
                score=tuple(record["score"]),
                jacoby=bool(record["jacoby"]),
            )
            assert match_key_from_id(record["match_id"]) == expected, record
            assert match_id(expected) == record["match_id"], record
            matches_seen += 1
    assert positions_seen and matches_seen
