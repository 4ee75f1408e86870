"""Usernames and display names (issue 25): NFKC and any case make one name, at sign-up, in
the admin, at log-in and in the database; no person's name passes for a computer player's.
"""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.core import mail
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tests.factories import PASSWORD, UserFactory

from .test_profile import PREFERENCES
from .test_signup import SIGNUP

pytestmark = pytest.mark.django_db

BOT_LIKE = [
    "ｇｎｕｂｇ-expert",  # fullwidth letters: NFKC makes them gnubg-expert
    "GNUBG-Expert",
    "gnubg_expert",
    "gnu.bg",
    "GNU-Backgammon",
    "Gnu\u200bBackgammon",  # a zero-width space hides nothing
]


def staff_client() -> Client:
    client = Client()
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    return client


# --------------------------------------------------------------------------- sign-up


@pytest.mark.parametrize("name", BOT_LIKE)
def test_nobody_signs_up_with_a_name_that_passes_for_a_bot(client: Client, name: str) -> None:
    response = client.post(reverse("account_signup"), {**SIGNUP, "username": name})
    assert response.status_code == 400
    assert "belong to the computer players" in response.content.decode()
    assert not User.objects.filter(email=SIGNUP["email"]).exists()
    assert mail.outbox == []


def test_a_username_is_stored_nfkc_normalised(client: Client) -> None:
    client.post(reverse("account_signup"), {**SIGNUP, "username": "ｄｏｒａ"})
    assert User.objects.get(email=SIGNUP["email"]).username == "dora"


@pytest.mark.parametrize("name", ["Alice", "ALICE", "ａｌｉｃｅ", "Ａｌｉｃｅ"])
def test_a_name_taken_in_any_case_or_width_is_refused(
    client: Client, player: User, name: str
) -> None:
    assert player.username == "alice"
    response = client.post(
        reverse("account_signup"), {**SIGNUP, "username": name}, headers={"accept-language": "es"}
    )
    assert response.status_code == 400
    assert "username" in response.context["form"].errors
    assert not User.objects.filter(email=SIGNUP["email"]).exists()


# --------------------------------------------------------------------------- log-in


@pytest.mark.parametrize("login", ["alice", "ALICE", "ａｌｉｃｅ"])
def test_the_log_in_finds_the_player_in_any_case_or_width(
    client: Client, player: User, login: str
) -> None:
    response = client.post(reverse("account_login"), {"login": login, "password": PASSWORD})
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(player.pk)


# --------------------------------------------------------------------------- display names


@pytest.mark.parametrize(
    "name",
    [
        "GNU Backgammon (World class)",
        "gnu  backgammon",
        "G.N.U. Backgammon",
        "ＧＮＵ Ｂａｃｋｇａｍｍｏｎ",
        "the gnubg fan",
        "Gnubg-Expert",
    ],
)
def test_a_display_name_cannot_claim_to_be_a_bot(
    player_client: Client, player: User, name: str
) -> None:
    player.language = "es"
    player.save(update_fields=["language"])
    response = player_client.post(
        reverse("profile"), {**PREFERENCES, "language": "es", "display_name": name}
    )
    assert response.status_code == 400
    assert "display_name" in response.context["form"].errors
    assert (
        "Los nombres que contienen «gnubg» o «GNU Backgammon» son de los jugadores de la máquina."
        in response.content.decode()
    )
    player.refresh_from_db()
    assert player.display_name != name


def test_nor_the_name_of_a_bot_by_another_name(player_client: Client, player: User) -> None:
    UserFactory(username="deep-blue", display_name="Deep Blue", is_bot=True)
    response = player_client.post(reverse("profile"), {**PREFERENCES, "display_name": "deep blue"})
    assert response.status_code == 400
    assert "display_name" in response.context["form"].errors


def test_an_ordinary_display_name_is_kept(player_client: Client, player: User) -> None:
    player_client.post(reverse("profile"), {**PREFERENCES, "display_name": "Gnu Fan"})
    player.refresh_from_db()
    assert player.display_name == "Gnu Fan"


