"""A form sent back with its errors answers 400, also from the views that are not the
site's own (allauth's log-in, sign-up and password change, the admin's log-in), which
render a refused form with 200 as Django's ``FormView`` does
(``backgammon.middleware.RefusedFormStatusMiddleware``). The page still shows why, in
the user's language, and nothing is stored."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db


def test_a_wrong_password_is_a_400_that_says_why_in_the_browsers_language(
    client: Client, player: User
) -> None:
    page = client.get(reverse("account_login"))
    assert page.status_code == 200
    refused = client.post(
        reverse("account_login"),
        {"login": player.username, "password": "not-it"},
        headers={"accept-language": "es"},
    )
    assert refused.status_code == 400
    assert refused.context["form"].errors
    assert "no son correctos" in refused.content.decode()
    signed_in = client.post(
        reverse("account_login"), {"login": player.username, "password": PASSWORD}
    )
    assert signed_in.status_code == 302


def test_an_incomplete_sign_up_is_a_400_and_creates_nobody(client: Client) -> None:
    users = User.objects.count()
    refused = client.post(reverse("account_signup"), {"username": "newcomer"})
    assert refused.status_code == 400
    assert (
        "email" in refused.context["form"].errors or "password1" in refused.context["form"].errors
    )
    assert User.objects.count() == users


def test_a_password_change_with_the_wrong_old_one_is_a_400(player_client: Client) -> None:
    refused = player_client.post(
        reverse("account_change_password"),
        {"oldpassword": "not-it", "password1": "N3w-pass-word!", "password2": "N3w-pass-word!"},
    )
    assert refused.status_code == 400
    assert "oldpassword" in refused.context["form"].errors


def test_the_admins_log_in_refused_is_a_400(client: Client, player: User) -> None:
    refused = client.post("/admin/login/", {"username": player.username, "password": "not-it"})
    assert refused.status_code == 400
