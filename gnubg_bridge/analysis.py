"""Analysis of a whole match by GNU Backgammon: every decision, and each player's figures.

``analyse_match`` has gnubg import the ``.mat`` text (the site writes it exactly as gnubg
writes it), analyse it game by game at one level for chequer play and cube decisions
(reporting each game as it starts), and hand back its record (``gnubg.match()``). From
that record this module builds:

- one :class:`Decision` per play (forced ones and passes too: their rolls' luck is
  marked), per cube action (double, take, drop) and per missed double that gnubg marks,
  with the play made, gnubg's best, their equities, the mark and the luck of the roll;
- one :class:`PlayerFigures` per player: the figures of gnubg's ``show statistics match``,
  computed from the same totals as gnubg computes them (in single precision, the C
  ``float`` gnubg uses) and written in gnubg's own format (``PlayerFigures.texts``), so the
  page shows gnubg's numbers to the digit; ``tests/gnubg_bridge/test_analysis.py`` holds
  them to gnubg's printed table.

Players are numbered as in the ``.mat`` file: 0 is its left column (gnubg's ``X``, the
site's White), 1 its right column (``O``, Black).
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .process import PRELUDE, run_script

__all__ = [
    "ERROR_RATINGS",
    "FIGURE_ROWS",
    "LUCK_RATINGS",
    "Candidate",
    "Decision",
    "MatchAnalysis",
    "PlayerFigures",
    "analyse_match",
    "decisions_from_games",
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

#: gnubg's marks of a decision, as its record spells them, and the names the site uses.
#: gnubg 1.07 keeps a record's own mark under ``"skill"``: a move's chequer play, a
#: double's, a take's or a drop's. ``"cube-skill"`` is only on a move, for the cube
#: decision before its roll (a missed double).
SKILL_MARKS = {"doubtful": "doubtful", "bad": "bad", "very bad": "very bad"}
LUCK_MARKS = {
    "verybad": "very unlucky",
    "bad": "unlucky",
    "good": "lucky",
    "verygood": "very lucky",
}

_SCRIPT = """
job = bridge_input()
with open("match.mat", "w") as f:
    f.write(job["mat"])
gnubg.command("set confirm new off")
gnubg.command("set jacoby " + ("on" if job["jacoby"] else "off"))
gnubg.command("set analysis chequerplay evaluation plies %d" % job["plies"])
gnubg.command("set analysis cubedecision evaluation plies %d" % job["plies"])
gnubg.command("import mat match.mat")
count = len(gnubg.match(analysis=0, boards=0, statistics=0, verbose=0)["games"])
gnubg.command("first game")
for number in range(1, count + 1):
    bridge_progress("game %d %d" % (number, count))
    gnubg.command("analyse game")
    if number < count:
        gnubg.command("next game")
match = gnubg.match(analysis=1, boards=1, statistics=1, verbose=1)
length = match["match-info"]["match-length"]
for game in match["games"]:
    info = game["info"]
    score = (info["score-X"], info["score-O"])
    crawford = 1 if info.get("crawford") else 0
    cube, owner = info.get("initial-cube", 1), -1
    for record in game["game"]:
        analysis = record.get("analysis") or {}
        side = "XO".find(record.get("player", ""))
        if "dt-cubeful-eq" in analysis and side >= 0:
            # gnubg gives cubeful figures in match winning chances in match play: the
            # equities (EMG, the cube as it is) come from its own conversion.
            if length:
                info_ = gnubg.cubeinfo(cube, owner, side, length, score, crawford)
                for key in ("nd", "dt"):
                    analysis[key + "-emg"] = gnubg.mwc2eq(analysis[key + "-cubeful-eq"], info_)
            else:
                for key in ("nd", "dt"):
                    analysis[key + "-emg"] = analysis[key + "-cubeful-eq"]
        if record.get("action") == "take":
            cube, owner = cube * 2, side
    # The notation of each play gnubg lists, from the board it was played on.
    for record in game["game"]:
        analysis = record.get("analysis") or {}
        board = record.get("board")
        if record.get("action") != "move" or not board:
            continue
        position = gnubg.positionfromid(board)
        if record.get("move"):
            record["notation"] = gnubg.movetupletostring(record["move"], position)
        moves = list(analysis.get("moves", ()))
        made = analysis.get("imove")
        if made is not None and made >= job["candidates"]:
            # The play made is read by its index: keep it, after the top plays.
            moves[job["candidates"]] = moves[made]
            analysis["imove"] = job["candidates"]
            kept = job["candidates"] + 1
        else:
            kept = job["candidates"]
        # Only what the site reads: the top plays and the one made, without the
        # probabilities of every play gnubg listed (most of the answer, unread).
        analysis["moves"] = moves = [
            {"move": m["move"], "score": m["score"]} for m in moves[:kept]
        ]
        for candidate in moves:
            candidate["notation"] = gnubg.movetupletostring(candidate["move"], position)