def test_the_time_zone_label_is_capitalised(player_client: Client) -> None:
    assert ">Time zone:</label>" in player_client.get(reverse("profile")).content.decode()


# --------------------------------------------------------------------------- the admin


def _change(client: Client, user: User, **changes: str) -> object:
    page = client.get(reverse("admin:accounts_user_change", args=[user.pk]))
    form = page.context["adminform"].form
    data = {
        name: value
        for name, value in form.initial.items()
        if value is not None and not isinstance(value, list | tuple)
    }
    data.update({"date_joined_0": "2026-01-01", "date_joined_1": "00:00:00", "last_login_0": ""})
    data.update(changes)
    return client.post(reverse("admin:accounts_user_change", args=[user.pk]), data)


def test_the_admin_refuses_a_name_taken_in_another_case(player: User, opponent: User) -> None:
    response = _change(staff_client(), opponent, username="ALICE")
    assert response.status_code == 400
    assert "A user with that username already exists." in response.content.decode()
    opponent.refresh_from_db()
    assert opponent.username != "ALICE"


def test_the_admin_refuses_a_bots_name_to_a_person(opponent: User) -> None:
    for change in ({"username": "gnubg-expert"}, {"display_name": "GNU Backgammon (Expert)"}):
        response = _change(staff_client(), opponent, **change)
        assert response.status_code == 400
        assert "belong to the computer players" in response.content.decode()


def test_the_admin_keeps_a_bots_names(db: None) -> None:
    bot = UserFactory(username="gnubg-expert", display_name="GNU Backgammon (Expert)", is_bot=True)
    response = _change(staff_client(), bot, first_name="Gary")
    assert response.status_code == 302
    bot.refresh_from_db()
    assert bot.first_name == "Gary"


def test_the_admin_add_form_refuses_a_lookalike(player: User) -> None:
    response = staff_client().post(
        reverse("admin:accounts_user_add"),
        {"username": "ａｌｉｃｅ", "usable_password": "false"},
    )
    assert response.status_code == 400
    assert "A user with that username already exists." in response.content.decode()
    assert User.objects.filter(username__iexact="alice").count() == 1


# --------------------------------------------------------------------------- the database


def test_the_database_holds_one_name_in_any_case(player: User) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create(username="ALICE")


def test_the_migration_normalises_names_and_renames_a_clash(db: None) -> None:
    """The older account keeps the name; the other becomes <name>-<id>."""
    older = User.objects.create(username="ｂｏｂ")
    newer = User.objects.create(username="bob")
    kept = User.objects.create(username="carol")
    migration = importlib.import_module("accounts.migrations.0002_username_nfkc")
    migration.normalise_usernames(apps, None)
    names = dict(User.objects.values_list("pk", "username"))
    assert names[older.pk] == "bob"
    assert names[newer.pk] == f"bob-{newer.pk}"
    assert names[kept.pk] == "carol"


def test_a_player_is_found_by_their_name_in_any_case_or_width(
    player_client: Client, player: User, opponent: User
) -> None:
    """Names are unique whatever their case, so every place that takes one finds its
    player as a reader types it: the public pages, the report form, an API challenge."""
    typed = "ＢＯＢ"  # bob, in fullwidth capitals
    assert Client().get(reverse("player_detail", args=[typed])).status_code == 200
    assert Client().get(f"/api/stats/players/{typed}/").status_code == 200
    assert player_client.get(reverse("report_new", args=[typed])).status_code == 200
    token = Client()
    token.force_login(player)
    made = token.post("/api/challenges/", {"opponent": "BOB"}, content_type="application/json")
    assert made.status_code == 201, made.content
    assert made.json()["opponent"] == "bob"
    too_long = "b" * 100_000
    assert Client().get(reverse("player_detail", args=[too_long])).status_code == 404
