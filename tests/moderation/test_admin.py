"""The moderation panel: the permission matrix (player, moderator, superuser) for every
admin page and action, the actions through the admin forms, the read-only audit log and
record of play, the overview, and changelists whose query count does not grow with rows."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.contrib import admin
from django.contrib.auth.models import Group, Permission
from django.core import mail
from django.db import connection
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from challenges.models import Challenge
from matches import chat, clock
from matches.models import Game, GameEvent, GameMessage, Match, Vacation
from moderation import players, reports
from moderation.models import AuditEntry, Report, Suspension, Warning
from moderation.permissions import MODERATOR_PERMISSIONS, MODERATORS_GROUP
from notifications.models import Notification, TimeoutWarning
from tests import records
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

ALLOW, DENY, LOGIN = 200, 403, 302


@pytest.fixture
def world(
    moderator: User, player: User, opponent: User, new_match: Callable[..., Match]
) -> dict[str, object]:
    """One row of every model the admin shows."""
    now = timezone.now()
    match = new_match()
    game = match.current_game
    assert game is not None
    message = chat.game_message_post(game_id=game.pk, author=opponent, text="x", now=now)
    report = reports.report_create(
        reporter=player, reported=opponent, category="abuse", text="rude", message=message, now=now
    )
    players.user_warn(moderator=moderator, user=opponent, reason="w", now=now)
    return {
        "match": match,
        "game": game,
        "event": game.events.first(),
        "message": message,
        "report": report,
        "entry": AuditEntry.objects.get(),
        "warning": Warning.objects.get(),
        "challenge": Challenge.objects.get(),
        "notification": Notification.objects.create(  # not a turn: owed whoever is on turn
            recipient=player,
            kind="draw_offered",
            game=game,
            delivery="email",
            status="failed",
            next_attempt_at=now,
            created_at=now,
            last_error="SMTPServerDisconnected",
        ),  # fmt: skip
        "vacation": Vacation.objects.create(
            user=player,
            start=now.date(),
            end=now.date(),
            starts_at=now,
            ends_at=now + timedelta(days=1),
            created_at=now,
        ),  # fmt: skip
        "timeoutwarning": TimeoutWarning.objects.create(
            game=game, deadline_at=now, hours=12, ply=1, created_at=now
        ),
    }


def pages(w: dict[str, object], player: User) -> dict[str, tuple[str, int, int]]:
    """url -> (what a player gets, a moderator, a superuser) for a GET."""

    def u(name: str, *args: object) -> str:
        return reverse(f"admin:{name}", args=args)

    def pk(key: str) -> object:
        return w[key].pk  # type: ignore[attr-defined]

    return {
        u("index"): (LOGIN, ALLOW, ALLOW),
        u("accounts_user_changelist"): (LOGIN, ALLOW, ALLOW),
        u("accounts_user_change", player.pk): (LOGIN, ALLOW, ALLOW),
        u("accounts_user_add"): (LOGIN, DENY, ALLOW),
        u("accounts_user_delete", player.pk): (LOGIN, DENY, ALLOW),
        u("accounts_user_warn", player.pk): (LOGIN, ALLOW, ALLOW),
        u("accounts_user_suspend", player.pk): (LOGIN, ALLOW, ALLOW),
        u("accounts_user_lift", player.pk): (LOGIN, ALLOW, ALLOW),
        u("auth_group_changelist"): (LOGIN, DENY, ALLOW),
        u("auth_group_add"): (LOGIN, DENY, ALLOW),
        u("matches_match_changelist"): (LOGIN, ALLOW, ALLOW),
        u("matches_match_change", pk("match")): (LOGIN, ALLOW, ALLOW),
        u("matches_match_delete", pk("match")): (LOGIN, DENY, ALLOW),
        u("matches_match_add"): (LOGIN, DENY, DENY),
        u("matches_match_adjudicate", pk("match")): (LOGIN, ALLOW, ALLOW),
        u("matches_match_extend-deadline", pk("match")): (LOGIN, ALLOW, ALLOW),
        u("matches_game_changelist"): (LOGIN, ALLOW, ALLOW),
        u("matches_game_change", pk("game")): (LOGIN, ALLOW, ALLOW),
        u("matches_game_add"): (LOGIN, DENY, DENY),
        u("matches_game_delete", pk("game")): (LOGIN, DENY, ALLOW),
        u("matches_gameevent_changelist"): (LOGIN, ALLOW, ALLOW),
        u("matches_gameevent_change", pk("event")): (LOGIN, ALLOW, ALLOW),
        u("matches_gameevent_add"): (LOGIN, DENY, DENY),
        u("matches_gameevent_delete", pk("event")): (LOGIN, DENY, DENY),
        u("challenges_challenge_changelist"): (LOGIN, ALLOW, ALLOW),
        u("matches_gamemessage_changelist"): (LOGIN, ALLOW, ALLOW),
        u("matches_gamemessage_change", pk("message")): (LOGIN, ALLOW, ALLOW),
        u("matches_gamemessage_hide", pk("message")): (LOGIN, ALLOW, ALLOW),
        u("notifications_notification_changelist"): (LOGIN, ALLOW, ALLOW),
        u("notifications_notification_change", pk("notification")): (LOGIN, ALLOW, ALLOW),
        u("notifications_notification_add"): (LOGIN, DENY, DENY),
        u("notifications_notification_delete", pk("notification")): (LOGIN, DENY, DENY),
        u("matches_vacation_changelist"): (LOGIN, ALLOW, ALLOW),
        u("matches_vacation_change", pk("vacation")): (LOGIN, ALLOW, ALLOW),
        u("matches_vacation_add"): (LOGIN, DENY, DENY),
        u("matches_vacation_delete", pk("vacation")): (LOGIN, DENY, ALLOW),
        u("notifications_timeoutwarning_changelist"): (LOGIN, ALLOW, ALLOW),
        u("notifications_timeoutwarning_change", pk("timeoutwarning")): (LOGIN, ALLOW, ALLOW),
        u("notifications_timeoutwarning_add"): (LOGIN, DENY, DENY),
        u("notifications_timeoutwarning_delete", pk("timeoutwarning")): (LOGIN, DENY, DENY),
        u("moderation_report_changelist"): (LOGIN, ALLOW, ALLOW),
        u("moderation_report_change", pk("report")): (LOGIN, ALLOW, ALLOW),
        u("moderation_report_close", pk("report")): (LOGIN, ALLOW, ALLOW),
        u("moderation_report_add"): (LOGIN, DENY, DENY),
        u("moderation_report_delete", pk("report")): (LOGIN, DENY, ALLOW),
        u("moderation_auditentry_changelist"): (LOGIN, ALLOW, ALLOW),
        u("moderation_auditentry_change", pk("entry")): (LOGIN, ALLOW, ALLOW),
        u("moderation_auditentry_add"): (LOGIN, DENY, DENY),
        u("moderation_auditentry_delete", pk("entry")): (LOGIN, DENY, DENY),
        u("moderation_auditentry_history", pk("entry")): (LOGIN, ALLOW, ALLOW),
        u("moderation_warning_changelist"): (LOGIN, ALLOW, ALLOW),
        u("moderation_warning_delete", pk("warning")): (LOGIN, DENY, DENY),
        u("moderation_suspension_changelist"): (LOGIN, ALLOW, ALLOW),
        u("moderation_suspension_add"): (LOGIN, DENY, DENY),
    }


def test_the_permission_matrix_for_every_page(
    world: dict[str, object],
    player: User,
    player_client: Client,
    moderator_client: Client,
    superuser_client: Client,
) -> None:
    wrong = []
    for url, expected in pages(world, player).items():
        for client, want in zip(
            (player_client, moderator_client, superuser_client), expected, strict=True
        ):
            got = client.get(url).status_code
            if got != want:
                wrong.append((url, client is player_client, want, got))
    assert wrong == []


def test_players_are_sent_to_the_admin_login(player_client: Client) -> None:
    response = player_client.get(reverse("admin:index"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("admin:login"))


def test_the_moderators_group_has_exactly_its_permissions() -> None:
    group = Group.objects.get(name=MODERATORS_GROUP)
    held = {
        f"{app}.{codename}"
        for app, codename in group.permissions.values_list("content_type__app_label", "codename")
    }
    assert held == set(MODERATOR_PERMISSIONS)
    assert not any(p.split(".")[1].startswith(("add_", "delete_")) for p in held)
    assert {p for p in held if p.split(".")[1].startswith("change_")} == {
        "moderation.change_report"
    }


def test_a_moderator_cannot_grant_themselves_rights(
    moderator: User, moderator_client: Client
) -> None:
    url = reverse("admin:accounts_user_change", args=[moderator.pk])
    every = Permission.objects.values_list("pk", flat=True)
    response = moderator_client.post(
        url,
        {"username": moderator.username, "is_superuser": "on", "user_permissions": list(every)},
    )
    assert response.status_code == 403
    moderator.refresh_from_db()
    assert not moderator.is_superuser and not moderator.user_permissions.exists()
    assert moderator_client.post(reverse("admin:auth_group_add"), {"name": "x"}).status_code == 403
    page = moderator_client.get(url).content.decode()
    assert 'name="is_superuser"' not in page and 'name="groups"' not in page


def test_rights_fields_are_read_only_even_with_a_change_permission(moderator: User) -> None:
    request = RequestFactory().get("/")
    request.user = moderator
    model_admin = admin.site._registry[User]
    readonly = model_admin.get_readonly_fields(request, moderator)
    assert {"is_staff", "is_superuser", "groups", "user_permissions"} <= set(readonly)


def test_moderators_cannot_edit_game_state_dice_or_scores(
    world: dict[str, object], moderator_client: Client
) -> None:
    game = world["game"]
    match = world["match"]
    assert isinstance(game, Game) and isinstance(match, Match)
    before = (game.die1, game.die2, game.state, game.board)
    url = reverse("admin:matches_game_change", args=[game.pk])
    page = moderator_client.get(url).content.decode()
    assert 'name="die1"' not in page and 'name="board"' not in page
    assert moderator_client.post(url, {"die1": 6, "die2": 6}).status_code == 403
    match_url = reverse("admin:matches_match_change", args=[match.pk])
    assert 'name="score_white"' not in moderator_client.get(match_url).content.decode()
    assert moderator_client.post(match_url, {"score_white": 9}).status_code == 403
    game.refresh_from_db()
    match.refresh_from_db()
    assert (game.die1, game.die2, game.state, game.board) == before and match.score_white == 0


@pytest.mark.parametrize(
    "board",
    [
        {"points": [1]},
        # Twenty checkers a side: 15 is all a standard game has.
        {"points": [20] + [0] * 22 + [-20], "bar": [0, 0], "off": [0, 0]},
    ],
)
def test_not_even_a_superuser_edits_a_games_board_or_a_matchs_score(
    world: dict[str, object], superuser_client: Client, board: dict[str, object]
) -> None:
    game = world["game"]
    match = world["match"]
    assert isinstance(game, Game) and isinstance(match, Match)
    before = list(Game.objects.filter(pk=game.pk).values())
    url = reverse("admin:matches_game_change", args=[game.pk])
    page = superuser_client.get(url).content.decode()
    assert 'name="board"' not in page and 'name="die1"' not in page
    fields = {**Game.objects.filter(pk=game.pk).values().get(), "board": json.dumps(board)}
    data = {k: "" if v is None else v for k, v in fields.items() if k != "id"}
    assert superuser_client.post(url, {**data, "match": match.pk}).status_code == 403
    assert list(Game.objects.filter(pk=game.pk).values()) == before
    # Which is why the game page and its board still answer.
    assert superuser_client.get(reverse("game_detail", args=[game.pk])).status_code == 200
    assert superuser_client.get(reverse("game_board_svg", args=[game.pk])).status_code == 200
    match_url = reverse("admin:matches_match_change", args=[match.pk])
    assert 'name="score_white"' not in superuser_client.get(match_url).content.decode()
    assert superuser_client.post(match_url, {"score_white": 99}).status_code == 403
    match.refresh_from_db()
    assert match.score_white == 0
    add = reverse("admin:matches_game_add")
    assert superuser_client.post(add, {**data, "match": match.pk}).status_code == 403
    assert Game.objects.count() == 1


def test_nobody_edits_or_deletes_the_audit_log(
    world: dict[str, object], superuser: User, superuser_client: Client
) -> None:
    entry = world["entry"]
    assert isinstance(entry, AuditEntry)
    request = RequestFactory().get("/")
    request.user = superuser
    model_admin = admin.site._registry[AuditEntry]
    assert not model_admin.has_add_permission(request)
    assert not model_admin.has_change_permission(request, entry)
    assert not model_admin.has_delete_permission(request, entry)
    change = reverse("admin:moderation_auditentry_change", args=[entry.pk])
    assert superuser_client.post(change, {"reason": "forged"}).status_code == 403
    delete = reverse("admin:moderation_auditentry_delete", args=[entry.pk])
    assert superuser_client.post(delete, {"post": "yes"}).status_code == 403
    changelist = reverse("admin:moderation_auditentry_changelist")
    response = superuser_client.post(
        changelist, {"action": "delete_selected", "_selected_action": [entry.pk], "post": "yes"}
    )
    entry.refresh_from_db()
    assert entry.reason == "w" and AuditEntry.objects.count() == 1
    assert response.status_code in (200, 302)


@pytest.mark.parametrize(
    ("permission", "url_name"),
    [
        ("warn_user", "accounts_user_warn"),
        ("suspend_user", "accounts_user_suspend"),
        ("adjudicate_match", "matches_match_adjudicate"),
        ("hide_gamemessage", "matches_gamemessage_hide"),
    ],
)
def test_each_action_needs_its_permission(
    world: dict[str, object], player: User, permission: str, url_name: str
) -> None:
    """Staff without the action's permission are refused the form."""
    clerk = UserFactory(username="clerk", is_staff=True)
    clerk.user_permissions.add(
        *Permission.objects.filter(
            codename__in=["view_user", "view_match", "view_gamemessage", "view_game"]
        )
    )
    client = Client()
    client.force_login(clerk)
    target = {
        "accounts_user_warn": player.pk,
        "accounts_user_suspend": player.pk,
        "matches_match_adjudicate": world["match"].pk,  # type: ignore[attr-defined]
        "matches_gamemessage_hide": world["message"].pk,  # type: ignore[attr-defined]
    }[url_name]
    url = reverse(f"admin:{url_name}", args=[target])
    assert client.get(url).status_code == 403
    assert client.post(url, {"reason": "x"}).status_code == 403
    assert AuditEntry.objects.count() == 1  # the fixture's warning only


