"""Who may open what: every URL that takes a parameter, for every kind of visitor.

The list of URLs comes from the URL configuration itself (:func:`parametrized_routes`
walks the resolver), so a new URL with a parameter and no row in :data:`CHECKS` fails
:func:`test_every_parametrized_url_has_an_expectation`: whoever adds one writes down
who may open it. Each row of the table is one request (GET, or the POST of an action),
sent once as each of the :data:`ROLES`, and the expected statuses are written out, one
column per role. A refused request must also change nothing.

The roles, for the objects of one match between alice and bob:

- ``anonymous``: not signed in;
- ``spectator``: signed in, plays in neither the match nor the challenge (charlie);
- ``player``: the player the object is about: on turn, or the one to answer the
  double or the draw offer; the challenger; the owner of the vacation; the reporter;
- ``opponent``: the other player of that match or challenge;
- ``suspended``: ``player`` while a suspension is in force (they are refused everything,
  with the suspension's reason: the 403 of ``moderation.middleware``);
- ``moderator``: staff in the ``moderators`` group, playing in nothing.

Admin URLs (``/admin/...``) are covered by one rule instead of a row each, since the
admin checks its own permissions per model: whoever is not staff is sent to the admin
log-in, a suspended player gets the suspension's 403, and a moderator reaches the admin
(no log-in redirect, no error).

Every request of one row runs inside a transaction that is rolled back, so each role
meets the same state: a move played by ``player`` is undone before ``opponent`` tries.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any
from urllib.parse import urlencode

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.auth.models import Group, Permission
from django.contrib.contenttypes.models import ContentType
from django.core.cache import cache
from django.db import transaction
from django.http import HttpResponse
from django.test import Client
from django.test.utils import override_settings
from django.urls import URLPattern, URLResolver, get_resolver, include, path
from django.utils import timezone

from accounts.models import User
from challenges import services as challenge_services
from challenges.models import Challenge
from chouettes import services as chouettes
from chouettes.models import Chouette, Decision, Seat, Suggestion
from chouettes.models import Message as ChouetteMessage
from gammon import legal_plays
from gnubg_bridge import process
from matches import chat, clock, endings, turns
from matches.models import Game, GameMessage, Match, Vacation
from moderation.models import Report, Suspension
from moderation.permissions import MODERATORS_GROUP
from notifications.models import Notification
from notifications.outbox import notify
from notifications.unsubscribe import unsubscribe_token
from tests.conftest import shared_by_the_module
from tests.factories import UserFactory
from tests.matches.api_helpers import scripted_dice
from tests.stats.helpers import match_start
from tournaments import creation as tournament_creation
from tournaments import registration as tournament_registration
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "spectator", "opponent", "player", "suspended", "moderator")

# What a cell of the table may say besides a plain status code (allowed, may change state).
LOGIN = "302 log-in"  # redirected to the log-in page; nothing changes
SUSPENDED = "403 suspended"  # the suspension's refusal (moderation.middleware); nothing changes
REFUSED_302 = "302 refused"  # redirected back with an error message; nothing changes
Expected = int | str


# --------------------------------------------------------------------------- the URL conf


def parametrized_routes() -> dict[str, URLPattern]:
    """Every route of the URL configuration that takes a parameter, by its full route.

    A route is the patterns' text joined from the root (``games/<id:game_id>/``,
    ``admin/matches/game/<path:object_id>/change/``, or a regex for allauth's).
    """

    def walk(patterns: list[Any], prefix: str) -> Iterator[tuple[str, URLPattern]]:
        for entry in patterns:
            route = prefix + str(entry.pattern)
            if isinstance(entry, URLResolver):
                yield from walk(entry.url_patterns, route)
            elif isinstance(entry, URLPattern):
                yield route, entry

    return {
        route: pattern
        for route, pattern in walk(get_resolver().url_patterns, "")
        if re.search(r"<[^>]+>|\(\?P<", route)
    }


def fill(route: str, values: dict[str, object]) -> str:
    """The URL of ``route`` with each parameter replaced by ``values[name]``."""

    def value(match: re.Match[str]) -> str:
        return str(values[match.group(1)])

    url = re.sub(r"\(\?P<(\w+)>[^)]*\)", value, route)  # regex groups first: (?P<name>…)
    url = re.sub(r"<(?:\w+:)?(\w+)>", value, url)
    return "/" + url.replace("^", "").replace("$", "")


# --------------------------------------------------------------------------- the world


@dataclass
class World:
    """One match between alice and bob with a message, a challenge, a vacation..."""

    alice: User
    bob: User
    spectator: User
    moderator: User
    match: Match
    game: Game
    message: GameMessage
    challenge: Challenge
    vacation: Vacation
    notification: Notification
    #: A signed-in session of each user, by user id: every request of a role sends its
    #: user's (signing in again for each of the thousand requests was a fifth of the time).
    sessions: dict[int, str] = field(default_factory=dict)
    #: Set by the scene (see ``SCENES``): who ``player`` and ``opponent`` are.
    player: User = field(init=False)
    opponent: User = field(init=False)
    #: A chouette's scenes seat bob, dora and alice (in that order) in this one.
    chouette: Chouette | None = field(default=None, init=False)
    #: The tournament scenes' tournament (registration open).
    tournament: Tournament | None = field(default=None, init=False)

    def user(self, role: str) -> User | None:
        return {
            "anonymous": None,
            "spectator": self.spectator,
            "opponent": self.opponent,
            "player": self.player,
            "suspended": self.player,
            "moderator": self.moderator,
        }[role]

    def refresh(self) -> None:
        self.game.refresh_from_db()
        self.match.refresh_from_db()

    def first_play(self) -> str:
        self.refresh()
        assert self.game.dice is not None
        return str(legal_plays(self.game.position(), self.game.dice)[0])


def _on_turn(world: World) -> None:
    """The game as the match starts: ``player`` moves the opening roll."""
    world.refresh()
    world.player = world.match.player(world.game.turn_color)  # type: ignore[assignment]
    world.opponent = world.match.player(world.game.turn_color.other)  # type: ignore[assignment]


def _rolling(world: World) -> None:
    """``player`` is on roll (may roll or double)."""
    _on_turn(world)
    turns.game_play_move(
        game_id=world.game.pk,
        player=world.player,
        expected_ply=world.game.ply,
        play_text=world.first_play(),
        now=timezone.now(),
    )
    _on_turn(world)


def _doubled(world: World) -> None:
    """``opponent`` has doubled; ``player`` answers."""
    _rolling(world)
    doubler = world.player
    turns.game_double(
        game_id=world.game.pk, player=doubler, expected_ply=world.game.ply, now=timezone.now()
    )
    world.refresh()
    world.player, world.opponent = world.opponent, doubler


def _draw_offered(world: World) -> None:
    """``opponent`` has offered a draw; ``player`` answers."""
    _on_turn(world)
    offerer = world.opponent
    endings.match_offer_draw(
        game_id=world.game.pk, player=offerer, expected_ply=world.game.ply, now=timezone.now()
    )
    world.refresh()


def _finished(world: World) -> None:
    """``opponent`` has resigned the match: it is over."""
    _on_turn(world)
    endings.game_resign(
        game_id=world.game.pk,
        player=world.opponent,
        expected_ply=None,
        now=timezone.now(),
        whole_match=True,
    )
    world.refresh()


def _tournament_registering(world: World, **options: Any) -> None:
    """A tournament open for registration, nobody registered yet, by a director who is
    none of the roles."""
    director = UserFactory(username="director")
    director.user_permissions.add(Permission.objects.get(codename="manage_tournament"))
    now = timezone.now()
    world.tournament = tournament_creation.tournament_create(
        creator=User.objects.get(pk=director.pk),
        now=now,
        name="Matrix cup",
        format="knockout",
        starts_at=now + timedelta(days=3),
        **options,
    )
    _on_turn(world)


def _tournament_repeating(world: World) -> None:
    """The first edition of a weekly tournament: only ``moderator`` may stop it repeating."""
    _tournament_registering(world, repeat_days=7)


def _tournament_entered(world: World) -> None:
    """``player`` has registered for the tournament; nobody else has."""
    _tournament_registering(world)
    assert world.tournament is not None
    tournament_registration.tournament_register(
        tournament_id=world.tournament.pk, user=world.player, now=timezone.now()
    )


def _chouette_open(world: World) -> None:
    """bob's chouette, invite-only, with ``player`` (alice) invited; bob is ``opponent``."""
    world.chouette = chouettes.chouette_create(
        creator=world.bob, invite=[world.alice], open_to_all=False, now=timezone.now()
    )
    world.player, world.opponent = world.alice, world.bob


