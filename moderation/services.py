"""The moderators' actions. Each one checks its input, makes its change (through the
``matches`` services for matches and games), writes an :class:`AuditEntry` with a
dotted action name, and tells the players concerned (a ``moderation`` notification:
in-site and, by their preference, e-mail).

Every action needs a reason. Permissions are the admin's business (the views check
them before calling); these functions trust their caller, like every service, except
for one thing no permission can grant: a moderator who has a stake in the case (they
play the match, sit at the chouette, entered the tournament, are playing the player)
is refused with a 403 and its reason (:mod:`moderation.stakes`), before anything changes.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import models, transaction
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import User
from backgammon.errors import Conflict, Forbidden, InvalidAction
from chouettes import services as chouette_services
from chouettes.models import Chouette, Seat
from chouettes.models import Message as ChouetteMessage
from gammon import Color
from matches import chat, clock, moderator_actions
from matches.models import Game, GameMessage, Match, Vacation
from notifications.models import Notification
from notifications.outbox import notify
from tournaments import directing as tournament_directing
from tournaments.models import Entry, Tournament

from . import stakes
from .models import AuditEntry, Report, Suspension, Warning
from .selectors import may_read_messages, suspensions_in_force

MAX_REASON = 2000


# --------------------------------------------------------------------------- helpers


def _reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise InvalidAction(gettext_lazy("Give a reason."), code="reason_required")
    if len(reason) > MAX_REASON:
        raise InvalidAction(
            gettext_lazy("The reason is too long (at most %(max)s characters)."),
            code="reason_length",
            max=MAX_REASON,
        )
    return reason


def audit(
    *,
    actor: User,
    action: str,
    reason: str,
    now: datetime,
    target_user: User | None = None,
    target: models.Model | None = None,
    data: dict[str, Any] | None = None,
) -> AuditEntry:
    """Record one moderator's action (``action`` is a dotted name: ``moderation.user.warned``)."""
    return AuditEntry.objects.create(
        actor=actor,
        action=action,
        target_user=target_user,
        target_type=target._meta.label_lower if target is not None else "",
        target_id=target.pk if target is not None else None,
        target_repr=str(target)[:200] if target is not None else "",
        reason=reason,
        data=data or {},
        created_at=now,
    )


def _tell(
    user: User,
    text: Callable[[], str],
    *,
    now: datetime,
    game: Game | None = None,
    match: Match | None = None,
) -> Notification:
    """Send ``user`` a moderation message, written in their language."""
    with translation.override(user.language or settings.LANGUAGE_CODE):
        body = str(text())
    return notify(
        recipient=user,
        kind=Notification.Kind.MODERATION,
        now=now,
        game=game,
        match=match,
        payload={"text": body},
    )


def _when(moment: datetime, user: User) -> str:
    """``moment`` as the user reads it: their time zone, their language's format."""
    from zoneinfo import ZoneInfo

    try:
        zone = ZoneInfo(user.time_zone or "UTC")
    except (ValueError, KeyError):
        zone = ZoneInfo("UTC")
    return formats.date_format(timezone.localtime(moment, zone), "DATETIME_FORMAT") + (
        f" ({zone.key})"
    )


def _check_target(moderator: User, user: User) -> None:
    if user.pk == moderator.pk:
        raise Forbidden(gettext_lazy("You cannot take this action against yourself."))
    if (user.is_staff or user.is_superuser) and not moderator.is_superuser:
        raise Forbidden(
            gettext_lazy("Only a superuser can take this action against a staff member.")
        )
    stakes.refuse(stakes.against(moderator, user), stakes.PLAYS_AGAINST)


# --------------------------------------------------------------------------- players


@transaction.atomic
def user_warn(*, moderator: User, user: User, reason: str, now: datetime) -> Warning:
    """Warn ``user``; they are sent the warning with its reason."""
    reason = _reason(reason)
    _check_target(moderator, user)
    warning = Warning.objects.create(user=user, reason=reason, created_by=moderator, created_at=now)
    audit(
        actor=moderator,
        action="moderation.user.warned",
        reason=reason,
        now=now,
        target_user=user,
        target=warning,
    )
    _tell(
        user,
        lambda: _("The moderators have sent you a warning: %(reason)s") % {"reason": reason},
        now=now,
    )
    return warning


