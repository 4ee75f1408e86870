"""The .mat writer's layout, character for character, without gnubg.

The expected texts are copied from files GNU Backgammon 1.07 exported itself
(``export match mat``); tests/matches/test_export.py has gnubg import ours.
"""

from __future__ import annotations

import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gammon import Color, Step, Variant
from gammon.mat import (
    MatDouble,
    MatDrop,
    MatGame,
    MatMatch,
    MatPlay,
    MatRecord,
    MatResign,
    MatRoll,
    MatTake,
    MatWin,
    format_plain_steps,
    write_mat,
)

W, B = Color.WHITE, Color.BLACK
OPEN_W = MatPlay(W, (2, 1), (Step(13, 11), Step(24, 23)))
OPEN_B = MatPlay(B, (1, 2), (Step(13, 11), Step(24, 23)))
REPLY_B = MatPlay(B, (4, 1), (Step(6, 2, True), Step(2, 1, True)))


def body(*records: MatRecord, score: tuple[int, int] = (0, 0)) -> str:
    """The lines of one game after its score line."""
    match = MatMatch(("gnubg", "root"), 5, (MatGame(score, records),))
    return write_mat(match).split(" gnubg : ")[1].split("\n", 1)[1]


# --------------------------------------------------------------------------- plays


@pytest.mark.parametrize(
    ("steps", "text"),
    [
        ((Step(13, 8), Step(13, 11)), "13/11 13/8 "),
        ((Step(24, 23), Step(13, 11)), "24/23 13/11 "),
        ((Step(6, 2, True), Step(2, 1, True)), "6/2* 2/1* "),
        ((Step(7, 4, True), Step(9, 4)), "9/4* 7/4 "),
        ((Step(25, 22), Step(25, 23)), "25/23 25/22 "),
        ((Step(6, 0), Step(6, 3)), "6/3 6/0 "),
        ((Step(1, 0),) * 3, "1/0 1/0 1/0 "),
        ((Step(8, 6), Step(6, 4), Step(8, 6), Step(6, 4)), "8/6 8/6 6/4 6/4"),
        ((), ""),
    ],
)
def test_steps_are_written_one_by_one_in_gnubgs_order(steps: tuple[Step, ...], text: str) -> None:
    assert format_plain_steps(steps) == text


def test_the_higher_die_comes_first() -> None:
    assert body(MatPlay(W, (2, 5), (Step(13, 8), Step(13, 11)))).startswith("  1) 52: 13/11 13/8 ")


def test_rows_are_numbered_with_white_left_and_black_right() -> None:
    assert body(OPEN_W, REPLY_B, MatPlay(W, (3, 2), (Step(25, 23), Step(25, 22)))) == (
        "  1) 21: 24/23 13/11             41: 6/2* 2/1* \n  2) 32: 25/23 25/22             "
    )


def test_black_moving_first_leaves_the_first_left_column_empty() -> None:
    assert body(OPEN_B).startswith("  1)                             21: 24/23 13/11 \n")


def test_four_steps_and_a_pass() -> None:
    four = MatPlay(B, (1, 1), (Step(6, 5), Step(6, 5), Step(5, 4), Step(5, 4)))
    assert body(OPEN_W, four, MatPlay(W, (5, 4)), MatPlay(B, (5, 4))) == (
        "  1) 21: 24/23 13/11             11: 6/5 6/5 5/4 5/4\n"
        "  2) 54:                         54: \n"
    )


# --------------------------------------------------------------------------- cube


def test_a_double_taken_continues_the_rows() -> None:
    assert body(OPEN_W, MatDouble(B, 2), MatTake(W), MatPlay(B, (5, 3), (Step(9, 4),))) == (
        "  1) 21: 24/23 13/11              Doubles => 2\n"
        "  2)  Takes                      53: 9/4 \n"
    )


def test_a_drop_in_the_right_column() -> None:
    assert body(OPEN_W, REPLY_B, MatDouble(W, 4), MatDrop(B, 2)) == (
        "  1) 21: 24/23 13/11             41: 6/2* 2/1* \n"
        "  2)  Doubles => 4                Drops\n"
        "      Wins 2 points\n"
        "\n"
    )


def test_a_drop_in_the_left_column() -> None:
    assert body(OPEN_W, MatDouble(B, 2), MatDrop(W, 1)) == (
        "  1) 21: 24/23 13/11              Doubles => 2\n"
        "  2)  Drops                       Wins 1 point \n"
        "\n"
    )


# --------------------------------------------------------------------------- game ends


def test_a_bear_off_win_in_either_column() -> None:
    last = MatPlay(W, (1, 1), (Step(1, 0),) * 3)
    assert body(last, MatWin(W, 1)) == ("  1) 11: 1/0 1/0 1/0             \n      Wins 1 point\n\n")
    last = MatPlay(B, (5, 3), (Step(2, 0), Step(2, 0)))
    assert body(OPEN_W, last, MatWin(B, 2)) == (
        "  1) 21: 24/23 13/11             53: 2/0 2/0 \n"
        "                                  Wins 2 points\n"
        "\n"
    )


