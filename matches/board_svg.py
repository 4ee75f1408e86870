"""The board as a standalone SVG, drawn on the server so the game page needs no JavaScript.

:func:`board_svg` draws a :class:`~matches.models.Game` (or a bare engine
:class:`~gammon.Position`) from one player's side: that player's
checkers sit at the bottom and the points are numbered from their side. The
``home_side`` preference puts their home board bottom right or bottom left.

Every element that carries game information also carries ``data-*`` attributes
(``data-point``, ``data-count``, ``data-value``…), so tests and assistive
tools can read the picture without guessing from coordinates. What the picture says in
words (its title, for screen readers) is :mod:`matches.board_words`; ``LastMove`` and
``last_move_text`` are exported here too, where the pages have always found them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape, quoteattr

from django.utils.translation import gettext as _

from gammon import Color, Position, Step

from .board_words import LastMove, color_name, describe, last_move_text

if TYPE_CHECKING:
    from .models import Game, GameEvent, Match

__all__ = [
    "LastMove",
    "board_geometry",
    "board_svg",
    "board_svg_at",
    "board_viewer",
    "last_move_text",
]

# Geometry, in viewBox units. The points take 80 % of the width: on a 360 px phone's
# full width they are 24 px wide, as a finger needs (issue 26).
SIDE = 34  # the cube column and the borne-off tray column
FRAME, FRAME_X = 10, 5  # the frame above and below the points, and beside them
PW = 40  # point width
CH = 36  # checker diameter
BAR = 36
HALF = 6 * PW
INFO = 28  # a row of text above and below the board
NUM = 18  # the point numbers
PH = 5 * CH  # point height: five checkers
GAP = 60  # between the two rows of points: the dice live here

LX = SIDE + FRAME_X  # left half
BX = LX + HALF  # bar
RX = BX + BAR  # right half
TX = RX + HALF + FRAME_X  # tray
WIDTH = TX + SIDE
Y0 = INFO + NUM + FRAME  # top of the playing area
Y1 = Y0 + 2 * PH + GAP  # bottom of the playing area
MID = (Y0 + Y1) // 2
HEIGHT = Y1 + FRAME + NUM + INFO

SHOWN = 5  # checkers drawn on one point; more are counted
SLAB = 10  # height of a borne-off checker seen edgeways

COLORS: dict[str, str] = {
    "surface": "#e9dcc0",
    "frame": "#5c3317",
    "dark": "#8b3a1e",
    "light": "#c9a66b",
    "text": "#1d1d1b",
    "frame_text": "#fbfaf7",
    "last_move": "#92400e",  # the last move's arrows and outlines (amber: not a selection)
    "best_move": "#1d4ed8",  # gnubg's best play beside the one made (blue, dashed)
    "halo": "#fbfaf7",
}
#: A side's checkers (and dice): fill, stroke/text.
CHECKER_COLORS: dict[Color, tuple[str, str]] = {
    Color.WHITE: ("#fbfaf7", "#1d1d1b"),
    Color.BLACK: ("#26231f", "#fbfaf7"),
}


def _fitted(name: str, suffix: str, room: int = 25) -> str:
    """``name + suffix`` in the ``room`` characters a name row has beside the pips, the
    name cut short (…) if need be; the board's description keeps it whole."""
    cut = room - len(suffix)
    return (name if len(name) <= cut else name[: cut - 1].rstrip() + "…") + suffix


def _attr(name: str) -> str:
    """``class_`` -> ``class``, ``font_size`` -> ``font-size``."""
    return name.rstrip("_").replace("_", "-")


class _Canvas:
    def __init__(self, flip: bool) -> None:
        self.flip = flip
        self.parts: list[str] = []

    def x(self, x: float, width: float = 0) -> float:
        """Mirror horizontally when the home board is on the left."""
        return WIDTH - x - width if self.flip else x

    def add(self, text: str) -> None:
        self.parts.append(text)

    def rect(self, x: float, y: float, w: float, h: float, fill: str, **attrs: object) -> None:
        extra = "".join(f" {_attr(k)}={quoteattr(str(v))}" for k, v in attrs.items())
        self.add(
            f'<rect x="{self.x(x, w):g}" y="{y:g}" width="{w:g}" height="{h:g}" '
            f'fill="{fill}"{extra}/>'
        )

    def text(
        self, x: float, y: float, content: str, *, anchor: str = "middle", **attrs: object
    ) -> None:
        if self.flip and anchor != "middle":
            anchor = "end" if anchor == "start" else "start"
        extra = "".join(f" {_attr(k)}={quoteattr(str(v))}" for k, v in attrs.items())
        self.add(
            f'<text x="{self.x(x):g}" y="{y:g}" text-anchor="{anchor}"{extra}>'
            f"{escape(content)}</text>"
        )


