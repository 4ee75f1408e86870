"""A form sent with a missing or stale CSRF token: the site's page (not Django's bare one)
says what happened and what to do, in the player's language, with a 403, and nothing is
changed (``backgammon.csrf.csrf_failure``)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from matches.models import Vacation

pytestmark = pytest.mark.django_db


def test_a_stale_form_is_the_sites_page_in_the_players_language(player: User) -> None:
    player.language = "es"
    player.save(update_fields=["language"])
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    client.get(reverse("dashboard"))  # the page that holds the form sets the cookie
    response = client.post(
        reverse("vacations"),
        {"start": "2030-01-01", "end": "2030-01-05", "csrfmiddlewaretoken": "stale"},
    )
    assert response.status_code == 403
    page = response.content.decode()
    assert "Este formulario ha caducado" in page
    assert 'href="/tournaments/"' in page  # the site around it: its navigation
    assert not Vacation.objects.filter(user=player).exists()


def test_a_browser_without_the_cookie_is_told_to_allow_it(player: User) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    client.cookies.pop("csrftoken", None)
    response = client.post(reverse("vacations"), {"start": "2030-01-01", "end": "2030-01-05"})
    assert response.status_code == 403
    assert "Allow cookies for this site" in response.content.decode()
