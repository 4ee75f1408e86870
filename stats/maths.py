"""The numbers behind the statistics: FIBS ratings, percentages and the chi-square test.

Pure Python with no Django import, so that the formulas can be checked against
hand-computed values on their own.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import ROUND_DOWN, Decimal

#: Every player starts here, with no experience.
INITIAL_RATING = 1500.0
INITIAL_EXPERIENCE = 0

_HUNDRED = Decimal(100)
_CENT = Decimal("0.01")


def percentage(count: int, total: int) -> Decimal:
    """``count`` as a percentage of ``total``, with two decimals, truncated.

    Truncated rather than rounded, as in the issue's example (1047196 of 2094531 is
    49.9966… and reads ``49.99 %``): a share is then never shown larger than it is, so
    a side cannot read 100.00 % while the other has won games. A zero total gives 0.00.

    >>> percentage(1046272, 2094531), percentage(1047196, 2094531), percentage(1063, 2094531)
    (Decimal('49.95'), Decimal('49.99'), Decimal('0.05'))
    >>> percentage(0, 0)
    Decimal('0.00')
    """
    if total <= 0:
        return Decimal("0.00")
    return (Decimal(count) * _HUNDRED / Decimal(total)).quantize(_CENT, rounding=ROUND_DOWN)


# --------------------------------------------------------------------------- ratings


def experience_factor(experience: int) -> float:
    """FIBS's K: how much faster a newcomer's rating moves.

    We use ``max(1, 5 - experience / 100)`` with the experience *before* the match,
    the variant in the FIBS server's own ``help formula`` page. The other published
    variant, ``max(1, 5 - (experience + n) / 100)`` (the MacFIBS glossary), lets the
    length of the match being rated damp its own result, so a newcomer's first
    25-point match would count less per point than their first 1-point match. With
    ours K depends only on what the player had done before, and it reaches 1 at
    400 experience points either way.
    """
    return max(1.0, 5.0 - experience / 100.0)


@dataclass(frozen=True, slots=True)
class RatingChange:
    """What a decided match does to both players (``gain`` is added, ``loss`` subtracted)."""

    upset_probability: float
    gain: float
    loss: float


def fibs_rating_change(
    *,
    winner_rating: float,
    loser_rating: float,
    winner_experience: int,
    loser_experience: int,
    length: int,
) -> RatingChange:
    """The FIBS rating change for a ``length``-point match.

    ``D = winner - loser``; ``P = 1 / (10 ** (D * sqrt(n) / 2000) + 1)`` is the chance the
    loser had of winning (the underdog's chance when the favourite wins, and one minus it
    when the underdog wins: the same expression with ``D`` signed). The winner gains
    ``4 * K_winner * sqrt(n) * P``; the loser loses ``4 * K_loser * sqrt(n) * P``.

    >>> change = fibs_rating_change(winner_rating=1500, loser_rating=1500,
    ...     winner_experience=400, loser_experience=400, length=1)
    >>> change.gain, change.loss
    (2.0, 2.0)
    """
    if length < 1:
        raise ValueError("only matches of one point or more are rated")
    root = math.sqrt(length)
    difference = winner_rating - loser_rating
    upset = 1.0 / (10.0 ** (difference * root / 2000.0) + 1.0)
    base = 4.0 * root * upset
    return RatingChange(
        upset_probability=upset,
        gain=base * experience_factor(winner_experience),
        loss=base * experience_factor(loser_experience),
    )


# --------------------------------------------------------------------------- chi-square

_EPSILON = 1e-15
_TINY = 1e-300
_MAX_ITERATIONS = 10_000


def _lower_gamma_series(a: float, x: float) -> float:
    """The regularized lower incomplete gamma P(a, x) by its series (good for x < a + 1)."""
    term = 1.0 / a
    total = term
    n = a
    for _ in range(_MAX_ITERATIONS):
        n += 1.0
        term *= x / n
        total += term
        if abs(term) < abs(total) * _EPSILON:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _upper_gamma_fraction(a: float, x: float) -> float:
    """The regularized upper incomplete gamma Q(a, x) by Lentz's continued fraction."""
    b = x + 1.0 - a
    c = 1.0 / _TINY
    d = 1.0 / b
    h = d
    for i in range(1, _MAX_ITERATIONS):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        if abs(d) < _TINY:
            d = _TINY
        c = b + an / c
        if abs(c) < _TINY:
            c = _TINY
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _EPSILON:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def regularized_upper_gamma(a: float, x: float) -> float:
    """Q(a, x) = Γ(a, x) / Γ(a), for a > 0 and x ≥ 0 (Numerical Recipes' split)."""
    if a <= 0:
        raise ValueError("a must be positive")
    if x < 0:
        raise ValueError("x must not be negative")
    if x == 0:
        return 1.0
    if x < a + 1.0:
        return max(0.0, 1.0 - _lower_gamma_series(a, x))
    return min(1.0, _upper_gamma_fraction(a, x))


def chi_square_sf(statistic: float, degrees_of_freedom: int) -> float:
    """P(X ≥ statistic) for X chi-square distributed: the test's p-value.

    >>> round(chi_square_sf(3.841458820694124, 1), 6)
    0.05
    """
    return regularized_upper_gamma(degrees_of_freedom / 2.0, statistic / 2.0)


@dataclass(frozen=True, slots=True)
class ChiSquare:
    statistic: float
    degrees_of_freedom: int
    p_value: float | None


def chi_square_test(observed: list[int], probabilities: list[float]) -> ChiSquare:
    """Pearson's goodness-of-fit test of ``observed`` counts against ``probabilities``.

    No observations give no p-value (``None``): there is nothing to test yet.
    """
    if len(observed) != len(probabilities) or len(observed) < 2:
        raise ValueError("need matching counts and probabilities for two or more categories")
    total = sum(observed)
    freedom = len(observed) - 1
    if total == 0:
        return ChiSquare(0.0, freedom, None)
    statistic = sum(
        (count - total * p) ** 2 / (total * p)
        for count, p in zip(observed, probabilities, strict=True)
    )
    return ChiSquare(statistic, freedom, chi_square_sf(statistic, freedom))
