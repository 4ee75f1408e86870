"""The demo's tournaments: ``demo_data`` calls :func:`create_demo_data`.

Alice directs them (she holds the ``manage_tournament`` permission, so the demo shows
the form of a new tournament too). "Demo cup", a 3-point knock-out of Alice, Bob and
Carol, is under way: the top seed by rating has a bye into the final, and the other
two play the semi-final. "Weekly open", a 5-point Swiss repeating every week (its
editions are named by their start date), takes registrations until it starts in a week;
Bob has entered. Idempotent: existing demo tournaments are left as they are.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import Permission
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from accounts.models import User
from gammon import SeededDice
from matches import record

from . import advance, creation, registration
from .models import Tournament

CUP, OPEN = "Demo cup", "Weekly open"


def create_demo_data(*, users: Sequence[User], stdout: Any) -> None:
    players = {u.username: u for u in users if u.username in ("alice", "bob", "carol")}
    if len(players) < 3:
        return
    if Tournament.objects.filter(Q(name=CUP) | Q(name__startswith=OPEN)).exists():
        stdout.write("Demo tournaments already exist\n")
        return
    director = players["alice"]
    director.user_permissions.add(Permission.objects.get(codename="manage_tournament"))
    director = User.objects.get(pk=director.pk)  # permissions are cached per instance
    previous = record.dice
    record.dice = SeededDice(17)
    try:
        with transaction.atomic():
            cup, weekly = _create(director, [players[n] for n in ("alice", "bob", "carol")])
    finally:
        record.dice = previous
    stdout.write(f"Created demo tournaments #{cup.pk} (running) and #{weekly.pk} (open)\n")


def _create(director: User, players: list[User]) -> tuple[Tournament, Tournament]:
    now = timezone.now()
    announced = now - timedelta(days=3)
    cup = creation.tournament_create(
        creator=director,
        now=announced,
        name=CUP,
        description="Three players, a bye for the top seed, matches to 3 points.",
        format="knockout",
        starts_at=now - timedelta(minutes=1),
        length=3,
        min_players=3,
        max_players=8,
    )
    for player in players:
        registration.tournament_register(tournament_id=cup.pk, user=player, now=announced)
    advance.tournaments_start_due(now=now)
    weekly = creation.tournament_create(
        creator=director,
        now=now,
        name=OPEN,
        description="Four rounds of Swiss, matches to 5 points. Register until it starts.",
        format="swiss",
        starts_at=now + timedelta(days=7),
        length=5,
        rounds=4,
        min_players=6,
        max_players=64,
        repeat_days=7,
    )
    registration.tournament_register(tournament_id=weekly.pk, user=players[1], now=now)
    cup.refresh_from_db()
    return cup, weekly
