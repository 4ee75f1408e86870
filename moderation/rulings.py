"""The moderators' rulings on play: a match adjudicated, a deadline extended, a message
hidden, a player removed from a chouette, a vacation corrected (superusers), a tournament
cancelled or a player replaced in it. Each refuses a moderator with a stake in the case
(:mod:`moderation.stakes`), goes through the service of the app that owns the play, is
audited and told to the players concerned."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import User
from backgammon.errors import InvalidAction
from chouettes import chat as chouette_chat
from chouettes import seating as chouette_seating
from chouettes.models import Chouette, Seat
from chouettes.models import Message as ChouetteMessage
from gammon import Color
from matches import chat, clock, moderator_actions
from matches.models import Game, GameMessage, Match, Vacation
from tournaments import directing as tournament_directing
from tournaments.models import Entry, Tournament

from . import stakes
from .audit import audit, check_target, local_time, require_reason, tell

# --------------------------------------------------------------------------- matches, games


class Decision:
    WHITE = "white"
    BLACK = "black"
    DRAW = "draw"
    CANCEL = "cancel"

    CHOICES = [
        (WHITE, gettext_lazy("Award the match to White")),
        (BLACK, gettext_lazy("Award the match to Black")),
        (DRAW, gettext_lazy("Declare a draw")),
        (CANCEL, gettext_lazy("Cancel the match, as if never played")),
    ]


@transaction.atomic
def match_adjudicate(
    *, moderator: User, match: Match, decision: str, reason: str, now: datetime
) -> Match:
    """End ``match`` by a moderator's decision (see :class:`Decision`); both players are told.

    Awards and draws go through the same end of match as a played-out match, so the
    statistics and ratings follow; a cancelled match counts nowhere.
    """
    reason = require_reason(reason)
    if decision not in {value for value, _label in Decision.CHOICES}:
        raise InvalidAction(gettext_lazy("Choose a decision."), code="decision")
    stakes.refuse(stakes.in_match(moderator, match), stakes.PLAYS_MATCH)
    winner = {Decision.WHITE: Color.WHITE, Decision.BLACK: Color.BLACK}.get(decision)
    match = moderator_actions.match_adjudicate(
        match_id=match.pk, winner=winner, cancel=decision == Decision.CANCEL, now=now
    )
    audit(
        actor=moderator,
        action="moderation.match.adjudicated",
        reason=reason,
        now=now,
        target=match,
        data={"decision": decision, "white": match.white_id, "black": match.black_id},
    )
    for color in (Color.WHITE, Color.BLACK):
        player = match.player(color)
        opponent = match.player(color.other).public_name

        def text(color: Color = color, opponent: str = opponent) -> str:
            values = {"opponent": opponent, "reason": reason}
            if decision == Decision.CANCEL:
                return (
                    _(
                        "The moderators have cancelled your match against %(opponent)s: "
                        "it does not count. Reason: %(reason)s"
                    )
                    % values
                )
            if decision == Decision.DRAW:
                return (
                    _(
                        "The moderators have declared your match against %(opponent)s "
                        "a draw. Reason: %(reason)s"
                    )
                    % values
                )
            if winner == color:
                return (
                    _(
                        "The moderators have awarded you your match against %(opponent)s. "
                        "Reason: %(reason)s"
                    )
                    % values
                )
            return (
                _(
                    "The moderators have awarded your match against %(opponent)s to "
                    "%(opponent)s. Reason: %(reason)s"
                )
                % values
            )

        tell(player, text, now=now, match=match)
    return match


@transaction.atomic
def game_extend_deadline(
    *, moderator: User, game: Game, extra: timedelta, reason: str, now: datetime
) -> Game:
    """Give the player on turn in ``game`` more time; both players are told the new deadline."""
    reason = require_reason(reason)
    stakes.refuse(stakes.in_match(moderator, game.match), stakes.PLAYS_MATCH)
    before = game.deadline_at
    game = moderator_actions.game_extend_deadline(game_id=game.pk, extra=extra, now=now)
    assert game.deadline_at is not None
    deadline = game.deadline_at
    audit(
        actor=moderator,
        action="moderation.game.deadline_extended",
        reason=reason,
        now=now,
        target=game,
        data={
            "before": before.isoformat() if before else None,
            "after": deadline.isoformat(),
            "hours": extra.total_seconds() / 3600,
        },
    )
    match = game.match
    for color in (Color.WHITE, Color.BLACK):
        player = match.player(color)
        opponent = match.player(color.other).public_name

        def text(player: Any = player, opponent: str = opponent) -> str:
            return _(
                "The moderators have extended the deadline of your game against "
                "%(opponent)s to %(deadline)s. Reason: %(reason)s"
            ) % {"opponent": opponent, "deadline": local_time(deadline, player), "reason": reason}

        tell(player, text, now=now, game=game)
    return game


@transaction.atomic
def game_message_hide(
    *, moderator: User, message: GameMessage, reason: str, now: datetime
) -> GameMessage:
    """Hide a game message from the players; both players are told."""
    reason = require_reason(reason)
    stakes.refuse(stakes.in_match(moderator, message.game.match), stakes.PLAYS_MATCH)
    message = chat.game_message_hide(message_id=message.pk, moderator=moderator, now=now)
    game = Game.objects.select_related("match__white", "match__black").get(pk=message.game_id)
    audit(
        actor=moderator,
        action="moderation.message.hidden",
        reason=reason,
        now=now,
        target_user=message.author,
        target=message,
        data={"game": game.pk, "text": message.text},
    )
    match = game.match
    for player in (match.white, match.black):
        tell(
            player,
            lambda: (
                _("The moderators have hidden a message in your game. Reason: %(reason)s")
                % {"reason": reason}
            ),
            now=now,
            game=game,
        )
    return message


# --------------------------------------------------------------------------- chouettes


@transaction.atomic
def chouette_remove_player(
    *, moderator: User, chouette: Chouette, player: User, reason: str, now: datetime
) -> Seat:
    """Remove ``player`` from ``chouette``: at once before it starts, else when the game
    in play ends (to remove them now, adjudicate that game's board too). They are told."""
    reason = require_reason(reason)
    stakes.refuse(stakes.in_chouette(moderator, chouette), stakes.SITS_AT_CHOUETTE)
    check_target(moderator, player)
    seat = chouette_seating.player_remove(chouette_id=chouette.pk, player=player, now=now)
    at_once = seat.status == Seat.Status.REMOVED
    audit(
        actor=moderator,
        action="moderation.chouette.player_removed",
        reason=reason,
        now=now,
        target_user=player,
        target=chouette,
        data={"seat": seat.pk, "at_once": at_once},
    )

    def text() -> str:
        values = {"chouette": chouette.pk, "reason": reason}
        if at_once:
            return (
                _("The moderators have removed you from chouette #%(chouette)s. Reason: %(reason)s")
                % values
            )
        return (
            _(
                "The moderators have removed you from chouette #%(chouette)s, from the end "
                "of the game in play. Reason: %(reason)s"
            )
            % values
        )

    tell(player, text, now=now)
    return seat


@transaction.atomic
def chouette_message_hide(
    *, moderator: User, message: ChouetteMessage, reason: str, now: datetime
) -> ChouetteMessage:
    """Hide a chouette message from the players; its author is told."""
    reason = require_reason(reason)
    stakes.refuse(stakes.in_chouette(moderator, message.chouette), stakes.SITS_AT_CHOUETTE)
    message = chouette_chat.message_hide(message_id=message.pk, moderator=moderator, now=now)
    audit(
        actor=moderator,
        action="moderation.chouette_message.hidden",
        reason=reason,
        now=now,
        target_user=message.author,
        target=message,
        data={"chouette": message.chouette_id, "team": message.team, "text": message.text},
    )
    tell(
        message.author,
        lambda: (
            _(
                "The moderators have hidden a message of yours in chouette #%(chouette)s. "
                "Reason: %(reason)s"
            )
            % {"chouette": message.chouette_id, "reason": reason}
        ),
        now=now,
    )
    return message


# --------------------------------------------------------------------------- vacations


def _check_vacation(moderator: User, vacation: Vacation) -> None:
    """A superuser does not move their own deadlines, nor those of a player they play."""
    stakes.refuse(vacation.user_id == moderator.pk, stakes.OWN_CASE)
    stakes.refuse(stakes.against(moderator, vacation.user), stakes.PLAYS_AGAINST)


@transaction.atomic
def vacation_change(
    *, moderator: User, vacation_id: int, start: date, end: date, reason: str, now: datetime
) -> Vacation:
    """A superuser corrects a player's vacation (the admin): its new first and last days,
    with the deadlines of the player's games moved by :func:`matches.clock.vacation_change`."""
    reason = require_reason(reason)
    before = Vacation.objects.select_related("user").get(pk=vacation_id)
    _check_vacation(moderator, before)
    vacation = clock.vacation_change(vacation_id=vacation_id, start=start, end=end, now=now)
    audit(
        actor=moderator,
        action="moderation.vacation.changed",
        reason=reason,
        now=now,
        target_user=vacation.user,
        target=vacation,
        data={
            "before": [before.start.isoformat(), before.end.isoformat()],
            "after": [vacation.start.isoformat(), vacation.end.isoformat()],
        },
    )
    return vacation


@transaction.atomic
def vacation_delete(*, moderator: User, vacation_id: int, now: datetime) -> None:
    """A superuser removes a player's vacation (the admin's delete, which asks no
    reason): its days go back to the player, whose clocks run through them from now."""
    vacation = Vacation.objects.select_related("user").get(pk=vacation_id)
    _check_vacation(moderator, vacation)
    audit(
        actor=moderator,
        action="moderation.vacation.deleted",
        reason="",
        now=now,
        target_user=vacation.user,
        target=vacation,
        data={"days": [vacation.start.isoformat(), vacation.end.isoformat()]},
    )
    clock.vacation_delete(vacation_id=vacation_id, now=now)


# --------------------------------------------------------------------------- tournaments


@transaction.atomic
def tournament_cancel(
    *, moderator: User, tournament: Tournament, reason: str, now: datetime
) -> Tournament:
    """Cancel ``tournament``: its matches in play are cancelled as if never played, and
    every player is told (by the tournament's own notice)."""
    reason = require_reason(reason)
    tournament = tournament_directing.tournament_cancel(
        tournament_id=tournament.pk, actor=moderator, reason=reason, now=now
    )
    audit(
        actor=moderator,
        action="moderation.tournament.cancelled",
        reason=reason,
        now=now,
        target=tournament,
    )
    return tournament


@transaction.atomic
def tournament_replace_player(
    *,
    moderator: User,
    tournament: Tournament,
    player: User,
    replacement: User,
    reason: str,
    now: datetime,
) -> Entry:
    """Put ``replacement`` in ``player``'s place before their first match is under way;
    both are told."""
    reason = require_reason(reason)
    check_target(moderator, player)
    entry = tournament_directing.entry_replace(
        tournament_id=tournament.pk, actor=moderator, player=player, by=replacement, now=now
    )
    audit(
        actor=moderator,
        action="moderation.tournament.player_replaced",
        reason=reason,
        now=now,
        target_user=player,
        target=tournament,
        data={"entry": entry.pk, "replacement": replacement.pk},
    )
    values = {"name": tournament.name, "reason": reason}
    tell(
        player,
        lambda: (
            _("The moderators have replaced you in the tournament %(name)s. Reason: %(reason)s")
            % values
        ),
        now=now,
    )
    tell(
        replacement,
        lambda: _("The moderators have entered you in the tournament %(name)s.") % values,
        now=now,
    )
    return entry
