"""The rating-history chart, drawn as inline SVG on the server: no JavaScript needed.

This module only computes geometry; ``templates/stats/rating_chart.html`` draws it.
Points are spaced evenly by rated match rather than by date, so a burst of matches
in one week is as readable as a slow year.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

WIDTH = 600
HEIGHT = 220
LEFT = 52
RIGHT = 12
TOP = 12
BOTTOM = 28


class _Point(Protocol):
    # Read-only members, so that frozen dataclasses (stats.selectors.RatingPoint) fit.
    @property
    def at(self) -> datetime: ...
    @property
    def rating(self) -> float: ...
    @property
    def change(self) -> float: ...


@dataclass(frozen=True)
class Tick:
    y: float
    label: int


@dataclass(frozen=True)
class RatingChart:
    width: int
    height: int
    points: str
    dots: list[tuple[float, float, float]]
    ticks: list[Tick]
    left: int
    right: float
    top: int
    bottom: float
    first_at: datetime
    last_at: datetime
    low: float
    high: float


def _ticks(low: float, high: float) -> list[int]:
    span = max(high - low, 1.0)
    step = next(s for s in (5, 10, 20, 25, 50, 100, 200, 250, 500, 1000) if span / s <= 6)
    first = int(low // step + 1) * step
    return list(range(first, int(high) + 1, step))


def rating_chart(history: Sequence[_Point]) -> RatingChart | None:
    """Geometry for ``history`` (oldest first), starting from the rating before the first."""
    if not history:
        return None
    ratings = [history[0].rating - history[0].change] + [p.rating for p in history]
    low, high = min(ratings), max(ratings)
    margin = max((high - low) * 0.1, 5.0)
    low, high = low - margin, high + margin
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM
    steps = len(ratings) - 1

    def y_of(rating: float) -> float:
        return round(TOP + (high - rating) / (high - low) * plot_h, 1)

    coords = [
        (round(LEFT + i * plot_w / steps, 1), y_of(rating)) for i, rating in enumerate(ratings)
    ]
    return RatingChart(
        width=WIDTH,
        height=HEIGHT,
        points=" ".join(f"{x},{y}" for x, y in coords),
        dots=[(x, y, rating) for (x, y), rating in zip(coords[1:], ratings[1:], strict=True)]
        if steps <= 100
        else [],
        ticks=[Tick(y_of(t), t) for t in _ticks(low, high)],
        left=LEFT,
        right=WIDTH - RIGHT,
        top=TOP,
        bottom=HEIGHT - BOTTOM,
        first_at=history[0].at,
        last_at=history[-1].at,
        low=low,
        high=high,
    )
