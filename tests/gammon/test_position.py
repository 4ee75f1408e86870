"""The two points of view: a Position is the mover's, a BoardView is a named side's."""

from __future__ import annotations

from hypothesis import given

from gammon import BoardView, Color, Position

from .positions import positions


@given(positions)
def test_the_white_view_round_trips_whoever_is_on_roll(position: Position) -> None:
    stored = position.to_white_view()
    assert Position.from_white_view(stored, turn=position.turn) == position
    assert BoardView.from_dict(stored.to_dict()) == stored


@given(positions)
def test_the_white_view_does_not_depend_on_whose_turn_it_is(position: Position) -> None:
    """Passing the turn (mirror) changes the mover's view, never the stored board."""
    assert position.mirror().to_white_view() == position.to_white_view()


@given(positions)
def test_each_sides_view_counts_its_own_checkers_positive(position: Position) -> None:
    for side in Color:
        view = position.view(side)
        assert {i + 1: n for i, n in enumerate(view.points) if n > 0} == {
            p: n for p, n in position.checkers_of(side).items() if p != 25
        }
        assert view.bar[0] == position.checkers_of(side).get(25, 0)
        assert view.off[0] == position.borne_off(side)
        assert position.view(side.other) == Position.from_view(
            view, side=side, turn=side.other
        ).view(side.other)
    assert position.view(position.turn) == BoardView(position.points, position.bar, position.off)


def test_the_start_from_whites_side_has_blacks_checkers_negative() -> None:
    stored = Position.start(turn=Color.BLACK).to_white_view()
    assert stored.points[23] == 2 and stored.points[0] == -2  # White's 24 point; Black's
    assert stored.pip_count() == (167, 167)
    assert Position.from_white_view(stored, turn=Color.BLACK).turn is Color.BLACK
