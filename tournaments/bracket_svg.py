"""A knock-out's bracket drawn as inline SVG, on the server: a column per round, each
match a box with its two players (the winner bold, a bye marked), linked to the match.

The drawing has a ``viewBox`` and its natural size in pixels; on a phone it shrinks
with the page to 70 % of that (the ``rounds-N`` class's minimum width in site.css), and
past that its container scrolls it sideways rather than shrink the names out of reach. It is
an image (``role="img"`` with a title) under the links laid over its boxes, which are
for the mouse and the finger only: the page lists the same matches by round, with the
same links, for the keyboard and for screen readers.
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
NAME_CHARS = 20  # a name of wide letters still fits its box


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
        f'<svg class="bracket rounds-{count}" xmlns="http://www.w3.org/2000/svg" '
        f'viewBox="0 0 {width} {height}" width="{width}" height="{height}">',
        f'<g role="img" aria-labelledby="bracket-title"><title id="bracket-title">'
        f"{escape(title)}</title>",
    ]
    links = []
    for r, cells in enumerate(rounds, start=1):
        x = 1 + COLUMN * (r - 1)
        parts.append(
            f'<text class="bracket-round" x="{x}" y="{HEADER - 8}">'
            f"{escape(round_title(r, count))}</text>"
        )
        for cell in cells:
            parts.append(_box(cell, x, _centre(r, cell.index)))
            if cell.match is not None:
                links.append(_link(cell, x, _centre(r, cell.index)))
            if r < count:  # the line on to the next round's box
                y = _centre(r, cell.index)
                to_y = _centre(r + 1, cell.index // 2)
                mid = x + BOX_WIDTH + (COLUMN - BOX_WIDTH) / 2
                parts.append(
                    f'<path class="bracket-line" d="M{x + BOX_WIDTH} {y:g}H{mid:g}V{to_y:g}'
                    f'H{x + COLUMN}"/>'
                )
    parts.append("</g>")
    parts.extend(links)
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
    return "<g>" + "".join(lines) + "</g>"


def _link(cell: BracketCell, x: int, centre: float) -> str:
    """A match's box as a link to its page, laid over the drawing: outside the image (an
    image holds nothing interactive), out of the tab order and of the accessibility tree,
    since the list of matches by round carries the same links for the keyboard and for
    screen readers."""
    assert cell.match is not None
    label = escape(
        _("%(top)s against %(bottom)s")
        % {"top": _name(cell.top, False), "bottom": _name(cell.bottom, False)}
    )
    return (
        f'<a href="{escape(cell.match.get_absolute_url())}" tabindex="-1" aria-hidden="true">'
        f'<rect class="bracket-hit" x="{x}" y="{centre - BOX_HEIGHT / 2:g}" '
        f'width="{BOX_WIDTH}" height="{BOX_HEIGHT}" rx="4"><title>{label}</title></rect></a>'
    )
