"""Analysis of a whole match by GNU Backgammon: every decision, and each player's figures.

``analyse_match`` has gnubg import the ``.mat`` text (the site writes it exactly as gnubg
writes it), analyse it game by game at one level for chequer play and cube decisions
(reporting each game as it starts), and hand back its record (``gnubg.match()``). From
that record it builds the :class:`MatchAnalysis`:

- one :class:`~gnubg_bridge.match_record.Decision` per decision gnubg analysed
  (:mod:`gnubg_bridge.match_record` reads gnubg's record);
- one :class:`~gnubg_bridge.match_statistics.PlayerFigures` per player, the figures of
  gnubg's ``show statistics match`` to the digit (:mod:`gnubg_bridge.match_statistics`).

The names of those two modules are exported here too, so that callers import the
analysis from one place.

Players are numbered as in the ``.mat`` file: 0 is its left column (gnubg's ``X``, the
site's White), 1 its right column (``O``, Black).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .match_record import (
    LUCK_MARKS,
    SKILL_MARKS,
    Candidate,
    Decision,
    decisions_from_games,
)
from .match_statistics import (
    ERROR_RATINGS,
    FIGURE_ROWS,
    LUCK_RATINGS,
    NOT_APPLICABLE,
    PlayerFigures,
    figures_from_stats,
    row_labels,
)
from .process import PRELUDE, run_script

__all__ = [
    "ERROR_RATINGS",
    "FIGURE_ROWS",
    "LUCK_MARKS",
    "LUCK_RATINGS",
    "NOT_APPLICABLE",
    "SKILL_MARKS",
    "Candidate",
    "Decision",
    "MatchAnalysis",
    "PlayerFigures",
    "analyse_match",
    "decisions_from_games",
    "figures_from_stats",
    "row_labels",
]

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
        keep=True,  # one gnubg kept for every match a worker analyses: its start paid once
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
