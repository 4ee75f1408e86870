"""What the busiest pages cost, in statements and in work (issue 27), as behaviour:

- the dashboard lists its games in one query, and its header's badge counts none again;
  its two tables come from the cache until a row changes (a move, the opponent on turn
  going on vacation);
- the game page counts the games waiting once, reads its record from the cache by (game,
  ply) without reading an event, draws the last move from the stored board and its
  notation (the same move the replay drew, on every turn of many games), and marks the
  player's notices read only when something is unread;
- the match page reads a spectator's permissions only where the analysis button can show.

The speed itself is measured in ``bench/pages.py``, not here.
"""

from __future__ import annotations

import random
import re
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from analysis import services as analysis_services
from challenges import services as challenge_services
from gammon import FixedDice
from matches import dashboard_views, record, record_rows, selectors, turns
from matches.bots import bot_act
from matches.models import Game, Match, Vacation
from notifications.models import Notification

pytestmark = pytest.mark.django_db


def client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def start(white: User, black: User, length: int = 5, variant: str = "standard") -> Match:
    now = timezone.now()
    challenge = challenge_services.challenge_create(
        challenger=white, opponent=black, length=length, variant=variant, now=now
    )
    return challenge_services.challenge_accept(challenge_id=challenge.pk, user=black, now=now)


@pytest.fixture
def game(player: User, opponent: User, monkeypatch: pytest.MonkeyPatch) -> Game:
    """A 5-point match in play: White (the player) opened with 3-1 and must move."""
    monkeypatch.setattr(challenge_services.secrets, "randbelow", lambda n: 0)
    monkeypatch.setattr(record, "dice", FixedDice([3, 1, 5, 2, 6, 4]))
    game = start(player, opponent).current_game
    assert game is not None and game.state == Game.State.MOVING
    assert game.match.white == player
    return game


def statements(client: Client, url: str) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return [query["sql"] for query in captured]


def on_table(sql: list[str], table: str) -> list[str]:
    return [q for q in sql if f'FROM "{table}"' in q or f'UPDATE "{table}"' in q]


# --------------------------------------------------------------------------- dashboard


def test_the_dashboard_lists_its_games_in_one_query_and_the_badge_counts_none(
    game: Game, player: User, opponent: User
) -> None:
    start(player, User.objects.create_user("carol", "carol@example.com", "pw"))
    client = client_for(player)
    client.get(reverse("dashboard"))  # the first page of a session writes its session
    sql = statements(client, reverse("dashboard"))
    assert len(on_table(sql, "matches_game")) == 1
    page = client.get(reverse("dashboard")).content.decode()
    # Both games wait for the player (White won both opening rolls): the badge says 2.
    assert re.search(r'<span class="badge" aria-label="2 games waiting for you">2</span>', page)


