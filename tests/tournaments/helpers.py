"""Tournaments for the service tests: players with given ratings, a moderator who creates
the tournament, and bots that play each match briefly with seeded dice and then resign
it (the tournament's mechanics are under test here, not the play of a match)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

from django.contrib.auth.models import Group, Permission
from django.utils import timezone

from accounts.models import User
from gammon import SeededDice
from matches import endings, record
from matches.bots import bot_act
from matches.models import Match
from moderation.permissions import MODERATORS_GROUP
from stats.models import PlayerStats
from tests import records
from tests.factories import UserFactory
from tournaments import advance, creation, registration
from tournaments.models import Entry, Pairing, Tournament

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
START = NOW + timedelta(days=2)


def moderator() -> User:
    """A tournament director: may create tournaments (and repeating ones), but is not
    staff, so directs only their own."""
    user = UserFactory(username="director")
    user.user_permissions.add(Permission.objects.get(codename="manage_tournament"))
    return User.objects.get(pk=user.pk)  # permissions are cached per instance


def staff_moderator(username: str = "mona") -> User:
    """A moderator: staff in the ``moderators`` group, who acts on every tournament."""
    user = UserFactory(username=username, is_staff=True)
    user.groups.add(Group.objects.get(name=MODERATORS_GROUP))
    return User.objects.get(pk=user.pk)


def players(count: int) -> list[User]:
    """``count`` players, p01 the best rated, then down by ten points each."""
    users = []
    for k in range(1, count + 1):
        user = UserFactory(username=f"p{k:02d}")
        PlayerStats.objects.create(player=user, rating=1800 - 10 * k)
        records.rating_set_by_hand(user.pk)
        users.append(user)
    return users


def run(monkeypatch: Any, format: str, count: int, **options: Any) -> tuple[Tournament, list[User]]:
    """A tournament of ``count`` registered players, started at ``START``, with the
    services' dice seeded."""
    options.setdefault("length", 1)
    options.setdefault("min_players", 2)
    tournament = creation.tournament_create(
        creator=moderator(), now=NOW, name="Test cup", format=format, starts_at=START, **options
    )
    field = players(count)
    for user in reversed(field):  # registration order is not the seeding
        registration.tournament_register(tournament_id=tournament.pk, user=user, now=NOW)
    monkeypatch.setattr(record, "dice", SeededDice(count))
    advance.tournaments_start_due(now=START)
    tournament.refresh_from_db()
    return tournament, field


def play_out(match: Match, rng: random.Random, *, actions: int = 3) -> None:
    """A few seeded actions, then whoever is on turn resigns the match (or, by the dice,
    plays on until a game ends it)."""
    now = START + timedelta(hours=1)
    for _ in range(actions):
        match.refresh_from_db()
        if match.status != Match.Status.PLAYING:
            return
        game = match.current_game
        assert game is not None
        bot_act(game, rng, now)
    match.refresh_from_db()
    if match.status != Match.Status.PLAYING:
        return
    game = match.current_game
    assert game is not None
    loser = match.white if rng.random() < 0.5 else match.black
    endings.game_resign(game_id=game.pk, player=loser, expected_ply=None, now=now, whole_match=True)


def live(tournament: Tournament) -> list[Pairing]:
    return list(
        tournament.pairings.filter(match__status=Match.Status.PLAYING)
        .select_related("match")
        .order_by("stage", "round", "index")
    )


def play_all(tournament: Tournament, seed: int = 1, *, limit: int = 500) -> None:
    """Play every match as it is paired until the tournament is over."""
    rng = random.Random(seed)
    for _ in range(limit):
        tournament.refresh_from_db()
        pending = live(tournament)
        if not pending:
            return
        play_out(pending[0].match, rng)  # type: ignore[arg-type]


def entry(tournament: Tournament, user: User) -> Entry:
    return Entry.objects.get(tournament=tournament, player=user)


def form_data(**changes: object) -> dict[str, object]:
    """The form of a new tournament, filled in (a knock-out starting in three days)."""
    data: dict[str, object] = {
        "name": "Web cup",
        "description": "",
        "format": "knockout",
        "length": "3",
        "days_per_move": "3",
        "time_bank_days": "0",
        "variant": "standard",
        "rated": "on",
        "min_players": "2",
        "max_players": "16",
        "starts_at": (timezone.now() + timedelta(days=3)).strftime("%Y-%m-%dT%H:%M"),
        "rounds": "0",
        "group_size": "0",
    }
    data.update(changes)
    return data
