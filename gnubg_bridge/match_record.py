"""gnubg's record of an analysed match, read as the site's decisions.

``decisions_from_games`` turns the games of ``gnubg.match()`` (as the script of
:mod:`gnubg_bridge.analysis` hands them back) into one :class:`Decision` per play (forced
ones and passes too: their rolls' luck is marked), per cube action (double, take, drop)
and per missed double that gnubg marks, with the play made, gnubg's best, their
equities, the mark and the luck of the roll. Kept apart from running gnubg so that the
reading of gnubg's record is one place, checked against gnubg's own text export by
``tests/gnubg_bridge/test_analysis.py``.

Players are numbered as in the ``.mat`` file: 0 is its left column (gnubg's ``X``, the
site's White), 1 its right column (``O``, Black).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "LUCK_MARKS",
    "SKILL_MARKS",
    "Candidate",
    "Decision",
    "Steps",
    "decisions_from_games",
]

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