def _chouette_ready(world: World) -> None:
    """bob's chouette with dora and alice seated: ``player`` (bob) may start it."""
    now = timezone.now()
    world.chouette = chouettes.chouette_create(creator=world.bob, places_from_dice=False, now=now)
    for user in (UserFactory(username="dora"), world.alice):
        chouettes.chouette_join(chouette_id=world.chouette.pk, user=user, now=now)
    world.player, world.opponent = world.bob, world.alice


def _chouette_board(world: World, opening: list[int], opener: str) -> Game:
    """The chouette started (bob in the box, dora captain, alice in line) and the opening
    roll played by ``opener``'s side; the board is returned."""
    _chouette_ready(world)
    assert world.chouette is not None
    now = timezone.now()
    with scripted_dice(opening):
        game = chouettes.chouette_start(chouette_id=world.chouette.pk, user=world.bob, now=now)
    board = game.match.games.get()
    mover = world.bob if opener == "box" else game.match.black
    turns.game_play_move(
        game_id=board.pk, player=mover, play_text="8/5 6/5", expected_ply=board.ply, now=now
    )
    board.refresh_from_db()
    return board


def _chouette_team_on_roll(world: World) -> None:
    """The team (captain dora) may double; ``player`` (alice) is a member, ``opponent`` the box."""
    _chouette_board(world, [3, 1], "box")
    world.player, world.opponent = world.alice, world.bob


def _chouette_vote(world: World) -> None:
    """dora proposed the team's double: ``player`` (alice) votes; ``opponent`` is the box."""
    board = _chouette_board(world, [3, 1], "box")
    assert world.chouette is not None
    chouettes.team_propose_double(
        chouette_id=world.chouette.pk,
        user=board.match.black,
        expected_ply=board.ply,
        now=timezone.now(),
    )
    world.player, world.opponent = world.alice, world.bob


def _chouette_team_doubled(world: World) -> None:
    """The team doubled: ``player`` (bob, the box) takes or drops; ``opponent`` is alice."""
    _chouette_vote(world)
    assert world.chouette is not None
    ply = Game.objects.get(match__chouette_game__chouette=world.chouette).ply
    chouettes.team_vote(
        chouette_id=world.chouette.pk,
        user=world.alice,
        agree=True,
        expected_ply=ply,
        now=timezone.now(),
    )
    world.player, world.opponent = world.bob, world.alice


def _chouette_box_on_roll(world: World) -> None:
    """The box may double: ``player`` (bob) is the box, ``opponent`` (alice) a member."""
    _chouette_board(world, [1, 3], "team")
    world.player, world.opponent = world.bob, world.alice