bridge_answer(match)
"""

Steps = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Candidate:
    """One play gnubg considered: its notation, its steps (from, to) and its equity.

    Points are numbered from the mover's side: 25 is the bar, 0 borne off. The equity is
    gnubg's score of the play (cubeful, in EMG), the figure it ranks the plays by.
    """

    play: str
    steps: Steps
    equity: float


@dataclass(frozen=True)
class Decision:
    """One decision of one player, as gnubg analysed it.

    - ``game``: the game's number in the match, from 1; ``record``: the index of the
      decision in gnubg's record of that game (``gnubg.match()["games"][game-1]["game"]``),
      which lists the plays, doubles, takes, drops and resignations in the order played.
      A missed double shares its ``record`` with the play that followed it.
    - ``player``: 0 for the ``.mat`` file's left column (White), 1 for its right (Black).
    - ``kind``: ``"play"``, ``"double"``, ``"take"``, ``"drop"`` or ``"no double"`` (a
      roll gnubg says should have been a double: a missed double).
    - ``dice``: the roll played (plays and missed doubles), else ``None``.
    - ``made`` and ``best``: the play or cube action made and gnubg's best, in notation
      (``"13/7 8/7"``, ``"Double"``, ``"No double"``, ``"Take"``, ``"Drop"``), with their
      steps for plays (``made_steps``, ``best_steps``; empty for cube actions).
    - ``made_equity``, ``best_equity``: their equities from the deciding player's side
      (cubeful, EMG, cube at 1); ``equity_lost = best_equity - made_equity`` (>= 0). A
      forced play or a pass has none (``None``, nothing lost): gnubg lists no plays for it.
    - ``mark``: gnubg's mark, ``""``, ``"doubtful"``, ``"bad"`` or ``"very bad"``.
    - ``luck`` and ``luck_mark``: for a play, the luck of its roll (EMG) and gnubg's mark
      of it (``""``, ``"very lucky"``, ``"lucky"``, ``"unlucky"``, ``"very unlucky"``);
      ``None`` and ``""`` for cube decisions.
    - ``candidates``: for a play, the top plays gnubg listed, best first.
    """

    game: int
    record: int
    player: int
    kind: str
    dice: tuple[int, int] | None
    made: str
    made_steps: Steps
    best: str
    best_steps: Steps
    made_equity: float | None
    best_equity: float | None
    equity_lost: float
    mark: str
    luck: float | None
    luck_mark: str
    candidates: tuple[Candidate, ...]


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


@dataclass(frozen=True)
class MatchAnalysis:
    """The analysis of a match: its level, every decision, and each player's figures."""

    plies: int
    jacoby: bool
    match_length: int  # 0 for a money session
    games: int
    decisions: tuple[Decision, ...]
    players: tuple[PlayerFigures, PlayerFigures]
    #: Per game, the action of each record of gnubg's (``"move"``, ``"double"``, ``"take"``,
    #: ``"drop"``, ``"resign"``…): a decision's ``record`` indexes it, so that a caller can
    #: pair gnubg's records with its own.
    records: tuple[tuple[str, ...], ...] = ()


def analyse_match(
    mat_text: str,
    *,
    plies: int,
    jacoby: bool,
    on_game: Callable[[int, int], None] | None = None,
    timeout: float = 3600.0,
    candidates: int = 5,
) -> MatchAnalysis:
    """Have gnubg analyse the match of ``mat_text`` at ``plies`` (0 to 2).

    ``jacoby`` is the match's Jacoby setting (a money session's cube values depend on it:
    the ``.mat`` file does not say). ``on_game(number, count)`` is called as gnubg starts
    analysing each game, so a caller can show "analysing game 3 of 7". ``candidates`` is
    how many of gnubg's plays are kept per play. Raises
    :class:`~gnubg_bridge.process.GnubgError` when gnubg is missing, fails or runs past
    ``timeout`` seconds.
    """
    if not 0 <= plies <= 2:
        raise ValueError(f"plies must be 0, 1 or 2, not {plies}")

    def progress(line: str) -> None:
        word, number, count = line.split()
        if word == "game" and on_game is not None:
            on_game(int(number), int(count))

    answer = run_script(
        PRELUDE + _SCRIPT,
        {"mat": mat_text, "plies": plies, "jacoby": jacoby, "candidates": candidates},
        timeout=timeout,
        on_progress=progress,
    )
    length = int(answer["match-info"]["match-length"])
    games = answer["games"]
    return MatchAnalysis(
        plies=plies,
        jacoby=jacoby,
        match_length=length,
        games=len(games),
        decisions=tuple(decisions_from_games(games, candidates=candidates)),
        players=(
            figures_from_stats(answer["stats"], games, 0, match_length=length),
            figures_from_stats(answer["stats"], games, 1, match_length=length),
        ),
        records=tuple(
            tuple(str(record.get("action", "")) for record in game["game"]) for game in games
        ),
    )


# --------------------------------------------------------------------------- decisions


def _steps(move: Sequence[Sequence[int]] | None) -> Steps:
    return tuple((int(a), int(b)) for a, b in move or ())


def _candidate(raw: Mapping[str, Any]) -> Candidate:
    steps = _steps(raw.get("move"))
    return Candidate(
        play=str(raw.get("notation") or _notation(steps)), steps=steps, equity=raw["score"]
    )


