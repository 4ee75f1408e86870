"""Each moderation action: its effect, its audit entry, and the messages sent."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from backgammon.errors import Conflict, Forbidden, InvalidAction
from matches import chat
from matches.models import Game, GameEvent, GameMessage, Match
from matches.replay import game_differences
from moderation import players, reports, rulings
from moderation.models import AuditEntry, Report, Suspension, Warning
from moderation.selectors import matches_awaiting_adjudication, suspension_of
from notifications.models import Notification
from notifications.texts import notification_text

pytestmark = pytest.mark.django_db


def told(user: User) -> list[str]:
    """The moderation messages ``user`` was sent, oldest first."""
    rows = Notification.objects.filter(recipient=user, kind=Notification.Kind.MODERATION)
    return [notification_text(row) for row in rows.order_by("created_at", "pk")]


def only_entry() -> AuditEntry:
    entries = list(AuditEntry.objects.all())
    assert len(entries) == 1, entries
    return entries[0]


def test_it_warns_a_player(moderator: User, player: User) -> None:
    now = timezone.now()
    warning = players.user_warn(moderator=moderator, user=player, reason="Be polite.", now=now)
    assert Warning.objects.get() == warning
    entry = only_entry()
    assert (entry.actor, entry.action, entry.target_user, entry.reason) == (
        moderator,
        "moderation.user.warned",
        player,
        "Be polite.",
    )
    assert told(player) == ["The moderators have sent you a warning: Be polite."]


def test_every_action_needs_a_reason(moderator: User, player: User) -> None:
    with pytest.raises(InvalidAction):
        players.user_warn(moderator=moderator, user=player, reason="  ", now=timezone.now())
    assert not AuditEntry.objects.exists()


def test_a_moderator_cannot_act_against_themselves_or_staff(
    moderator: User, superuser: User
) -> None:
    now = timezone.now()
    with pytest.raises(Forbidden):
        players.user_suspend(moderator=moderator, user=moderator, reason="x", now=now)
    with pytest.raises(Forbidden):
        players.user_suspend(moderator=moderator, user=superuser, reason="x", now=now)


def test_it_suspends_for_a_period_and_tells_why_and_until_when(
    moderator: User, player: User
) -> None:
    now = timezone.now()
    suspension = players.user_suspend(
        moderator=moderator, user=player, reason="Abuse.", now=now, duration=timedelta(days=7)
    )
    assert suspension.ends_at == now + timedelta(days=7)
    info = suspension_of(player, now)
    assert info is not None and info.reason == "Abuse." and info.ends_at == suspension.ends_at
    assert suspension_of(player, now + timedelta(days=8)) is None
    entry = only_entry()
    assert entry.action == "moderation.user.suspended" and entry.target_user == player
    [text] = told(player)
    assert "suspended until" in text and "Abuse." in text


def test_it_suspends_permanently(moderator: User, player: User) -> None:
    now = timezone.now()
    players.user_suspend(moderator=moderator, user=player, reason="Spam.", now=now)
    info = suspension_of(player, now + timedelta(days=3650))
    assert info is not None and info.ends_at is None
    assert told(player) == ["Your account has been suspended permanently. Reason: Spam."]
    with pytest.raises(Conflict):
        players.user_suspend(moderator=moderator, user=player, reason="again", now=now)


def test_it_lifts_a_suspension(moderator: User, player: User) -> None:
    now = timezone.now()
    players.user_suspend(moderator=moderator, user=player, reason="Spam.", now=now)
    players.user_lift_suspension(moderator=moderator, user=player, reason="Appeal.", now=now)
    assert suspension_of(player, now) is None
    row = Suspension.objects.get()
    assert row.lifted_by == moderator and row.lifted_at == now
    assert list(AuditEntry.objects.order_by("pk").values_list("action", flat=True)) == [
        "moderation.user.suspended",
        "moderation.user.suspension_lifted",
    ]
    assert told(player)[-1].startswith("Your suspension has been lifted")
    with pytest.raises(Conflict):
        players.user_lift_suspension(moderator=moderator, user=player, reason="x", now=now)


def test_messages_are_written_in_the_players_language(moderator: User, player: User) -> None:
    player.language = "es"
    player.save()
    players.user_warn(moderator=moderator, user=player, reason="x", now=timezone.now())
    assert told(player)[0].startswith("Los moderadores")


def test_it_extends_the_deadline_and_tells_both_players(
    moderator: User, player: User, opponent: User, new_match: Callable[..., Match]
) -> None:
    match = new_match()
    game = match.current_game
    assert game is not None and game.deadline_at is not None
    before, ply = game.deadline_at, game.ply
    rulings.game_extend_deadline(
        moderator=moderator, game=game, extra=timedelta(hours=48), reason="Storm.", now=before
    )
    game.refresh_from_db()
    assert game.deadline_at == before + timedelta(hours=48)
    assert game.ply == ply  # the record is unchanged
    entry = only_entry()
    assert entry.action == "moderation.game.deadline_extended"
    assert entry.target_type == "matches.game" and entry.target_id == game.pk
    for user in (player, opponent):
        [text] = told(user)
        assert "extended the deadline" in text and "Storm." in text


def test_it_refuses_a_silly_extension(moderator: User, new_match: Callable[..., Match]) -> None:
    game = new_match().current_game
    with pytest.raises(InvalidAction):
        rulings.game_extend_deadline(
            moderator=moderator, game=game, extra=timedelta(0), reason="x", now=timezone.now()
        )


def test_it_hides_a_message(
    moderator: User, player: User, opponent: User, new_match: Callable[..., Match]
) -> None:
    game = new_match().current_game
    assert game is not None
    message = chat.game_message_post(
        game_id=game.pk, author=player, text="You idiot", now=timezone.now()
    )
    rulings.game_message_hide(
        moderator=moderator, message=message, reason="Insult.", now=timezone.now()
    )
    message.refresh_from_db()
    assert message.hidden and message.hidden_by == moderator
    entry = only_entry()
    assert entry.action == "moderation.message.hidden" and entry.target_user == player
    assert entry.data["text"] == "You idiot"
    for user in (player, opponent):
        assert told(user) == ["The moderators have hidden a message in your game. Reason: Insult."]


def test_only_players_post_messages_of_at_most_500_characters(
    player: User, outsider: User, new_match: Callable[..., Match]
) -> None:
    game = new_match().current_game
    now = timezone.now()
    with pytest.raises(Forbidden):
        chat.game_message_post(game_id=game.pk, author=outsider, text="hi", now=now)
    with pytest.raises(InvalidAction):
        chat.game_message_post(game_id=game.pk, author=player, text="x" * 501, now=now)
    with pytest.raises(InvalidAction):
        chat.game_message_post(game_id=game.pk, author=player, text="  ", now=now)
    chat.game_message_post(game_id=game.pk, author=player, text="x" * 500, now=now)
    assert GameMessage.objects.count() == 1


def test_a_report_is_resolved_and_the_reporter_told_without_details(
    moderator: User, player: User, opponent: User
) -> None:
    now = timezone.now()
    report = reports.report_create(
        reporter=player, reported=opponent, category="abuse", text="Rude.", now=now
    )
    reports.report_close(moderator=moderator, report=report, note="Suspended 7 days.", now=now)
    report.refresh_from_db()
    assert report.status == Report.Status.RESOLVED and report.handled_by == moderator
    assert report.resolution_note == "Suspended 7 days."
    entry = only_entry()
    assert entry.action == "moderation.report.resolved" and entry.target_user == opponent
    [text] = told(player)
    assert "dealt with it" in text and "Suspended" not in text and "7" not in text
    assert told(opponent) == []
    with pytest.raises(Conflict):
        reports.report_close(moderator=moderator, report=report, note="x", now=now)


def test_a_report_is_dismissed(moderator: User, player: User, opponent: User) -> None:
    now = timezone.now()
    report = reports.report_create(
        reporter=player, reported=opponent, category="other", text="Hm.", now=now
    )
    reports.report_close(moderator=moderator, report=report, note="Fine.", now=now, dismiss=True)
    assert Report.objects.get().status == Report.Status.DISMISSED
    assert only_entry().action == "moderation.report.dismissed"
    assert "no breach" in told(player)[0]


def test_reports_are_checked(
    player: User, opponent: User, outsider: User, new_match: Callable[..., Match]
) -> None:
    now = timezone.now()
    game = new_match().current_game
    message = chat.game_message_post(game_id=game.pk, author=opponent, text="x", now=now)
    with pytest.raises(InvalidAction):
        reports.report_create(reporter=player, reported=player, category="abuse", text="x", now=now)
    with pytest.raises(InvalidAction):  # the message is not the reported player's
        reports.report_create(
            reporter=opponent, reported=player, category="abuse", text="x", message=message, now=now
        )
    with pytest.raises(Forbidden):  # a message of a game the reporter does not play in
        reports.report_create(
            reporter=outsider,
            reported=opponent,
            category="abuse",
            text="x",
            message=message,
            now=now,
        )
    reports.report_create(
        reporter=player, reported=opponent, category="abuse", text="x", message=message, now=now
    )
    with pytest.raises(Conflict):
        reports.report_create(
            reporter=player, reported=opponent, category="abuse", text="y", message=message, now=now
        )
    assert Report.objects.get().game == game


def test_a_moderator_may_report_a_message_of_a_game_they_do_not_play(
    moderator: User, opponent: User, new_match: Callable[..., Match]
) -> None:
    now = timezone.now()
    game = new_match().current_game
    message = chat.game_message_post(game_id=game.pk, author=opponent, text="x", now=now)
    report = reports.report_create(
        reporter=moderator, reported=opponent, category="abuse", text="x", message=message, now=now
    )
    assert report.game == game


def test_only_the_players_of_a_game_can_dispute_it(
    player: User, opponent: User, outsider: User, moderator: User,
    new_match: Callable[..., Match],
) -> None:  # fmt: skip
    now = timezone.now()
    match = new_match()
    game = match.current_game
    for stranger in (outsider, moderator):
        with pytest.raises(Forbidden) as refused:
            reports.report_create(
                reporter=stranger, reported=opponent, category="dispute", text="?", game=game,
                now=now,
            )  # fmt: skip
        assert refused.value.code == "dispute_not_player"
    with pytest.raises(InvalidAction) as refused:  # a dispute names its game
        reports.report_create(
            reporter=player, reported=opponent, category="dispute", text="?", now=now
        )
    assert refused.value.code == "dispute_game"
    assert not Report.objects.exists()
    assert not matches_awaiting_adjudication().exists()
    reports.report_create(
        reporter=player, reported=opponent, category="dispute", text="?", game=game, now=now
    )
    assert list(matches_awaiting_adjudication()) == [match]


def test_a_report_about_a_game_names_one_of_its_players(
    player: User, outsider: User, new_match: Callable[..., Match]
) -> None:
    game = new_match().current_game
    with pytest.raises(InvalidAction) as refused:
        reports.report_create(
            reporter=player, reported=outsider, category="stalling", text="?", game=game,
            now=timezone.now(),
        )  # fmt: skip
    assert refused.value.code == "game" and "Charlie does not play" in str(refused.value)
    assert not Report.objects.exists()


# --------------------------------------------------------------------------- adjudication


@pytest.mark.parametrize("decision", ["white", "black", "draw", "cancel"])
def test_adjudication_ends_the_match_and_tells_both_players(
    moderator: User, player: User, opponent: User, new_match: Callable[..., Match], decision: str
) -> None:
    match = new_match()
    rulings.match_adjudicate(
        moderator=moderator, match=match, decision=decision, reason="Dispute.", now=timezone.now()
    )
    match.refresh_from_db()
    game = match.games.get()
    assert match.status == Match.Status.FINISHED
    assert match.result == {"cancel": "cancelled"}.get(decision, decision)
    assert game.state == Game.State.FINISHED and game.deadline_at is None
    expected_termination = {"draw": "draw", "cancel": "cancelled"}.get(decision, "adjudicated")
    assert game.termination == expected_termination
    event = game.events.filter(kind=GameEvent.Kind.ADJUDICATE).get()
    assert event.notation == {"white": "award", "black": "award"}.get(decision, decision)
    if decision in ("white", "black"):
        winner = 0 if decision == "white" else 1
        assert game.winner == winner
        assert (match.score_white, match.score_black)[winner] == match.length
    assert game_differences(game) == []  # the record still replays to the stored game
    entry = only_entry()
    assert entry.action == "moderation.match.adjudicated" and entry.data["decision"] == decision
    for user in (player, opponent):
        [text] = told(user)
        assert "Dispute." in text


def test_a_finished_match_cannot_be_adjudicated(
    moderator: User, new_match: Callable[..., Match]
) -> None:
    match = new_match()
    now = timezone.now()
    rulings.match_adjudicate(moderator=moderator, match=match, decision="draw", reason="x", now=now)
    with pytest.raises(Conflict):
        rulings.match_adjudicate(
            moderator=moderator, match=match, decision="white", reason="x", now=now
        )
    assert AuditEntry.objects.count() == 1
