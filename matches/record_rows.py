"""The game page's record: its lines, laid out in two columns, and the plies the ◀ ▶
buttons step to.

A line is a turn (the roll and the move played with it: ``52: 13/8 13/11``) or an action
(a double, a take, a resignation…), in the order they happened. A turn's line covers two
plies of the record, its ROLL's and its MOVE's; the line leads to the position after the
move, and a reader of the record (the analysis marks a cube decision at the roll's ply)
may ask the steps to stop at the roll too.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from gammon import Color

from .models import Game, GameEvent, Match


@dataclass
class RecordLine:
    """One line: who (``color`` None for a note of neither player, the opening roll), what,
    and ``ply``, the ply of the position it leads to. ``plies`` are every ply the line
    stands for: a turn's roll and its move, else its one event."""

    color: int | None
    name: str
    text: str
    ply: int = 0
    plies: tuple[int, ...] = field(default=())


@dataclass
class RecordRow:
    """One numbered line of the two-column record (White, Black), or a note across both."""

    number: int = 0
    white: RecordLine | None = None
    black: RecordLine | None = None
    note: RecordLine | None = None


def record_rows(lines: list[RecordLine]) -> list[RecordRow]:
    """The record in two columns, as ``.mat`` files lay it out: a row per White-Black pair.

    A row ends when its Black cell is filled or White acts again; a line of neither
    player (the opening roll) is a note of its own.
    """
    rows: list[RecordRow] = []
    current: RecordRow | None = None
    number = 0
    for line in lines:
        if line.color is None:
            rows.append(RecordRow(note=line))
            current = None
            continue
        white = line.color == int(Color.WHITE)
        if (
            current is None
            or (white and (current.white or current.black))
            or (not white and current.black)
        ):
            number += 1
            current = RecordRow(number=number)
            rows.append(current)
        if white:
            current.white = line
        else:
            current.black = line
    return rows


def record_steps(
    lines: list[RecordLine], game: Game, shown: int | None, stops: Iterable[int] = ()
) -> dict[str, int | None]:
    """The plies the ◀ ▶ buttons lead to from the position shown (0: the current one):
    each line's position, and each of ``stops`` (a roll's ply, where a cube decision was
    made before it)."""
    plies = sorted({p for p in (*(line.ply for line in lines), *stops) if p and p < game.ply})
    at = shown if shown is not None else game.ply
    earlier = [p for p in plies if p < at]
    later = [p for p in plies if p > at]
    return {
        "prev": earlier[-1] if earlier else None,
        "next": later[0] if later else (0 if shown is not None else None),
    }


def _dice_text(event: GameEvent) -> str:
    """The roll as ``.mat`` files write it, the higher die first: ``52``."""
    if not event.dice:
        return ""
    return "".join(str(d) for d in sorted((event.die1 or 0, event.die2 or 0), reverse=True))


def resign_offer_text(level: int) -> str:
    """The record's line for an offer to resign ``level`` (1, 2, 3)."""
    texts = {
        1: _("Offers to resign a single game"),
        2: _("Offers to resign a gammon"),
        3: _("Offers to resign a backgammon"),
    }
    return str(texts.get(level, texts[1]))


def record_lines(events: list[GameEvent], match: Match) -> list[RecordLine]:
    """The game record, one line per turn or cube action, in the order it happened.

    A roll and the move played with it make one line: ``52: 13/8 13/11``.
    """
    names = {0: match.white.public_name, 1: match.black.public_name}
    lines: list[RecordLine] = []
    pending_roll: RecordLine | None = None
    for event in events:
        name = names.get(event.color, "") if event.color is not None else ""
        kind = event.kind
        if kind in (GameEvent.Kind.MOVE, GameEvent.Kind.PASS):
            text = event.notation
            if kind == GameEvent.Kind.PASS or text == "pass":
                text = _("pass")
            line_text = f"{_dice_text(event)}: {text}"
            if pending_roll is not None and pending_roll.color == event.color:
                pending_roll.text = line_text
                pending_roll.ply = event.ply
                pending_roll.plies = (*pending_roll.plies, event.ply)
                pending_roll = None
            else:
                lines.append(RecordLine(event.color, name, line_text, event.ply, (event.ply,)))
            continue
        pending_roll = None
        if kind == GameEvent.Kind.OPENING:
            text = _("Opening roll: %(white)s %(wd)s, %(black)s %(bd)s.") % {
                "white": names[0],
                "wd": event.die1,
                "black": names[1],
                "bd": event.die2,
            }
            if event.value:
                text += " " + _("Automatic double: the cube is at %(value)s.") % {
                    "value": event.value
                }
            lines.append(RecordLine(None, "", text))
        elif kind == GameEvent.Kind.ROLL:
            pending_roll = RecordLine(event.color, name, f"{_dice_text(event)}:")
            lines.append(pending_roll)
        elif kind == GameEvent.Kind.DOUBLE:
            lines.append(RecordLine(event.color, name, _("Doubles => %(value)s") % {
                "value": event.value
            }))  # fmt: skip
        elif kind == GameEvent.Kind.TAKE:
            lines.append(RecordLine(event.color, name, _("Takes")))
        elif kind == GameEvent.Kind.DROP:
            lines.append(RecordLine(event.color, name, _("Drops")))
        elif kind == GameEvent.Kind.RESIGN:
            if event.notation == "match":
                text = _("Resigns the match")
            else:
                text = _("Resigns the game")
            lines.append(RecordLine(event.color, name, text))
        elif kind == GameEvent.Kind.RESIGN_OFFER:
            lines.append(RecordLine(event.color, name, resign_offer_text(event.value or 1)))
        elif kind == GameEvent.Kind.RESIGN_DECLINE:
            lines.append(RecordLine(event.color, name, _("Declines the resignation")))
        elif kind == GameEvent.Kind.RESIGN_ACCEPT:
            lines.append(RecordLine(event.color, name, _("Accepts the resignation")))
        elif kind == GameEvent.Kind.TIMEOUT:
            lines.append(RecordLine(event.color, name, _("Runs out of time")))
        elif kind == GameEvent.Kind.DRAW_OFFER:
            lines.append(RecordLine(event.color, name, _("Offers a draw")))
        elif kind == GameEvent.Kind.DRAW_DECLINE:
            lines.append(RecordLine(event.color, name, _("Declines the draw")))
        elif kind == GameEvent.Kind.DRAW:
            lines.append(RecordLine(event.color, name, _("Accepts the draw")))
        elif kind == GameEvent.Kind.WIN:
            points = event.value or 0
            text = ngettext("Wins %(points)s point", "Wins %(points)s points", points) % {
                "points": points
            }
            lines.append(RecordLine(event.color, name, text))
        else:
            lines.append(RecordLine(event.color, name, event.get_kind_display()))
        if lines and not lines[-1].ply:
            lines[-1].ply = event.ply
            lines[-1].plies = (event.ply,)
    return lines
