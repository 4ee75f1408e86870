"""Position builders shared by the rules tests: random legal boards and random games."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from gammon import Color, Position, legal_plays


def random_position(rng: random.Random, checkers: int = 15) -> Position:
    """Any board that could occur: each side's checkers spread over bar, points and off."""
    points = [0] * 24
    bar = [0, 0]
    off = [0, 0]
    for side in (0, 1):
        sign = 1 if side == 0 else -1
        weight_off = rng.choice([0, 0, 0.1, 0.5, 0.9])
        weight_bar = rng.choice([0, 0, 0.05, 0.2])
        home_bias = rng.random() < 0.3
        for _ in range(checkers):
            roll = rng.random()
            if roll < weight_bar:
                bar[side] += 1
                continue
            if roll < weight_bar + weight_off:
                off[side] += 1
                continue
            for _attempt in range(50):
                point = rng.randint(1, 6) if home_bias else rng.randint(1, 24)
                index = point - 1 if side == 0 else 24 - point
                if points[index] * sign >= 0:
                    points[index] += sign
                    break
            else:
                off[side] += 1
    turn = rng.choice([Color.WHITE, Color.BLACK])
    return Position(tuple(points), (bar[0], bar[1]), (off[0], off[1]), turn)


def random_game(rng: random.Random, start: Position | None = None, turns: int = 400):
    """Yield ``(position, dice, play)`` for each turn of a random game until someone wins."""
    position = start or Position.start()
    for _ in range(turns):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = legal_plays(position, dice)
        play = rng.choice(plays) if plays else None
        yield position, dice, play
        after = play.position if play else position
        if not after.bar[0] and all(n <= 0 for n in after.points):
            return
        position = after.mirror()


positions = st.builds(random_position, st.randoms(use_true_random=False))
dice = st.tuples(st.integers(1, 6), st.integers(1, 6))