def board_svg(
    source: Game | Position,
    *,
    viewer_color: Color = Color.WHITE,
    home_side: str = "right",
    dice: Sequence[int] | None = None,
    swap_dice: bool = False,
    cube_value: int | None = None,
    cube_owner: Color | None = None,
    names: tuple[str, str] | None = None,
    score: tuple[int, int] | None = None,
    length: int | None = None,
    last_move: LastMove | None = None,
    best_move: LastMove | None = None,
) -> str:
    """A standalone ``<svg>`` of the board, seen by ``viewer_color``.

    ``source`` is a game (dice, cube, names and score come from it unless given)
    or a position from the side of its player on roll. ``names`` and ``score``
    are ``(white, black)``. ``swap_dice`` shows the two dice in the other order.
    ``last_move`` outlines the points its steps left and reached, and is told in
    the description. ``best_move``, beside it, draws another play of the same turn as
    dashed blue arrows (the analysis: the play made against gnubg's best).
    """
    from .models import Game

    offered_by: Color | None = None
    if isinstance(source, Game):
        game = source
        match = game.match
        position = game.position()
        dice = game.dice if dice is None else dice
        cube_value = game.cube_value if cube_value is None else cube_value
        if cube_owner is None and game.cube_owner is not None:
            cube_owner = Color(game.cube_owner)
        names = names or (match.white.public_name, match.black.public_name)
        score = score or match.score
        length = match.length if length is None else length
        crawford = game.crawford
        if game.state == Game.State.DOUBLED:
            # The offer in flight: the new value, on the offerer's side (the answerer is on turn).
            offered_by = game.turn_color.other
        elif game.state == Game.State.RESIGNING:
            # The answerer is on turn, but the roll (and the move to come) is the offerer's.
            position = position.mirror()
    else:
        position = source
        crawford = False
    cube_value = cube_value or 1
    dice = tuple(sorted(dice, reverse=True)) if dice else dice  # the higher first, as everywhere
    labels = {
        color: _fitted(names[color], f" ({color_name(color)})") if names else color_name(color)
        for color in Color
    }
    names = names or (color_name(Color.WHITE), color_name(Color.BLACK))
    on_roll = position.turn
    seen = position.view(viewer_color)  # points[i] is the viewer's point i + 1
    opponent = viewer_color.other
    canvas = _Canvas(flip=home_side == "left")

    # The frame and the playing surface.
    canvas.rect(SIDE, INFO + NUM, WIDTH - 2 * SIDE, Y1 - Y0 + 2 * FRAME, COLORS["frame"])
    canvas.rect(LX, Y0, HALF, Y1 - Y0, COLORS["surface"])
    canvas.rect(RX, Y0, HALF, Y1 - Y0, COLORS["surface"])
    canvas.rect(BX, Y0, BAR, Y1 - Y0, COLORS["frame"], class_="bar")
    for y in (Y0, Y1 - PH):  # the two borne-off trays
        canvas.rect(TX + 3, y, SIDE - 6, PH, COLORS["frame"], class_="tray", opacity="0.85")

    # Points, their numbers and their checkers.
    for point in range(1, 25):
        x, top = _point_place(point)
        tip = Y0 + PH * 0.92 if top else Y1 - PH * 0.92
        base = Y0 if top else Y1
        fill = COLORS["dark"] if point % 2 else COLORS["light"]
        left, right = canvas.x(x, PW), canvas.x(x, PW) + PW
        canvas.add(
            f'<polygon points="{left:g},{base:g} {right:g},{base:g} {left + PW / 2:g},{tip:g}" '
            f'fill="{fill}"/>'
        )
        number_y = INFO + NUM - 5 if top else Y1 + FRAME + NUM - 4
        canvas.text(
            x + PW / 2, number_y, str(point), class_="point-number", data_point=point,
            font_size=15, fill=COLORS["text"],
        )  # fmt: skip
        count = seen.points[point - 1]
        if count:
            owner = viewer_color if count > 0 else opponent
            centres = [
                (Y0 + CH / 2 + k * CH) if top else (Y1 - CH / 2 - k * CH)
                for k in range(min(abs(count), SHOWN))
            ]
            _stack(canvas, x + PW / 2, centres, owner, abs(count), f'data-point="{point}"')

    # The bar: the viewer's checkers above the middle, the opponent's below.
    for who, index, sign in ((viewer_color, 0, -1), (opponent, 1, 1)):
        count = seen.bar[index]
        if count:
            centres = [MID + sign * (GAP / 2 + CH / 2 + k * CH) for k in range(min(count, 4))]
            _stack(canvas, BX + BAR / 2, centres, who, count, 'data-point="bar"', shown=4)

    # Borne-off checkers: the viewer's in the bottom tray, the opponent's in the top one.
    for who, index in ((viewer_color, 0), (opponent, 1)):
        count = seen.off[index]
        fill, ink = CHECKER_COLORS[who]
        canvas.add(f'<g class="off" data-color="{_key(who)}" data-count="{count}">')
        for k in range(count):
            y = (Y1 - (k + 1) * SLAB) if index == 0 else (Y0 + k * SLAB)
            canvas.rect(TX + 6, y + 1, SIDE - 12, SLAB - 2, fill, stroke=ink, stroke_width=1)
        if count:
            label_y = Y1 - PH - 6 if index == 0 else Y0 + PH + 16
            canvas.text(
                TX + SIDE / 2, label_y, str(count), font_size=14, font_weight="bold",
                fill=COLORS["frame"],
            )  # fmt: skip
        canvas.add("</g>")

    # The dice, on the half of the board of whoever rolled them.
    if dice:
        shown = list(reversed(dice)) if swap_dice else list(dice)
        fill, ink = CHECKER_COLORS[on_roll]
        half = RX if on_roll == viewer_color else LX
        size = 36
        start = half + HALF / 2 - size - 6
        for k, value in enumerate(shown):
            _die(canvas, start + k * (size + 12), MID - size / 2, size, value, fill, ink)

    # The cube: centred in its column, or on its owner's side; an offered cube shows its
    # new value on the offerer's side until it is taken or dropped.
    shown_value = cube_value * 2 if offered_by is not None else cube_value
    side = offered_by if offered_by is not None else cube_owner
    centred = side is None
    size = 30
    cube_x = (SIDE - size) / 2
    if centred:
        cube_y = MID - size / 2
    elif side == viewer_color:
        cube_y = Y1 - size - 4
    else:
        cube_y = Y0 + 4
    owner_key = "centre" if cube_owner is None else _key(cube_owner)
    offered = "" if offered_by is None else f' data-offered-by="{_key(offered_by)}"'
    canvas.add(
        f'<g class="cube{" offered" if offered else ""}" data-value="{shown_value}" '
        f'data-owner="{owner_key}"{offered}>'
    )
    canvas.rect(
        cube_x, cube_y, size, size, "#fbfaf7", rx=5, stroke=COLORS["text"], stroke_width=2
    )  # fmt: skip
    label = "64" if centred and shown_value == 1 else str(shown_value)
    canvas.text(
        cube_x + size / 2, cube_y + size / 2 + 6, label, font_size=17, font_weight="bold",
        fill=COLORS["text"],
    )  # fmt: skip
    canvas.add("</g>")

    # Names, score and pip counts: the opponent above the board, the viewer below.
    pips = seen.pip_count()
    for who, pip, y in ((opponent, pips[1], INFO - 9), (viewer_color, pips[0], HEIGHT - 9)):
        fill, ink = CHECKER_COLORS[who]
        canvas.add(
            f'<circle cx="{canvas.x(SIDE + 8):g}" cy="{y - 5:g}" r="7" fill="{fill}" '
            f'stroke="{COLORS["text"]}" stroke-width="1.5"/>'
        )
        turn_mark = " ◀" if who == on_roll else ""
        canvas.text(
            SIDE + 22, y, f"{labels[who]}{turn_mark}", anchor="start",
            font_size=18, font_weight="bold", fill=COLORS["text"], class_="name",
        )  # fmt: skip
        parts = []
        if score is not None:
            parts.append(_("score %(score)s") % {"score": score[who]})
        parts.append(_("pips %(pips)s") % {"pips": pip})
        canvas.text(
            WIDTH - SIDE, y, " · ".join(parts), anchor="end", font_size=16,
            fill=COLORS["text"], class_="pips", data_color=_key(who), data_pips=pip,
        )  # fmt: skip

    if last_move is not None and last_move.steps:
        _mark_last_move(canvas, last_move, viewer_color)
    if best_move is not None and best_move.steps:
        canvas.add(
            f'<g class="best-move" data-color="{_key(best_move.color)}" pointer-events="none">'
        )
        _arrows(canvas, best_move.steps, best_move.color == viewer_color, "best_move", "4 5")
        canvas.add("</g>")

    # Click and focus targets for the page's script (transparent; inert without it):
    # the viewer's points 1-24, their half of the bar (25) and their tray (0).
    canvas.add('<g class="targets">')
    for target, box in _targets().items():
        canvas.rect(
            *box, "transparent", class_="target", id=f"target-{target}",
            data_target=target,
        )  # fmt: skip
    canvas.add("</g>")

    description = describe(
        position, seen, viewer_color, names, dice, cube_value, cube_owner, score, length, crawford
    )
    if offered_by is not None:
        description += " " + _("%(name)s offers the cube at %(value)s.") % {
            "name": names[offered_by],
            "value": shown_value,
        }
    if last_move is not None:
        description += " " + last_move_text(last_move) + "."
    if best_move is not None:
        description += " " + _("Best play: %(play)s.") % {"play": best_move.notation}
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'class="board" role="img" aria-label={quoteattr(description)} '
        f'data-home-side="{"left" if canvas.flip else "right"}" '
        f'data-viewer="{_key(viewer_color)}" '
        f'font-family="system-ui, -apple-system, Segoe UI, Roboto, Arial, sans-serif">'
        f"<title>{escape(description)}</title>" + "".join(canvas.parts) + "</svg>"
    )


