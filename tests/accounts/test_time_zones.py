"""The time zone a player is offered: a curated list, their browser's by default."""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.forms import PreferencesForm, time_zone_choices
from accounts.models import User
from accounts.zones import curated_time_zones


def test_the_list_is_the_zones_people_live_in() -> None:
    zones = curated_time_zones()
    assert "UTC" in zones and "Europe/Madrid" in zones and "America/New_York" in zones
    assert not {"Factory", "localtime", "US/Eastern", "Etc/GMT+5", "posixrules"} & set(zones)
    assert 300 < len(zones) < 500


def test_the_choices_are_grouped_by_region_with_readable_places() -> None:
    groups = dict(time_zone_choices())
    assert ("America/Argentina/Buenos_Aires", "Argentina / Buenos Aires") in groups["America"]
    assert ("Europe/Madrid", "Madrid") in groups["Europe"]
    assert groups[""] == [("UTC", "UTC")]


@pytest.mark.django_db
def test_a_player_keeps_a_valid_zone_the_list_leaves_out(player: User) -> None:
    player.time_zone = "US/Eastern"
    player.save()
    data = {
        "display_name": "",
        "language": "en",
        "time_zone": "US/Eastern",
        "notify": "every",
        "digest_hour": 7,
        "warning_hours": "24",
        "board_side": "right",
    }
    form = PreferencesForm(data, instance=player)
    assert form.is_valid(), form.errors
    refused = PreferencesForm({**data, "time_zone": "Factory"}, instance=player)
    assert not refused.is_valid() and "time_zone" in refused.errors


@pytest.mark.django_db
def test_sign_up_takes_the_browsers_zone(client: Client) -> None:
    def sign_up(username: str, zone: str) -> User:
        response = client.post(
            reverse("account_signup"),
            {
                "email": f"{username}@example.com",
                "username": username,
                "password1": "a long pass phrase 1",
                "password2": "a long pass phrase 1",
                "time_zone": zone,
            },
        )
        assert response.status_code == 302, response.content[:500]
        return User.objects.get(username=username)

    assert sign_up("dora", "Europe/Madrid").time_zone == "Europe/Madrid"
    assert sign_up("emil", "Mars/Olympus").time_zone == "UTC"  # unknown: the default
    assert len(mail.outbox) == 2  # the verification e-mails


@pytest.mark.django_db
def test_pages_name_an_icon_and_the_ico_path_leads_to_it(client: Client) -> None:
    page = client.get(reverse("home")).content.decode()
    assert 'rel="icon"' in page and "favicon.svg" in page
    response = client.get("/favicon.ico")
    assert response.status_code == 302 and response["Location"].endswith("favicon.svg")


@pytest.mark.django_db
def test_the_sign_up_page_carries_the_hidden_zone_and_the_script(client: Client) -> None:
    page = client.get(reverse("account_signup")).content.decode()
    assert 'type="hidden" name="time_zone"' in page
    assert "js/timezone.js" in page


@pytest.mark.django_db
def test_the_preferences_page_offers_the_browsers_zone(player: User) -> None:
    client = Client()
    client.force_login(player)
    page = client.get(reverse("profile")).content.decode()
    assert "js/timezone.js" in page and 'data-browser-zone="suggest"' in page
    assert "Europe/Madrid" in page and "Factory" not in page
