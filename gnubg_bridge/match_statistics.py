"""A player's figures of gnubg's ``show statistics match``, from its totals.

``figures_from_stats`` computes one :class:`PlayerFigures` per player from the same
totals as gnubg (in single precision, the C ``float`` gnubg uses) and writes each in
gnubg's own format (``PlayerFigures.texts``), so the page shows gnubg's numbers to the
digit. Kept apart from running gnubg and from reading its decisions because it is its own
arithmetic: gnubg's ``getMWCFromError`` and ``formatGS`` redone operation by operation;
``tests/gnubg_bridge/test_analysis.py`` holds it to gnubg's printed table.
"""

from __future__ import annotations

import struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .match_record import LUCK_MARKS

__all__ = [
    "ERROR_RATINGS",
    "FIGURE_ROWS",
    "LUCK_RATINGS",
    "NOT_APPLICABLE",
    "PlayerFigures",
    "f32",
    "figures_from_stats",
    "row_labels",
]

#: gnubg's names of its error ratings, from its error per decision (``GetRating``).
ERROR_RATINGS = (
    "Awful!",
    "Beginner",
    "Casual player",
    "Intermediate",
    "Advanced",
    "Expert",
    "World class",
    "Supernatural",
)
#: The error per decision (EMG) below which each rating of ``ERROR_RATINGS`` is given,
#: from the best down (gnubg's ``arThrsRating``).
_RATING_THRESHOLDS = (1e38, 0.035, 0.026, 0.018, 0.012, 0.008, 0.005, 0.002)
#: gnubg's names of its luck ratings, from very unlucky to very lucky (``getLuckRating``).
LUCK_RATINGS = ("Go to bed", "Bad dice, man!", "None", "Good dice, man!", "Go to Las Vegas")
#: What gnubg prints where a figure has nothing to stand on (no decision of that kind).
NOT_APPLICABLE = "n/a"


@dataclass(frozen=True)
class PlayerFigures:
    """A player's figures from gnubg's statistics of the whole match.

    Errors are given as gnubg stores them: positive, the equity given away (gnubg prints
    them negated). ``*_emg`` figures are normalised equity (EMG); ``*_mwc`` are match
    winning chances in match play (a fraction: 0.01 is 1%) and points in a money session.
    Rates are per decision: chequer play per unforced move, cube per close or actual cube
    decision, overall per both; ``snowie_error_rate`` is the overall error (mEMG, positive)
    per move of both players, as gnubg's "Snowie error rate". ``luck_*`` figures are
    positive for good luck. ``actual_result`` and ``luck_adjusted_result`` are gnubg's
    results (in match play the match winning chances gained, +0.5 for a match won; in a
    session points per game), ``None`` when gnubg shows none. ``texts`` holds each figure
    as gnubg's table prints it, under gnubg's own label (see :data:`FIGURE_ROWS`).

    ``pr`` is the performance rating as XG and PlayStrategy report it::

        PR = 500 × (chequer error EMG + cube error EMG) / (unforced moves + close cube decisions)

    i.e. 500 × the mean equity error per unforced decision, which is half gnubg's overall
    "Error rate mEMG". It is ``None`` when the player made no unforced decision.
    """

    total_moves: int
    unforced_moves: int
    marked_doubtful: int
    marked_bad: int
    marked_very_bad: int
    total_cube_decisions: int
    close_cube_decisions: int
    doubles: int
    takes: int
    passes: int
    chequer_error_emg: float
    chequer_error_mwc: float
    chequer_rate_emg: float
    chequer_rate_mwc: float
    cube_error_emg: float
    cube_error_mwc: float
    cube_rate_emg: float
    cube_rate_mwc: float
    overall_error_emg: float
    overall_error_mwc: float
    overall_rate_emg: float
    overall_rate_mwc: float
    snowie_error_rate: float | None
    rolls_very_lucky: int
    rolls_lucky: int
    rolls_unlucky: int
    rolls_very_unlucky: int
    luck_total_emg: float
    luck_total_mwc: float
    luck_rate_emg: float | None
    luck_rate_mwc: float | None
    actual_result: float | None
    luck_adjusted_result: float | None
    chequer_rating: str
    cube_rating: str
    overall_rating: str
    luck_rating: str
    pr: float | None
    texts: Mapping[str, Mapping[str, str]]


def f32(value: float) -> float:
    """``value`` rounded to single precision: gnubg computes its statistics in C floats."""
    result: float = struct.unpack("f", struct.pack("f", value))[0]
    return result


def _div(total: float, count: int) -> float:
    return f32(total / count) if count else 0.0


def _error_rating(rate: float) -> str:
    for index in range(len(ERROR_RATINGS) - 1, -1, -1):
        if rate < f32(_RATING_THRESHOLDS[index]):
            return ERROR_RATINGS[index]
    return "N/A"