def test_vacations_change_only_for_superusers(
    world: dict[str, object], moderator_client: Client, superuser_client: Client
) -> None:
    vacation = world["vacation"]
    assert isinstance(vacation, Vacation)
    url = reverse("admin:matches_vacation_change", args=[vacation.pk])
    assert 'name="end"' not in moderator_client.get(url).content.decode()
    assert moderator_client.post(url, {"end": "2099-01-01"}).status_code == 403
    assert 'name="end"' in superuser_client.get(url).content.decode()
    vacation.refresh_from_db()
    assert vacation.end == vacation.start


def test_a_superusers_vacation_change_and_removal_are_audited(
    opponent: User, superuser_client: Client
) -> None:
    now = timezone.now()
    first = now.date() + timedelta(days=5)
    vacation = clock.vacation_take(user=opponent, start=first, end=first, now=now)
    url = reverse("admin:matches_vacation_change", args=[vacation.pk])
    later = first + timedelta(days=1)
    unexplained = superuser_client.post(url, {"start": first, "end": later, "reason": ""})
    assert unexplained.status_code == 400 and "This field is required." in (
        unexplained.content.decode()
    )
    vacation.refresh_from_db()
    assert vacation.end == first and not AuditEntry.objects.exists()

    changed = superuser_client.post(
        url, {"start": first, "end": later, "reason": "He asked by e-mail."}
    )
    assert changed.status_code == 302, changed.content.decode()[:2000]
    entry = AuditEntry.objects.get()
    assert (entry.action, entry.actor.username, entry.target_user) == (
        "moderation.vacation.changed",
        "root",
        opponent,
    )
    assert entry.reason == "He asked by e-mail."
    assert entry.data == {
        "before": [first.isoformat(), first.isoformat()],
        "after": [first.isoformat(), later.isoformat()],
    }

    delete = reverse("admin:matches_vacation_delete", args=[vacation.pk])
    assert superuser_client.post(delete, {"post": "yes"}).status_code == 302
    assert not Vacation.objects.filter(pk=vacation.pk).exists()
    removed = AuditEntry.objects.get(action="moderation.vacation.deleted")
    assert removed.target_user == opponent and removed.target_id == vacation.pk
    assert removed.data == {"days": [first.isoformat(), later.isoformat()]}