def _chouette_box_doubled(world: World) -> None:
    """The box doubled: ``player`` (alice) answers; ``opponent`` is the box."""
    board = _chouette_board(world, [1, 3], "team")
    assert world.chouette is not None
    chouettes.box_double(
        chouette_id=world.chouette.pk, user=world.bob, expected_ply=board.ply, now=timezone.now()
    )
    world.player, world.opponent = world.alice, world.bob


def _chouette_team_moving(world: World) -> None:
    """The captain (dora) has rolled: ``player`` (alice) may suggest a play; ``opponent``
    is the box."""
    board = _chouette_board(world, [3, 1], "box")
    turns.game_roll(
        game_id=board.pk, player=board.match.black, expected_ply=board.ply, now=timezone.now()
    )
    world.player, world.opponent = world.alice, world.bob


def chouette_board_play(w: World) -> dict[str, object]:
    board = Game.objects.get(match__chouette_game__chouette=w.chouette)
    assert board.dice is not None
    return {"ply": board.ply, "play": str(legal_plays(board.position(), board.dice)[0])}


def chouette_ply(**more: object) -> Callable[[World], dict[str, object]]:
    """The body of a chouette decision: the board's ply, and ``more``."""
    return lambda w: {
        "ply": Game.objects.get(match__chouette_game__chouette=w.chouette).ply,
        **more,
    }


SCENES: dict[str, Callable[[World], None]] = {
    "tournament_registering": _tournament_registering,
    "tournament_entered": _tournament_entered,
    "tournament_repeating": _tournament_repeating,
    "chouette_open": _chouette_open,
    "chouette_ready": _chouette_ready,
    "chouette_team_on_roll": _chouette_team_on_roll,
    "chouette_vote": _chouette_vote,
    "chouette_team_doubled": _chouette_team_doubled,
    "chouette_box_on_roll": _chouette_box_on_roll,
    "chouette_box_doubled": _chouette_box_doubled,
    "chouette_team_moving": _chouette_team_moving,
    "finished": _finished,
    "on_turn": _on_turn,
    "rolling": _rolling,
    "doubled": _doubled,
    "draw_offered": _draw_offered,
}


def build_world() -> World:
    now = timezone.now()
    player, opponent = UserFactory(username="alice"), UserFactory(username="bob")
    outsider = UserFactory(username="charlie")
    moderator = UserFactory(username="mona", is_staff=True)
    moderator.groups.add(Group.objects.get(name=MODERATORS_GROUP))
    match = match_start(player, opponent, now=now)
    game = match.current_game
    assert game is not None
    on_turn = match.player(game.turn_color)
    other = match.player(game.turn_color.other)
    assert isinstance(on_turn, User) and isinstance(other, User)
    message = chat.game_message_post(game_id=game.pk, author=other, text="A private word", now=now)
    challenge = challenge_services.challenge_create(challenger=on_turn, opponent=other, now=now)
    today = timezone.localdate(now)
    vacation = clock.vacation_take(
        user=on_turn, start=today + timedelta(days=10), end=today + timedelta(days=11), now=now
    )
    notification = notify(
        recipient=on_turn, kind=Notification.Kind.YOUR_TURN, now=now, game=game, match=match
    )
    assert notification is not None
    sessions = {}
    for user in (player, opponent, outsider, moderator):
        client = Client()
        client.force_login(user)
        sessions[user.pk] = client.cookies[settings.SESSION_COOKIE_NAME].value
    return World(
        sessions=sessions,
        alice=player,
        bob=opponent,
        spectator=outsider,
        moderator=moderator,
        match=match,
        game=game,
        message=message,
        challenge=challenge,
        vacation=vacation,
        notification=notification,
    )


@pytest.fixture(scope="module")
def built_world(django_db_setup: None, django_db_blocker: Any) -> Iterator[World]:
    """The world, built once for the module's tests (tests.conftest.shared_by_the_module):
    each test meets it as built, whatever an earlier one did in its own transaction."""
    yield from shared_by_the_module(django_db_blocker, build_world)


@pytest.fixture
def world(built_world: World, db: None) -> World:
    """The module's world as built: its users and game re-read (an earlier test may have
    changed the objects, not the rows), ``player`` the one on turn."""
    for user in (built_world.alice, built_world.bob, built_world.spectator, built_world.moderator):
        user.refresh_from_db()
    _on_turn(built_world)
    return built_world


def fingerprint(world: World) -> tuple[object, ...]:
    """What a refused request must leave as it was."""
    game = Game.objects.get(pk=world.game.pk)
    match = Match.objects.get(pk=world.match.pk)
    return (
        game.ply,
        game.state,
        game.turn,
        game.cube_value,
        match.status,
        match.draw_offered_by,
        Match.objects.count(),
        GameMessage.objects.count(),
        Report.objects.count(),
        list(Challenge.objects.values_list("pk", "status").order_by("pk")),
        list(Vacation.objects.values_list("pk", "ends_at").order_by("pk")),
        list(Notification.objects.filter(read_at=None).values_list("pk").order_by("pk")),
        list(User.objects.values_list("pk", "notify").order_by("pk")),
        list(Seat.objects.values_list("pk", "status", "leaving").order_by("pk")),
        list(Chouette.objects.values_list("pk", "status").order_by("pk")),
        Decision.objects.count(),
        ChouetteMessage.objects.count(),
        Suggestion.objects.count(),
        list(Entry.objects.values_list("pk", "status").order_by("pk")),
    )


# --------------------------------------------------------------------------- the table


@dataclass(frozen=True)
class Check:
    """One request, and the status each role gets (in the order of ``ROLES``)."""

    route: str
    method: str
    expect: tuple[Expected, Expected, Expected, Expected, Expected, Expected]
    params: Callable[[World], dict[str, object]]
    scene: str = "on_turn"
    query: Callable[[World], dict[str, object]] | None = None
    body: Callable[[World], dict[str, object]] | None = None
    #: Told after the route in the test's id (for rows that differ by their query).
    label: str = ""

    @property
    def id(self) -> str:
        return f"{self.method} /{self.route}{self.label}"

    @property
    def is_api(self) -> bool:
        return self.route.startswith("api/")


