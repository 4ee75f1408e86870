"""The board in words: what the picture of :mod:`matches.board_svg` says to a screen
reader (its ``<title>`` and ``aria-label``), and the "Last move" line of the game page.

Kept apart from the drawing: the words are the board's meaning, translated and tested as
sentences, while the drawing is geometry. Each side's points are numbered from its own
side, as a player reads them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from gammon import BoardView, Color, InvalidIdError, Position, Step, position_id

__all__ = ["LastMove", "color_name", "describe", "last_move_text", "side_words"]


@dataclass(frozen=True)
class LastMove:
    """The most recent play before the position shown, to mark on the board.

    ``steps`` and ``notation`` are from the mover's side (25 the bar, 0 off);
    a pass has no steps.
    """

    color: Color
    dice: tuple[int, int] | None
    notation: str
    steps: tuple[Step, ...] = ()


def last_move_text(last: LastMove) -> str:
    """``"Last move: Black 52: 13/8 13/11"``: the higher die first, as the record and
    ``.mat`` files write a roll, whichever order the dice were thrown in."""
    play = last.notation if last.steps or last.notation not in ("", "pass") else _("pass")
    dice = "".join(str(d) for d in sorted(last.dice, reverse=True)) if last.dice else ""
    return _("Last move: %(color)s %(dice)s: %(play)s") % {
        "color": color_name(last.color),
        "dice": dice,
        "play": play,
    }


def color_name(color: Color) -> str:
    """The name of a side, "White" or "Black", in the reader's language."""
    return _("White") if color == Color.WHITE else _("Black")


def side_words(seen: BoardView, index: int) -> str:
    """``"2 on 24, 5 on 13; 1 on the bar; 3 borne off"`` for one side of ``seen``."""
    sign = 1 if index == 0 else -1
    stacks = []
    for i, n in enumerate(seen.points):
        if n * sign > 0:
            point = i + 1 if index == 0 else 24 - i
            stacks.append((point, n * sign))
    stacks.sort(reverse=True)
    words = [
        _("%(count)s on %(point)s") % {"count": count, "point": point} for point, count in stacks
    ]
    text = ", ".join(words) or _("no checkers on the board")
    if seen.bar[index]:
        text += "; " + _("%(count)s on the bar") % {"count": seen.bar[index]}
    if seen.off[index]:
        text += "; " + _("%(count)s borne off") % {"count": seen.off[index]}
    return text


def describe(
    position: Position,
    seen: BoardView,
    viewer: Color,
    names: tuple[str, str],
    dice: Sequence[int] | None,
    cube_value: int,
    cube_owner: Color | None,
    score: tuple[int, int] | None,
    length: int | None,
    crawford: bool,
) -> str:
    """The position in words, each side's points numbered from its own side."""
    sentences = [_("Backgammon board.")]
    for who, index in ((viewer, 0), (viewer.other, 1)):
        where = _("bottom") if index == 0 else _("top")
        sentences.append(
            _("%(name)s (%(color)s, %(where)s): %(checkers)s.")
            % {
                "name": names[who],
                "color": color_name(who),
                "where": where,
                "checkers": side_words(seen, index),
            }
        )
    pips = seen.pip_count()
    sentences.append(
        _("Pip counts: %(name)s %(pips)s, %(other)s %(other_pips)s.")
        % {
            "name": names[viewer],
            "pips": pips[0],
            "other": names[viewer.other],
            "other_pips": pips[1],
        }
    )
    if dice:
        sentences.append(
            _("%(name)s rolled %(first)s and %(second)s.")
            % {"name": names[position.turn], "first": dice[0], "second": dice[1]}
        )
    else:
        sentences.append(_("%(name)s is on roll.") % {"name": names[position.turn]})
    if cube_owner is None:
        sentences.append(_("The cube is centred at %(value)s.") % {"value": cube_value})
    else:
        sentences.append(
            _("%(name)s owns the cube at %(value)s.")
            % {"name": names[cube_owner], "value": cube_value}
        )
    if score is not None:
        if length:
            sentences.append(
                ngettext(
                    "Score %(white)s to %(black)s in a %(length)s-point match.",
                    "Score %(white)s to %(black)s in a %(length)s-point match.",
                    length,
                )
                % {"white": score[0], "black": score[1], "length": length}
            )
        else:
            sentences.append(
                _("Money session, %(white)s to %(black)s.") % {"white": score[0], "black": score[1]}
            )
    if crawford:
        sentences.append(_("Crawford game."))
    try:
        sentences.append(_("Position ID %(id)s.") % {"id": position_id(position)})
    except InvalidIdError:  # pragma: no cover - more than 15 checkers a side
        pass
    return " ".join(sentences)
