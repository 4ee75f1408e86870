"""Reports: a player reports another (or one of their messages, or disputes a game), and
a moderator resolves or dismisses the report; the reporter is told only the outcome."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import User
from backgammon.errors import Conflict, Forbidden, InvalidAction
from matches.models import Game, GameMessage

from . import stakes
from .audit import audit, require_reason, tell
from .models import Report
from .selectors import may_read_messages


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
    note = require_reason(note)
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
        tell(
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
        tell(
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