def _notation(steps: Steps) -> str:
    """A plain notation of steps, for a play gnubg gave no text for (a pass: "")."""
    return " ".join(f"{a}/{b}" for a, b in steps)


def decisions_from_games(
    games: Sequence[Mapping[str, Any]], *, candidates: int = 5
) -> list[Decision]:
    """Every analysed decision of ``gnubg.match()``'s games, in the order played.

    A take or drop is judged on the double's analysis, from the taker's side: taking is
    worth minus the doubler's "double, take" equity, dropping minus one. A double is worth
    the smaller of "double, take" and "double, pass" (+1) against "no double".
    """
    decisions: list[Decision] = []
    for number, game in enumerate(games, start=1):
        cube: Mapping[str, Any] | None = None  # the analysis of the last double
        for index, record in enumerate(game["game"]):
            action = record.get("action")
            player = "XO".index(record["player"]) if record.get("player") in ("X", "O") else -1
            analysis: Mapping[str, Any] = record.get("analysis") or {}
            base = {"game": number, "record": index, "player": player}
            if action == "move" and "cube-skill" in analysis and "dt-emg" in analysis:
                no_double, double = _cube_options(analysis)
                decisions.append(
                    Decision(
                        **base,
                        kind="no double",
                        dice=_dice(record),
                        made="No double",
                        made_steps=(),
                        best="Double",
                        best_steps=(),
                        made_equity=no_double,
                        best_equity=max(no_double, double),
                        equity_lost=max(no_double, double) - no_double,
                        mark=SKILL_MARKS.get(analysis["cube-skill"], ""),
                        luck=None,
                        luck_mark="",
                        candidates=(),
                    )
                )
            if action == "move" and ("moves" in analysis or "luck-value" in analysis):
                decisions.append(_play(base, record, analysis, candidates))
            elif action == "double" and "dt-emg" in analysis:
                cube = analysis
                no_double, double = _cube_options(analysis)
                best_is_double = double >= no_double
                decisions.append(
                    Decision(
                        **base,
                        kind="double",
                        dice=None,
                        made="Double",
                        made_steps=(),
                        best="Double" if best_is_double else "No double",
                        best_steps=(),
                        made_equity=double,
                        best_equity=max(no_double, double),
                        equity_lost=max(no_double, double) - double,
                        mark=SKILL_MARKS.get(analysis.get("skill", ""), ""),
                        luck=None,
                        luck_mark="",
                        candidates=(),
                    )
                )
            elif action in ("take", "drop") and cube is not None:
                take, drop = -float(cube["dt-emg"]), -1.0
                made_equity = take if action == "take" else drop
                own = analysis.get("skill", "")
                decisions.append(
                    Decision(
                        **base,
                        kind=str(action),
                        dice=None,
                        made=str(action).title(),
                        made_steps=(),
                        best="Take" if take >= drop else "Drop",
                        best_steps=(),
                        made_equity=made_equity,
                        best_equity=max(take, drop),
                        equity_lost=max(take, drop) - made_equity,
                        mark=SKILL_MARKS.get(own, ""),
                        luck=None,
                        luck_mark="",
                        candidates=(),
                    )
                )
                cube = None
    return decisions


def _play(
    base: Mapping[str, int],
    record: Mapping[str, Any],
    analysis: Mapping[str, Any],
    candidates: int,
) -> Decision:
    """A play against gnubg's best, and the luck of its roll.

    A forced play, or none at all (a pass), has no list of plays in gnubg's record, so no
    equity; its roll's luck is marked all the same, and so it is a decision here too.
    """
    steps = _steps(record.get("move"))
    made = str(record.get("notation") or _notation(steps))
    moves = analysis.get("moves") or ()
    luck = analysis.get("luck-value")
    best = _candidate(moves[0]) if moves else Candidate(made, steps, 0.0)
    made_index = analysis.get("imove")
    made_equity = float(moves[made_index]["score"]) if made_index is not None else best.equity
    return Decision(
        game=base["game"],
        record=base["record"],
        player=base["player"],
        kind="play",
        dice=_dice(record),
        made=made,
        made_steps=steps,
        best=best.play,
        best_steps=best.steps,
        made_equity=made_equity if moves else None,
        best_equity=best.equity if moves else None,
        equity_lost=best.equity - made_equity if moves else 0.0,
        mark=SKILL_MARKS.get(analysis.get("skill", ""), ""),
        luck=luck if isinstance(luck, float) and abs(luck) < 100 else None,
        luck_mark=LUCK_MARKS.get(analysis.get("luck", ""), ""),
        candidates=tuple(_candidate(m) for m in moves[:candidates]),
    )


def _cube_options(analysis: Mapping[str, Any]) -> tuple[float, float]:
    """No double, and double (the taker's best answer: take, or pass at +1)."""
    return float(analysis["nd-emg"]), min(float(analysis["dt-emg"]), 1.0)


def _dice(record: Mapping[str, Any]) -> tuple[int, int] | None:
    dice = record.get("dice")
    return (int(dice[0]), int(dice[1])) if dice else None


# --------------------------------------------------------------------------- figures


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
