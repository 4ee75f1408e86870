import re

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db

SIGNUP = {
    "email": "dora@example.com",
    "username": "dora",
    "password1": "a long enough secret 42",
    "password2": "a long enough secret 42",
}


def _confirmation_link() -> str:
    assert len(mail.outbox) == 1
    match = re.search(r"https?://[^/\s]+(/accounts/confirm-email/[^\s]+/)", mail.outbox[0].body)
    assert match, mail.outbox[0].body
    return match.group(1)


def test_signing_up_sends_a_verification_email_and_does_not_log_in(client: Client) -> None:
    response = client.post(reverse("account_signup"), SIGNUP)
    assert response.status_code == 302
    assert response["Location"] == reverse("account_email_verification_sent")
    assert mail.outbox[0].to == ["dora@example.com"]
    assert "_auth_user_id" not in client.session
    user = User.objects.get(username="dora")
    assert not EmailAddress.objects.get(user=user).verified


def test_an_unverified_player_cannot_log_in(client: Client) -> None:
    client.post(reverse("account_signup"), SIGNUP)
    mail.outbox.clear()
    client.logout()
    response = client.post(
        reverse("account_login"), {"login": "dora", "password": SIGNUP["password1"]}
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("account_email_verification_sent")
    assert "_auth_user_id" not in client.session


def test_following_the_link_verifies_the_address_and_allows_log_in(client: Client) -> None:
    client.post(reverse("account_signup"), SIGNUP)
    link = _confirmation_link()
    assert client.get(link).status_code == 200
    client.post(link)
    assert EmailAddress.objects.get(email="dora@example.com").verified

    other = Client()
    response = other.post(
        reverse("account_login"), {"login": "dora@example.com", "password": SIGNUP["password1"]}
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("dashboard")
    assert other.session["_auth_user_id"] == str(User.objects.get(username="dora").pk)


def test_the_allauth_pages_use_the_site_layout(client: Client) -> None:
    content = client.get(reverse("account_login"), headers={"accept-language": "es"}).content
    assert b'class="site-header"' in content
    assert b"site.css" in content


def test_a_login_longer_than_any_address_is_a_form_error_not_a_500(client: Client) -> None:
    # It reached username__iexact, whose LIKE pattern SQLite refused as too complex.
    response = client.post(
        reverse("account_login"),
        {"login": "x" * 100_000, "password": "backgammon"},
        headers={"accept-language": "es"},
    )
    assert response.status_code == 400
    assert "login" in response.context["form"].errors
    assert "tenga menos de 254 caracteres" in response.content.decode()


@pytest.mark.parametrize("name", ["gnubg-expert", "GNUBG-Expert", "gnubg-anything"])
def test_nobody_signs_up_with_a_computer_players_name(client: Client, name: str) -> None:
    """A name starting ``gnubg-`` is always one of the site's bots, never a person."""
    response = client.post(reverse("account_signup"), {**SIGNUP, "username": name})
    assert "belong to the computer players" in response.content.decode()
    assert not User.objects.filter(username__iexact=name).exists()
    assert mail.outbox == []


def test_confirming_in_the_sign_up_browser_signs_in_to_a_first_game_in_its_language(
    client: Client,
) -> None:
    """Issue 26: the address confirmed in the browser that signed up signs the new player
    in, on a dashboard that offers a first game, in the language they signed up in."""
    client.post(reverse("account_signup"), SIGNUP, HTTP_ACCEPT_LANGUAGE="es")
    user = User.objects.get(username="dora")
    assert user.language == "es"
    response = client.post(_confirmation_link())
    assert response.status_code == 302 and response["Location"] == reverse("dashboard")
    assert client.session["_auth_user_id"] == str(user.pk)
    page = client.get(reverse("dashboard")).content.decode()
    assert "Empieza una partida" in page and reverse("bot_list") in page
