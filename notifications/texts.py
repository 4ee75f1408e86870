"""What a notification says: its sentence, its link, and its e-mail, in the
recipient's language."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from email.mime.image import MIMEImage
from typing import Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import NoReverseMatch, reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User
from matches.board_svg import board_svg
from matches.resign_page import kind_text

from .models import Notification
from .unsubscribe import unsubscribe_url

log = logging.getLogger(__name__)

Kind = Notification.Kind


#: Rows about a whole chouette: they link to its page (the others to the board's game).
CHOUETTE_PAGE_KINDS = {Kind.CHOUETTE_INVITED, Kind.CHOUETTE_SETTLED, Kind.CHOUETTE_OVER}
#: Rows about a tournament: they link to its page.
TOURNEY_KINDS = {
    Kind.TOURNEY_REGISTERED,
    Kind.TOURNEY_STARTED,
    Kind.TOURNEY_MATCH,
    Kind.TOURNEY_ADVANCED,
    Kind.TOURNEY_OUT,
    Kind.TOURNEY_RESULT,
    Kind.TOURNEY_CANCELLED,
}


def notification_url(row: Notification) -> str:
    """The page a notification points to (a path)."""
    try:
        chouette = (row.payload or {}).get("chouette")
        if row.kind in CHOUETTE_PAGE_KINDS and chouette is not None:
            return reverse("chouette_detail", args=[chouette])
        tournament = (row.payload or {}).get("tournament")
        if row.kind in TOURNEY_KINDS and tournament is not None:
            return reverse("tournament_detail", args=[tournament])
        if row.game_id is not None and row.kind == Kind.MESSAGE_RECEIVED:
            return reverse("game_detail", args=[row.game_id]) + "#messages"
        if row.game_id is not None:
            return reverse("game_detail", args=[row.game_id])
        if row.match_id is not None:
            return reverse("match_detail", args=[row.match_id])
        return reverse("challenge_list")
    except NoReverseMatch:
        return "/notifications/"


def notification_text(row: Notification) -> str:
    """One sentence saying what happened, in the active language."""
    p = row.payload or {}
    opponent = p.get("opponent", "?")
    kind = row.kind
    if kind == Kind.YOUR_TURN and p.get("chouette"):
        return _("It is your turn in your chouette game against %(opponent)s.") % {
            "opponent": opponent
        }
    if kind == Kind.YOUR_TURN and p.get("resign_offer"):
        points = int(p.get("points", 1))
        return ngettext(
            "%(opponent)s offers to resign %(kind)s (%(points)s point): accept or decline.",
            "%(opponent)s offers to resign %(kind)s (%(points)s points): accept or decline.",
            points,
        ) % {"opponent": opponent, "kind": kind_text(int(p["resign_offer"])), "points": points}
    if kind == Kind.YOUR_TURN:
        return _("It is your turn in your game against %(opponent)s.") % {"opponent": opponent}
    if kind == Kind.CHALLENGE_RECEIVED:
        return _("%(opponent)s has challenged you to a match.") % {"opponent": opponent}
    if kind == Kind.CHALLENGE_ACCEPTED:
        return _("%(opponent)s accepted your challenge: the match has started.") % {
            "opponent": opponent
        }
    if kind == Kind.CHALLENGE_DECLINED:
        return _("%(opponent)s declined your challenge.") % {"opponent": opponent}
    if kind == Kind.DOUBLE_OFFERED and p.get("chouette"):
        return _("The team of %(opponent)s doubles you to %(cube)s: take or drop.") % {
            "opponent": opponent,
            "cube": p.get("cube", 2),
        }
    if kind == Kind.DOUBLE_OFFERED:
        return _("%(opponent)s doubles to %(cube)s: take or drop.") % {
            "opponent": opponent,
            "cube": p.get("cube", 2),
        }
    if kind == Kind.DRAW_OFFERED:
        return _("%(opponent)s offers to end the match as a draw.") % {"opponent": opponent}
    if kind == Kind.TIMEOUT_WARNING:
        hours = int(p.get("hours", 0))
        return ngettext(
            "Less than %(hours)s hour left to play against %(opponent)s.",
            "Less than %(hours)s hours left to play against %(opponent)s.",
            hours,
        ) % {"hours": hours, "opponent": opponent}
    if kind == Kind.TIME_OUT:
        if p.get("won"):
            return _("%(opponent)s ran out of time: you win.") % {"opponent": opponent}
        return _("You ran out of time in your game against %(opponent)s.") % {"opponent": opponent}
    if kind == Kind.GAME_OVER:
        values = {"opponent": opponent, "points": p.get("points", 0)}
        if p.get("won"):
            return _("You won the game against %(opponent)s (%(points)s points).") % values
        return _("You lost the game against %(opponent)s (%(points)s points).") % values
    if kind == Kind.MATCH_OVER:
        if p.get("won") is None:
            return _("Your match against %(opponent)s ended in a draw.") % {"opponent": opponent}
        if p.get("won"):
            return _("You won the match against %(opponent)s.") % {"opponent": opponent}
        return _("You lost the match against %(opponent)s.") % {"opponent": opponent}
    if kind == Kind.MESSAGE_RECEIVED:
        return _("%(opponent)s sent you a message in your game.") % {"opponent": opponent}
    if kind == Kind.CHOUETTE_INVITED:
        return _("%(opponent)s invites you to a chouette.") % {"opponent": opponent}
    if kind == Kind.CHOUETTE_VOTE:
        return _(
            "Your team proposes to double %(opponent)s, in the box, to %(cube)s: agree or refuse."
        ) % {"opponent": opponent, "cube": p.get("cube", 2)}
    if kind == Kind.CHOUETTE_ANSWER:
        return _("%(opponent)s, in the box, doubles you to %(cube)s: take or drop.") % {
            "opponent": opponent,
            "cube": p.get("cube", 2),
        }
    if kind == Kind.CHOUETTE_SETTLED:
        values = {"number": p.get("number", "?"), "points": abs(int(p.get("points", 0)))}
        if int(p.get("points", 0)) > 0:
            return (
                _("Game %(number)s of your chouette is over: you won %(points)s points.") % values
            )
        if int(p.get("points", 0)) < 0:
            return (
                _("Game %(number)s of your chouette is over: you lost %(points)s points.") % values
            )
        return _("Game %(number)s of your chouette is over: nothing won or lost.") % values
    if kind == Kind.CHOUETTE_OVER:
        return _("Your chouette is over: too few players are left. Your points: %(points)s.") % {
            "points": p.get("points", 0)
        }
    if kind in TOURNEY_KINDS:
        return _tournament_text(kind, p)
    if kind == Kind.MODERATION:
        # Written in the recipient's language by moderation.audit when it was sent.
        return str(p.get("text") or row.get_kind_display())
    return str(row.get_kind_display())


def _tournament_text(kind: str, p: dict[str, Any]) -> str:
    values = {"name": p.get("name", "?"), "round": p.get("round", "?"), "winner": p.get("winner")}
    if kind == Kind.TOURNEY_REGISTERED:
        return _("You are registered for the tournament %(name)s.") % values
    if kind == Kind.TOURNEY_STARTED:
        return _("The tournament %(name)s has started.") % values
    if kind == Kind.TOURNEY_MATCH:
        return _("You have a new match in round %(round)s of %(name)s.") % values
    if kind == Kind.TOURNEY_ADVANCED:
        return _("You are through to round %(round)s of %(name)s.") % values
    if kind == Kind.TOURNEY_OUT:
        return _("You are out of the tournament %(name)s. Well played.") % values
    if kind == Kind.TOURNEY_RESULT:
        return _("The tournament %(name)s is over: %(winner)s won it.") % values
    return _("The tournament %(name)s was cancelled.") % values


def notification_subject(row: Notification) -> str:
    return _("Backgammon: %(what)s") % {"what": row.get_kind_display()}


def _board_svg(row: Notification) -> str | None:
    """The position as SVG, from the recipient's side, when the board renderer exists."""
    game = row.game
    if game is None:
        return None
    try:
        color = game.match.color_of(row.recipient)
        kwargs: dict[str, Any] = {"home_side": getattr(row.recipient, "board_side", "right")}
        if color is not None:
            kwargs["viewer_color"] = color
        return board_svg(game, **kwargs)
    except Exception:  # a picture is a nicety: never let it stop the e-mail
        log.exception("no board picture for notification %s", row.pk)
        return None


