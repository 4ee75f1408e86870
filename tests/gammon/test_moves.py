"""Each rule of legal plays, on positions built by hand.

``board(mine, theirs)`` takes both sides' checkers in the mover's numbering
(so ``theirs={7: 2}`` blocks the mover's 7 point); whatever is not placed is
borne off.
"""

from __future__ import annotations

from gammon import Position, Variant, legal_plays


def board(mine: dict[int, int], theirs: dict[int, int]) -> Position:
    return Position.from_sides(mine, {25 - p if p != 25 else 25: n for p, n in theirs.items()})


def texts(position: Position, dice: tuple[int, int]) -> set[str]:
    return {str(play) for play in legal_plays(position, dice)}


def test_doubles_give_four_moves() -> None:
    plays = legal_plays(Position.start(), (6, 6))
    assert plays
    assert all(len(play.steps) == 4 for play in plays)
    assert "24/18(2) 13/7(2)" in texts(Position.start(), (6, 6))


def test_the_opening_three_one_makes_the_five_point() -> None:
    assert "8/5 6/5" in texts(Position.start(), (3, 1))


def test_a_checker_cannot_land_on_a_point_held_by_two_opponents() -> None:
    position = board({13: 1, 6: 14}, {7: 2, 24: 13})
    # 13/7 is blocked; 6/off is not allowed with a checker on 13: the 6 must be played 12/6.
    assert texts(position, (6, 1)) == {"13/6"}


def test_as_many_dice_as_possible_must_be_used() -> None:
    # 6/5 alone would use one die; 13/12/6 uses both, so it is the only play.
    position = board({13: 1, 6: 14}, {7: 2, 24: 13})
    assert "6/5" not in texts(position, (6, 1))
    assert {len(play.steps) for play in legal_plays(position, (6, 1))} == {2}


def test_a_combined_move_cannot_stop_on_a_blocked_point() -> None:
    position = board({24: 1, 8: 14}, {18: 2, 19: 2, 1: 11})
    result = texts(position, (6, 5))
    assert result
    assert not any(text.startswith("24/") for text in result)


def test_hitting_a_blot_sends_it_to_the_bar() -> None:
    position = board({13: 2, 6: 13}, {10: 1, 24: 14})
    plays = [p for p in legal_plays(position, (3, 1)) if str(p) == "13/12 13/10*"]
    assert len(plays) == 1
    after = plays[0].position
    assert after.bar == (0, 1)
    assert after.points[9] == 1
    assert plays[0].hits == 1


def test_a_hit_in_the_middle_of_a_move_is_written_with_its_point() -> None:
    position = board({13: 1, 6: 14}, {7: 1, 24: 14})
    assert any("13/7*/1" in text for text in texts(position, (6, 6)))


def test_checkers_on_the_bar_enter_first() -> None:
    position = board({25: 1, 13: 14}, {24: 15})
    assert texts(position, (6, 5))
    assert all(text.startswith("bar/") for text in texts(position, (6, 5)))


def test_dice_are_not_combined_to_enter() -> None:
    # Entry on 20 and 19 is blocked; reaching 14 would need both dice at once.
    position = board({25: 1, 13: 14}, {20: 2, 19: 2, 24: 11})
    assert legal_plays(position, (6, 5)) == []


def test_two_on_the_bar_use_one_die_each() -> None:
    position = board({25: 2, 13: 13}, {1: 15})
    assert texts(position, (4, 3)) == {"bar/22 bar/21"}


def test_a_closed_board_is_a_pass() -> None:
    closed = {19: 3, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2, 1: 2}
    position = board({25: 1, 13: 14}, closed)
    for dice in [(1, 1), (6, 5), (3, 2)]:
        assert legal_plays(position, dice) == []


def test_only_the_larger_die_when_only_one_can_be_played() -> None:
    # 13/7 or 13/8 alone, but after either the other die would land on the blocked 2.
    position = board({13: 1}, {2: 2, 24: 13})
    assert texts(position, (6, 5)) == {"13/7"}


def test_bearing_off_needs_every_checker_home() -> None:
    position = board({7: 1, 6: 2, 1: 12}, {24: 15})
    result = texts(position, (6, 1))
    assert result
    assert all(text.startswith("7/") for text in result)


def test_a_larger_die_bears_off_only_from_the_highest_point() -> None:
    position = board({5: 1, 2: 1}, {24: 15})
    assert texts(position, (6, 1)) == {"5/off 2/1", "5/off"}


def test_six_bears_off_from_the_four_when_five_and_six_are_empty() -> None:
    position = board({4: 2, 1: 1}, {24: 15})
    assert texts(position, (6, 6)) == {"4/off(2) 1/off"}


def test_plays_reaching_the_same_position_count_once() -> None:
    plays = legal_plays(Position.start(), (6, 5))
    assert len({play.position for play in plays}) == len(plays)
    assert "24/13" in {str(p) for p in plays}


def test_nackgammon_and_hypergammon_starts() -> None:
    nack = Position.start(Variant.NACKGAMMON)
    assert (nack.points[23], nack.points[22], nack.points[12]) == (2, 2, 4)
    assert (nack.points[7], nack.points[5]) == (3, 4)
    nack.validate(15)
    hyper = Position.start(Variant.HYPERGAMMON)
    assert hyper.points[21:] == (1, 1, 1)
    assert hyper.pip_count() == (69, 69)
    hyper.validate(3)
    assert legal_plays(hyper, (6, 5))


def test_hypergammon_bears_off_with_three_checkers_home() -> None:
    position = Position.from_sides({3: 1, 2: 1, 1: 1}, {20: 3}, checkers=3)
    assert "3/off 2/off" in texts(position, (6, 5))
