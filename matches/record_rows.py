"""The game page's record: its lines, laid out in two columns, the plies the ◀ ▶
buttons step to, and the last move drawn on the board.

A line is a turn (the roll and the move played with it: ``52: 13/8 13/11``) or an action
(a double, a take, a resignation…), in the order they happened. A turn's line covers two
plies of the record, its ROLL's and its MOVE's; the line leads to the position after the
move, and a reader of the record (the analysis marks a cube decision at the roll's ply)
may ask the steps to stop at the roll too.

The record of the position as it stands is the same for every reader in one language
until the game moves on: :func:`record_page` keeps its lines, its rendered rows and its
last move in the cache by (game, ply), so that a 300-ply game's page costs what a
40-ply game's does. The last move is drawn from its stored notation and the stored board
(:func:`last_move`), not by replaying the game.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from gammon import Color, Position, RulesError, parse_play, played_from

from .board_svg import LastMove
from .models import Game, GameEvent, Match
from .replay import ReplayError, replay_events

#: How long a record is kept: its key changes with every ply, so only memory is saved.
RECORD_SECONDS = 24 * 3600


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


@dataclass
class RecordPage:
    """The record of a game as it stands: its lines, its rows rendered (without analysis
    marks), and the last move to draw on the board."""

    lines: list[RecordLine]
    rows_html: str
    last_move: LastMove | None


def record_page(game: Game) -> RecordPage:
    """The record of ``game`` at its current ply, from the cache when a page drew it
    already in this language (one cache read, no event read); else from its events.

    Its key is the game, the ply, the language and the players' names (the opening
    roll's line names them): a move, or any event, makes a new one.
    """
    match = game.match
    names = f"{match.white.public_name}\n{match.black.public_name}"
    digest = hashlib.sha256(names.encode()).hexdigest()[:16]
    key = f"record-page:{game.pk}:{game.ply}:{get_language()}:{digest}"
    page = cache.get(key)
    if page is None:
        events = list(game.events.all())
        lines = record_lines(events, match)
        context = {"record_rows": record_rows(lines), "game": game, "shown_ply": None}
        page = RecordPage(
            lines=lines,
            rows_html=render_to_string("matches/_record_rows.html", context),
            last_move=last_move(game, events),
        )
        cache.set(key, page, RECORD_SECONDS)
    return page


def _last_played(events: Iterable[GameEvent], ply: int | None = None) -> GameEvent | None:
    """The last move or pass up to ``ply`` (None: the whole record)."""
    kinds = (GameEvent.Kind.MOVE, GameEvent.Kind.PASS)
    found = None
    for event in events:
        if (ply is None or event.ply <= ply) and event.kind in kinds and event.color is not None:
            if found is None or event.ply > found.ply:
                found = event
    return found


def _told(event: GameEvent) -> LastMove:
    """The move as the record tells it, without its steps."""
    assert event.color is not None
    dice = (event.die1, event.die2) if event.die1 and event.die2 else None
    notation = "pass" if event.kind == GameEvent.Kind.PASS else (event.notation or "pass")
    return LastMove(color=Color(event.color), dice=dice, notation=notation)


def last_move(game: Game, events: list[GameEvent]) -> LastMove | None:
    """The last move or pass of the record as it stands, with its steps.

    Nothing after a move moves a checker (rolls, the cube, resignations, the end), so the
    stored board is the one the move reached: its notation walked back from there
    (``gammon.played_from``) is the position it was played from, and parsing it again
    there gives its steps. Should the board not be the move's (a record the rules
    engine disowns), the record is replayed as :func:`last_move_replayed` does.
    """
    last = _last_played(events)
    if last is None:
        return None
    move = _told(last)
    if move.notation == "pass" or move.dice is None:
        return move
    after = Position.from_white_view(game.white_view(), turn=move.color)
    try:
        play = parse_play(played_from(after, move.notation), move.dice, move.notation)
    except (ValueError, RulesError):
        play = None
    if play is None or play.position != after:
        return last_move_replayed(game, events)
    return LastMove(move.color, move.dice, str(play), tuple(play.steps))


def last_move_replayed(
    game: Game, events: list[GameEvent], ply: int | None = None
) -> LastMove | None:
    """The last move or pass up to ``ply`` (None: the whole record), with its steps, by
    replaying the record to the position just before it (a past position of the game
    page, whose board is replayed too).

    When the record cannot be replayed, the move is still told but not drawn.
    """
    last = _last_played(events, ply)
    if last is None:
        return None
    move = _told(last)
    if move.notation == "pass" or move.dice is None:
        return move
    try:
        before = replay_events(
            sorted((e for e in events if e.ply < last.ply), key=lambda e: e.ply),
            variant=game.match.variant,
        )
        play = parse_play(before.position(), move.dice, move.notation)
    except (ReplayError, RulesError):
        return move
    return LastMove(move.color, move.dice, str(play), tuple(play.steps))
