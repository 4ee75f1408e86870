"""The public API of plays: constructors, a repr that is code, ``Roll``, errors in one module."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import gammon
import gammon.chouette
from gammon import (
    BlockedPointError,
    Color,
    InvalidDieError,
    InvalidNotationError,
    NoSuchCheckerError,
    Play,
    Position,
    Roll,
    Step,
    Termination,
    errors,
    legal_plays,
)

from .positions import dice, positions

START = Position.start()


def eval_repr(text: str) -> object:
    """``eval`` with only the names a repr uses (what ``from gammon import *`` gives)."""
    return eval(
        text, {"Play": Play, "Position": Position, "Step": Step, "Color": Color, "Roll": Roll}
    )


@given(positions, dice, st.data())
def test_a_plays_repr_builds_the_same_play(position: Position, roll, data: st.DataObject) -> None:
    plays = legal_plays(position, roll) or [Play.passing(position)]
    play = data.draw(st.sampled_from(plays))
    again = eval_repr(repr(play))
    assert again == play
    assert isinstance(again, Play) and str(again) == str(play) and again.steps == play.steps


@given(positions)
def test_a_positions_repr_builds_the_same_position(position: Position) -> None:
    assert eval_repr(repr(position)) == position


@given(positions, dice)
def test_from_steps_rebuilds_every_legal_play(position: Position, roll) -> None:
    for play in legal_plays(position, roll):
        rebuilt = Play.from_steps(position, [Step(s.source, s.dest) for s in play.steps])
        assert rebuilt == play and rebuilt.position == play.position
        assert rebuilt.steps == play.steps  # the hit flags are read off the board


@given(positions, dice, st.data())
def test_from_text_reads_back_a_legal_plays_text(
    position: Position, roll, data: st.DataObject
) -> None:
    plays = legal_plays(position, roll) or [Play.passing(position)]
    play = data.draw(st.sampled_from(plays))
    assert Play.from_text(position, roll, str(play)) == play


def test_from_steps_refuses_steps_the_board_does_not_allow() -> None:
    with pytest.raises(NoSuchCheckerError):
        Play.from_steps(START, [Step(25, 22)])
    with pytest.raises(BlockedPointError):
        Play.from_steps(START, [Step(6, 1)])  # the opponent holds their 24, our 1
    with pytest.raises(InvalidNotationError):
        Play.from_steps(START, [Step(6, 8)])


def test_no_steps_is_the_pass() -> None:
    assert Play.from_steps(START, []) == Play.passing(START)
    assert Play.from_steps(START, []).is_pass and repr(Play.passing(START)).startswith(
        "Play.passing("
    )


def test_a_roll_is_two_dice_high_first() -> None:
    roll = Roll(3, 6)
    assert roll == Roll(6, 3) == (6, 3)
    assert (roll.high, roll.low, roll.is_double, str(roll), repr(roll)) == (
        6,
        3,
        False,
        "63",
        "Roll(6, 3)",
    )
    assert Roll(4, 4).is_double and Roll(4, 4).dice == (4, 4, 4, 4)
    assert Roll(6, 3).dice == (6, 3)
    assert eval_repr(repr(roll)) == roll


@pytest.mark.parametrize("text", ["63", "36", "6-3", " 6 3 ", "3,6"])
def test_a_roll_is_read_from_its_usual_forms(text: str) -> None:
    assert Roll.parse(text) == Roll(6, 3)
    assert Roll.parse(str(Roll.parse(text))) == Roll.parse(text)


@pytest.mark.parametrize("text", ["", "6", "637", "70", "a3", "0-1"])
def test_a_roll_that_is_not_two_dice_is_refused(text: str) -> None:
    with pytest.raises(InvalidDieError):
        Roll.parse(text)


@pytest.mark.parametrize("dice", [(0, 3), (7, 1), (True, 2)])
def test_a_die_outside_one_to_six_is_refused(dice: tuple[int, int]) -> None:
    with pytest.raises(InvalidDieError):
        Roll(*dice)


def test_a_roll_goes_wherever_the_engine_takes_dice() -> None:
    assert legal_plays(START, Roll(1, 3)) == legal_plays(START, (3, 1))
    assert str(Play.from_text(START, Roll(5, 6), "24/13")) == "24/13"


def test_every_error_is_defined_in_errors_and_exported_from_the_package() -> None:
    defined = {
        name
        for name, value in vars(errors).items()
        if isinstance(value, type) and issubclass(value, errors.RulesError)
    }
    assert set(errors.__all__) == defined
    for name in defined:
        assert getattr(gammon, name) is getattr(errors, name)
        assert getattr(errors, name).__module__ == "gammon.errors"
    modules = (gammon.chouette, gammon.dice, gammon.gnubg_ids, gammon.match, gammon.moves)
    for module in (*modules, gammon.play):
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, errors.RulesError):
                assert value.__module__ == "gammon.errors", value


def test_termination_values_are_the_stored_ones() -> None:
    assert [t.value for t in Termination] == [
        "single",
        "gammon",
        "backgammon",
        "drop",
        "resign",
        "timeout",
        "time_claim",
        "draw",
        "adjudicated",
        "cancelled",
    ]
    assert Termination.TIMEOUT == "timeout"