def _headers(user: User) -> dict[str, str]:
    return {
        "List-Unsubscribe": f"<{unsubscribe_url(user)}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    }


def render_email(row: Notification) -> EmailMultiAlternatives:
    """The e-mail for one row, in the recipient's language."""
    user = row.recipient
    site = settings.SITE_URL.rstrip("/")
    with translation.override(user.language or settings.LANGUAGE_CODE):
        svg = _board_svg(row)
        context = {
            "user": user,
            "text": notification_text(row),
            "link": site + notification_url(row),
            "unsubscribe": unsubscribe_url(user),
            "notifications": site + reverse("notifications"),
            "board": svg is not None,
        }
        subject = notification_subject(row)
        body = render_to_string("emails/notification.txt", context)
        html = render_to_string("emails/notification.html", context)
    message = EmailMultiAlternatives(
        subject, body, to=[user.email], headers=_headers(user) | {"X-Notification": str(row.pk)}
    )
    message.attach_alternative(html, "text/html")
    if svg is not None:
        # A documented EmailMessage attribute that django-stubs 6.1 leaves out.
        message.mixed_subtype = "related"  # type: ignore[attr-defined]
        image = MIMEImage(svg.encode(), _subtype="svg+xml")
        image.add_header("Content-ID", "<board>")
        image.add_header("Content-Disposition", "inline", filename="board.svg")
        message.attach(image)
    return message


def render_digest(user: User, rows: Iterable[Notification]) -> EmailMultiAlternatives:
    site = settings.SITE_URL.rstrip("/")
    with translation.override(user.language or settings.LANGUAGE_CODE):
        items = [{"text": notification_text(r), "link": site + notification_url(r)} for r in rows]
        context = {
            "user": user,
            "items": items,
            "unsubscribe": unsubscribe_url(user),
            "notifications": site + reverse("notifications"),
        }
        subject = _("Backgammon: your daily digest")
        body = render_to_string("emails/digest.txt", context)
        html = render_to_string("emails/digest.html", context)
    message = EmailMultiAlternatives(subject, body, to=[user.email], headers=_headers(user))
    message.attach_alternative(html, "text/html")
    return message
