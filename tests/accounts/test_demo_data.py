from io import StringIO

import pytest
from allauth.account.models import EmailAddress
from django.core.management import call_command
from django.test import Client

from accounts.models import User

pytestmark = pytest.mark.django_db


def test_it_creates_three_verified_demo_players_once() -> None:
    call_command("demo_data", stdout=StringIO())
    call_command("demo_data", stdout=StringIO())
    assert sorted(User.objects.values_list("username", flat=True)) == ["alice", "bob", "carol"]
    assert EmailAddress.objects.filter(verified=True, primary=True).count() == 3


def test_demo_players_can_log_in() -> None:
    call_command("demo_data", stdout=StringIO())
    client = Client()
    response = client.post("/accounts/login/", {"login": "bob", "password": "backgammon"})
    assert response.status_code == 302
    assert "_auth_user_id" in client.session