@pytest.mark.parametrize(
    ("records", "text"),
    [
        # Black resigns after White's play, and after Black's.
        (
            (OPEN_W, MatResign(B, 1)),
            "  1) 21: 24/23 13/11             \n      Wins 1 point\n\n",
        ),
        (
            (OPEN_W, REPLY_B, MatResign(B, 2)),
            "  1) 21: 24/23 13/11             41: 6/2* 2/1* \n      Wins 2 points\n\n",
        ),
        # White resigns after White's play, and after Black's.
        (
            (OPEN_W, MatResign(W, 1)),
            "  1) 21: 24/23 13/11              Wins 1 point\n\n",
        ),
        (
            (OPEN_W, REPLY_B, MatResign(W, 3)),
            "  1) 21: 24/23 13/11             41: 6/2* 2/1* \n"
            "                                  Wins 3 points\n\n",
        ),
        # After an unplayed roll; gnubg writes the first and last differently.
        (
            (OPEN_W, REPLY_B, MatRoll(W, (5, 2)), MatResign(B, 1)),
            "  1) 21: 24/23 13/11             41: 6/2* 2/1* \n  2) 52: \n      Wins 1 point\n\n",
        ),
        (
            (OPEN_W, REPLY_B, MatRoll(W, (5, 2)), MatResign(W, 1)),
            "  1) 21: 24/23 13/11             41: 6/2* 2/1* \n"
            "  2) 52:                         Wins 1 point\n\n",
        ),
        (
            (OPEN_W, MatRoll(B, (5, 2)), MatResign(B, 1)),
            "  1) 21: 24/23 13/11             52: \n      Wins 1 point\n\n",
        ),
        (
            (OPEN_W, MatRoll(B, (5, 2)), MatResign(W, 1)),
            "  1) 21: 24/23 13/11             52: \n"
            "                                  Wins 1 point\n\n",
        ),
        # Black won the opening roll and did not play it: Black's column all the same.
        (
            (MatRoll(B, (5, 2)), MatResign(W, 2)),
            "  1)                             52: \n"
            "                                  Wins 2 points\n\n",
        ),
        (
            (MatRoll(B, (5, 2)), MatResign(B, 2)),
            "  1)                             52: \n      Wins 2 points\n\n",
        ),
        (
            (MatRoll(W, (5, 2)), MatResign(B, 2)),
            "  1) 52: \n      Wins 2 points\n\n",
        ),
    ],
)
def test_resignations_go_in_the_winners_column(records: tuple[MatRecord, ...], text: str) -> None:
    assert body(*records) == text


def test_an_unfinished_game_ends_where_play_stopped() -> None:
    assert body(OPEN_W, MatRoll(B, (6, 6))) == "  1) 21: 24/23 13/11             66: "
    assert body(MatRoll(B, (6, 5))) == "  1)                             65: "


def test_each_record_is_written_in_its_players_column() -> None:
    with pytest.raises(ValueError, match="out of turn"):
        body(OPEN_W, MatPlay(W, (3, 1), (Step(8, 5), Step(6, 5))))
    with pytest.raises(ValueError, match="out of turn"):
        body(OPEN_W, REPLY_B, MatDouble(B, 2))


def test_cube_values_count_from_the_cube_the_game_began_with() -> None:
    """gnubg starts every game at 1: after an automatic double the file says 2 for 4."""
    records = (
        OPEN_W,
        MatDouble(B, 4),
        MatTake(W),
        REPLY_B,
        MatDouble(W, 8),
        MatDrop(B, 4),
    )
    match = MatMatch(("gnubg", "root"), 0, (MatGame((0, 0), records, cube=2),))
    assert write_mat(match).split(" root : 0\n")[1] == (
        "  1) 21: 24/23 13/11              Doubles => 2\n"
        "  2)  Takes                      41: 6/2* 2/1* \n"
        "  3)  Doubles => 4                Drops\n"
        "      Wins 2 points\n"
        "\n"
    )
    resigned = MatMatch(("a", "b"), 0, (MatGame((0, 0), (OPEN_W, MatResign(B, 4)), cube=2),))
    assert "Wins 2 points" in write_mat(resigned)
    won = MatGame((0, 0), (MatPlay(W, (1, 1), (Step(1, 0),) * 3), MatWin(W, 2)), cube=2)
    assert "Wins 1 point\n" in write_mat(MatMatch(("a", "b"), 0, (won,)))


# --------------------------------------------------------------------------- the file