def _luck_rating(rate: float) -> str:
    if rate < f32(-0.06):
        return LUCK_RATINGS[0]
    if rate < f32(-0.03):
        return LUCK_RATINGS[1]
    if rate > f32(0.06):
        return LUCK_RATINGS[4]
    if rate > f32(0.03):
        return LUCK_RATINGS[3]
    return LUCK_RATINGS[2]


#: The figures the site shows, by section of gnubg's table, under gnubg's labels.
#: ``{total}`` and ``{rate}`` stand for "EMG (MWC)" and "mEMG (MWC)" in match play,
#: "EMG (Points)" and "mEMG (Points)" in a money session.
FIGURE_ROWS: dict[str, tuple[str, ...]] = {
    "Chequerplay statistics": (
        "Total moves",
        "Unforced moves",
        "Moves marked doubtful",
        "Moves marked bad",
        "Moves marked very bad",
        "Error total {total}",
        "Error rate {rate}",
        "Chequerplay rating",
    ),
    "Luck statistics": (
        "Rolls marked very lucky",
        "Rolls marked lucky",
        "Rolls marked unlucky",
        "Rolls marked very unlucky",
        "Luck total {total}",
        "Luck rate {rate}",
        "Luck rating",
    ),
    "Cube statistics": (
        "Total cube decisions",
        "Close or actual cube decisions",
        "Doubles",
        "Takes",
        "Passes",
        "Error total {total}",
        "Error rate {rate}",
        "Cube decision rating",
    ),
    "Overall statistics": (
        "Error total {total}",
        "Error rate {rate}",
        "Snowie error rate",
        "Overall rating",
        "Actual result",
        "Luck adjusted result",
    ),
}


def row_labels(match_length: int) -> dict[str, tuple[str, ...]]:
    """``FIGURE_ROWS`` with the units of a match (``match_length`` > 0) or a session."""
    total, rate = ("EMG (MWC)", "mEMG (MWC)") if match_length else ("EMG (Points)", "mEMG (Points)")
    return {
        section: tuple(label.format(total=total, rate=rate) for label in labels)
        for section, labels in FIGURE_ROWS.items()
    }


def _count_luck(games: Sequence[Mapping[str, Any]], player: int) -> dict[str, int]:
    """Each luck mark's count for ``player``, from the records.

    gnubg's Python gives player X's counts for both players in its statistics
    (``marked-rolls``), so they are counted here from the marks of the rolls.
    """
    counts = dict.fromkeys(LUCK_MARKS, 0)
    side = "XO"[player]
    for game in games:
        for record in game["game"]:
            mark = (record.get("analysis") or {}).get("luck")
            if record.get("player") == side and mark in counts:
                counts[mark] += 1
    return counts