def game_id(w: World) -> dict[str, object]:
    return {"game_id": w.game.pk}


def match_id(w: World) -> dict[str, object]:
    return {"match_id": w.match.pk}


def challenge_id(w: World) -> dict[str, object]:
    return {"challenge_id": w.challenge.pk}


def game_pk(w: World) -> dict[str, object]:
    return {"pk": w.game.pk}


def ply(w: World) -> dict[str, object]:
    return {"ply": w.game.ply}


def player_name(w: World) -> dict[str, object]:
    return {"username": w.player.username}


def opponent_name(w: World) -> dict[str, object]:
    return {"username": w.opponent.username}


def the_message(w: World) -> dict[str, object]:
    return {"message": w.message.pk}


def the_game(w: World) -> dict[str, object]:
    return {"game": w.game.pk}


def tournament_pk(w: World) -> dict[str, object]:
    assert w.tournament is not None
    return {"pk": w.tournament.pk}


def chouette_id(w: World) -> dict[str, object]:
    return {"chouette_id": chouette_pk(w)["pk"]}


def tournament_id(w: World) -> dict[str, object]:
    return {"tournament_id": tournament_pk(w)["pk"]}


def chouette_pk(w: World) -> dict[str, object]:
    assert w.chouette is not None
    return {"pk": w.chouette.pk}


def report(category: str) -> Callable[[World], dict[str, object]]:
    return lambda w: {"category": category, "text": "Please look at this."}


S = SUSPENDED
L = LOGIN
#: Asking for a finished match's analysis: queued (the page redirects, the API says 202),
#: or refused with 503 on a machine without gnubg.
ANALYSED = 302 if process.available() else 503
API_ANALYSED = 202 if process.available() else 503
#: A finished match's analysis, queued by its end (none, 404, without gnubg).
QUEUED = 200 if process.available() else 404
R = REFUSED_302

