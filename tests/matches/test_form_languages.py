"""The challenge and vacation forms in Spanish and Catalan (issue 12).

The match lengths are labelled in the page's language, and the date inputs of the
vacation form always carry ISO dates, which is all ``<input type="date">`` reads.
"""

from __future__ import annotations

import re
from datetime import date
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from accounts.models import User
from challenges.forms import ChallengeForm
from matches.models import Vacation
from matches.vacation_views import VacationForm

pytestmark = pytest.mark.django_db

POINTS = {"es": ("5 puntos", "1 punto"), "ca": ("5 punts", "1 punt")}


def signed_in(user: User, language: str) -> Client:
    user.language = language
    user.save()
    client = Client()
    client.force_login(user)
    return client


def options(html: str, name: str) -> dict[str, str]:
    select = re.search(rf'<select name="{name}".*?</select>', html, re.S)
    assert select, html
    return dict(re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', select.group(0)))


@pytest.mark.parametrize("language", ["es", "ca"])
def test_the_match_lengths_are_in_the_players_language(player: User, language: str) -> None:
    response = signed_in(player, language).get(reverse("challenge_new"))
    lengths = options(response.content.decode(), "length")
    five, one = POINTS[language]
    assert (lengths["5"], lengths["1"]) == (five, one)
    with translation.override(language):
        assert lengths["0"] == translation.gettext("Money session")


def test_the_same_form_class_follows_the_active_language() -> None:
    with translation.override("es"):
        spanish = dict(ChallengeForm().fields["length"].choices)
    with translation.override("ca"):
        catalan = dict(ChallengeForm().fields["length"].choices)
    assert (spanish[5], catalan[5]) == ("5 puntos", "5 punts")


def date_values(html: str) -> dict[str, str]:
    return dict(re.findall(r'<input type="date" name="(\w+)" value="([^"]*)"', html))


@pytest.mark.parametrize("language", ["es", "ca"])
def test_the_vacation_page_offers_today_as_an_iso_date(player: User, language: str) -> None:
    response = signed_in(player, language).get(reverse("vacations"))
    today = timezone.now().astimezone(ZoneInfo(player.time_zone or "UTC")).date()
    assert date_values(response.content.decode()) == {
        "start": today.isoformat(),
        "end": today.isoformat(),
    }


@pytest.mark.parametrize("language", ["es", "ca"])
def test_a_refused_vacation_keeps_the_dates_it_was_sent(player: User, language: str) -> None:
    start, end = date(2030, 1, 5), date(2030, 1, 2)  # ends before it starts
    client = signed_in(player, language)
    response = client.post(reverse("vacations"), {"start": "05/01/2030", "end": "02/01/2030"})
    assert response.status_code == 400
    assert not Vacation.objects.exists()
    assert date_values(response.content.decode()) == {
        "start": start.isoformat(),
        "end": end.isoformat(),
    }
    response = client.post(reverse("vacations"), {"start": "2030-01-05", "end": "2030-01-02"})
    assert response.status_code == 400
    assert date_values(response.content.decode())["start"] == "2030-01-05"


@pytest.mark.parametrize("language", ["es", "ca"])
def test_the_bound_vacation_form_renders_iso_dates(language: str) -> None:
    with translation.override(language):
        local = VacationForm({"start": "02/01/2030", "end": "2030-01-09"})
        assert local.is_valid(), local.errors
        assert local.cleaned_data["start"] == date(2030, 1, 2)
        unbound = VacationForm(initial={"start": date(2030, 1, 2), "end": date(2030, 1, 2)})
        typo = VacationForm({"start": "2 de enero", "end": ""})
        assert 'value="2030-01-02"' in str(local["start"])
        assert 'value="2030-01-09"' in str(local["end"])
        assert 'value="2030-01-02"' in str(unbound["start"])
        assert 'value="2 de enero"' in str(typo["start"])  # not a date: given back as typed
