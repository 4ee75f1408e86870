"""A chouette game as a money-session ``.mat`` file: the box against the captain.

The board is an ordinary one-game money match, so its file is the matches app's
(:func:`matches.export.export_mat`); what the format cannot say in its records (the
other members, their stakes, who dropped the box's double, a new captain) goes into
the header's comment lines, which gnubg's import keeps as the match's comment
without a warning. The ``[Event]`` line names the chouette and the game.

The comments are written in English, as the rest of the file ("Doubles", "Wins"):
the file is read by programs and by players of any language alike.
"""

from __future__ import annotations

from dataclasses import dataclass

from accounts.models import User
from gammon import chouette as rules

from . import state as cube
from .models import ChouetteGame, Decision, Result


@dataclass(frozen=True)
class GameHeader:
    """What the file says of a chouette game beyond the board's records."""

    event: str
    comments: tuple[str, ...]


def _points(n: int) -> str:
    return f"{n:+d} point" if abs(n) == 1 else f"{n:+d} points"


def game_header(game: ChouetteGame) -> GameHeader:
    """The ``[Event]`` and the comments of ``game``'s file: the box, the captain (and
    each change of captain after a drop), the line, and each member's stake, answers
    to the box's doubles and, once settled, their points."""
    decisions = list(game.decisions.order_by("seq"))
    side = cube.start(game)
    ids = {side.box, *(m.player for m in side.members)}
    names = dict(User.objects.filter(pk__in=ids).values_list("pk", "username"))
    answers: dict[int, list[str]] = {m.player: [] for m in side.members}
    captains: list[str] = []
    for decision in decisions:
        before = side
        side = cube.apply(side, decision)
        if decision.kind == Decision.Kind.ANSWER:
            value = before.member(decision.player_id).stake * 2
            verb = "took" if decision.yes else "dropped"
            late = " (no answer in time)" if decision.timed_out else ""
            answers[decision.player_id].append(f"{verb} the box's double to {value}{late}")
        if side.captain != before.captain and side.stage is not rules.Stage.OVER:
            captains.append(
                f"{names[before.captain]} dropped; {names[side.captain]} "
                "captained the rest of the game"
            )
    results = {r.player_id: r for r in Result.objects.filter(game=game)}
    title = f"Chouette {game.chouette_id}, game {game.number}"
    first = cube.start(game)
    comments = [
        f"{title}: the box (White) against the captain (Black), "
        "each team member playing the box for their own stake.",
        f"Box: {names[first.box]}",
        f"Captain: {names[first.captain]}",
        *(f"Captain change: {text}" for text in captains),
        "Line: " + ", ".join(names[m.player] for m in first.members),
    ]
    for member in side.members:
        parts = [f"stake {member.stake}", *answers[member.player]]
        result = results.get(member.player)
        if result is not None:
            parts.append(_points(result.points))
        comments.append(f"{names[member.player]}: " + ", ".join(parts))
    box = results.get(side.box)
    if box is not None:
        comments.append(f"{names[side.box]} (box): {_points(box.points)}")
    elif game.settled_at is None:
        comments.append("The game is still being played.")
    return GameHeader(event=title, comments=tuple(comments))


def mat_filename(game: ChouetteGame) -> str:
    return f"chouette-{game.chouette_id}-game-{game.number}.mat"