# fmt: off
#: The expectations. Columns:    anonymous spectator opponent player suspended moderator
CHECKS: list[Check] = [
    # ---- games and matches are public; acting in one is for its players.
    Check("games/<id:game_id>/", "GET", (200, 200, 200, 200, S, 200), game_id),
    Check("games/<id:game_id>/", "POST", (L, 403, 403, 302, S, 403), game_id,
          body=lambda w: {"action": "move", "ply": w.game.ply, "play": w.first_play()}),
    Check("games/<id:game_id>/board.svg", "GET", (200, 200, 200, 200, S, 200), game_id),
    Check("games/<id:game_id>/ply", "GET", (200, 200, 200, 200, S, 200), game_id),
    # Showing the dice in the other order is kept in the visitor's own session.
    Check("games/<id:game_id>/swap-dice/", "GET", (405, 405, 405, 405, S, 405), game_id),
    Check("games/<id:game_id>/swap-dice/", "POST", (302, 302, 302, 302, S, 302), game_id),
    Check("games/<id:game_id>/messages/", "GET", (405, 405, 405, 405, S, 405), game_id),
    # A refused message is the game page again, with the reason and the error's status.
    Check("games/<id:game_id>/messages/", "POST", (L, 403, 302, 302, S, 403), game_id,
          body=lambda w: {"text": "Hello"}),
    Check("matches/<id:match_id>/", "GET", (200, 200, 200, 200, S, 200), match_id),
    Check("matches/<id:match_id>/export.mat", "GET", (200, 200, 200, 200, S, 200), match_id),
    # A rematch: either player, once the match is over (409 while it is in play).
    Check("matches/<id:match_id>/rematch/", "GET", (L, 405, 405, 405, S, 405), match_id),
    Check("matches/<id:match_id>/rematch/", "POST", (L, 403, 409, 409, S, 403), match_id,
          label=" in play"),
    # ``player``'s own challenge of the world, to ``opponent`` with the same options, is
    # still open: the same rematch is not offered twice.
    Check("matches/<id:match_id>/rematch/", "POST", (L, 403, 302, 409, S, 403), match_id,
          scene="finished", label=" finished"),
    # ---- analysis: none of a match in play, for anyone (409); a finished match's is
    # public, and its players and moderators may ask for it (503 where gnubg is missing).
    Check("matches/<id:match_id>/analysis/request", "GET", (405, 405, 405, 405, S, 405),
          match_id),
    Check("matches/<id:match_id>/analysis/request", "POST", (L, 403, 409, 409, S, 409),
          match_id, label=" in play"),
    Check("matches/<id:match_id>/analysis/request", "POST",
          (L, 403, ANALYSED, ANALYSED, S, ANALYSED), match_id, scene="finished",
          label=" finished"),
    Check("matches/<id:match_id>/analysis/progress", "GET", (409, 409, 409, 409, S, 409),
          match_id, label=" in play"),
    Check("matches/<id:match_id>/analysis/progress", "GET", (200, 200, 200, 200, S, 200),
          match_id, scene="finished", label=" finished"),
    Check("api/matches/<object_id:pk>/analysis", "GET", (409, 409, 409, 409, S, 409),
          lambda w: {"pk": w.match.pk}, label=" in play"),
    Check("api/matches/<object_id:pk>/analysis", "GET", (QUEUED, QUEUED, QUEUED, QUEUED, S, QUEUED),
          lambda w: {"pk": w.match.pk}, scene="finished", label=" finished"),
    Check("api/matches/<object_id:pk>/analysis", "POST", (401, 403, 409, 409, S, 409),
          lambda w: {"pk": w.match.pk}, label=" in play"),
    Check("api/matches/<object_id:pk>/analysis", "POST",
          (401, 403, API_ANALYSED, API_ANALYSED, S, API_ANALYSED),
          lambda w: {"pk": w.match.pk}, scene="finished", label=" finished"),
    Check("api/matches/<object_id:pk>/export.mat", "GET", (200, 200, 200, 200, S, 200),
          lambda w: {"pk": w.match.pk}),
    # A chouette game's .mat is public, as a match's.
    Check("chouettes/<id:chouette_id>/games/<id:number>/export.mat", "GET",
          (200, 200, 200, 200, S, 200),
          lambda w: {"chouette_id": chouette_pk(w)["pk"], "number": 1},
          scene="chouette_team_on_roll"),
    Check("api/chouettes/<object_id:pk>/games/<id:number>/export.mat", "GET",
          (200, 200, 200, 200, S, 200), lambda w: {**chouette_pk(w), "number": 1},
          scene="chouette_team_on_roll"),
    Check("api/matches/<object_id:pk>/", "GET", (200, 200, 200, 200, S, 200),
          lambda w: {"pk": w.match.pk}),
    Check("api/games/<object_id:pk>/", "GET", (200, 200, 200, 200, S, 200), game_pk),
    # ---- the chat: its two players only (moderators read it in the admin).
    Check("api/games/<object_id:pk>/messages", "GET", (401, 403, 200, 200, S, 403), game_pk),
    Check("api/games/<object_id:pk>/messages", "POST", (401, 403, 201, 201, S, 403), game_pk,
          body=lambda w: {"text": "Hello"}),
    # ---- game actions: the player whose turn or answer it is. They are POST only.
    *[
        Check(f"api/games/<object_id:pk>/{action}", "GET", (401, 405, 405, 405, S, 405),
              game_pk)
        for action in ("roll", "double", "move", "take", "drop", "resign", "offer-draw",
                       "accept-draw", "decline-draw")
    ],
    Check("api/games/<object_id:pk>/roll", "POST", (401, 403, 403, 200, S, 403), game_pk,
          scene="rolling", body=ply),
    Check("api/games/<object_id:pk>/double", "POST", (401, 403, 403, 200, S, 403), game_pk,
          scene="rolling", body=ply),
    Check("api/games/<object_id:pk>/move", "POST", (401, 403, 403, 200, S, 403), game_pk,
          body=lambda w: {"ply": w.game.ply, "play": w.first_play()}),
    Check("api/games/<object_id:pk>/take", "POST", (401, 403, 403, 200, S, 403), game_pk,
          scene="doubled", body=ply),
    Check("api/games/<object_id:pk>/drop", "POST", (401, 403, 403, 200, S, 403), game_pk,
          scene="doubled", body=ply),
    # Either player may resign or offer a draw at any time.
    Check("api/games/<object_id:pk>/resign", "POST", (401, 403, 200, 200, S, 403), game_pk,
          body=lambda w: {"ply": w.game.ply, "scope": "game"}),
    Check("api/games/<object_id:pk>/offer-draw", "POST", (401, 403, 200, 200, S, 403),
          game_pk, body=ply),
    Check("api/games/<object_id:pk>/accept-draw", "POST", (401, 403, 400, 200, S, 403),
          game_pk, scene="draw_offered", body=ply),
    Check("api/games/<object_id:pk>/decline-draw", "POST", (401, 403, 400, 200, S, 403),
          game_pk, scene="draw_offered", body=ply),
    # ---- chouettes: the line-up is public; the chat is for the seated players (the team's
    # part for the team only); each decision for whoever it is awaited from.
    Check("api/chouettes/<object_id:pk>/", "GET", (200, 200, 200, 200, S, 200), chouette_pk,
          scene="chouette_team_on_roll"),
    # Moderators read every chouette's chat (chouettes.view_message).
    Check("api/chouettes/<object_id:pk>/messages", "GET", (401, 403, 200, 200, S, 200),
          chouette_pk, scene="chouette_team_on_roll"),
    Check("api/chouettes/<object_id:pk>/messages", "POST", (401, 403, 201, 201, S, 403),
          chouette_pk, scene="chouette_team_on_roll", body=lambda w: {"text": "Hello"}),
    *[
        Check(f"api/chouettes/<object_id:pk>/{action}", "GET", (401, 405, 405, 405, S, 405),
              chouette_pk, scene="chouette_open")
        for action in ("join", "invite", "start", "leave", "propose", "vote", "box-answer",
                       "box-double", "answer", "suggest")
    ],
    Check("api/chouettes/<object_id:pk>/join", "POST", (401, 403, 409, 200, S, 403),
          chouette_pk, scene="chouette_open"),
    Check("api/chouettes/<object_id:pk>/invite", "POST", (401, 403, 403, 200, S, 403),
          chouette_pk, scene="chouette_ready",
          body=lambda w: {"players": [w.spectator.username]}),
    Check("api/chouettes/<object_id:pk>/start", "POST", (401, 403, 403, 200, S, 403),
          chouette_pk, scene="chouette_ready"),
    Check("api/chouettes/<object_id:pk>/leave", "POST", (401, 403, 200, 200, S, 403),
          chouette_pk, scene="chouette_team_on_roll"),
    Check("api/chouettes/<object_id:pk>/propose", "POST", (401, 403, 400, 200, S, 403),
          chouette_pk, scene="chouette_team_on_roll", body=chouette_ply()),
    Check("api/chouettes/<object_id:pk>/vote", "POST", (401, 403, 400, 200, S, 403),
          chouette_pk, scene="chouette_vote", body=chouette_ply(agree=True)),
    Check("api/chouettes/<object_id:pk>/box-answer", "POST", (401, 403, 400, 200, S, 403),
          chouette_pk, scene="chouette_team_doubled", body=chouette_ply(take=True)),
    Check("api/chouettes/<object_id:pk>/box-double", "POST", (401, 403, 400, 200, S, 403),
          chouette_pk, scene="chouette_box_on_roll", body=chouette_ply()),
    Check("api/chouettes/<object_id:pk>/answer", "POST", (401, 403, 400, 200, S, 403),
          chouette_pk, scene="chouette_box_doubled", body=chouette_ply(take=False)),
    Check("api/chouettes/<object_id:pk>/suggest", "POST", (401, 403, 403, 200, S, 403),
          chouette_pk, scene="chouette_team_moving", body=chouette_board_play),
    # ---- tournaments: public to read; anyone signed in registers, and withdraws their own.
    Check("api/tournaments/<object_id:pk>/", "GET", (200, 200, 200, 200, S, 200),
          tournament_pk, scene="tournament_entered"),
    *[
        Check(f"api/tournaments/<object_id:pk>/{action}", "GET", (401, 405, 405, 405, S, 405),
              tournament_pk, scene="tournament_registering")
        for action in ("enter", "withdraw")
    ],
    Check("api/tournaments/<object_id:pk>/enter", "POST", (401, 200, 200, 409, S, 200),
          tournament_pk, scene="tournament_entered"),
    Check("api/tournaments/<object_id:pk>/withdraw", "POST", (401, 404, 404, 200, S, 404),
          tournament_pk, scene="tournament_entered"),
    # ---- the chouette pages: the session page is public, as a match is; its forms are
    # the API's decisions, for the same players (a refusal is the page with its status).
    Check("chouettes/<id:chouette_id>/", "GET", (200, 200, 200, 200, S, 200), chouette_id,
          scene="chouette_team_on_roll"),
    Check("chouettes/<id:chouette_id>/games/<id:number>/", "GET",
          (302, 302, 302, 302, S, 302), lambda w: {**chouette_id(w), "number": 1},
          scene="chouette_team_on_roll"),
    # The board page's poll: as public as the game's own ply.
    Check("chouettes/<id:chouette_id>/games/<id:number>/stamp", "GET",
          (200, 200, 200, 200, S, 200), lambda w: {**chouette_id(w), "number": 1},
          scene="chouette_team_on_roll"),
    *[
        Check(f"chouettes/<id:chouette_id>/{action}", "GET", (405, 405, 405, 405, S, 405),
              chouette_id, scene="chouette_open")
        for action in ("join", "leave", "start", "invite", "cube", "suggest", "messages")
    ],
    Check("chouettes/<id:chouette_id>/join", "POST", (L, 403, 409, 302, S, 403), chouette_id,
          scene="chouette_open"),
    Check("chouettes/<id:chouette_id>/invite", "POST", (L, 403, 403, 302, S, 403),
          chouette_id, scene="chouette_ready", body=lambda w: {"invite": "charlie"}),
    Check("chouettes/<id:chouette_id>/start", "POST", (L, 403, 403, 302, S, 403),
          chouette_id, scene="chouette_ready"),
    Check("chouettes/<id:chouette_id>/leave", "POST", (L, 403, 302, 302, S, 403),
          chouette_id, scene="chouette_team_on_roll"),
    Check("chouettes/<id:chouette_id>/cube", "POST", (L, 403, 400, 302, S, 403), chouette_id,
          scene="chouette_team_on_roll", body=chouette_ply(action="propose"),
          label=" propose"),
    Check("chouettes/<id:chouette_id>/cube", "POST", (L, 403, 400, 302, S, 403), chouette_id,
          scene="chouette_vote", body=chouette_ply(action="vote_yes"), label=" vote"),
    Check("chouettes/<id:chouette_id>/cube", "POST", (L, 403, 400, 302, S, 403), chouette_id,
          scene="chouette_team_doubled", body=chouette_ply(action="box_take"),
          label=" box take"),
    Check("chouettes/<id:chouette_id>/cube", "POST", (L, 403, 400, 302, S, 403), chouette_id,
          scene="chouette_box_on_roll", body=chouette_ply(action="box_double"),
          label=" box double"),
    Check("chouettes/<id:chouette_id>/cube", "POST", (L, 403, 400, 302, S, 403), chouette_id,
          scene="chouette_box_doubled", body=chouette_ply(action="drop"), label=" answer"),
    Check("chouettes/<id:chouette_id>/suggest", "POST", (L, 403, 403, 302, S, 403),
          chouette_id, scene="chouette_team_moving", body=chouette_board_play),
    Check("chouettes/<id:chouette_id>/messages", "POST", (L, 403, 302, 302, S, 403),
          chouette_id, scene="chouette_team_on_roll", body=lambda w: {"text": "Hello all"}),
    # The pages: the same rules; a refusal is the tournament page with its message.
    Check("tournaments/<id:tournament_id>/", "GET", (200, 200, 200, 200, S, 200),
          tournament_id, scene="tournament_entered"),
    *[
        Check(f"tournaments/<id:tournament_id>/{action}/", "GET", (L, 405, 405, 405, S, 405),
              tournament_id, scene="tournament_registering")
        for action in ("register", "withdraw")
    ],
    Check("tournaments/<id:tournament_id>/register/", "POST", (L, 302, 302, 409, S, 302),
          tournament_id, scene="tournament_entered"),
    Check("tournaments/<id:tournament_id>/withdraw/", "POST", (L, 404, 404, 302, S, 404),
          tournament_id, scene="tournament_entered"),
    # Its director (none of the roles here) and the moderators stop one repeating.
    Check("tournaments/<id:tournament_id>/stop-repeating/", "GET", (L, 405, 405, 405, S, 405),
          tournament_id, scene="tournament_repeating"),
    Check("tournaments/<id:tournament_id>/stop-repeating/", "POST",
          (L, 403, 403, 403, S, 302), tournament_id, scene="tournament_repeating"),
    # ---- challenges: ``player`` challenged ``opponent``.
    Check("challenges/<id:challenge_id>/accept/", "GET", (L, 405, 405, 405, S, 405),
          challenge_id),
    Check("challenges/<id:challenge_id>/accept/", "POST", (L, 403, 302, 400, S, 403),
          challenge_id),
    Check("challenges/<id:challenge_id>/decline/", "GET", (L, 405, 405, 405, S, 405),
          challenge_id),
    Check("challenges/<id:challenge_id>/decline/", "POST", (L, 403, 302, 403, S, 403),
          challenge_id),
    Check("challenges/<id:challenge_id>/withdraw/", "GET", (L, 405, 405, 405, S, 405),
          challenge_id),
    Check("challenges/<id:challenge_id>/withdraw/", "POST", (L, 403, 403, 302, S, 403),
          challenge_id),
    *[
        Check(f"api/challenges/<object_id:pk>/{action}", "GET", (401, 405, 405, 405, S, 405),
              lambda w: {"pk": w.challenge.pk})
        for action in ("accept", "decline", "withdraw")
    ],
    Check("api/challenges/<object_id:pk>/accept", "POST", (401, 403, 201, 400, S, 403),
          lambda w: {"pk": w.challenge.pk}),
    Check("api/challenges/<object_id:pk>/decline", "POST", (401, 403, 200, 403, S, 403),
          lambda w: {"pk": w.challenge.pk}),
    Check("api/challenges/<object_id:pk>/withdraw", "POST", (401, 403, 403, 200, S, 403),
          lambda w: {"pk": w.challenge.pk}),
    # ---- vacations: ``player``'s own. Someone else's is "no such vacation", as a
    # missing one is, so the answer tells nothing about other players' vacations.
    Check("vacations/<id:vacation_id>/cancel/", "GET", (L, 405, 405, 405, S, 405),
          lambda w: {"vacation_id": w.vacation.pk}),
    Check("vacations/<id:vacation_id>/cancel/", "POST", (L, 400, 400, 302, S, 400),
          lambda w: {"vacation_id": w.vacation.pk}),
    # ---- notifications: marking read takes the ids in the body; only one's own change.
    Check("notifications/read/", "POST", (L, R, R, 302, S, R), lambda w: {},
          body=lambda w: {"id": w.notification.pk}),
    # The signed token is the authority (a one-click link in an e-mail), not the session.
    Check("notifications/unsubscribe/<str:token>/", "GET", (200, 200, 200, 200, S, 200),
          lambda w: {"token": unsubscribe_token(w.player)}),
    Check("notifications/unsubscribe/<str:token>/", "POST", (200, 200, 200, 200, S, 200),
          lambda w: {"token": unsubscribe_token(w.player)}),
    # ---- reports: ``player`` reports ``opponent``, the author of the message.
    Check("report/<str:username>/", "GET", (L, 200, 200, 200, S, 200), opponent_name),
    Check("report/<str:username>/", "GET", (L, 403, 200, 200, S, 200), opponent_name,
          query=the_message, label="?message=<id>"),
    Check("report/<str:username>/", "POST", (L, 403, 400, 302, S, 302), opponent_name,
          query=the_message, body=report("abuse"), label="?message=<id>"),
    Check("report/<str:username>/", "GET", (L, 200, 200, 200, S, 200), opponent_name,
          query=the_game, label="?game=<id>"),
    Check("report/<str:username>/", "POST", (L, 403, 400, 302, S, 403), opponent_name,
          query=the_game, body=report("dispute"), label="?game=<id> dispute"),
    # ---- players and statistics are public.
    Check("players/<str:username>/", "GET", (200, 200, 200, 200, S, 200), player_name),
    Check("stats/dice/<str:username>/", "GET", (200, 200, 200, 200, S, 200), player_name),
    Check("api/stats/players/<str:username>/", "GET", (200, 200, 200, 200, S, 200),
          player_name),
    Check("api/stats/dice/<str:username>/", "GET", (200, 200, 200, 200, S, 200), player_name),
    Check("api/stats/variants/<str:variant>/", "GET", (200, 200, 200, 200, S, 200),
          lambda w: {"variant": "standard"}),
    # ---- allauth's links from e-mails, with a key that is not valid.
    Check(r"accounts/^confirm-email/(?P<key>[-:\w]+)/$", "GET", (200, 200, 200, 200, S, 200),
          lambda w: {"key": "not-a-key"}),
    Check(r"accounts/^password/reset/key/(?P<uidb36>[0-9A-Za-z]+)-(?P<key>.+)/$", "GET",
          (200, 200, 200, 200, S, 200), lambda w: {"uidb36": "zz", "key": "not-a-key"}),
]
# fmt: on

