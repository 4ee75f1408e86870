"""What the game page says about resigning, in the reader's language: the offers open to
the player, each with what it costs them (the game and its points, or the match), the
offer that waits for an answer, and the confirmations of an answer.

Reads only: the rules are the engine's (``MatchState.resignation_offers``) and the
services' (:mod:`matches.resignations`); this turns them into the page's words.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from gammon import Color

from . import selectors
from .models import Game, Match
from .record import match_state
from .resignations import LEVEL_NAMES


def _name(user: object) -> str:
    return str(getattr(user, "public_name", user))


def kind_text(level: int) -> str:
    """``"a single game"``, ``"a gammon"``, ``"a backgammon"``: what an offer gives up."""
    texts = {1: _("a single game"), 2: _("a gammon"), 3: _("a backgammon")}
    return texts.get(level, texts[1])


def cost_text(points: int, ends_match: bool, money: bool) -> str:
    """What giving up ``points`` costs the player: the game and its points, or the match."""
    if ends_match:
        return ngettext(
            "You lose %(points)s point, and with it the match.",
            "You lose %(points)s points, and with them the match.",
            points,
        ) % {"points": points}
    if money:
        return ngettext(
            "You lose this game and %(points)s point.",
            "You lose this game and %(points)s points.",
            points,
        ) % {"points": points}
    return ngettext(
        "You lose this game and %(points)s point; the match goes on.",
        "You lose this game and %(points)s points; the match goes on.",
        points,
    ) % {"points": points}


def gain_text(points: int, ends_match: bool) -> str:
    """What accepting an offer of ``points`` wins the player."""
    if ends_match:
        return ngettext(
            "You win %(points)s point, and with it the match.",
            "You win %(points)s points, and with them the match.",
            points,
        ) % {"points": points}
    return ngettext(
        "You win this game and %(points)s point.",
        "You win this game and %(points)s points.",
        points,
    ) % {"points": points}


def offer_choices(game: Game, color: Color) -> list[dict[str, Any]]:
    """The dialog's choices: each offer open to ``color``, smallest first, with its cost."""
    money = game.match.is_money
    choices = []
    for offer in selectors.game_resignation_offers(game, color):
        cost = cost_text(offer.points, offer.ends_match, money)
        kind = kind_text(offer.level)
        choices.append(
            {
                "level": LEVEL_NAMES[offer.level],
                "points": offer.points,
                "ends_match": offer.ends_match,
                "label": _("Offer %(kind)s") % {"kind": kind},
                "cost": cost,
                "confirm": _("Offer to resign %(kind)s? %(cost)s") % {"kind": kind, "cost": cost},
            }
        )
    return choices


def pending_offer(game: Game, color: Color | None) -> dict[str, Any] | None:
    """The offer waiting for an answer, as the banner and the answer's buttons say it to
    the reader: the answerer, the offerer, or a spectator (``color`` None)."""
    pending = selectors.game_resignation_pending(game)
    if pending is None:
        return None
    match = game.match
    offer = pending.offer
    kind = kind_text(offer.level)
    offerer = _name(match.player(pending.offerer))
    answerer = _name(match.player(pending.offerer.other))
    if color is None:
        banner = _("%(name)s (%(color)s) offers to resign %(kind)s; %(other)s answers") % {
            "name": offerer,
            "color": _("White") if pending.offerer == Color.WHITE else _("Black"),
            "kind": kind,
            "other": answerer,
        }
    elif color == pending.offerer:
        banner = _("Waiting for %(name)s to answer your offer to resign %(kind)s") % {
            "name": answerer,
            "kind": kind,
        }
    else:
        banner = _("%(name)s offers to resign %(kind)s: accept or decline?") % {
            "name": offerer,
            "kind": kind,
        }
    gain = gain_text(offer.points, offer.ends_match)
    if color is None:
        detail = ""
    elif color == pending.offerer:
        detail = cost_text(offer.points, offer.ends_match, match.is_money)
    else:
        detail = gain
    return {
        "banner": banner,
        "detail": detail,
        "accept_confirm": _("Accept the resignation? %(gain)s") % {"gain": gain},
        "decline_confirm": _("Decline the resignation? The game goes on where it was."),
    }


def status_line(game: Game) -> str:
    """The third person's line of a game waiting for an answer to an offer to resign."""
    pending = selectors.game_resignation_pending(game)
    level = pending.offer.level if pending else 1
    return _("%(name)s must answer an offer to resign %(kind)s.") % {
        "name": _name(game.match.player(game.turn_color)),
        "kind": kind_text(level),
    }


def resign_now(game: Game, user: object) -> dict[str, Any]:
    """A resignation at once (``resignation: immediate``): its points and confirmation."""
    cost = selectors.game_resignation_cost(game, user)
    text = _("Resign this game? %(cost)s") % {
        "cost": cost_text(cost.points, cost.ends_match, game.match.is_money)
    }
    return {"points": cost.points, "text": text}


def resign_match_text(game: Game, color: Color) -> str:
    """What resigning the whole match gives the opponent."""
    match: Match = game.match
    opponent = _name(match.player(color.other))
    if match.is_money:
        lost = match_state(match, game).outcome_for_resignation(color, game.position()).points
        return ngettext(
            "The session ends: you lose this game and %(points)s point.",
            "The session ends: you lose this game and %(points)s points.",
            lost,
        ) % {"points": lost}
    points = match.length - match.score[color.other]
    return ngettext(
        "You lose the match: %(name)s is given the %(points)s point they need.",
        "You lose the match: %(name)s is given the %(points)s points they need.",
        points,
    ) % {"name": opponent, "points": points}