def test_nobody_edits_the_notification_outbox(
    world: dict[str, object], superuser_client: Client
) -> None:
    row = world["notification"]
    assert isinstance(row, Notification)
    url = reverse("admin:notifications_notification_change", args=[row.pk])
    assert 'name="status"' not in superuser_client.get(url).content.decode()
    assert superuser_client.post(url, {"status": "sent"}).status_code == 403
    row.refresh_from_db()
    assert row.status == Notification.Status.FAILED


def test_a_superuser_sends_failed_emails_again(
    world: dict[str, object],
    player: User,
    moderator_client: Client,
    superuser_client: Client,
    django_capture_on_commit_callbacks: Callable[..., object],
) -> None:
    failed = world["notification"]
    assert isinstance(failed, Notification)
    now = timezone.now()
    sent = Notification.objects.create(
        recipient=player, kind="your_turn", delivery="email", status="sent", attempts=1,
        next_attempt_at=now, created_at=now, sent_at=now,
    )  # fmt: skip
    Notification.objects.filter(pk=failed.pk).update(attempts=5)
    changelist = reverse("admin:notifications_notification_changelist")
    data = {"action": "resend_failed", "_selected_action": [failed.pk, sent.pk]}
    assert "resend_failed" not in moderator_client.get(changelist).content.decode()
    moderator_client.post(changelist, data)
    failed.refresh_from_db()
    assert failed.status == Notification.Status.FAILED  # a moderator may not
    assert "resend_failed" in superuser_client.get(changelist).content.decode()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = superuser_client.post(changelist, data)
    assert response.status_code == 302 and len(callbacks) == 1
    failed.refresh_from_db()
    sent.refresh_from_db()
    # Queued again and (tasks run eagerly in tests) delivered; the sent row is untouched.
    assert failed.status == Notification.Status.SENT and failed.attempts == 1
    assert sent.status == Notification.Status.SENT and sent.attempts == 1
    assert [m.to for m in mail.outbox] == [[player.email]]


