"""Whole matches played by the random bot, made once per test session and loaded by each test.

Playing a match to its end through the services costs seconds, and the export, replay and
stats tests each played their own. Here a named *set* of matches is played once (the first
time a test asks for it) through the real services, with seeded dice and the challenger
as White, inside a savepoint of that test. Every row the play wrote (challenge, match,
games, events, outbox, counters, ratings…) is recorded as plain values and the savepoint
is rolled back; the test, and every later one, then inserts the recorded rows. The rows
are what the services and the signal receivers wrote, so a test that reads them (the
export, the replay check, the recount) still fails if that code is broken.

A set is loaded whole: its counters are those of all its matches together. The players
are roles (``alice``, ``bob``, ``charlie``); a test passes its own users for them, and the
rows' user ids are mapped onto those. Under xdist each worker process keeps its own
cache, so a set is built at most once per worker.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from types import SimpleNamespace
from typing import Any

import pytest
from django.apps import apps
from django.core import mail
from django.core.cache import cache
from django.db import models, transaction
from django.utils import timezone

from accounts.models import User
from challenges import services as challenge_services
from gammon import FixedDice
from matches import record
from matches.bots import bot_play_match
from matches.models import Match

#: Dice per match: more than any test match throws.
THROWS = 40_000


@dataclass(frozen=True)
class Starter:
    """Starts a match of a set: ``challenger`` (White) against ``opponent``, its dice drawn
    from ``seed``, at ``now`` (the set's build time unless given)."""

    users: dict[str, User]
    now: datetime
    monkeypatch: pytest.MonkeyPatch

    def __call__(
        self,
        seed: int,
        *,
        challenger: str = "alice",
        opponent: str = "bob",
        now: datetime | None = None,
        **options: Any,
    ) -> Match:
        rng = random.Random(seed)
        dice = FixedDice([rng.randint(1, 6) for _ in range(THROWS)])
        self.monkeypatch.setattr(record, "dice", dice)
        when = now or self.now
        challenge = challenge_services.challenge_create(
            challenger=self.users[challenger],
            opponent=self.users[opponent],
            now=when,
            **options,
        )
        return challenge_services.challenge_accept(
            challenge_id=challenge.pk, user=self.users[opponent], now=when
        )


#: A set's recipe plays its matches with the starter and returns them in order.
Recipe = Callable[[Starter], list[Match]]

RECIPES: dict[str, Recipe] = {}


def recipe(name: str) -> Callable[[Recipe], Recipe]:
    """Register a set under ``name`` (a test module may register its own)."""

    def register(function: Recipe) -> Recipe:
        assert name not in RECIPES or RECIPES[name] is function, f"two sets named {name!r}"
        RECIPES[name] = function
        return function

    return register


@recipe("site")
def site(start: Starter) -> list[Match]:
    """Five bot matches among three players, at the time of the build: every variant,
    rated 3-point matches and an unrated 5-point one, cube actions, and gammons won and
    lost by both alice and bob (seeds 2 and 19: alice, then bob, wins one). The stats,
    replay and smoke tests read them."""
    matches: list[tuple[int, dict[str, Any]]] = [
        (2, {"challenger": "alice", "opponent": "bob", "length": 3}),
        (19, {"challenger": "alice", "opponent": "bob", "length": 3}),
        (2, {"challenger": "bob", "opponent": "charlie", "length": 1, "variant": "nackgammon"}),
        (3, {"challenger": "charlie", "opponent": "alice", "length": 5, "rated": False}),
        (4, {"challenger": "charlie", "opponent": "bob", "length": 3, "variant": "hypergammon"}),
    ]
    # Each match is played as soon as it starts: the starter sets that match's dice.
    return [
        bot_play_match(start(seed, **options), random.Random(seed), start.now, double_rate=0.2)
        for seed, options in matches
    ]


Rows = list[tuple[type[models.Model], list[dict[str, Any]]]]


@dataclass(frozen=True)
class Recording:
    """The rows a set's play wrote, user ids replaced by roles (``None`` for no user)."""

    rows: Rows
    user_fields: dict[type[models.Model], tuple[str, ...]]
    matches: tuple[int, ...]


def _tables() -> list[type[models.Model]]:
    return [
        model
        for model in apps.get_models(include_auto_created=True)
        if model._meta.managed and not model._meta.proxy
    ]


def _snapshot() -> dict[type[models.Model], dict[Any, dict[str, Any]]]:
    return {
        model: {row[model._meta.pk.attname]: row for row in model.objects.values()}
        for model in _tables()
    }


def _user_fields(model: type[models.Model]) -> tuple[str, ...]:
    return tuple(
        field.attname
        for field in model._meta.concrete_fields
        if field.is_relation and field.related_model is User
    )


class BotGames:
    """The cached builder: ``load(name, alice=…, bob=…)`` gives the set's matches."""

    def __init__(self) -> None:
        self._recorded: dict[str, Recording] = {}

    def load(self, name: str, **users: User) -> list[Match]:
        """Insert set ``name``'s rows for these users; its matches, in the recipe's order."""
        if name not in self._recorded:
            self._recorded[name] = self._record(name, users)
        recording = self._recorded[name]
        by_role = {role: user.pk for role, user in users.items()}
        for model, rows in recording.rows:
            fields = recording.user_fields[model]
            objects = []
            for row in rows:
                values = dict(row)
                for attname in fields:
                    role = values[attname]
                    values[attname] = None if role is None else by_role[role]
                objects.append(model(**values))
            model.objects.bulk_create(objects)
        found = Match.objects.in_bulk(recording.matches)
        return [found[pk] for pk in recording.matches]

    def _record(self, name: str, users: dict[str, User]) -> Recording:
        """Play the set in a savepoint, keep what it wrote, roll it back."""
        role_of = {user.pk: role for role, user in users.items()}
        sent = len(getattr(mail, "outbox", []))
        before = _snapshot()
        with pytest.MonkeyPatch.context() as monkeypatch, transaction.atomic():
            monkeypatch.setattr(
                challenge_services, "secrets", SimpleNamespace(randbelow=lambda n: 0)
            )
            start = Starter(users=users, now=timezone.now(), monkeypatch=monkeypatch)
            matches = RECIPES[name](start)
            after = _snapshot()
            transaction.set_rollback(True)
        if hasattr(mail, "outbox"):
            del mail.outbox[sent:]
        cache.clear()  # nothing the rolled-back play cached may outlive it
        rows: Rows = []
        user_fields: dict[type[models.Model], tuple[str, ...]] = {}
        for model, now_rows in after.items():
            old = before[model]
            changed = [pk for pk in old if now_rows.get(pk) != old[pk]]
            assert not changed, f"set {name!r} changed {model.__name__} rows {changed[:5]}"
            new = [row for pk, row in now_rows.items() if pk not in old]
            if not new:
                continue
            fields = user_fields[model] = _user_fields(model)
            assert model is not User, f"set {name!r} created users: pass them as roles"
            for row in new:
                for attname in fields:
                    if row[attname] is not None:
                        row[attname] = role_of[row[attname]]
            rows.append((model, sorted(new, key=lambda row: row[model._meta.pk.attname])))
        _check_closed(name, rows)
        return Recording(rows=rows, user_fields=user_fields, matches=tuple(m.pk for m in matches))


def _check_closed(name: str, rows: Rows) -> None:
    """Every reference in the recorded rows is to a user or to another recorded row: a row
    pointing at one of the first test's own would load dangling (PostgreSQL checks foreign
    keys only at a commit, which a test never reaches)."""
    recorded = {model: {row[model._meta.pk.attname] for row in new} for model, new in rows}
    for model, new in rows:
        for field in model._meta.concrete_fields:
            target = field.related_model
            if not field.is_relation or target is User:
                continue
            assert isinstance(target, type)
            known = recorded.get(target, set())
            dangling = {row[field.attname] for row in new} - known - {None}
            assert not dangling, f"set {name!r}: {model.__name__}.{field.name} -> {dangling}"