def test_a_dashboard_whose_games_did_not_move_draws_its_tables_once(
    game: Game, player: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[int] = []
    real = dashboard_views._tables

    def counted(*args: Any) -> tuple[str, str]:
        drawn.append(1)
        return real(*args)

    monkeypatch.setattr(dashboard_views, "_tables", counted)
    client = client_for(player)
    first = client.get(reverse("dashboard")).content.decode()
    second = client.get(reverse("dashboard")).content.decode()
    assert len(drawn) == 1
    assert reverse("game_detail", args=[game.pk]) in second
    assert first.count("<tr>") == second.count("<tr>")


def test_the_tables_key_changes_with_a_move(game: Game, player: User) -> None:
    def key() -> str:
        stamps = selectors.games_of_stamps(player)
        return dashboard_views.tables_key(player, stamps, {})

    before = key()
    turns.game_play_move(
        game_id=game.pk, player=player, play_text="8/5 6/5", expected_ply=game.ply,
        now=timezone.now(),
    )  # fmt: skip
    assert key() != before


def test_the_opponent_going_on_vacation_shows_at_once(
    game: Game, player: User, opponent: User
) -> None:
    """The vacation alone (no game row changed) makes the tables new."""
    turns.game_play_move(
        game_id=game.pk, player=player, play_text="8/5 6/5", expected_ply=game.ply,
        now=timezone.now(),
    )  # fmt: skip
    client = client_for(player)
    assert "Away until" not in client.get(reverse("dashboard")).content.decode()
    now = timezone.now()
    Vacation.objects.create(
        user=opponent,
        start=now.date(),
        end=now.date() + timedelta(days=2),
        starts_at=now - timedelta(hours=1),
        ends_at=now + timedelta(days=2),
        created_at=now,
    )
    assert "Away until" in client.get(reverse("dashboard")).content.decode()


# --------------------------------------------------------------------------- game page


def test_the_game_page_counts_the_games_waiting_once(game: Game, player: User) -> None:
    client = client_for(player)
    url = reverse("game_detail", args=[game.pk])
    client.get(url)
    sql = statements(client, url)
    counts = [q for q in on_table(sql, "matches_game") if "COUNT(" in q.upper()]
    assert len(counts) == 1


def test_a_warm_game_page_reads_no_event_and_costs_the_same_at_any_length(
    player: User, opponent: User
) -> None:
    """The record as it stands comes from the cache: a long game's page makes the same
    statements as a short one's, and neither reads the record's events."""
    rng = random.Random(5)
    now = timezone.now()
    short = start(player, opponent).current_game
    long = start(player, opponent).current_game
    assert short is not None and long is not None
    for _ in range(6):
        short = bot_act(short, rng, now)
    for _ in range(60):
        long = bot_act(long, rng, now)
        if long.is_finished:
            break
    client = client_for(User.objects.create_user("dora", "dora@example.com", "pw"))
    counts = {}
    for shown in (short, long):
        url = reverse("game_detail", args=[shown.pk])
        client.get(url)  # draws the record, into the cache
        sql = statements(client, url)
        assert on_table(sql, "matches_gameevent") == []
        counts[shown.pk] = len(sql)
    assert counts[short.pk] == counts[long.pk]


def test_the_record_is_drawn_again_when_the_game_moves_on(game: Game, player: User) -> None:
    client = client_for(player)
    url = reverse("game_detail", args=[game.pk])
    assert "31: 8/5 6/5" not in client.get(url).content.decode()
    turns.game_play_move(
        game_id=game.pk, player=player, play_text="8/5 6/5", expected_ply=game.ply,
        now=timezone.now(),
    )  # fmt: skip
    page = client.get(url).content.decode()
    assert "31: 8/5 6/5" in page
    assert "Last move: White 31: 8/5 6/5" in page


def test_the_last_move_drawn_from_the_board_is_the_one_the_replay_draws(
    player: User, opponent: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On every turn of many random games (hits, the bar, bearing off, doubles, the
    variants), the move drawn from the stored board and its notation equals the one
    drawn by replaying the record; and the board alone sufficed (no replay fell back)."""
    rng = random.Random(27)
    now = timezone.now()
    replayed = record_rows.last_move_replayed
    compared = 0
    for number in range(6):  # two 3-point matches of each variant: 600 turns or so
        variant = ("standard", "nackgammon", "hypergammon")[number % 3]
        match = start(player, opponent, length=3, variant=variant)
        for _ in range(400):
            match.refresh_from_db()
            game = match.current_game
            if match.status != Match.Status.PLAYING or game is None:
                break
            game = bot_act(game, rng, now, double_rate=0.1)
            game = Game.objects.select_related("match").get(pk=game.pk)
            events = list(game.events.all())
            monkeypatch.setattr(record_rows, "last_move_replayed", _no_replay)
            drawn = record_rows.last_move(game, events)
            monkeypatch.setattr(record_rows, "last_move_replayed", replayed)
            assert drawn == replayed(game, events), (game.pk, game.ply)
            compared += drawn is not None and bool(drawn.steps)
    assert compared > 250


def _no_replay(*args: object, **kwargs: object) -> None:
    raise AssertionError("the last move was not drawn from the board")


def test_the_notices_are_marked_read_only_when_something_is_unread(
    game: Game, player: User, opponent: User
) -> None:
    client = client_for(player)
    url = reverse("game_detail", args=[game.pk])
    client.get(url)
    Notification.objects.filter(recipient=player).update(read_at=timezone.now())
    sql = statements(client, url)
    assert [q for q in on_table(sql, "notifications_notification") if "UPDATE" in q] == []

    now = timezone.now()
    Notification.objects.create(
        recipient=player,
        game=game,
        kind=Notification.Kind.YOUR_TURN,
        delivery=Notification.Delivery.values[0],
        status=Notification.Status.SKIPPED,
        next_attempt_at=now,
        created_at=now,
    )
    sql = statements(client, url)
    assert len([q for q in on_table(sql, "notifications_notification") if "UPDATE" in q]) == 1
    assert not Notification.objects.filter(recipient=player, read_at=None).exists()
    page = client.get(url).content.decode()
    assert "unread</span>" not in page and 'aria-label="1 unread"' not in page


# --------------------------------------------------------------------------- match page


def test_a_spectator_s_permissions_are_read_only_where_the_button_can_show(
    game: Game, outsider: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A finished match, analysed nowhere (no gnubg): no button, no permission read."""
    monkeypatch.setattr(analysis_services, "analysis_available", lambda: False)
    endings_now = timezone.now()
    from matches import endings

    endings.game_resign(
        game_id=game.pk, player=game.match.white, expected_ply=game.ply, now=endings_now,
        whole_match=True,
    )  # fmt: skip
    client = client_for(outsider)
    url = reverse("match_detail", args=[game.match_id])
    client.get(url)
    sql = statements(client, url)
    assert on_table(sql, "auth_permission") == []
    assert on_table(sql, "auth_group") == []