# --------------------------------------------------------------------------- actions


def test_a_moderator_warns_suspends_and_lifts_through_the_admin(
    moderator_client: Client, player: User
) -> None:
    def post(name: str, data: dict[str, object]) -> None:
        url = reverse(f"admin:accounts_user_{name}", args=[player.pk])
        response = moderator_client.post(url, data)
        assert response.status_code == 302, response.content.decode()[:2000]

    no_reason = moderator_client.post(
        reverse("admin:accounts_user_warn", args=[player.pk]), {"reason": ""}
    )
    assert no_reason.status_code == 400 and not Warning.objects.exists()
    post("warn", {"reason": "Mind your words."})
    post("suspend", {"reason": "Abuse.", "days": 3})
    suspension = Suspension.objects.get()
    assert suspension.ends_at is not None
    assert suspension.ends_at - suspension.starts_at == timedelta(days=3)
    post("lift", {"reason": "Appeal."})
    post("suspend", {"reason": "Again.", "permanent": "on"})
    assert Suspension.objects.filter(ends_at=None, lifted_at=None).count() == 1
    assert list(AuditEntry.objects.order_by("pk").values_list("action", flat=True)) == [
        "moderation.user.warned",
        "moderation.user.suspended",
        "moderation.user.suspension_lifted",
        "moderation.user.suspended",
    ]
    page = moderator_client.get(reverse("admin:accounts_user_change", args=[player.pk]))
    text = page.content.decode()
    assert "moderation.user.warned" in text and "Again." in text  # history, suspension


