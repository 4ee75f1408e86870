"""Moderators and chouettes: a board adjudicated settles its game, a player removed, a
message hidden; every action audited, and the admin's pages and refusals."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse

from accounts.models import User
from chouettes import chat as chouette_chat
from chouettes.models import Chouette, Message, Result, Seat
from moderation import rulings
from moderation.models import AuditEntry
from moderation.permissions import MODERATORS_GROUP
from notifications.models import Notification
from tests.factories import UserFactory

from .helpers import Table, seat_table, start

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator(db: None) -> User:
    user = UserFactory(username="mona", is_staff=True)
    user.groups.add(Group.objects.get(name=MODERATORS_GROUP))
    return user


@pytest.fixture
def moderator_client(moderator: User) -> Client:
    client = Client()
    client.force_login(moderator)
    return client


def moderation_notices(user: User) -> list[str]:
    rows = Notification.objects.filter(recipient=user, kind=Notification.Kind.MODERATION)
    return [n.payload["text"] for n in rows]


def test_an_adjudicated_board_is_audited_and_settles_the_game(
    monkeypatch: pytest.MonkeyPatch, moderator: User
) -> None:
    table = seat_table(monkeypatch, 3)
    start(table, 3, 1)
    game = table.game
    table.roll(4, 2)  # the next game's opening
    rulings.match_adjudicate(
        moderator=moderator,
        match=game.match,
        decision="white",
        reason="Abandoned.",
        now=table.tick(),
    )
    entry = AuditEntry.objects.get(action="moderation.match.adjudicated")
    assert (entry.actor, entry.target_id, entry.reason) == (moderator, game.match_id, "Abandoned.")
    game.refresh_from_db()
    assert game.settled_at is not None
    # Awarded to the box (White): a single game at the cube from each member.
    assert table.points() == {"ann": 2, "bob": -1, "cy": -1}
    assert set(Result.objects.filter(game=game).values_list("role", flat=True)) == {
        "box", "captain", "member",
    }  # fmt: skip
    assert table.game.number == 2
    assert table.places() == ("ann", "cy", ("bob",))


def test_a_player_removed_in_play_leaves_when_the_board_is_adjudicated(
    monkeypatch: pytest.MonkeyPatch, moderator: User, moderator_client: Client
) -> None:
    table = seat_table(monkeypatch, 4)
    start(table, 3, 1)
    chouette, di = table.chouette, table.users["di"]
    url = reverse("admin:chouettes_chouette_remove-player", args=[chouette.pk])
    response = moderator_client.post(url, {"username": "di", "reason": "Abusive chat."})
    assert response.status_code == 302
    seat = Seat.objects.get(chouette=chouette, player=di)
    assert (seat.status, seat.leaving) == (Seat.Status.SEATED, Seat.Status.REMOVED)
    entry = AuditEntry.objects.get(action="moderation.chouette.player_removed")
    assert (entry.actor, entry.target_user, entry.target_id) == (moderator, di, chouette.pk)
    assert entry.data["at_once"] is False and entry.reason == "Abusive chat."
    (notice,) = moderation_notices(di)
    assert f"chouette #{chouette.pk}" in notice and "Abusive chat." in notice

    table.roll(4, 2)
    rulings.match_adjudicate(
        moderator=moderator, match=table.game.match, decision="cancel", reason="Remove di.",
        now=table.tick(),
    )  # fmt: skip
    seat.refresh_from_db()
    assert seat.status == Seat.Status.REMOVED
    assert table.game.number == 2
    assert di.pk not in (table.game.places["box"], table.game.places["captain"])
    assert di.pk not in table.game.places["line"]


def test_a_player_removed_before_the_start_goes_at_once(
    monkeypatch: pytest.MonkeyPatch, moderator: User
) -> None:
    table = seat_table(monkeypatch, 4)
    seat = rulings.chouette_remove_player(
        moderator=moderator,
        chouette=table.chouette,
        player=table.users["cy"],
        reason="Spam.",
        now=table.tick(),
    )
    assert seat.status == Seat.Status.REMOVED
    assert AuditEntry.objects.get().data["at_once"] is True


@pytest.mark.parametrize(
    ("form", "status", "error"),
    [
        ({"username": "di", "reason": ""}, 400, "This field is required."),
        ({"username": "nobody", "reason": "Spam."}, 400, "No player has that username."),
        (
            {"username": "zed", "reason": "Spam."},
            404,
            "That player is not seated in this chouette.",
        ),
        (
            {"username": "mona", "reason": "Spam."},
            403,
            "You cannot take this action against yourself.",
        ),
    ],
)
def test_a_removal_refused_says_why_and_changes_nothing(
    monkeypatch: pytest.MonkeyPatch,
    moderator_client: Client,
    form: dict[str, str],
    status: int,
    error: str,
) -> None:
    table = seat_table(monkeypatch, 4)
    start(table, 3, 1)
    UserFactory(username="zed")
    url = reverse("admin:chouettes_chouette_remove-player", args=[table.chouette.pk])
    response = moderator_client.post(url, form)
    assert response.status_code == status  # the refusal's own status
    assert error in response.content.decode().replace("&#x27;", "'")
    assert not AuditEntry.objects.exists()
    assert not Seat.objects.exclude(leaving="").exists()


def test_a_player_may_not_use_the_moderators_forms(monkeypatch: pytest.MonkeyPatch) -> None:
    table = seat_table(monkeypatch, 3)
    client = Client()
    client.force_login(table.users["bob"])
    url = reverse("admin:chouettes_chouette_remove-player", args=[table.chouette.pk])
    response = client.post(url, {"username": "cy", "reason": "Mine now."})
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    assert not Seat.objects.filter(status=Seat.Status.REMOVED).exists()


def test_the_chouette_page_shows_seats_and_games_read_only(
    monkeypatch: pytest.MonkeyPatch, moderator_client: Client
) -> None:
    table = seat_table(monkeypatch, 3)
    start(table, 3, 1)
    url = reverse("admin:chouettes_chouette_change", args=[table.chouette.pk])
    page = moderator_client.get(url).content.decode()
    assert "Remove a player" in page
    for name in ("ann", "bob", "cy"):
        assert name in page
    assert reverse("admin:matches_match_change", args=[table.game.match_id]) in page
    assert 'name="seats-0-points"' not in page  # read-only: no inputs
    changelist = moderator_client.get(reverse("admin:chouettes_chouette_changelist"))
    assert changelist.status_code == 200 and str(table.chouette) in changelist.content.decode()


def hidden_message(table: Table, moderator_client: Client) -> Message:
    message = chouette_chat.message_post(
        chouette_id=table.chouette.pk,
        author=table.users["bob"],
        text="RUDE WORDS",
        team=False,
        now=table.tick(),
    )
    url = reverse("admin:chouettes_message_hide", args=[message.pk])
    assert moderator_client.post(url, {"reason": "Insult."}).status_code == 302
    message.refresh_from_db()
    return message


def test_a_hidden_message_is_audited_and_masked_to_the_players(
    monkeypatch: pytest.MonkeyPatch, moderator: User, moderator_client: Client
) -> None:
    table = seat_table(monkeypatch, 3)
    start(table, 3, 1)
    message = hidden_message(table, moderator_client)
    assert message.hidden and message.hidden_by == moderator
    entry = AuditEntry.objects.get(action="moderation.chouette_message.hidden")
    assert (entry.target_user, entry.data["text"]) == (table.users["bob"], "RUDE WORDS")
    (notice,) = moderation_notices(table.users["bob"])
    assert "Insult." in notice

    client = Client()
    client.force_login(table.users["cy"])
    (row,) = client.get(f"/api/chouettes/{table.chouette.pk}/messages").json()
    assert (row["hidden"], row["text"]) == (True, None)
    # Moderators read every chouette's chat (chouettes.view_message).
    rows = moderator_client.get(f"/api/chouettes/{table.chouette.pk}/messages").json()
    assert [r["hidden"] for r in rows] == [True]


def test_a_message_is_hidden_once(
    monkeypatch: pytest.MonkeyPatch, moderator: User, moderator_client: Client
) -> None:
    table = seat_table(monkeypatch, 3)
    start(table, 3, 1)
    message = hidden_message(table, moderator_client)
    url = reverse("admin:chouettes_message_hide", args=[message.pk])
    assert moderator_client.get(url).status_code == 200  # the form, though not linked
    response = moderator_client.post(url, {"reason": "Again."})
    assert "This message is already hidden." in response.content.decode()
    assert AuditEntry.objects.filter(action="moderation.chouette_message.hidden").count() == 1


def test_a_finished_chouette_offers_no_removal(
    monkeypatch: pytest.MonkeyPatch, moderator_client: Client
) -> None:
    table = seat_table(monkeypatch, 3)
    Chouette.objects.filter(pk=table.chouette.pk).update(status=Chouette.Status.CANCELLED)
    url = reverse("admin:chouettes_chouette_change", args=[table.chouette.pk])
    assert "Remove a player" not in moderator_client.get(url).content.decode()