#: Rows for URLs whose object id is in the body, not in the path.
BODY_ID_ROUTES = {"notifications/read/"}


# --------------------------------------------------------------------------- running


def _client(world: World, role: str) -> Client:
    """A client of its own for each request, signed in (but for ``anonymous``) with the
    session built with the world: whatever a request does to the session or the cookies
    (a suspended player is signed out) is undone by the rollback or left in its client."""
    client = Client()
    user = world.user(role)
    if user is not None:
        client.cookies[settings.SESSION_COOKIE_NAME] = world.sessions[user.pk]
    return client


def _send(client: Client, check: Check, url: str, body: dict[str, object] | None) -> HttpResponse:
    if check.method == "GET":
        return client.get(url)  # type: ignore[return-value]
    if check.is_api:
        return client.post(url, body or {}, content_type="application/json")  # type: ignore[return-value]
    return client.post(url, body or {})  # type: ignore[return-value]


def _outcome(response: HttpResponse, expected: Expected) -> str:
    """The response in the table's words, as close to ``expected`` as it matches."""
    status = response.status_code
    location = response.get("Location", "")
    if status == 302 and "/login/" in location:
        return LOGIN
    if status == 403 and b"suspended" in response.content and expected == SUSPENDED:
        return SUSPENDED
    if status == 302 and expected == REFUSED_302:
        return REFUSED_302
    return str(status)