def test_a_moderator_adjudicates_and_extends_through_the_admin(
    moderator_client: Client, new_match: Callable[..., Match]
) -> None:
    match = new_match()
    game = match.current_game
    assert game is not None and game.deadline_at is not None
    deadline = game.deadline_at
    url = reverse("admin:matches_match_extend-deadline", args=[match.pk])
    assert moderator_client.post(url, {"hours": 24, "reason": "Outage."}).status_code == 302
    game.refresh_from_db()
    assert game.deadline_at == deadline + timedelta(hours=24)
    url = reverse("admin:matches_match_adjudicate", args=[match.pk])
    assert moderator_client.post(url, {"decision": "draw", "reason": ""}).status_code == 400
    assert moderator_client.post(url, {"decision": "draw", "reason": "Both."}).status_code == 302
    match.refresh_from_db()
    assert match.result == Match.Result.DRAW
    again = moderator_client.post(url, {"decision": "white", "reason": "x"})
    assert again.status_code == 409 and "already over" in again.content.decode()


def test_a_moderator_hides_a_message_and_closes_a_report(
    world: dict[str, object], moderator_client: Client
) -> None:
    message, report = world["message"], world["report"]
    assert isinstance(message, GameMessage) and isinstance(report, Report)
    page = moderator_client.get(reverse("admin:moderation_report_change", args=[report.pk]))
    assert "In context" in page.content.decode() or "in context" in page.content.decode()
    url = reverse("admin:matches_gamemessage_hide", args=[message.pk])
    assert moderator_client.post(url, {"reason": "Insult."}).status_code == 302
    url = reverse("admin:moderation_report_close", args=[report.pk])
    response = moderator_client.post(url, {"outcome": "resolve", "note": "Hidden."})
    assert response.status_code == 302
    message.refresh_from_db()
    report.refresh_from_db()
    assert message.hidden and report.status == Report.Status.RESOLVED