def test_a_match_with_two_games() -> None:
    first = MatGame((0, 0), (OPEN_W, MatDouble(B, 2), MatDrop(W, 1)))
    second = MatGame((0, 1), (OPEN_B,))
    match = MatMatch(
        ("alice", "bob"),
        3,
        (first, second),
        site="backgammon.example",
        event_date=datetime.date(2026, 3, 1),
    )
    assert write_mat(match) == (
        '; [Site "backgammon.example"]\n'
        '; [EventDate "2026.03.01"]\n'
        "\n"
        " 3 point match\n"
        "\n"
        " Game 1\n"
        " alice : 0                      bob : 0\n"
        "  1) 21: 24/23 13/11              Doubles => 2\n"
        "  2)  Drops                       Wins 1 point \n"
        "\n"
        " Game 2\n"
        " alice : 0                      bob : 1\n"
        "  1)                             21: 24/23 13/11 \n"
    )


def test_a_money_session_is_a_zero_point_match() -> None:
    assert "\n 0 point match\n" in write_mat(MatMatch(("a", "b"), 0))


@pytest.mark.parametrize(
    ("variant", "line"),
    [
        (Variant.STANDARD, None),
        (Variant.NACKGAMMON, '; [Variation "NackGammon"]'),
        (Variant.HYPERGAMMON, '; [Variation "HyperGammon (3)"]'),
    ],
)
def test_the_variation_is_named_as_gnubg_reads_it(variant: Variant, line: str | None) -> None:
    text = write_mat(MatMatch(("a", "b"), 1, variant=variant))
    assert text.startswith(f"{line}\n\n" if line else "\n")


def test_the_xg_header_and_the_match() -> None:
    game = MatGame((0, 0), (OPEN_W, MatResign(B, 1)))
    match = MatMatch(
        ("alice", "bob"),
        1,
        (game,),
        site="bg.example",
        event_date=datetime.date(2026, 1, 2),
        cube_limit=64,
        finished=True,
    )
    assert write_mat(match, xg_header=True) == (
        '; [Site "bg.example"]\n'
        '; [Player 1 "alice"]\n'
        '; [Player 2 "bob"]\n'
        '; [EventDate "2026.01.02"]\n'
        '; [Variation "Backgammon"]\n'
        '; [Crawford "On"]\n'
        '; [CubeLimit "64"]\n'
        "\n"
        " 1 point match\n"
        "\n"
        " Game 1\n"
        " alice : 0                      bob : 0\n"
        "  1) 21: 24/23 13/11             \n"
        "      Wins 1 point and the match\n"
        "\n"
    )


def test_money_sessions_have_no_crawford_line() -> None:
    text = write_mat(MatMatch(("a", "b"), 0, crawford=False), xg_header=True)
    assert "Crawford" not in text and "CubeLimit" not in text


def test_names_cannot_break_the_score_line() -> None:
    text = write_mat(MatMatch(('Mr: "X"', "  two\nlines "), 1, (MatGame((0, 0), ()),)))
    assert " Mr_ 'X' : 0                    two lines : 0\n" in text


# ------------------------------------------------------------- gnubg's short-line rule

_dice = st.tuples(st.integers(1, 6), st.integers(1, 6))
_steps = st.lists(
    st.builds(Step, st.integers(1, 25), st.integers(0, 24), st.booleans()), max_size=4
).map(tuple)


@st.composite
def _games(draw: st.DrawFn) -> tuple[MatRecord, ...]:
    """A game's records as they can happen: turns alternate, and an ending comes last."""
    player = draw(st.sampled_from([W, B]))
    records: list[MatRecord] = []
    for doubled in draw(st.lists(st.booleans(), max_size=10)):
        if doubled:
            records += [MatDouble(player, 2), MatTake(player.other)]
        records.append(MatPlay(player, draw(_dice), draw(_steps)))
        player = player.other
    loser = draw(st.sampled_from([W, B]))
    endings = ["none", "roll", "roll-resign", "resign", "double-resign", "drop", "win"]
    ending = draw(st.sampled_from(endings))
    if ending.startswith("roll"):
        records.append(MatRoll(player, draw(_dice)))
    if ending.startswith("double"):
        records.append(MatDouble(player, 2))
    if ending.endswith("resign"):
        records.append(MatResign(loser, draw(st.integers(1, 25))))
    if ending == "drop":
        records += [MatDouble(player, 4), MatDrop(player.other, 2)]
    if ending == "win":
        records += [MatPlay(player, draw(_dice), draw(_steps)), MatWin(player, 1)]
    return tuple(records)


@given(_games(), st.booleans())
def test_no_line_is_short_enough_for_gnubg_to_misread(
    records: tuple[MatRecord, ...], xg_header: bool
) -> None:
    """gnubg reads a line of at most 15 characters without ':' as the previous line's
    right-hand column; write_mat raises rather than write one."""
    match = MatMatch(("a", "b"), 5, (MatGame((0, 0), records),) * 2, finished=True)
    text = write_mat(match, xg_header=xg_header)
    for game in text.split(" Game ")[1:]:
        for line in game.split("\n")[2:]:
            assert not (line.strip() and len(line) <= 15 and ":" not in line), line