@transaction.atomic
def user_suspend(
    *,
    moderator: User,
    user: User,
    reason: str,
    now: datetime,
    duration: timedelta | None = None,
) -> Suspension:
    """Suspend ``user`` for ``duration`` from ``now``, or permanently (``None``).

    While suspended they cannot log in, and a session or API token they hold is
    refused with the reason and the end (``moderation.middleware``,
    ``moderation.authentication``, ``moderation.adapters``). Their games go on: their
    clocks run, as for a player who stays away.
    """
    reason = _reason(reason)
    _check_target(moderator, user)
    if duration is not None and duration <= timedelta(0):
        raise InvalidAction(gettext_lazy("A suspension must last some time."), code="duration")
    User.objects.select_for_update().filter(pk=user.pk).first()  # one suspension at a time
    if suspensions_in_force(now).filter(user=user).exists():
        raise Conflict(
            gettext_lazy("This player is already suspended: lift that suspension first."),
            code="already_suspended",
        )
    ends_at = None if duration is None else now + duration
    suspension = Suspension.objects.create(
        user=user, reason=reason, starts_at=now, ends_at=ends_at, created_by=moderator
    )
    audit(
        actor=moderator,
        action="moderation.user.suspended",
        reason=reason,
        now=now,
        target_user=user,
        target=suspension,
        data={"ends_at": ends_at.isoformat() if ends_at else None},
    )
    if ends_at is None:
        _tell(
            user,
            lambda: (
                _("Your account has been suspended permanently. Reason: %(reason)s")
                % {"reason": reason}
            ),
            now=now,
        )
    else:
        _tell(
            user,
            lambda: (
                _("Your account is suspended until %(until)s. Reason: %(reason)s")
                % {"until": _when(ends_at, user), "reason": reason}
            ),
            now=now,
        )
    return suspension


@transaction.atomic
def user_lift_suspension(
    *, moderator: User, user: User, reason: str, now: datetime
) -> list[Suspension]:
    """End every suspension of ``user`` in force now; they may log in again."""
    reason = _reason(reason)
    _check_target(moderator, user)
    rows = list(suspensions_in_force(now).select_for_update().filter(user=user))
    if not rows:
        raise Conflict(gettext_lazy("This player is not suspended."), code="not_suspended")
    for row in rows:
        row.lifted_at = now
        row.lifted_by = moderator
        row.save(update_fields=["lifted_at", "lifted_by"])
        audit(
            actor=moderator,
            action="moderation.user.suspension_lifted",
            reason=reason,
            now=now,
            target_user=user,
            target=row,
        )
    _tell(
        user,
        lambda: (
            _("Your suspension has been lifted: you may play again. Reason: %(reason)s")
            % {"reason": reason}
        ),
        now=now,
    )
    return rows


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
    reason = _reason(reason)
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

        _tell(player, text, now=now, match=match)
    return match


@transaction.atomic
def game_extend_deadline(
    *, moderator: User, game: Game, extra: timedelta, reason: str, now: datetime
) -> Game:
    """Give the player on turn in ``game`` more time; both players are told the new deadline."""
    reason = _reason(reason)
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
            ) % {"opponent": opponent, "deadline": _when(deadline, player), "reason": reason}

        _tell(player, text, now=now, game=game)
    return game