def board_viewer(match: Match, user: object) -> dict[str, Any]:
    """``viewer_color`` and ``home_side`` for ``user`` (a visitor is None or anonymous):
    a player sees the board from their side, everyone else from White's; on a chouette's
    board from the team's (Black's), whose members read and suggest the captain's plays
    in its notation."""
    color = match.color_of(user)
    if color is None:
        color = Color.BLACK if match.chouette else Color.WHITE
    signed_in = bool(getattr(user, "is_authenticated", False))
    return {
        "viewer_color": color,
        "home_side": getattr(user, "board_side", "right") if signed_in else "right",
    }


def board_svg_at(
    game: Game,
    events: Sequence[GameEvent],
    ply: int,
    *,
    viewer_color: Color,
    home_side: str,
    dice: tuple[int, int] | None,
    last_move: LastMove | None = None,
    best_move: LastMove | None = None,
) -> str:
    """The board of ``game`` as its record stands after the events up to ``ply``, with
    the cube of that moment and ``dice``. Raises ``ReplayError`` when the record does
    not replay."""
    from .replay import replay_events

    match = game.match
    replay = replay_events([e for e in events if e.ply <= ply], variant=match.variant)
    return board_svg(
        replay.position(),
        viewer_color=viewer_color,
        home_side=home_side,
        dice=dice,
        cube_value=replay.state.cube_value,
        cube_owner=replay.state.cube_owner,
        names=(match.white.public_name, match.black.public_name),
        last_move=last_move,
        best_move=best_move,
    )