def test_the_report_queue_shows_open_reports_newest_first(
    moderator_client: Client, moderator: User, player: User, opponent: User, outsider: User
) -> None:
    now = timezone.now()
    old = reports.report_create(
        reporter=player, reported=opponent, category="abuse", text="TEXT-OLDER", now=now
    )
    reports.report_create(
        reporter=outsider, reported=opponent, category="spam", text="TEXT-NEWER",
        now=now + timedelta(minutes=1),
    )  # fmt: skip
    closed = reports.report_create(
        reporter=opponent, reported=player, category="abuse", text="TEXT-CLOSED", now=now
    )
    reports.report_close(moderator=moderator, report=closed, note="n", now=now)
    url = reverse("admin:moderation_report_changelist")
    text = moderator_client.get(url).content.decode()
    assert text.index("TEXT-NEWER") < text.index("TEXT-OLDER") and "TEXT-CLOSED" not in text
    text = moderator_client.get(url, {"category": "abuse"}).content.decode()
    assert "TEXT-OLDER" in text and "TEXT-NEWER" not in text
    assert "TEXT-CLOSED" in moderator_client.get(url, {"status": "all"}).content.decode()
    assert old.pk


def test_the_audit_log_filters_by_moderator_player_and_action(
    world: dict[str, object], moderator: User, superuser: User, player: User, opponent: User,
    superuser_client: Client,
) -> None:  # fmt: skip
    players.user_warn(moderator=superuser, user=player, reason="by root", now=timezone.now())
    url = reverse("admin:moderation_auditentry_changelist")
    by_root = superuser_client.get(url, {"actor__id__exact": superuser.pk})
    assert by_root.context["cl"].result_count == 1
    about_bob = superuser_client.get(url, {"target_user__id__exact": opponent.pk})
    assert about_bob.context["cl"].result_count == 1
    warned = superuser_client.get(url, {"action": "moderation.user.warned"})
    assert warned.context["cl"].result_count == 2