@transaction.atomic
def game_message_hide(
    *, moderator: User, message: GameMessage, reason: str, now: datetime
) -> GameMessage:
    """Hide a game message from the players; both players are told."""
    reason = _reason(reason)
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
        _tell(
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
    reason = _reason(reason)
    stakes.refuse(stakes.in_chouette(moderator, chouette), stakes.SITS_AT_CHOUETTE)
    _check_target(moderator, player)
    seat = chouette_services.player_remove(chouette_id=chouette.pk, player=player, now=now)
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

    _tell(player, text, now=now)
    return seat


@transaction.atomic
def chouette_message_hide(
    *, moderator: User, message: ChouetteMessage, reason: str, now: datetime
) -> ChouetteMessage:
    """Hide a chouette message from the players; its author is told."""
    reason = _reason(reason)
    stakes.refuse(stakes.in_chouette(moderator, message.chouette), stakes.SITS_AT_CHOUETTE)
    message = chouette_services.message_hide(message_id=message.pk, moderator=moderator, now=now)
    audit(
        actor=moderator,
        action="moderation.chouette_message.hidden",
        reason=reason,
        now=now,
        target_user=message.author,
        target=message,
        data={"chouette": message.chouette_id, "team": message.team, "text": message.text},
    )
    _tell(
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


# --------------------------------------------------------------------------- reports


@transaction.atomic
def report_create(
    *,
    reporter: User,
    reported: User,
    category: str,
    text: str,
    now: datetime,
    message: GameMessage | None = None,
    game: Game | None = None,
) -> Report:
    """A player reports another player, or one of their messages, to the moderators.

    A message may be reported by whoever may read it (its game's players, moderators);
    a game only about one of its players; and a ``dispute``, which asks the moderators
    to adjudicate the match, only by one of the game's two players.
    """
    if reported.pk == reporter.pk:
        raise InvalidAction(gettext_lazy("You cannot report yourself."), code="self_report")
    if category not in Report.Category.values:
        raise InvalidAction(gettext_lazy("Choose a category."), code="category")
    text = (text or "").strip()
    if not text:
        raise InvalidAction(gettext_lazy("Say what happened."), code="text_required")
    if len(text) > Report.MAX_TEXT:
        raise InvalidAction(
            gettext_lazy("Please keep it under %(max)s characters."),
            code="text_length",
            max=Report.MAX_TEXT,
        )
    if message is not None:
        if message.author_id != reported.pk:
            raise InvalidAction(gettext_lazy("That message is not theirs."), code="message")
        game = message.game
        if not may_read_messages(reporter, game):
            raise Forbidden(gettext_lazy("You can only report messages of your own games."))
    if game is not None and game.match.color_of(reported) is None:
        raise InvalidAction(
            gettext_lazy("%(name)s does not play in that game."),
            code="game",
            name=reported.public_name,
        )
    if category == Report.Category.DISPUTE:
        # A dispute puts the match among those awaiting adjudication: only the two
        # players of the game may ask for that.
        if game is None:
            raise InvalidAction(
                gettext_lazy("A dispute is about a game: report it from the game's page."),
                code="dispute_game",
            )
        if game.match.color_of(reporter) is None:
            raise Forbidden(
                gettext_lazy("Only the players of a game can dispute it."),
                code="dispute_not_player",
            )
    duplicate = Report.objects.filter(
        reporter=reporter, reported=reported, message=message, status=Report.Status.OPEN
    )
    if duplicate.exists():
        raise Conflict(
            gettext_lazy("You have already reported this; the moderators will look at it."),
            code="duplicate_report",
        )
    return Report.objects.create(
        reporter=reporter,
        reported=reported,
        message=message,
        game=game,
        category=category,
        text=text,
        created_at=now,
    )


@transaction.atomic
def report_close(
    *, moderator: User, report: Report, note: str, now: datetime, dismiss: bool = False
) -> Report:
    """Resolve (action was taken) or dismiss (no breach found) an open report.

    The note stays with the moderators; the reporter is told only the outcome.
    """
    note = _reason(note)
    report = (
        Report.objects.select_for_update(of=("self",))
        .select_related("reporter", "reported", "game__match")
        .get(pk=report.pk)
    )
    if report.status != Report.Status.OPEN:
        raise Conflict(gettext_lazy("This report has already been handled."), code="handled")
    stakes.refuse(moderator.pk in (report.reporter_id, report.reported_id), stakes.OWN_CASE)
    if report.game is not None:
        stakes.refuse(stakes.in_match(moderator, report.game.match), stakes.PLAYS_MATCH)
    stakes.refuse(stakes.against(moderator, report.reported), stakes.PLAYS_AGAINST)
    report.status = Report.Status.DISMISSED if dismiss else Report.Status.RESOLVED
    report.resolution_note = note
    report.handled_by = moderator
    report.handled_at = now
    report.save(update_fields=["status", "resolution_note", "handled_by", "handled_at"])
    audit(
        actor=moderator,
        action="moderation.report.dismissed" if dismiss else "moderation.report.resolved",
        reason=note,
        now=now,
        target_user=report.reported,
        target=report,
        data={"category": report.category, "reporter": report.reporter_id},
    )
    name = report.reported.public_name
    if dismiss:
        _tell(
            report.reporter,
            lambda: (
                _(
                    "The moderators have reviewed your report about %(name)s and found no "
                    "breach of the rules. Thank you for telling us."
                )
                % {"name": name}
            ),
            now=now,
        )
    else:
        _tell(
            report.reporter,
            lambda: (
                _(
                    "The moderators have reviewed your report about %(name)s and dealt with "
                    "it. Thank you for telling us."
                )
                % {"name": name}
            ),
            now=now,
        )
    return report


__all__ = [
    "Decision",
    "audit",
    "game_extend_deadline",
    "game_message_hide",
    "match_adjudicate",
    "report_close",
    "report_create",
    "user_lift_suspension",
    "user_suspend",
    "user_warn",
]


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
    reason = _reason(reason)
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
    reason = _reason(reason)
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
    reason = _reason(reason)
    _check_target(moderator, player)
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
    _tell(
        player,
        lambda: (
            _("The moderators have replaced you in the tournament %(name)s. Reason: %(reason)s")
            % values
        ),
        now=now,
    )
    _tell(
        replacement,
        lambda: _("The moderators have entered you in the tournament %(name)s.") % values,
        now=now,
    )
    return entry