def _mark_last_move(canvas: _Canvas, last: LastMove, viewer: Color) -> None:
    """Outline each point a step of ``last`` left (dashed) or reached (solid), from the
    viewer's side: ``data-point`` is the viewer's number, or ``bar`` / ``off`` for the
    mover's half of the bar and tray. A point both left and reached is ``from to``."""
    mine = last.color == viewer
    roles: dict[int, set[str]] = {}
    for step in last.steps:
        for point, role in ((step.source, "from"), (step.dest, "to")):
            roles.setdefault(point, set()).add(role)
    canvas.add(
        f'<g class="last-move" data-color="{_key(last.color)}" pointer-events="none" fill="none">'
    )
    x: float  # a point's left edge (the bar's and the tray's are whole)
    for point in sorted(roles, reverse=True):  # mover's numbering, bar first
        role = " ".join(sorted(roles[point]))
        if point == 25:
            name = "bar"
            x, y, w, h = (BX + 2, Y0 + 2, BAR - 4, MID - Y0 - 4)
            if not mine:
                y = MID + 2
        elif point == 0:
            name = "off"
            x, y, w, h = (TX + 3, Y1 - PH, SIDE - 6, PH - 2)
            if not mine:
                y = Y0 + 2
        else:
            seen = point if mine else 25 - point
            name = str(seen)
            left, top = _point_place(seen)
            x, y, w, h = (left + 2, Y0 + 2 if top else Y1 - PH - 2, PW - 4, PH)
        box = f'x="{canvas.x(x, w):g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="4"'
        dash = ' stroke-dasharray="3 5"' if role == "from" else ""
        canvas.add(
            f'<rect {box} stroke="{COLORS["last_move"]}" stroke-width="1.5" stroke-opacity=".7"'
            f'{dash} class="last-move-mark" data-point="{name}" data-role="{role}"/>'
        )
    # A ghost checker where each step started and an arrow to where it went: the move
    # just played reads at a glance, and looks nothing like what can be moved now.
    fill, ink = CHECKER_COLORS[last.color]
    for step in last.steps:
        x1, y1 = _step_centre(canvas, step.source, mine)
        canvas.add(
            f'<circle cx="{x1:g}" cy="{y1:g}" r="{CH / 2 - 2:g}" fill="{fill}" fill-opacity=".35" '
            f'stroke="{ink}" stroke-opacity=".6" stroke-dasharray="4 3" class="last-move-ghost"/>'
        )
    _arrows(canvas, last.steps, mine, "last_move")
    canvas.add("</g>")


