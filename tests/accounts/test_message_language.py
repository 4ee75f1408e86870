"""Flash messages are in the language of the page that shows them (issue 12).

The text of a message is fixed when it is added, so it must be added after the request
has switched to the language its next page uses: the player's at log-in, the new one
after the preferences are saved.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts.models import User
from tests.accounts.test_profile import PREFERENCES
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


def messages_of(response) -> list[str]:  # type: ignore[no-untyped-def]
    return [str(m) for m in response.context["messages"]]


def translated(language: str, text: str, **params: str) -> str:
    with translation.override(language):
        result = translation.gettext(text)
    assert result != text, f"{text!r} has no {language} translation"
    return result % params if params else result


@pytest.mark.parametrize("language", ["es", "ca"])
def test_the_log_in_message_is_in_the_players_language(language: str) -> None:
    bob = UserFactory(username="bob", language=language)
    client = Client(headers={"accept-language": "en"})
    response = client.post(
        reverse("account_login"), {"login": "bob", "password": PASSWORD}, follow=True
    )
    assert response.wsgi_request.user == bob
    assert response["Content-Language"] == language
    assert messages_of(response) == [
        translated(language, "Successfully signed in as %(name)s.", name="bob")
    ]


def test_the_log_in_message_stays_english_for_an_english_player() -> None:
    UserFactory(username="bob", language="en")
    client = Client(headers={"accept-language": "es"})
    response = client.post(
        reverse("account_login"), {"login": "bob", "password": PASSWORD}, follow=True
    )
    assert messages_of(response) == ["Successfully signed in as bob."]


@pytest.mark.parametrize("language", ["es", "ca"])
def test_saving_a_new_language_says_so_in_that_language(
    player_client: Client, player: User, language: str
) -> None:
    assert player.language == "en"
    response = player_client.post(
        reverse("profile"), {**PREFERENCES, "language": language}, follow=True
    )
    assert response["Content-Language"] == language
    assert messages_of(response) == [translated(language, "Your preferences have been saved.")]


def test_leaving_spanish_for_english_says_so_in_english(player: User) -> None:
    player.language = "es"
    player.save()
    client = Client()
    client.force_login(player)
    response = client.post(reverse("profile"), {**PREFERENCES, "language": "en"}, follow=True)
    assert messages_of(response) == ["Your preferences have been saved."]


@pytest.mark.parametrize("language", ["es", "ca"])
def test_the_log_out_message_and_the_page_after_it_agree(language: str) -> None:
    UserFactory(username="bob", language=language)
    client = Client(headers={"accept-language": "en"})
    client.post(reverse("account_login"), {"login": "bob", "password": PASSWORD}, follow=True)
    response = client.post(reverse("account_logout"), follow=True)
    assert not response.wsgi_request.user.is_authenticated
    assert response["Content-Language"] == language
    assert messages_of(response) == [translated(language, "You have signed out.")]