def figures_from_stats(
    stats: Mapping[str, Any],
    games: Sequence[Mapping[str, Any]],
    player: int,
    *,
    match_length: int,
) -> PlayerFigures:
    """Player ``player``'s figures from ``gnubg.match()``'s match ``stats``.

    Each figure is computed as gnubg's ``getMWCFromError`` and ``formatGS`` compute it,
    operation by operation in single precision, so that it rounds as gnubg's does.
    """
    both = (stats["X"], stats["O"])
    mine = both[player]
    moves, cube, dice = mine["moves"], mine["cube"], mine["dice"]
    match = bool(match_length)

    unforced = int(moves["unforced-moves"])
    total_moves = int(moves["total-moves"])
    close = int(cube["close-cube"])
    chequer = (f32(moves["error-skill"]), f32(moves["error-cost"]))
    kinds = (
        "missed-double-below-cp",
        "missed-double-above-cp",
        "wrong-double-below-dp",
        "wrong-double-above-tg",
        "wrong-take",
        "wrong-drop",
    )
    cube_total = []
    for suffix in ("skill", "cost"):
        total = 0.0
        for kind in kinds:
            total = f32(total + cube[f"err-{kind}-{suffix}"])
        cube_total.append(total)
    overall = tuple(f32(a + b) for a, b in zip(chequer, cube_total, strict=True))
    chequer_rate = tuple(_div(value, unforced) for value in chequer)
    cube_rate = tuple(_div(value, close) for value in cube_total)
    overall_rate = tuple(_div(value, unforced + close) for value in overall)
    everyone = int(both[0]["moves"]["total-moves"]) + int(both[1]["moves"]["total-moves"])
    snowie = f32(-overall[0] / everyone) if everyone else None
    luck = (f32(dice["luck"]), f32(dice["luck-cost"]))
    luck_rate = tuple(_div(value, total_moves) for value in luck) if total_moves else None
    results = [f32(side["dice"].get("actual-result", 0.0)) for side in both]
    shows_result = any(value > 0 for value in results)
    actual = results[player] if shows_result else None
    adjusted = f32(dice["luck-adjusted-result"]) if shows_result else None
    marks = moves["marked"]
    luck_marks = _count_luck(games, player)

    def total_text(normalised: float, unnormalised: float) -> str:
        if match:
            return f"     {normalised:+6.3f} ({f32(unnormalised * 100):+7.3f}%)"
        return f"     {normalised:+6.3f} ({unnormalised:+7.3f})"

    def rate_text(normalised: float, unnormalised: float) -> str:
        if match:
            return f"   {f32(1000 * normalised):+6.1f}   ({f32(unnormalised * 100):+7.3f}%)"
        return f"   {f32(1000 * normalised):+6.1f}   ({unnormalised:+7.3f})"

    def result_text(value: float) -> str:
        return f"{f32(100 * value):+7.2f}%" if match else f"{value:+7.3f}"

    chequer_rating = _error_rating(chequer_rate[0]) if unforced else NOT_APPLICABLE
    cube_rating = _error_rating(cube_rate[0]) if close else NOT_APPLICABLE
    overall_rating = _error_rating(overall_rate[0]) if unforced + close else NOT_APPLICABLE
    luck_rating = _luck_rating(luck_rate[0]) if luck_rate else NOT_APPLICABLE
    labels = row_labels(match_length)
    cells = {
        "Chequerplay statistics": (
            f"{total_moves:3d}",
            f"{unforced:3d}",
            f"{int(marks['doubtful']):3d}",
            f"{int(marks['bad']):3d}",
            f"{int(marks['very bad']):3d}",
            total_text(-chequer[0], -chequer[1]),
            rate_text(-chequer_rate[0], -chequer_rate[1]),
            chequer_rating,
        ),
        "Luck statistics": (
            f"{luck_marks['verygood']:3d}",
            f"{luck_marks['good']:3d}",
            f"{luck_marks['bad']:3d}",
            f"{luck_marks['verybad']:3d}",
            total_text(luck[0], luck[1]),
            rate_text(luck_rate[0], luck_rate[1]) if luck_rate else NOT_APPLICABLE,
            luck_rating,
        ),
        "Cube statistics": (
            f"{int(cube['total-cube']):3d}",
            f"{close:3d}",
            f"{int(cube['n-doubles']):3d}",
            f"{int(cube['n-takes']):3d}",
            f"{int(cube['n-drops']):3d}",
            total_text(-cube_total[0], -cube_total[1]),
            rate_text(-cube_rate[0], -cube_rate[1]),
            cube_rating,
        ),
        "Overall statistics": (
            total_text(-overall[0], -overall[1]),
            rate_text(-overall_rate[0], -overall_rate[1]),
            rate_text(snowie, 0.0) if snowie is not None else NOT_APPLICABLE,
            overall_rating,
            result_text(actual) if actual is not None else "",
            result_text(adjusted) if adjusted is not None else "",
        ),
    }
    texts = {
        section: {
            label: cell
            for label, cell in zip(labels[section], cells[section], strict=True)
            if cell != ""
        }
        for section in labels
    }
    return PlayerFigures(
        total_moves=total_moves,
        unforced_moves=unforced,
        marked_doubtful=int(marks["doubtful"]),
        marked_bad=int(marks["bad"]),
        marked_very_bad=int(marks["very bad"]),
        total_cube_decisions=int(cube["total-cube"]),
        close_cube_decisions=close,
        doubles=int(cube["n-doubles"]),
        takes=int(cube["n-takes"]),
        passes=int(cube["n-drops"]),
        chequer_error_emg=chequer[0],
        chequer_error_mwc=chequer[1],
        chequer_rate_emg=chequer_rate[0],
        chequer_rate_mwc=chequer_rate[1],
        cube_error_emg=cube_total[0],
        cube_error_mwc=cube_total[1],
        cube_rate_emg=cube_rate[0],
        cube_rate_mwc=cube_rate[1],
        overall_error_emg=overall[0],
        overall_error_mwc=overall[1],
        overall_rate_emg=overall_rate[0],
        overall_rate_mwc=overall_rate[1],
        snowie_error_rate=f32(1000 * -snowie) if snowie is not None else None,
        rolls_very_lucky=luck_marks["verygood"],
        rolls_lucky=luck_marks["good"],
        rolls_unlucky=luck_marks["bad"],
        rolls_very_unlucky=luck_marks["verybad"],
        luck_total_emg=luck[0],
        luck_total_mwc=luck[1],
        luck_rate_emg=luck_rate[0] if luck_rate else None,
        luck_rate_mwc=luck_rate[1] if luck_rate else None,
        actual_result=actual,
        luck_adjusted_result=adjusted,
        chequer_rating=chequer_rating,
        cube_rating=cube_rating,
        overall_rating=overall_rating,
        luck_rating=luck_rating,
        pr=500 * overall_rate[0] if unforced + close else None,
        texts=texts,
    )
