"""Fixtures for the moderation tests: a moderator, a superuser, and matches in play."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from django.contrib.auth.models import Group
from django.test import Client

from accounts.models import User
from matches.models import Match
from moderation.permissions import MODERATORS_GROUP
from tests.factories import UserFactory
from tests.stats.helpers import match_start

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
def moderator(db: None) -> User:
    user = UserFactory(username="mona", is_staff=True)
    user.groups.add(Group.objects.get(name=MODERATORS_GROUP))
    return user


@pytest.fixture
def superuser(db: None) -> User:
    return UserFactory(username="root", is_staff=True, is_superuser=True)


@pytest.fixture
def moderator_client(moderator: User) -> Client:
    client = Client()
    client.force_login(moderator)
    return client


@pytest.fixture
def superuser_client(superuser: User) -> Client:
    client = Client()
    client.force_login(superuser)
    return client


@pytest.fixture
def new_match(player: User, opponent: User) -> Callable[..., Match]:
    """A match in play between alice and bob (colours drawn at random)."""

    def make(**options: object) -> Match:
        return match_start(player, opponent, **options)  # type: ignore[arg-type]

    return make
