"""Invariants of the engine, checked on random boards and random games (hypothesis)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from gammon import Play, Position, legal_plays, parse_play
from gammon.moves import _search

from .positions import dice, positions, random_game


def checkers_on_each_side(position: Position) -> tuple[int, int]:
    mine = sum(n for n in position.points if n > 0) + position.bar[0] + position.off[0]
    theirs = -sum(n for n in position.points if n < 0) + position.bar[1] + position.off[1]
    return mine, theirs


@given(positions, dice)
def test_every_checker_of_each_side_is_accounted_for(position: Position, roll) -> None:
    before = checkers_on_each_side(position)
    for play in legal_plays(position, roll):
        assert checkers_on_each_side(play.position) == before
        assert checkers_on_each_side(play.next_position()) == before[::-1]


@given(positions, dice)
def test_the_order_of_the_dice_does_not_matter(position: Position, roll) -> None:
    forward = {play.position: str(play) for play in legal_plays(position, roll)}
    backward = {play.position: str(play) for play in legal_plays(position, roll[::-1])}
    assert forward == backward


def apply_from_the_other_side(mirrored: Position, play: Play) -> Position:
    """Play ``play``'s steps on ``mirrored``, where the mover is the negative side moving up.

    An independent, deliberately plain step applier in the other orientation.
    """
    points = list(mirrored.points)
    bar = list(mirrored.bar)  # (player on roll in mirrored, the mover)
    off = list(mirrored.off)
    for step in play.steps:
        if step.source == 25:
            bar[1] -= 1
        else:
            points[24 - step.source] += 1
        if step.dest == 0:
            off[1] += 1
            continue
        index = 24 - step.dest
        if points[index] == 1:
            assert step.hit
            points[index] = 0
            bar[0] += 1
        points[index] -= 1
    return Position(tuple(points), (bar[0], bar[1]), (off[0], off[1]), mirrored.turn)


@given(positions, dice)
def test_a_mirrored_position_has_mirrored_plays(position: Position, roll) -> None:
    mirrored = position.mirror()
    for play in legal_plays(position, roll):
        assert apply_from_the_other_side(mirrored, play) == play.next_position()


@given(positions, dice, st.randoms(use_true_random=False))
def test_every_canonical_notation_parses_back_to_the_same_play(
    position: Position, roll, rng: random.Random
) -> None:
    plays = legal_plays(position, roll)
    # Parsing re-generates the plays, so a board with 1,500 plays is checked on a sample.
    for play in rng.sample(plays, min(len(plays), 25)):
        again = parse_play(position, roll, str(play))
        assert again == play
        assert str(again) == str(play)


@given(positions, dice)
def test_the_shortcut_for_two_dice_agrees_with_the_full_search(position: Position, roll) -> None:
    d1, d2 = roll
    board = [position.bar[1], *position.points, position.bar[0], position.off[0]]
    found: dict = {}
    rolls = [(d1, d1, d1, d1)] if d1 == d2 else [(d1, d2), (d2, d1)]
    best = [0, 0]
    for order in rolls:
        _search(board, order, 0, 24, 0, [], found, best, set())
    searched = {str(Play(position, key, path)) for key, path in found.items()}
    assert {str(play) for play in legal_plays(position, roll)} == searched


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32))
def test_replaying_a_random_game_from_its_notation_reaches_the_same_position(seed: int) -> None:
    rng = random.Random(seed)
    record = []
    last = None
    for position, roll, play in random_game(rng):
        record.append((roll, str(play) if play else "pass"))
        last = play.position if play else position
    replayed = Position.start()
    final = None
    for roll, text in record:
        play = parse_play(replayed, roll, text)
        final = play.position
        replayed = play.next_position()
    assert final == last
