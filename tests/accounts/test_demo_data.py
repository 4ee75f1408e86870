from io import StringIO

import pytest
from allauth.account.models import EmailAddress
from django.core.management import call_command
from django.test import Client

from accounts.models import User
from gnubg_bridge.decisions import LEVELS

LEVEL_SLUGS = [name.replace("_", "-") for name in LEVELS]

pytestmark = pytest.mark.django_db


def test_it_creates_three_verified_demo_players_and_the_bots_once() -> None:
    call_command("demo_data", stdout=StringIO())
    call_command("demo_data", stdout=StringIO())
    people = User.objects.filter(is_bot=False).values_list("username", flat=True)
    assert sorted(people) == ["alice", "bob", "carol"]
    bots = User.objects.filter(is_bot=True).values_list("username", flat=True)
    assert sorted(bots) == sorted(f"gnubg-{level}" for level in LEVEL_SLUGS)
    assert EmailAddress.objects.filter(verified=True, primary=True).count() == 3


def test_demo_players_can_log_in() -> None:
    call_command("demo_data", stdout=StringIO())
    client = Client()
    response = client.post("/accounts/login/", {"login": "bob", "password": "backgammon"})
    assert response.status_code == 302
    assert "_auth_user_id" in client.session
