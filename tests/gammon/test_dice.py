"""Dice: the system source is fair-shaped, scripted dice replay exactly, opening rolls."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gammon.dice import (
    Dice,
    DiceExhaustedError,
    FixedDice,
    InvalidDieError,
    SystemDice,
    opening_roll,
)
from gammon.errors import RulesError
from gammon.position import Color


def test_both_dice_classes_satisfy_the_protocol() -> None:
    assert isinstance(SystemDice(), Dice)
    assert isinstance(FixedDice([]), Dice)


def test_system_dice_show_every_face_and_nothing_else() -> None:
    dice = SystemDice()
    faces = Counter(d for _ in range(600) for d in dice.roll())
    assert set(faces) == {1, 2, 3, 4, 5, 6}
    # 1200 dice: each face is expected 200 times; 120 or 280 is over 6 standard deviations.
    assert all(120 < n < 280 for n in faces.values())


def test_fixed_dice_replay_the_script_in_order() -> None:
    dice = FixedDice([(6, 5), 3, 3, (1, 2)])
    assert dice.roll() == (6, 5)
    assert dice.roll() == (3, 3)
    assert dice.roll_one() == 1
    assert dice.roll_one() == 2
    assert dice.remaining == 0


def test_fixed_dice_say_so_when_exhausted() -> None:
    dice = FixedDice([4])
    with pytest.raises(DiceExhaustedError, match="after 0 dice"):
        dice.roll()
    assert dice.roll_one() == 4
    with pytest.raises(DiceExhaustedError, match="after 1 dice"):
        dice.roll_one()


def test_dice_exhausted_is_a_rules_error_with_a_code() -> None:
    with pytest.raises(RulesError) as caught:
        FixedDice([]).roll_one()
    assert caught.value.code == "dice_exhausted"


@pytest.mark.parametrize("bad", [0, 7, -1, True])
def test_fixed_dice_refuse_impossible_faces(bad: int) -> None:
    with pytest.raises(InvalidDieError):
        FixedDice([bad])


def test_fixed_dice_repr_shows_what_is_left() -> None:
    dice = FixedDice([1, 2, 3])
    dice.roll_one()
    assert repr(dice) == "FixedDice([2, 3])"


def test_opening_roll_higher_die_moves_first_with_dice_as_thrown() -> None:
    assert opening_roll(FixedDice([6, 1])) == (Color.WHITE, (6, 1), 0)
    assert opening_roll(FixedDice([1, 6])) == (Color.BLACK, (1, 6), 0)


def test_opening_roll_throws_again_on_ties_and_counts_them() -> None:
    dice = FixedDice([5, 5, 2, 2, 1, 1, 3, 4, 6, 6])
    assert opening_roll(dice) == (Color.BLACK, (3, 4), 3)
    assert dice.remaining == 2


def test_opening_roll_uses_system_dice_by_default() -> None:
    first, (white, black), ties = opening_roll()
    assert white != black
    assert first == (Color.WHITE if white > black else Color.BLACK)
    assert ties >= 0


@given(st.lists(st.integers(1, 6), min_size=2, max_size=40))
def test_opening_roll_never_returns_doubles(script: list[int]) -> None:
    try:
        first, (white, black), ties = opening_roll(FixedDice(script))
    except DiceExhaustedError:
        pairs = list(zip(script[::2], script[1::2], strict=False))
        assert all(w == b for w, b in pairs)
        return
    assert white != black
    assert (white, black) == (script[2 * ties], script[2 * ties + 1])
    assert first == (Color.WHITE if white > black else Color.BLACK)
