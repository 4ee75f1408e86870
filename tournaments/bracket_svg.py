"""A knock-out's bracket drawn as inline SVG, on the server: a column per round, each
match a box with its two players (the winner bold, a bye marked), linked to the match.

The drawing has a ``viewBox`` and its natural size in pixels; the page's container
scrolls it sideways on a phone rather than shrinking the names out of reach. It is
``role="img"`` with a title: the page lists the same matches by round for screen
readers, so the drawing itself is one image to them.
"""

from __future__ import annotations

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from .models import Entry
from .selectors import BracketCell

BOX_WIDTH = 176
LINE = 22  # the height of one player's line in a box
BOX_HEIGHT = 2 * LINE
GAP = 12  # between two boxes of the first round
COLUMN = BOX_WIDTH + 32  # a round's column, with room for the connecting lines
HEADER = 24  # the rounds' titles
NAME_CHARS = 22


def round_title(round_: int, rounds: int) -> str:
    """ "Final", "Semi-finals", "Quarter-finals", else "Round 2"."""
    left = rounds - round_
    if left == 0:
        return _("Final")
    if left == 1:
        return _("Semi-finals")
    if left == 2:
        return _("Quarter-finals")
    return _("Round %(round)s") % {"round": round_}


def _name(entry: Entry | None, bye: bool) -> str:
    if entry is None:
        return _("bye") if bye else "…"
    name = entry.player.public_name
    return name if len(name) <= NAME_CHARS else name[: NAME_CHARS - 1] + "…"


def _centre(round_: int, index: int) -> float:
    """The vertical centre of a box: the first round's evenly spaced, each later one
    halfway between the two it is fed by."""
    span = (BOX_HEIGHT + GAP) * (1 << (round_ - 1))
    return HEADER + span * index + span / 2


def bracket_svg(rounds: list[list[BracketCell]], *, title: str) -> SafeString:
    """The SVG of ``rounds`` (from :func:`tournaments.selectors.bracket`); empty with no
    rounds. Every text is escaped."""
    if not rounds:
        return SafeString("")
    count = len(rounds)
    width = COLUMN * (count - 1) + BOX_WIDTH + 2
    height = HEADER + (BOX_HEIGHT + GAP) * len(rounds[0])
    parts = [
        f'<svg class="bracket" xmlns="http://www.w3.org/2000/svg" role="img" '
        f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'aria-labelledby="bracket-title">',
        f'<title id="bracket-title">{escape(title)}</title>',
    ]
    for r, cells in enumerate(rounds, start=1):
        x = 1 + COLUMN * (r - 1)
        parts.append(
            f'<text class="bracket-round" x="{x}" y="{HEADER - 8}">'
            f"{escape(round_title(r, count))}</text>"
        )
        for cell in cells:
            parts.append(_box(cell, x, _centre(r, cell.index)))
            if r < count:  # the line on to the next round's box
                y = _centre(r, cell.index)
                to_y = _centre(r + 1, cell.index // 2)
                mid = x + BOX_WIDTH + (COLUMN - BOX_WIDTH) / 2
                parts.append(
                    f'<path class="bracket-line" d="M{x + BOX_WIDTH} {y:g}H{mid:g}V{to_y:g}'
                    f'H{x + COLUMN}"/>'
                )
    parts.append("</svg>")
    return mark_safe("".join(parts))  # noqa: S308 - every text above is escaped


def _box(cell: BracketCell, x: int, centre: float) -> str:
    top = centre - BOX_HEIGHT / 2
    lines = [
        f'<rect class="bracket-box" x="{x}" y="{top:g}" width="{BOX_WIDTH}" '
        f'height="{BOX_HEIGHT}" rx="4"/>',
        f'<path class="bracket-line" d="M{x} {centre:g}h{BOX_WIDTH}"/>',
    ]
    for k, entry in enumerate((cell.top, cell.bottom)):
        won = entry is not None and cell.winner is not None and entry.pk == cell.winner.pk
        bye = cell.bye and entry is None
        classes = "bracket-name" + (" winner" if won else "") + (" bye" if bye else "")
        weight = ' font-weight="700"' if won else ""
        lines.append(
            f'<text class="{classes}" x="{x + 8}" y="{top + LINE * k + 15:g}"{weight}>'
            f"{escape(_name(entry, cell.bye))}</text>"
        )
    body = "".join(lines)
    match = cell.match
    if match is not None:
        label = escape(
            _("%(top)s against %(bottom)s")
            % {"top": _name(cell.top, False), "bottom": _name(cell.bottom, False)}
        )
        return f'<a href="{escape(match.get_absolute_url())}" aria-label="{label}">{body}</a>'
    return f"<g>{body}</g>"