def _arrows(
    canvas: _Canvas, steps: Sequence[Step], mine: bool, colour: str, dash: str | None = None
) -> None:
    """An arrow per step, in ``COLORS[colour]`` on a light halo (class ``<colour>-arrow``,
    with dashes for a play that was not made)."""
    ink = COLORS[colour]
    css = colour.replace("_", "-") + "-arrow"
    dashes = f' stroke-dasharray="{dash}"' if dash else ""
    for step in steps:
        x1, y1 = _step_centre(canvas, step.source, mine)
        x2, y2 = _step_centre(canvas, step.dest, mine)
        length = math.hypot(x2 - x1, y2 - y1) or 1.0
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        tip_x, tip_y = x2 - ux * 6, y2 - uy * 6
        base_x, base_y = tip_x - ux * 14, tip_y - uy * 14
        canvas.add(
            f'<line x1="{x1:g}" y1="{y1:g}" x2="{base_x:g}" y2="{base_y:g}" '
            f'stroke="{COLORS["halo"]}" stroke-width="7" stroke-linecap="round"/>'
            f'<line x1="{x1:g}" y1="{y1:g}" x2="{base_x:g}" y2="{base_y:g}" '
            f'stroke="{ink}" stroke-width="4" stroke-linecap="round"{dashes} class="{css}"/>'
        )
        wing_a = (base_x - uy * 8, base_y + ux * 8)
        wing_b = (base_x + uy * 8, base_y - ux * 8)
        canvas.add(
            f'<polygon points="{tip_x:g},{tip_y:g} {wing_a[0]:g},{wing_a[1]:g} '
            f'{wing_b[0]:g},{wing_b[1]:g}" fill="{ink}" '
            f'stroke="{COLORS["halo"]}" stroke-width="1.5"/>'
        )


def _step_centre(canvas: _Canvas, point: int, mine: bool) -> tuple[float, float]:
    """Where an arrow of the last move starts or ends: a point's middle, the mover's half
    of the bar, or their tray (``point`` in the mover's numbering)."""
    if point == 25:
        return canvas.x(BX + BAR / 2), (Y0 + MID) / 2 if mine else (MID + Y1) / 2
    if point == 0:
        return canvas.x(TX + SIDE / 2), Y1 - PH / 2 if mine else Y0 + PH / 2
    seen = point if mine else 25 - point
    left, top = _point_place(seen)
    return canvas.x(left + PW / 2), Y0 + PH * 0.4 if top else Y1 - PH * 0.4