def test_the_index_shows_the_work_waiting(
    moderator_client: Client, player: User, opponent: User, new_match: Callable[..., Match]
) -> None:
    now = timezone.now()
    match = new_match()
    game = match.current_game
    reports.report_create(
        reporter=player, reported=opponent, category="dispute", text="?", game=game, now=now
    )
    late = UserFactory(username="late")
    records.counters_made_by_hand()  # finished games written past the receivers
    for _ in range(3):
        m = Match.objects.create(white=late, black=player, created_at=now)
        made = Game.objects.create(
            match=m, number=1, turn=0, state="finished", termination="timeout",
            started_at=now, updated_at=now, finished_at=now - timedelta(days=1),
        )  # fmt: skip
        records.game_made_by_hand(made.pk)
    response = moderator_client.get(reverse("admin:index"))
    overview = response.context["request"]  # the template tag reads the request
    assert overview is not None
    text = response.content.decode()
    assert '<td id="overview-open-reports">1</td>' in text
    assert '<td id="overview-awaiting">1</td>' in text
    assert "late</a> (3)" in text
    awaiting = moderator_client.get(reverse("admin:matches_match_changelist"), {"awaiting": "yes"})
    assert awaiting.context["cl"].result_count == 1


# --------------------------------------------------------------------------- query counts


def _rows(n: int, moderator: User) -> None:
    """``n`` rows of every model with an admin, each with its own players."""
    now = timezone.now()
    for i in range(n):
        a = UserFactory(username=f"qa{i}")
        b = UserFactory(username=f"qb{i}")
        match = Match.objects.create(white=a, black=b, created_at=now)
        game = Game.objects.create(
            match=match, number=1, turn=0, started_at=now, updated_at=now, deadline_at=now
        )
        records.game_made_by_hand(game.pk)
        records.counters_made_by_hand()  # an opening roll written past the receivers
        GameEvent.objects.create(game=game, ply=1, kind="opening", color=0, die1=3, die2=1,
                                 created_at=now)  # fmt: skip
        Challenge.objects.create(challenger=a, opponent=b, created_at=now, expires_at=now)
        message = GameMessage.objects.create(game=game, author=a, text="m", created_at=now)
        Report.objects.create(
            reporter=b, reported=a, message=message, game=game, category="abuse", text="t",
            created_at=now,
        )  # fmt: skip
        AuditEntry.objects.create(
            actor=moderator, action="moderation.user.warned", target_user=a, reason="r",
            created_at=now,
        )  # fmt: skip
        Warning.objects.create(user=a, reason="r", created_by=moderator, created_at=now)
        Suspension.objects.create(user=a, reason="r", starts_at=now, created_by=moderator)
        Notification.objects.create(
            recipient=a, kind="your_turn", game=game, match=match, delivery="email",
            next_attempt_at=now, created_at=now,
        )  # fmt: skip
        Vacation.objects.create(
            user=a, start=now.date(), end=now.date(), starts_at=now, ends_at=now, created_at=now
        )
        TimeoutWarning.objects.create(game=game, deadline_at=now, hours=12, ply=1, created_at=now)


CHANGELISTS = [
    "accounts_user",
    "matches_match",
    "matches_game",
    "matches_gameevent",
    "challenges_challenge",
    "matches_gamemessage",
    "notifications_notification",
    "matches_vacation",
    "notifications_timeoutwarning",
    "moderation_report",
    "moderation_auditentry",
    "moderation_warning",
    "moderation_suspension",
]


def _count(client: Client, url: str) -> int:
    client.get(url)  # warm the per-user caches (suspension check)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries)


def test_changelist_queries_do_not_grow_with_rows(
    moderator: User, moderator_client: Client
) -> None:
    _rows(5, moderator)
    few = {
        name: _count(moderator_client, reverse(f"admin:{name}_changelist")) for name in CHANGELISTS
    }
    _rows(60, moderator)  # more than a page (100 rows for users: still over 5 rows)
    many = {
        name: _count(moderator_client, reverse(f"admin:{name}_changelist")) for name in CHANGELISTS
    }
    assert many == few
    assert all(n <= 12 for n in many.values()), many