def _changes_nothing(expected: Expected) -> bool:
    return expected in (LOGIN, SUSPENDED, REFUSED_302) or (
        isinstance(expected, int) and expected >= 400
    )


@contextmanager
def _rolled_back(world: World, role: str) -> Iterator[None]:
    """A transaction rolled back at the end; for ``suspended``, ``player`` is suspended in it."""
    with transaction.atomic():
        if role == "suspended":
            Suspension.objects.create(
                user=world.player,
                reason="Testing the matrix.",
                starts_at=timezone.now() - timedelta(minutes=1),
                created_by=world.moderator,
            )
        yield
        transaction.set_rollback(True)
    cache.clear()  # the suspension's cached answer goes with the rollback


def _request(world: World, check: Check, role: str) -> tuple[str, bool]:
    """Send ``check`` as ``role`` and roll it back: the outcome in the table's words,
    and whether the request left the state as it was."""
    client = _client(world, role)  # signed in outside the rolled-back transaction
    with _rolled_back(world, role):
        before = fingerprint(world)
        url = fill(check.route, check.params(world))
        if check.query:
            url += "?" + urlencode(check.query(world))
        body = check.body(world) if check.body else None
        response = _send(client, check, url, body)
        unchanged = fingerprint(world) == before
    return _outcome(response, check.expect[ROLES.index(role)]), unchanged


