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


def test_the_demo_has_a_tournament_under_way_and_one_open() -> None:
    from tournaments.models import Pairing, Tournament

    out = StringIO()
    call_command("demo_data", stdout=out)
    call_command("demo_data", stdout=StringIO())  # idempotent
    cup = Tournament.objects.get(name="Demo cup")
    weekly = Tournament.objects.get(name__startswith="Weekly open ")
    assert cup.status == Tournament.Status.RUNNING
    assert weekly.status == Tournament.Status.REGISTERING
    assert weekly.schedule is not None and weekly.schedule.every_days == 7
    assert list(weekly.entries.values_list("player__username", flat=True)) == ["bob"]
    bye = Pairing.objects.get(tournament=cup, black__isnull=True)
    assert bye.winner is not None and bye.winner.seed == 1
    semi = Pairing.objects.get(tournament=cup, black__isnull=False)
    assert semi.black is not None
    playing = {semi.white.player.username, semi.black.player.username}
    assert playing | {bye.winner.player.username} == {"alice", "bob", "carol"}
    assert semi.match is not None and semi.match.status == "playing"
    assert Tournament.objects.count() == 2
    alice = Client()
    alice.force_login(User.objects.get(username="alice"))
    page = alice.get(cup.get_absolute_url())
    assert page.status_code == 200 and "Demo cup" in page.content.decode()
    assert alice.get("/tournaments/new").status_code == 200  # she directs them
    assert "Stop repeating" in alice.get(weekly.get_absolute_url()).content.decode()


def test_the_demo_opens_with_one_notice_per_game_and_kind() -> None:
    """Issue 26: alice opened the demo to 59 unread notices, about twenty of them "It is
    your turn in your game against Bob" (the demo plays its games at one instant). Now
    each game and kind is one entry, and a turn that is over, or a challenge answered,
    is no longer news: a handful each, the badge's count."""
    from collections import Counter

    from notifications.inbox import notifications_unread_count
    from notifications.models import Notification

    call_command("demo_data", stdout=StringIO())
    for user in User.objects.filter(is_bot=False):
        unread = Notification.objects.filter(recipient=user, read_at=None)
        per_game = Counter((n.game_id, n.kind) for n in unread.exclude(game=None))
        assert set(per_game.values()) == {1}, per_game
        assert notifications_unread_count(user) == unread.count() <= 10, user
    alice = User.objects.get(username="alice")
    turns = Notification.objects.filter(recipient=alice, kind="your_turn", read_at=None)
    assert turns.count() == 2  # the two games that wait for her move (README)
    client = Client()
    client.force_login(alice)
    page = client.get("/dashboard/").content.decode()
    assert f'aria-label="{notifications_unread_count(alice)} unread"' in page