def _targets() -> dict[int, tuple[float, float, float, float]]:
    """``{target: (x, y, width, height)}`` before mirroring: 1-24 points, 25 bar, 0 tray."""
    boxes: dict[int, tuple[float, float, float, float]] = {}
    for point in range(1, 25):
        x, top = _point_place(point)
        boxes[point] = (x, Y0 if top else Y1 - PH, PW, PH)
    boxes[25] = (BX, Y0, BAR, MID - Y0)
    boxes[0] = (TX, Y1 - PH, SIDE, PH)
    return boxes


def board_geometry(home_side: str = "right") -> dict[str, object]:
    """Where the page's script draws checkers, in the SVG's units (mirrored as drawn).

    ``points`` maps each of the viewer's points to ``[cx, first centre y, step y]``;
    ``bar`` holds the viewer's and the opponent's stacks the same way; ``off`` is the
    viewer's tray as ``[x, bottom y, width, slab height]``.
    """
    canvas = _Canvas(flip=home_side == "left")
    points: dict[str, list[float]] = {}
    for point in range(1, 25):
        x, top = _point_place(point)
        cy = Y0 + CH / 2 if top else Y1 - CH / 2
        points[str(point)] = [canvas.x(x + PW / 2), cy, CH if top else -CH]
    bar_x = canvas.x(BX + BAR / 2)
    return {
        "points": points,
        "bar": [
            [bar_x, MID - GAP / 2 - CH / 2, -CH],
            [bar_x, MID + GAP / 2 + CH / 2, CH],
        ],
        "off": [canvas.x(TX + 6, SIDE - 12), Y1, SIDE - 12, SLAB],
        "radius": CH / 2 - 1,
        "shown": SHOWN,
        "shown_bar": 4,
        "colors": {_key(c): list(CHECKER_COLORS[c]) for c in Color},
    }


def _key(color: Color) -> str:
    return "white" if color == Color.WHITE else "black"


def _point_place(point: int) -> tuple[float, bool]:
    """Left x of ``point`` (numbered from the viewer, home board on the right) and top/bottom."""
    if point <= 6:
        return RX + (6 - point) * PW, False
    if point <= 12:
        return LX + (12 - point) * PW, False
    if point <= 18:
        return LX + (point - 13) * PW, True
    return RX + (point - 19) * PW, True


def _stack(
    canvas: _Canvas,
    cx: float,
    centres: list[float],
    owner: Color,
    count: int,
    where: str,
    shown: int = SHOWN,
) -> None:
    fill, ink = CHECKER_COLORS[owner]
    canvas.add(f'<g class="checkers" {where} data-color="{_key(owner)}" data-count="{count}">')
    for cy in centres:
        canvas.add(
            f'<circle cx="{canvas.x(cx):g}" cy="{cy:g}" r="{CH / 2 - 1:g}" fill="{fill}" '
            f'stroke="{ink}" stroke-width="1.5"/>'
        )
    if count > shown:
        canvas.text(
            cx, centres[-1] + 6, str(count), font_size=16, font_weight="bold", fill=ink,
            class_="count",
        )  # fmt: skip
    canvas.add("</g>")


_PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


def _die(canvas: _Canvas, x: float, y: float, size: float, value: int, fill: str, ink: str) -> None:
    canvas.add(f'<g class="die" data-value="{value}">')
    canvas.rect(x, y, size, size, fill, rx=6, stroke=COLORS["text"], stroke_width=1.5)
    cx, cy, step = x + size / 2, y + size / 2, size * 0.27
    for dx, dy in _PIPS.get(value, []):
        # Pips are placed relative to the die's centre: mirror the centre only.
        canvas.add(
            f'<circle cx="{canvas.x(cx) + dx * step:g}" cy="{cy + dy * step:g}" '
            f'r="{size * 0.09:g}" fill="{ink}"/>'
        )
    canvas.add("</g>")