@pytest.mark.parametrize("check", CHECKS, ids=[c.id for c in CHECKS])
def test_each_role_gets_the_expected_answer(world: World, check: Check) -> None:
    SCENES[check.scene](world)
    problems = []
    for role, expected in zip(ROLES, check.expect, strict=True):
        got, unchanged = _request(world, check, role)
        if got != str(expected):
            problems.append(f"  {role:<10} expected {expected!s:<14} got {got}")
        elif _changes_nothing(expected) and not unchanged:
            problems.append(f"  {role:<10} was refused ({got}) but the request changed the state")
    assert not problems, f"{check.id} (scene {check.scene}):\n" + "\n".join(problems)


def unlisted_routes() -> list[str]:
    """The routes of the URL conf that take a parameter and have no row in CHECKS."""
    routes = {route for route in parametrized_routes() if not route.startswith("admin/")}
    return sorted(routes - {check.route for check in CHECKS})


def test_every_parametrized_url_has_an_expectation() -> None:
    missing = unlisted_routes()
    assert not missing, (
        "These URLs take a parameter but have no row in CHECKS (tests/"
        "test_authorization_matrix.py); write down who may open them:\n  " + "\n  ".join(missing)
    )
    routes = set(parametrized_routes())
    stale = sorted({check.route for check in CHECKS} - routes - BODY_ID_ROUTES)
    assert not stale, "These rows of CHECKS name no URL of the URL conf:\n  " + "\n  ".join(stale)


#: The site's URLs plus one new URL with a parameter (for the test below).
urlpatterns = [
    path("", include("backgammon.urls")),
    path("widgets/<id:widget_id>/", lambda request, widget_id: HttpResponse()),
]


def test_a_new_url_without_a_row_is_reported() -> None:
    with override_settings(ROOT_URLCONF=__name__):
        assert unlisted_routes() == ["widgets/<id:widget_id>/"]


# --------------------------------------------------------------------------- the admin


ADMIN_ROUTES = sorted(route for route in parametrized_routes() if route.startswith("admin/"))


def _admin_url(world: World, route: str) -> str:
    """``route`` with a real object id where the route names a model."""
    object_id: object = 1
    found = re.match(r"admin/(\w+)/(\w+)/", route)
    if found:
        try:
            model = apps.get_model(found.group(1), found.group(2))
        except LookupError:
            model = None
        if model is not None:
            object_id = model._default_manager.values_list("pk", flat=True).first() or 1
    return fill(
        route,
        {
            "object_id": object_id,
            "id": world.player.pk,
            "content_type_id": ContentType.objects.get_for_model(User).pk,
            "app_label": "matches",
            "url": "no-such-page/",
        },
    )


def test_admin_urls_are_covered_by_the_staff_rule() -> None:
    """The admin URLs with a parameter exist (so the rule below is not vacuous)."""
    assert any("matches/game/<path:object_id>/change/" in r for r in ADMIN_ROUTES)
    assert any("moderation/report/<path:object_id>/close/" in r for r in ADMIN_ROUTES)


@pytest.mark.parametrize("route", ADMIN_ROUTES)
def test_the_admin_is_for_staff_only(world: World, route: str) -> None:
    url = _admin_url(world, route)
    problems = []
    for role in ROLES:
        client = _client(world, role)
        with _rolled_back(world, role):
            response = client.get(url)
        status, location = response.status_code, response.get("Location", "")
        if role == "moderator":
            ok = status < 500 and "/admin/login/" not in location
            want = "the admin (no log-in redirect, no 5xx)"
        elif role == "suspended":
            ok = status == 403 and b"suspended" in response.content
            want = SUSPENDED
        else:
            ok = status == 302 and "/admin/login/" in location
            want = "302 to the admin log-in"
        if not ok:
            problems.append(f"  {role:<10} expected {want}, got {status} {location}")
    assert not problems, f"GET {url} ({route}):\n" + "\n".join(problems)
