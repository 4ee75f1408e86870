"""The tournament pages: the list and its filter, a tournament of each format (the
bracket's SVG, the crosstable, the Swiss standings), registering and withdrawing, the
form of a new tournament, and the tournaments shown on the match and player pages."""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.test.utils import override_settings
from django.utils import timezone

from moderation.permissions import MODERATORS_GROUP
from tests.factories import UserFactory
from tournaments import creation
from tournaments.models import Entry, Pairing, Tournament

from .helpers import form_data, live, moderator, play_all, play_out, players, run

pytestmark = pytest.mark.django_db


def client_for(user: object) -> Client:
    client = Client()
    client.force_login(user)  # type: ignore[arg-type]
    return client


def open_cup(**options: object) -> Tournament:
    now = timezone.now()
    options.setdefault("format", "knockout")
    return creation.tournament_create(
        creator=moderator(), now=now, name="Open cup", starts_at=now + timedelta(days=2), **options
    )


def test_the_list_shows_each_status_and_filters_by_format_and_length(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    running, _field = run(monkeypatch, "knockout", 4, length=3)
    upcoming = open_cup(length=5)
    client = Client()
    page = client.get("/tournaments/")
    assert page.status_code == 200
    body = page.content.decode()
    assert running.get_absolute_url() in body and upcoming.get_absolute_url() in body
    by_length = client.get("/tournaments/", {"length": "5"}).content.decode()
    assert upcoming.get_absolute_url() in by_length
    assert running.get_absolute_url() not in by_length
    by_type = client.get("/tournaments/", {"type": "swiss"}).content.decode()
    assert upcoming.get_absolute_url() not in by_type
    refused = client.get("/tournaments/", {"length": "4"})
    assert refused.status_code == 400
    assert 'href="/tournaments/"' in client.get("/").content.decode()  # the nav link


def test_registering_and_withdrawing_on_the_page() -> None:
    cup = open_cup()
    player = UserFactory(username="ann")
    client = client_for(player)
    page = client.get(cup.get_absolute_url())
    assert page.status_code == 200
    assert f'action="/tournaments/{cup.pk}/register/"' in page.content.decode()
    done = client.post(f"/tournaments/{cup.pk}/register/")
    assert done.status_code == 302
    assert Entry.objects.filter(tournament=cup, player=player).exists()
    again = client.post(f"/tournaments/{cup.pk}/register/")
    assert again.status_code == 409
    assert "You are already registered." in again.content.decode()
    assert Entry.objects.filter(tournament=cup, player=player).count() == 1
    assert client.post(f"/tournaments/{cup.pk}/withdraw/").status_code == 302
    assert not Entry.objects.filter(tournament=cup).exists()
    gone = client.post(f"/tournaments/{cup.pk}/withdraw/")
    assert gone.status_code == 404
    assert "You are not in this tournament." in gone.content.decode()
    assert client.post("/tournaments/999999/register/").status_code == 404
    assert client.get(f"/tournaments/{cup.pk}/register/").status_code == 405
    assert Client().post(f"/tournaments/{cup.pk}/register/").status_code == 302  # log in


def test_the_register_button_waits_for_the_registration_to_open() -> None:
    now = timezone.now()
    cup = open_cup(registration_opens_at=now + timedelta(hours=1))
    client = client_for(UserFactory(username="ann"))
    before = client.get(cup.get_absolute_url()).content.decode()
    assert f'action="/tournaments/{cup.pk}/register/"' not in before
    refused = client.post(f"/tournaments/{cup.pk}/register/")
    assert refused.status_code == 409  # the service says why, had the button been there
    assert "has not opened yet" in refused.content.decode()
    assert not Entry.objects.filter(tournament=cup).exists()
    Tournament.objects.filter(pk=cup.pk).update(registration_opens_at=now - timedelta(hours=1))
    after = client.get(cup.get_absolute_url()).content.decode()
    assert f'action="/tournaments/{cup.pk}/register/"' in after


def test_an_invitation_only_tournament_refuses_the_uninvited_with_403() -> None:
    cup = open_cup(invitation_only=True)
    response = client_for(UserFactory()).post(f"/tournaments/{cup.pk}/register/")
    assert response.status_code == 403
    assert "This tournament is by invitation only." in response.content.decode()
    assert not cup.entries.exists()


def test_the_page_offers_register_only_to_those_the_service_accepts_and_says_why_not() -> None:
    cup = open_cup(invitation_only=True, min_players=2, max_players=2)
    guest, stranger = UserFactory(username="guest"), UserFactory(username="stranger")
    cup.invitations.create(player=guest)
    register = f'action="/tournaments/{cup.pk}/register/"'
    seen = client_for(stranger).get(cup.get_absolute_url()).content.decode()
    assert register not in seen and "This tournament is by invitation only." in seen
    invited = client_for(guest).get(cup.get_absolute_url()).content.decode()
    assert register in invited and "by invitation only." not in invited
    full = open_cup(min_players=2, max_players=2)
    for user in players(2):
        client_for(user).post(f"/tournaments/{full.pk}/register/")
    late = client_for(stranger).get(full.get_absolute_url()).content.decode()
    assert register.replace(str(cup.pk), str(full.pk)) not in late
    assert "This tournament is full." in late


def test_a_tournament_taking_registrations_shows_no_round_its_buttons_apart_and_styled_tables(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    staff = UserFactory(username="mona", is_staff=True)
    staff.groups.add(Group.objects.get(name=MODERATORS_GROUP))
    swiss = open_cup(format="swiss", rounds=4, min_players=5, repeat_days=7)
    page = client_for(staff).get(swiss.get_absolute_url()).content.decode()
    assert "Round 0" not in page and "Progress" not in page
    buttons = re.search(r'<div class="action-buttons">(.*?)</div>', page, re.S)
    assert buttons is not None
    assert "Register" in buttons.group(1) and "Stop repeating" in buttons.group(1)
    assert "css/stats.css" in page  # the tables' table.results style
    running, _ = run(monkeypatch, "swiss", 6, rounds=3, min_players=4)
    assert "Round 1 of 3" in Client().get(running.get_absolute_url()).content.decode()


def test_the_knockout_bracket_draws_every_player_and_the_winner(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tournament, field = run(monkeypatch, "knockout", 6)  # byes for the top two seeds
    play_all(tournament, seed=2)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    body = Client().get(tournament.get_absolute_url()).content.decode()
    svg = re.search(r"<svg class=\"bracket rounds-3\".*?</svg>", body, re.S)
    assert svg is not None
    drawing = svg.group(0)
    assert 'role="img"' in drawing and "<title" in drawing
    for user in field:
        assert f">{user.public_name}</text>" in drawing
    assert drawing.count(">bye</text>") == 2
    winner = tournament.winner
    assert winner is not None
    final = tournament.pairings.get(round=tournament.rounds)
    assert re.search(rf'winner" [^>]*font-weight="700">{winner.public_name}</text>', drawing)
    assert final.match is not None and f'href="{final.match.get_absolute_url()}"' in drawing
    assert "Round 3 of 3" in body
    assert "Final" in body  # the screen readers' list by round


def test_the_bracket_shows_a_player_advancing_before_the_round_is_over(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tournament, _field = run(monkeypatch, "knockout", 4)
    first = {p.index: p for p in live(tournament)}
    play_out(first[0].match, random.Random(1))  # type: ignore[arg-type]
    winner = tournament.pairings.get(round=1, index=0).winner
    assert winner is not None
    drawing = Client().get(tournament.get_absolute_url()).content.decode()
    final_column = drawing.split(">Final</text>")[1]
    assert f">{winner.player.public_name}</text>" in final_column


def test_the_round_robin_crosstable_and_group_table(monkeypatch: pytest.MonkeyPatch) -> None:
    tournament, field = run(monkeypatch, "round_robin", 4, length=3)
    first = live(tournament)[0]
    play_out(first.match, random.Random(5))  # type: ignore[arg-type]
    first.refresh_from_db()
    body = Client().get(tournament.get_absolute_url()).content.decode()
    assert "crosstable" in body and "group-table" in body
    for user in field:
        assert user.public_name in body
    assert first.match is not None and f'href="{first.match.get_absolute_url()}"' in body
    cross = body.split('class="results crosstable"')[1].split("</table>")[0]
    assert cross.count(">W ") == 1 and cross.count(">L ") == 1  # the one result, both ways
    assert cross.count("—</td>") == 4  # the diagonal


def test_the_swiss_standings_and_pairings_by_round(monkeypatch: pytest.MonkeyPatch) -> None:
    tournament, field = run(monkeypatch, "swiss", 5, rounds=2, min_players=3)
    play_all(tournament, seed=3)
    tournament.refresh_from_db()
    body = Client().get(tournament.get_absolute_url()).content.decode()
    assert "swiss-standings" in body and "Buchholz" in body
    assert "Round 1</h3>" in body and "Round 2</h3>" in body
    assert body.count(": a bye") == 2  # five players: one bye a round
    table = body.split("swiss-standings")[1].split("</table>")[0]
    assert all(user.public_name in table for user in field)
    assert tournament.winner is not None
    assert table.index(tournament.winner.public_name) < min(
        table.index(u.public_name) for u in field if u != tournament.winner
    )


def test_the_match_and_player_pages_show_the_tournament(monkeypatch: pytest.MonkeyPatch) -> None:
    tournament, field = run(monkeypatch, "knockout", 4)
    pairing = live(tournament)[0]
    assert pairing.match is not None
    page = Client().get(pairing.match.get_absolute_url()).content.decode()
    assert f'<a href="{tournament.get_absolute_url()}">Test cup</a>, round 1' in page
    player = Client().get(f"/players/{field[0].username}/").content.decode()
    assert "player-tournaments" in player and tournament.get_absolute_url() in player


def test_a_moderator_creates_a_tournament_in_their_time_zone() -> None:
    director = moderator()
    director.time_zone = "America/New_York"
    director.save(update_fields=["time_zone"])
    invited = UserFactory(username="guest")
    client = client_for(director)
    assert client.get("/tournaments/new").status_code == 200
    response = client.post(
        "/tournaments/new",
        form_data(starts_at="2030-01-15T09:00", invitation_only="on", invited="guest, guest"),
    )
    assert response.status_code == 302
    cup = Tournament.objects.get(name="Web cup")
    assert response["Location"] == cup.get_absolute_url()
    assert cup.starts_at.isoformat() == "2030-01-15T14:00:00+00:00"
    assert list(cup.invitations.values_list("player__username", flat=True)) == [invited.username]


@pytest.mark.parametrize(
    ("changes", "status", "message"),
    [
        ({"starts_at": "9999-12-31T23:59"}, 400, "Enter a valid date and time."),
        ({"length": "4"}, 400, "Select a valid choice."),
        ({"invited": "nobody"}, 400, "No such player: nobody."),
        ({"format": "swiss", "rounds": "0"}, 400, "A Swiss has 1 to 20 rounds."),
        (
            {"starts_at": "2001-01-01T00:00"},
            400,
            "The tournament starts in the future, after its registration opens.",
        ),
        ({"min_players": "8", "max_players": "4"}, 400, "Set at least 2 players"),
    ],
)
def test_the_form_refuses_bad_options_and_creates_nothing(
    changes: dict[str, object], status: int, message: str
) -> None:
    director = moderator()
    director.time_zone = "Pacific/Kiritimati" if "9999" not in str(changes) else "America/Anchorage"
    director.save(update_fields=["time_zone"])
    response = client_for(director).post("/tournaments/new", form_data(**changes))
    assert response.status_code == status
    assert message in response.content.decode()
    assert not Tournament.objects.exists()


def test_only_those_allowed_see_the_form() -> None:
    client = client_for(UserFactory())
    refused = client.get("/tournaments/new")
    assert refused.status_code == 403
    assert "Only the moderators create tournaments." in refused.content.decode()
    assert client.post("/tournaments/new", form_data()).status_code == 403
    assert not Tournament.objects.exists()
    with override_settings(TOURNAMENTS_BY_PLAYERS=True):
        assert client.post("/tournaments/new", form_data()).status_code == 302
    assert Tournament.objects.count() == 1


def test_each_page_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    tournament, _ = run(monkeypatch, "knockout", 3)
    players(0)
    assert Pairing.objects.filter(tournament=tournament).exists()
    for path in ("/tournaments/", tournament.get_absolute_url(), "/tournaments/999999/"):
        status = Client().get(path).status_code
        assert status == (404 if "999999" in path else 200)
