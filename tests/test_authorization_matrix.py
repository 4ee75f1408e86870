"""Who may open and read what: every URL that takes a parameter, for every kind of person,
and for every pair of roles one person can hold at once.

The list of URLs comes from the URL configuration itself (:func:`parametrized_routes`
walks the resolver), so a new URL with a parameter and no row in :data:`CHECKS` fails
:func:`test_every_parametrized_url_has_an_expectation`: whoever adds one writes down
who may open it. Each row of the table is one request (GET, or the POST of an action),
sent once as each :class:`Persona` of its scene. A refused request must change nothing.

**Personas: roles that combine.** A persona is what a person is to the object of the
row (its *base*), plus the roles they hold site-wide or elsewhere (*also*):

- bases: ``anonymous`` (not signed in); ``spectator`` (charlie, who plays a game of
  his own elsewhere: a player, and a spectator here); ``player`` (the one the object is
  about: on turn, or the one to answer; the challenger; the owner; the member to vote
  or answer) and ``opponent`` (the other side: the other player, the challenged, the
  box); in a chouette's scenes also ``captain`` (dora) and ``left`` (erin, a member who
  left); in a tournament's, ``director`` (who created it);
- also: ``moderator`` (staff in the moderators group), ``superuser``, ``suspended`` (a
  suspension in force), and ``entered`` (a director who entered their own tournament).

Each row runs every base alone and with ``moderator`` (the moderator who is also the
box, the captain, a player, a member who left, a director...), the spectator and the
player as ``superuser`` and as ``suspended``, the player as a suspended moderator, and
the director who entered. What each persona gets follows from the row's columns by the
site's rules, written once in :func:`expected`:

1. a suspended person is refused everything (the suspension's 403), whatever else;
2. a person with a stake in the object (any base but spectator and director) gets what
   that base gets: no permission adds to it, since no one moderates a game they play;
3. a moderator or a superuser with no stake gets the ``moderator`` column (or the
   row's ``superuser`` one, where the two differ);
4. anyone else gets their base's column.

**What each person reads.** Every answer of every cell is searched for the scene's
private texts (:data:`SECRETS`: the players' chat, the chouette team's talk, the
table's chat); a text found by someone not allowed to read it (:func:`may_read`) fails
the cell, on every URL, pages and API alike. Rows that show a text (``shows``) must show
it to each person who reads it as a player there.

Admin URLs (``/admin/...``) are covered by rules instead of a row each: whoever is not
staff is sent to the admin log-in, a suspended player gets the suspension's 403, a
moderator reaches the admin, and every moderator's action refuses a moderator with a
stake in its object (403) while another moderator may take it
(:func:`test_a_moderator_with_a_stake_is_refused_every_admin_action`).

Every request runs inside a transaction that is rolled back, so each persona meets the
same state: a move played by ``player`` is undone before ``opponent`` tries.
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
from django.urls import URLPattern, URLResolver, get_resolver, include, path, reverse
from django.utils import timezone

from accounts.models import User
from challenges import services as challenge_services
from challenges.models import Challenge
from chouettes import chat as chouette_chat
from chouettes import decisions as chouette_decisions
from chouettes import seating as chouette_seating
from chouettes.models import Chouette, Decision, Seat, Suggestion
from chouettes.models import Message as ChouetteMessage
from gammon import legal_plays
from gnubg_bridge import process
from matches import chat, clock, endings, resignations, turns
from matches.models import Game, GameMessage, Match, Vacation
from moderation.models import AuditEntry, Report, Suspension
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

#: The columns of a row, in order: what each base gets (``moderator``: a moderator with
#: no stake). A row of a chouette's or a tournament's scene adds its own bases in ``more``.
COLUMNS = ("anonymous", "spectator", "opponent", "player", "moderator")

# What a cell of the table may say besides a plain status code (allowed, may change state).
LOGIN = "302 log-in"  # redirected to the log-in page; nothing changes
SUSPENDED = "403 suspended"  # the suspension's refusal (moderation.middleware); nothing changes
REFUSED_302 = "302 refused"  # redirected back with an error message; nothing changes
Expected = int | str

#: The private texts planted in the world: the players' chat in the world's match, and a
#: chouette's team talk and table chat (in its scenes, once a game is on).
SECRETS = {
    "game": "PRIVATE-GAME-WORD-4c1f",
    "team": "TEAM-ONLY-PLAN-7a2e",
    "table": "TABLE-CHAT-9d0b",
}


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
    """One match between alice and bob with a message, a challenge, a vacation..., and
    the people of the chouette's and the tournament's scenes."""

    alice: User
    bob: User
    spectator: User
    moderator: User
    dora: User
    erin: User
    director: User
    match: Match
    game: Game
    message: GameMessage
    challenge: Challenge
    vacation: Vacation
    notification: Notification
    #: A signed-in session of each user, by user id: every request of a persona sends its
    #: user's (signing in again for each of the thousands of requests would cost a fifth).
    sessions: dict[int, str] = field(default_factory=dict)
    #: Set by the scene (see ``SCENES``): who ``player`` and ``opponent`` are.
    player: User = field(init=False)
    opponent: User = field(init=False)
    #: A chouette's scenes seat bob, dora and alice (in that order) in this one, erin
    #: having joined and left before the start.
    chouette: Chouette | None = field(default=None, init=False)
    #: The tournament scenes' tournament (registration open), by ``director``.
    tournament: Tournament | None = field(default=None, init=False)

    def user(self, base: str) -> User | None:
        return {
            "anonymous": None,
            "spectator": self.spectator,
            "opponent": self.opponent,
            "player": self.player,
            "captain": self.dora,
            "left": self.erin,
            "director": self.director,
        }[base]

    def refresh(self) -> None:
        self.game.refresh_from_db()
        self.match.refresh_from_db()

    def first_play(self) -> str:
        self.refresh()
        assert self.game.dice is not None
        return str(legal_plays(self.game.position(), self.game.dice)[0])

    def board(self) -> Game:
        """The chouette's board (its scenes)."""
        return Game.objects.get(match__chouette_game__chouette=self.chouette)


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


def _resign_offered(world: World) -> None:
    """``opponent``, on turn, has offered to resign a single game; ``player`` answers."""
    _on_turn(world)
    offerer = world.player
    resignations.game_offer_resignation(
        game_id=world.game.pk,
        player=offerer,
        level=1,
        expected_ply=world.game.ply,
        now=timezone.now(),
    )
    world.refresh()
    world.player, world.opponent = world.opponent, offerer


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
    """A tournament open for registration, nobody registered yet, by ``director`` (who
    holds the permission to create tournaments, and is not staff)."""
    now = timezone.now()
    world.tournament = tournament_creation.tournament_create(
        creator=world.director,
        now=now,
        name="Matrix cup",
        format="knockout",
        starts_at=now + timedelta(days=3),
        **options,
    )
    _on_turn(world)


def _tournament_repeating(world: World) -> None:
    """The first edition of a weekly tournament: its director and the moderators stop it."""
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
    world.chouette = chouette_seating.chouette_create(
        creator=world.bob, invite=[world.alice], open_to_all=False, now=timezone.now()
    )
    world.player, world.opponent = world.alice, world.bob


def _chouette_ready(world: World) -> None:
    """bob's chouette with dora and alice seated, erin gone again: ``player`` (bob) may
    start it."""
    now = timezone.now()
    world.chouette = chouette_seating.chouette_create(
        creator=world.bob, places_from_dice=False, now=now
    )
    for user in (world.dora, world.erin, world.alice):
        chouette_seating.chouette_join(chouette_id=world.chouette.pk, user=user, now=now)
    chouette_seating.chouette_leave(chouette_id=world.chouette.pk, user=world.erin, now=now)
    world.player, world.opponent = world.bob, world.alice


def _chouette_board(world: World, opening: list[int], opener: str) -> Game:
    """The chouette started (bob in the box, dora captain, alice in line), the team's
    talk and the table's chat under way, and the opening roll played by ``opener``'s
    side; the board is returned."""
    _chouette_ready(world)
    assert world.chouette is not None
    now = timezone.now()
    with scripted_dice(opening):
        game = chouette_seating.chouette_start(
            chouette_id=world.chouette.pk, user=world.bob, now=now
        )
    for author, team, text in (
        (world.dora, True, SECRETS["team"]),
        (world.bob, False, SECRETS["table"]),
    ):
        chouette_chat.message_post(
            chouette_id=world.chouette.pk, author=author, text=text, team=team, now=now
        )
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
    chouette_decisions.team_propose_double(
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
    chouette_decisions.team_vote(
        chouette_id=world.chouette.pk,
        user=world.alice,
        agree=True,
        expected_ply=world.board().ply,
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
    chouette_decisions.box_double(
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
    board = w.board()
    assert board.dice is not None
    return {"ply": board.ply, "play": str(legal_plays(board.position(), board.dice)[0])}


def chouette_ply(**more: object) -> Callable[[World], dict[str, object]]:
    """The body of a chouette decision: the board's ply, and ``more``."""
    return lambda w: {"ply": w.board().ply, **more}


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
    "resign_offered": _resign_offered,
}


def scene_bases(scene: str) -> tuple[str, ...]:
    """The bases a scene has: everyone's, and its chouette's or tournament's own."""
    extra: tuple[str, ...] = ()
    if scene.startswith("chouette_") and scene != "chouette_open":
        extra = ("captain", "left")
    elif scene.startswith("tournament_"):
        extra = ("director",)
    return ("spectator", "opponent", "player", *extra)


def build_world() -> World:
    now = timezone.now()
    player, opponent = UserFactory(username="alice"), UserFactory(username="bob")
    outsider = UserFactory(username="charlie")
    moderator = UserFactory(username="mona", is_staff=True)
    moderator.groups.add(Group.objects.get(name=MODERATORS_GROUP))
    director = UserFactory(username="director")
    director.user_permissions.add(Permission.objects.get(codename="manage_tournament"))
    dora, erin = UserFactory(username="dora"), UserFactory(username="erin")
    # charlie and mona play games of their own: a spectator here is a player elsewhere.
    match_start(outsider, UserFactory(username="eve"), now=now)
    match_start(moderator, dora, now=now)
    match = match_start(player, opponent, now=now)
    game = match.current_game
    assert game is not None
    on_turn = match.player(game.turn_color)
    other = match.player(game.turn_color.other)
    assert isinstance(on_turn, User) and isinstance(other, User)
    message = chat.game_message_post(game_id=game.pk, author=other, text=SECRETS["game"], now=now)
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
    for user in (player, opponent, outsider, moderator, dora, erin, director):
        client = Client()
        client.force_login(user)
        sessions[user.pk] = client.cookies[settings.SESSION_COOKIE_NAME].value
    return World(
        sessions=sessions,
        alice=player,
        bob=opponent,
        spectator=outsider,
        moderator=moderator,
        dora=dora,
        erin=erin,
        director=User.objects.get(pk=director.pk),
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
    for name in ("alice", "bob", "spectator", "moderator", "dora", "erin", "director"):
        getattr(built_world, name).refresh_from_db()
    built_world.chouette = built_world.tournament = None
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
        list(Tournament.objects.values_list("pk", "status").order_by("pk")),
        AuditEntry.objects.count(),
    )


# --------------------------------------------------------------------------- personas


@dataclass(frozen=True)
class Persona:
    """One person: their base (what they are to the row's object) and what else they are."""

    base: str
    also: frozenset[str] = frozenset()

    @property
    def name(self) -> str:
        return "+".join((self.base, *sorted(self.also)))

    @property
    def staff(self) -> bool:
        return bool(self.also & {"moderator", "superuser"})


def personas(scene: str) -> list[Persona]:
    """Who a row of ``scene`` is sent as: each base alone and as a moderator, the
    spectator and the player as superusers and suspended, the player a suspended
    moderator, and a tournament's director who entered it."""
    bases = scene_bases(scene)
    people = [Persona("anonymous")]
    people += [Persona(base) for base in bases]
    people += [Persona(base, frozenset({"moderator"})) for base in bases]
    people += [
        Persona(base, frozenset(also))
        for base, also in (
            ("spectator", {"superuser"}),
            ("player", {"superuser"}),
            ("spectator", {"suspended"}),
            ("player", {"suspended"}),
            ("player", {"suspended", "moderator"}),
        )
    ]
    if "director" in bases:
        people.append(Persona("director", frozenset({"entered"})))
    return people


def has_stake(scene: str, base: str) -> bool:
    """Whether ``base`` has a stake in the object of ``scene``'s rows: plays the match,
    sits (or sat, or is invited) at the chouette, entered the tournament. A tournament's
    scenes keep the world's match players as they are: alice and bob entered nothing
    there, but for ``player`` once registered (``tournament_entered``)."""
    if base in ("spectator", "director"):
        return False
    if scene.startswith("tournament_"):
        return scene == "tournament_entered" and base == "player"
    return True


def may_read(world: World, persona: Persona, secret: str) -> bool:
    """Whether ``persona`` may be shown the private text ``secret``: the players of the
    world's match its chat; the chouette's team (dora, alice) its talk; its seated
    players the table's chat; and a moderator what they do not play in (the match's chat,
    which moderators read in the admin and the reports; a chouette at which they never
    sat). erin left before anything was written, and the box never reads the team."""
    user = world.user(persona.base)
    if user is None or "suspended" in persona.also:
        return False
    reader = {
        "game": {world.alice.pk, world.bob.pk},
        "team": {world.dora.pk, world.alice.pk},
        "table": {world.bob.pk, world.dora.pk, world.alice.pk},
    }[secret]
    sat = {world.bob.pk, world.dora.pk, world.alice.pk, world.erin.pk}
    if user.pk in reader:
        return True
    if not persona.staff:
        return False
    return secret == "game" or user.pk not in sat


def reads_as_a_player(world: World, persona: Persona, secret: str) -> bool:
    """Whether ``persona`` reads ``secret`` by their place, not by a moderator's power."""
    return "suspended" not in persona.also and may_read(world, Persona(persona.base), secret)


@contextmanager
def as_persona(world: World, persona: Persona) -> Iterator[User | None]:
    """A transaction rolled back at the end, in which ``persona``'s user is also what
    the persona says (staff in the moderators group, a superuser, suspended, entered)."""
    user = world.user(persona.base)
    with transaction.atomic():
        if user is not None:
            if persona.staff:
                user.is_staff = True
                user.is_superuser = "superuser" in persona.also
                user.save(update_fields=["is_staff", "is_superuser"])
                if "moderator" in persona.also:
                    user.groups.add(Group.objects.get(name=MODERATORS_GROUP))
            if "suspended" in persona.also:
                Suspension.objects.create(
                    user=user,
                    reason="Testing the matrix.",
                    starts_at=timezone.now() - timedelta(minutes=1),
                    created_by=world.moderator,
                )
            if "entered" in persona.also:
                assert world.tournament is not None
                tournament_registration.tournament_register(
                    tournament_id=world.tournament.pk, user=user, now=timezone.now()
                )
        yield user
        transaction.set_rollback(True)
    if user is not None:
        user.refresh_from_db()
    cache.clear()  # the suspension's cached answer goes with the rollback


# --------------------------------------------------------------------------- the table


@dataclass(frozen=True)
class Check:
    """One request, and what each base gets (``expect`` in the order of :data:`COLUMNS`,
    ``more`` for a chouette's or a tournament's own bases: ``captain``, ``left``,
    ``director``, ``director+entered``, and ``superuser`` where it differs from
    ``moderator``)."""

    route: str
    method: str
    expect: tuple[Expected, Expected, Expected, Expected, Expected]
    params: Callable[[World], dict[str, object]]
    scene: str = "on_turn"
    query: Callable[[World], dict[str, object]] | None = None
    body: Callable[[World], dict[str, object]] | None = None
    #: Told after the route in the test's id (for rows that differ by their query).
    label: str = ""
    more: dict[str, Expected] = field(default_factory=dict)
    #: The private texts (:data:`SECRETS`) this page shows to whoever reads them by their
    #: place (the players, the team, the table), when it answers them 2xx.
    shows: tuple[str, ...] = ()

    @property
    def id(self) -> str:
        return f"{self.method} /{self.route}{self.label}"

    @property
    def is_api(self) -> bool:
        return self.route.startswith("api/")

    def column(self, base: str) -> Expected:
        columns = dict(zip(COLUMNS, self.expect, strict=True)) | self.more
        assert base in columns, f"{self.id} (scene {self.scene}) has no column for {base!r}"
        return columns[base]


def expected(check: Check, persona: Persona) -> Expected:
    """What ``persona`` gets from ``check``: the site's rules for roles held together."""
    if "suspended" in persona.also:
        return SUSPENDED
    if persona.base == "director" and "entered" in persona.also:
        return check.column("director+entered")
    if persona.staff and not has_stake(check.scene, persona.base):
        if "superuser" in persona.also and "superuser" in check.more:
            return check.more["superuser"]
        return check.column("moderator")
    return check.column(persona.base)


def game_id(w: World) -> dict[str, object]:
    return {"game_id": w.game.pk}


def match_id(w: World) -> dict[str, object]:
    return {"match_id": w.match.pk}


def board_id(w: World) -> dict[str, object]:
    return {"game_id": w.board().pk}


def board_pk(w: World) -> dict[str, object]:
    return {"pk": w.board().pk}


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
#: The expectations. Columns:    anonymous spectator opponent player moderator
CHECKS: list[Check] = [
    # ---- games and matches are public; acting in one is for its players.
    Check("games/<id:game_id>/", "GET", (200, 200, 200, 200, 200), game_id, shows=("game",)),
    # A chouette's board: the page is public; its panel shows the team's talk to the team
    # and the table's chat to the seated.
    Check("games/<id:game_id>/", "GET", (200, 200, 200, 200, 200), board_id,
          scene="chouette_team_on_roll", label=" chouette board",
          more={"captain": 200, "left": 200}, shows=("team", "table")),
    Check("api/games/<object_id:pk>/", "GET", (200, 200, 200, 200, 200), board_pk,
          scene="chouette_vote", label=" chouette board",
          more={"captain": 200, "left": 200}),
    Check("games/<id:game_id>/", "POST", (L, 403, 403, 302, 403), game_id,
          body=lambda w: {"action": "move", "ply": w.game.ply, "play": w.first_play()}),
    Check("games/<id:game_id>/board.svg", "GET", (200, 200, 200, 200, 200), game_id),
    Check("games/<id:game_id>/ply", "GET", (200, 200, 200, 200, 200), game_id),
    # Showing the dice in the other order is kept in the visitor's own session.
    Check("games/<id:game_id>/swap-dice/", "GET", (405, 405, 405, 405, 405), game_id),
    Check("games/<id:game_id>/swap-dice/", "POST", (302, 302, 302, 302, 302), game_id),
    # The claim of a fallen live clock: its players (the world's game has no live clock).
    Check("games/<id:game_id>/claim-time/", "GET", (L, 405, 405, 405, 405), game_id),
    Check("games/<id:game_id>/claim-time/", "POST", (L, 403, 409, 409, 403), game_id,
          body=lambda w: {"ply": w.game.ply}),
    Check("games/<id:game_id>/messages/", "GET", (405, 405, 405, 405, 405), game_id),
    # A refused message is the game page again, with the reason and the error's status.
    Check("games/<id:game_id>/messages/", "POST", (L, 403, 302, 302, 403), game_id,
          body=lambda w: {"text": "Hello"}),
    Check("matches/<id:match_id>/", "GET", (200, 200, 200, 200, 200), match_id),
    Check("matches/<id:match_id>/export.mat", "GET", (200, 200, 200, 200, 200), match_id),
    # A rematch: either player, once the match is over (409 while it is in play).
    Check("matches/<id:match_id>/rematch/", "GET", (L, 405, 405, 405, 405), match_id),
    Check("matches/<id:match_id>/rematch/", "POST", (L, 403, 409, 409, 403), match_id,
          label=" in play"),
    # ``player``'s own challenge of the world, to ``opponent`` with the same options, is
    # still open: the same rematch is not offered twice.
    Check("matches/<id:match_id>/rematch/", "POST", (L, 403, 302, 409, 403), match_id,
          scene="finished", label=" finished"),
    # ---- analysis: none of a match in play, for anyone (409); a finished match's is
    # public, and its players and moderators may ask for it (503 where gnubg is missing).
    Check("matches/<id:match_id>/analysis/request", "GET", (405, 405, 405, 405, 405),
          match_id),
    Check("matches/<id:match_id>/analysis/request", "POST", (L, 403, 409, 409, 409),
          match_id, label=" in play"),
    Check("matches/<id:match_id>/analysis/request", "POST",
          (L, 403, ANALYSED, ANALYSED, ANALYSED), match_id, scene="finished",
          label=" finished"),
    Check("matches/<id:match_id>/analysis/progress", "GET", (409, 409, 409, 409, 409),
          match_id, label=" in play"),
    Check("matches/<id:match_id>/analysis/progress", "GET", (200, 200, 200, 200, 200),
          match_id, scene="finished", label=" finished"),
    Check("api/matches/<object_id:pk>/analysis", "GET", (409, 409, 409, 409, 409),
          lambda w: {"pk": w.match.pk}, label=" in play"),
    Check("api/matches/<object_id:pk>/analysis", "GET", (QUEUED, QUEUED, QUEUED, QUEUED, QUEUED),
          lambda w: {"pk": w.match.pk}, scene="finished", label=" finished"),
    Check("api/matches/<object_id:pk>/analysis", "POST", (401, 403, 409, 409, 409),
          lambda w: {"pk": w.match.pk}, label=" in play"),
    Check("api/matches/<object_id:pk>/analysis", "POST",
          (401, 403, API_ANALYSED, API_ANALYSED, API_ANALYSED),
          lambda w: {"pk": w.match.pk}, scene="finished", label=" finished"),
    Check("api/matches/<object_id:pk>/export.mat", "GET", (200, 200, 200, 200, 200),
          lambda w: {"pk": w.match.pk}),
    # A chouette game's .mat is public, as a match's.
    Check("chouettes/<id:chouette_id>/games/<id:number>/export.mat", "GET",
          (200, 200, 200, 200, 200),
          lambda w: {"chouette_id": chouette_pk(w)["pk"], "number": 1},
          scene="chouette_team_on_roll",
          more={"captain": 200, "left": 200}),
    Check("api/chouettes/<object_id:pk>/games/<id:number>/export.mat", "GET",
          (200, 200, 200, 200, 200), lambda w: {**chouette_pk(w), "number": 1},
          scene="chouette_team_on_roll",
          more={"captain": 200, "left": 200}),
    Check("api/matches/<object_id:pk>/", "GET", (200, 200, 200, 200, 200),
          lambda w: {"pk": w.match.pk}),
    Check("api/games/<object_id:pk>/", "GET", (200, 200, 200, 200, 200), game_pk),
    # ---- the chat: its two players only (moderators read it in the admin).
    Check("api/games/<object_id:pk>/messages", "GET", (401, 403, 200, 200, 403), game_pk,
          shows=("game",)),
    Check("api/games/<object_id:pk>/messages", "POST", (401, 403, 201, 201, 403), game_pk,
          body=lambda w: {"text": "Hello"}),
    # ---- game actions: the player whose turn or answer it is. They are POST only.
    *[
        Check(f"api/games/<object_id:pk>/{action}", "GET", (401, 405, 405, 405, 405),
              game_pk)
        for action in ("roll", "double", "move", "take", "drop", "resign", "offer-resign",
                       "accept-resign", "decline-resign", "offer-draw", "accept-draw",
                       "decline-draw", "claim-time")
    ],
    Check("api/games/<object_id:pk>/roll", "POST", (401, 403, 403, 200, 403), game_pk,
          scene="rolling", body=ply),
    Check("api/games/<object_id:pk>/double", "POST", (401, 403, 403, 200, 403), game_pk,
          scene="rolling", body=ply),
    Check("api/games/<object_id:pk>/move", "POST", (401, 403, 403, 200, 403), game_pk,
          body=lambda w: {"ply": w.game.ply, "play": w.first_play()}),
    Check("api/games/<object_id:pk>/take", "POST", (401, 403, 403, 200, 403), game_pk,
          scene="doubled", body=ply),
    Check("api/games/<object_id:pk>/drop", "POST", (401, 403, 403, 200, 403), game_pk,
          scene="doubled", body=ply),
    # Either player may resign the match or offer a draw at any time; the player on turn
    # offers to resign the game, and the opponent answers.
    Check("api/games/<object_id:pk>/resign", "POST", (401, 403, 200, 200, 403), game_pk,
          body=lambda w: {"ply": w.game.ply, "scope": "match"}),
    Check("api/games/<object_id:pk>/offer-resign", "POST", (401, 403, 403, 200, 403),
          game_pk, body=lambda w: {"ply": w.game.ply, "level": "single"}),
    Check("api/games/<object_id:pk>/accept-resign", "POST", (401, 403, 400, 200, 403),
          game_pk, scene="resign_offered", body=ply),
    Check("api/games/<object_id:pk>/decline-resign", "POST", (401, 403, 400, 200, 403),
          game_pk, scene="resign_offered", body=ply),
    Check("api/games/<object_id:pk>/offer-draw", "POST", (401, 403, 200, 200, 403),
          game_pk, body=ply),
    Check("api/games/<object_id:pk>/accept-draw", "POST", (401, 403, 400, 200, 403),
          game_pk, scene="draw_offered", body=ply),
    Check("api/games/<object_id:pk>/decline-draw", "POST", (401, 403, 400, 200, 403),
          game_pk, scene="draw_offered", body=ply),
    # A fallen live clock is claimed by the player not on turn; the world's game is played
    # by days per move: nothing to claim (409 not_live).
    Check("api/games/<object_id:pk>/claim-time", "POST", (401, 403, 409, 409, 403), game_pk,
          body=ply),
    # ---- chouettes: the line-up is public; the chat is for the seated players (the team's
    # part for the team only); each decision for whoever it is awaited from.
    Check("api/chouettes/<object_id:pk>/", "GET", (200, 200, 200, 200, 200), chouette_pk,
          scene="chouette_team_on_roll",
          more={"captain": 200, "left": 200}),
    # Moderators read every chouette's chat (chouettes.view_message).
    Check("api/chouettes/<object_id:pk>/messages", "GET", (401, 403, 200, 200, 200),
          chouette_pk, scene="chouette_team_on_roll",
          more={"captain": 200, "left": 200}, shows=("team", "table")),
    Check("api/chouettes/<object_id:pk>/messages", "POST", (401, 403, 201, 201, 403),
          chouette_pk, scene="chouette_team_on_roll", body=lambda w: {"text": "Hello"},
          more={"captain": 201, "left": 403}),
    *[
        Check(f"api/chouettes/<object_id:pk>/{action}", "GET", (401, 405, 405, 405, 405),
              chouette_pk, scene="chouette_open")
        for action in ("join", "invite", "start", "leave", "propose", "vote", "box-answer",
                       "box-double", "answer", "suggest")
    ],
    Check("api/chouettes/<object_id:pk>/join", "POST", (401, 403, 409, 200, 403),
          chouette_pk, scene="chouette_open"),
    Check("api/chouettes/<object_id:pk>/invite", "POST", (401, 403, 403, 200, 403),
          chouette_pk, scene="chouette_ready",
          body=lambda w: {"players": [w.spectator.username]},
          more={"captain": 403, "left": 403}),
    Check("api/chouettes/<object_id:pk>/start", "POST", (401, 403, 403, 200, 403),
          chouette_pk, scene="chouette_ready",
          more={"captain": 403, "left": 403}),
    Check("api/chouettes/<object_id:pk>/leave", "POST", (401, 403, 200, 200, 403),
          chouette_pk, scene="chouette_team_on_roll",
          more={"captain": 200, "left": 403}),
    Check("api/chouettes/<object_id:pk>/propose", "POST", (401, 403, 400, 200, 403),
          chouette_pk, scene="chouette_team_on_roll", body=chouette_ply(),
          more={"captain": 200, "left": 403}),
    Check("api/chouettes/<object_id:pk>/vote", "POST", (401, 403, 400, 200, 403),
          chouette_pk, scene="chouette_vote", body=chouette_ply(agree=True),
          more={"captain": 400, "left": 403}),
    Check("api/chouettes/<object_id:pk>/box-answer", "POST", (401, 403, 400, 200, 403),
          chouette_pk, scene="chouette_team_doubled", body=chouette_ply(take=True),
          more={"captain": 400, "left": 403}),
    Check("api/chouettes/<object_id:pk>/box-double", "POST", (401, 403, 400, 200, 403),
          chouette_pk, scene="chouette_box_on_roll", body=chouette_ply(),
          more={"captain": 400, "left": 403}),
    Check("api/chouettes/<object_id:pk>/answer", "POST", (401, 403, 400, 200, 403),
          chouette_pk, scene="chouette_box_doubled", body=chouette_ply(take=False),
          more={"captain": 200, "left": 403}),
    Check("api/chouettes/<object_id:pk>/suggest", "POST", (401, 403, 403, 200, 403),
          chouette_pk, scene="chouette_team_moving", body=chouette_board_play,
          more={"captain": 403, "left": 403}),
    # ---- tournaments: public to read; anyone signed in registers, and withdraws their own.
    Check("api/tournaments/<object_id:pk>/", "GET", (200, 200, 200, 200, 200),
          tournament_pk, scene="tournament_entered",
          more={"director": 200, "director+entered": 200}),
    *[
        Check(f"api/tournaments/<object_id:pk>/{action}", "GET", (401, 405, 405, 405, 405),
              tournament_pk, scene="tournament_registering",
          more={"director": 405, "director+entered": 405})
        for action in ("enter", "withdraw")
    ],
    Check("api/tournaments/<object_id:pk>/enter", "POST", (401, 200, 200, 409, 200),
          tournament_pk, scene="tournament_entered",
          more={"director": 200, "director+entered": 409}),
    Check("api/tournaments/<object_id:pk>/withdraw", "POST", (401, 404, 404, 200, 404),
          tournament_pk, scene="tournament_entered",
          more={"director": 404, "director+entered": 200}),
    # ---- the chouette pages: the session page is public, as a match is; its forms are
    # the API's decisions, for the same players (a refusal is the page with its status).
    Check("chouettes/<id:chouette_id>/", "GET", (200, 200, 200, 200, 200), chouette_id,
          scene="chouette_team_on_roll",
          more={"captain": 200, "left": 200}, shows=("team", "table")),
    Check("chouettes/<id:chouette_id>/games/<id:number>/", "GET",
          (302, 302, 302, 302, 302), lambda w: {**chouette_id(w), "number": 1},
          scene="chouette_team_on_roll",
          more={"captain": 302, "left": 302}),
    # The board page's poll: as public as the game's own ply.
    Check("chouettes/<id:chouette_id>/games/<id:number>/stamp", "GET",
          (200, 200, 200, 200, 200), lambda w: {**chouette_id(w), "number": 1},
          scene="chouette_team_on_roll",
          more={"captain": 200, "left": 200}),
    *[
        Check(f"chouettes/<id:chouette_id>/{action}", "GET", (405, 405, 405, 405, 405),
              chouette_id, scene="chouette_open")
        for action in ("join", "leave", "start", "invite", "cube", "suggest", "messages")
    ],
    Check("chouettes/<id:chouette_id>/join", "POST", (L, 403, 409, 302, 403), chouette_id,
          scene="chouette_open"),
    Check("chouettes/<id:chouette_id>/invite", "POST", (L, 403, 403, 302, 403),
          chouette_id, scene="chouette_ready", body=lambda w: {"invite": "charlie"},
          more={"captain": 403, "left": 403}),
    Check("chouettes/<id:chouette_id>/start", "POST", (L, 403, 403, 302, 403),
          chouette_id, scene="chouette_ready",
          more={"captain": 403, "left": 403}),
    Check("chouettes/<id:chouette_id>/leave", "POST", (L, 403, 302, 302, 403),
          chouette_id, scene="chouette_team_on_roll",
          more={"captain": 302, "left": 403}),
    Check("chouettes/<id:chouette_id>/cube", "POST", (L, 403, 400, 302, 403), chouette_id,
          scene="chouette_team_on_roll", body=chouette_ply(action="propose"),
          label=" propose",
          more={"captain": 302, "left": 403}),
    Check("chouettes/<id:chouette_id>/cube", "POST", (L, 403, 400, 302, 403), chouette_id,
          scene="chouette_vote", body=chouette_ply(action="vote_yes", confirm="on"),
          label=" vote",
          more={"captain": 400, "left": 403}),
    Check("chouettes/<id:chouette_id>/cube", "POST", (L, 403, 400, 302, 403), chouette_id,
          scene="chouette_team_doubled", body=chouette_ply(action="box_take", confirm="on"),
          label=" box take",
          more={"captain": 400, "left": 403}),
    Check("chouettes/<id:chouette_id>/cube", "POST", (L, 403, 400, 302, 403), chouette_id,
          scene="chouette_box_on_roll", body=chouette_ply(action="box_double"),
          label=" box double",
          more={"captain": 400, "left": 403}),
    Check("chouettes/<id:chouette_id>/cube", "POST", (L, 403, 400, 302, 403), chouette_id,
          scene="chouette_box_doubled", body=chouette_ply(action="drop", confirm="on"),
          label=" answer",
          more={"captain": 302, "left": 403}),
    Check("chouettes/<id:chouette_id>/suggest", "POST", (L, 403, 403, 302, 403),
          chouette_id, scene="chouette_team_moving", body=chouette_board_play,
          more={"captain": 403, "left": 403}),
    Check("chouettes/<id:chouette_id>/messages", "POST", (L, 403, 302, 302, 403),
          chouette_id, scene="chouette_team_on_roll", body=lambda w: {"text": "Hello all"},
          more={"captain": 302, "left": 403}),
    # The pages: the same rules; a refusal is the tournament page with its message.
    Check("tournaments/<id:tournament_id>/", "GET", (200, 200, 200, 200, 200),
          tournament_id, scene="tournament_entered",
          more={"director": 200, "director+entered": 200}),
    *[
        Check(f"tournaments/<id:tournament_id>/{action}/", "GET", (L, 405, 405, 405, 405),
              tournament_id, scene="tournament_registering",
          more={"director": 405, "director+entered": 405})
        for action in ("register", "withdraw")
    ],
    Check("tournaments/<id:tournament_id>/register/", "POST", (L, 302, 302, 409, 302),
          tournament_id, scene="tournament_entered",
          more={"director": 302, "director+entered": 409}),
    Check("tournaments/<id:tournament_id>/withdraw/", "POST", (L, 404, 404, 302, 404),
          tournament_id, scene="tournament_entered",
          more={"director": 404, "director+entered": 302}),
    # Its director and the moderators stop one repeating; a director who entered this
    # edition may still end the next ones (that rules on no game they play).
    Check("tournaments/<id:tournament_id>/stop-repeating/", "GET", (L, 405, 405, 405, 405),
          tournament_id, scene="tournament_repeating",
          more={"director": 405, "director+entered": 405}),
    Check("tournaments/<id:tournament_id>/stop-repeating/", "POST",
          (L, 403, 403, 403, 302), tournament_id, scene="tournament_repeating",
          more={"director": 302, "director+entered": 302}),
    # ---- challenges: ``player`` challenged ``opponent``.
    Check("challenges/<id:challenge_id>/accept/", "GET", (L, 405, 405, 405, 405),
          challenge_id),
    Check("challenges/<id:challenge_id>/accept/", "POST", (L, 403, 302, 400, 403),
          challenge_id),
    Check("challenges/<id:challenge_id>/decline/", "GET", (L, 405, 405, 405, 405),
          challenge_id),
    Check("challenges/<id:challenge_id>/decline/", "POST", (L, 403, 302, 403, 403),
          challenge_id),
    Check("challenges/<id:challenge_id>/withdraw/", "GET", (L, 405, 405, 405, 405),
          challenge_id),
    Check("challenges/<id:challenge_id>/withdraw/", "POST", (L, 403, 403, 302, 403),
          challenge_id),
    *[
        Check(f"api/challenges/<object_id:pk>/{action}", "GET", (401, 405, 405, 405, 405),
              lambda w: {"pk": w.challenge.pk})
        for action in ("accept", "decline", "withdraw")
    ],
    Check("api/challenges/<object_id:pk>/accept", "POST", (401, 403, 201, 400, 403),
          lambda w: {"pk": w.challenge.pk}),
    Check("api/challenges/<object_id:pk>/decline", "POST", (401, 403, 200, 403, 403),
          lambda w: {"pk": w.challenge.pk}),
    Check("api/challenges/<object_id:pk>/withdraw", "POST", (401, 403, 403, 200, 403),
          lambda w: {"pk": w.challenge.pk}),
    # ---- vacations: ``player``'s own. Someone else's is "no such vacation", as a
    # missing one is, so the answer tells nothing about other players' vacations.
    Check("vacations/<id:vacation_id>/cancel/", "GET", (L, 405, 405, 405, 405),
          lambda w: {"vacation_id": w.vacation.pk}),
    Check("vacations/<id:vacation_id>/cancel/", "POST", (L, 400, 400, 302, 400),
          lambda w: {"vacation_id": w.vacation.pk}),
    # ---- notifications: marking read takes the ids in the body; only one's own change.
    Check("notifications/read/", "POST", (L, R, R, 302, R), lambda w: {},
          body=lambda w: {"id": w.notification.pk}),
    # The signed token is the authority (a one-click link in an e-mail), not the session.
    Check("notifications/unsubscribe/<str:token>/", "GET", (200, 200, 200, 200, 200),
          lambda w: {"token": unsubscribe_token(w.player)}),
    Check("notifications/unsubscribe/<str:token>/", "POST", (200, 200, 200, 200, 200),
          lambda w: {"token": unsubscribe_token(w.player)}),
    # ---- reports: ``player`` reports ``opponent``, the author of the message.
    Check("report/<str:username>/", "GET", (L, 200, 200, 200, 200), opponent_name),
    Check("report/<str:username>/", "GET", (L, 403, 200, 200, 200), opponent_name,
          query=the_message, label="?message=<id>"),
    Check("report/<str:username>/", "POST", (L, 403, 400, 302, 302), opponent_name,
          query=the_message, body=report("abuse"), label="?message=<id>"),
    Check("report/<str:username>/", "GET", (L, 200, 200, 200, 200), opponent_name,
          query=the_game, label="?game=<id>"),
    Check("report/<str:username>/", "POST", (L, 403, 400, 302, 403), opponent_name,
          query=the_game, body=report("dispute"), label="?game=<id> dispute"),
    # ---- players and statistics are public.
    Check("players/<str:username>/", "GET", (200, 200, 200, 200, 200), player_name),
    Check("stats/dice/<str:username>/", "GET", (200, 200, 200, 200, 200), player_name),
    Check("api/stats/players/<str:username>/", "GET", (200, 200, 200, 200, 200),
          player_name),
    Check("api/stats/dice/<str:username>/", "GET", (200, 200, 200, 200, 200), player_name),
    Check("api/stats/variants/<str:variant>/", "GET", (200, 200, 200, 200, 200),
          lambda w: {"variant": "standard"}),
    # ---- allauth's links from e-mails, with a key that is not valid.
    Check(r"accounts/^confirm-email/(?P<key>[-:\w]+)/$", "GET", (200, 200, 200, 200, 200),
          lambda w: {"key": "not-a-key"}),
    Check(r"accounts/^password/reset/key/(?P<uidb36>[0-9A-Za-z]+)-(?P<key>.+)/$", "GET",
          (200, 200, 200, 200, 200), lambda w: {"uidb36": "zz", "key": "not-a-key"}),
]
# fmt: on

#: Rows for URLs whose object id is in the body, not in the path.
BODY_ID_ROUTES = {"notifications/read/"}


# --------------------------------------------------------------------------- running


def _client(world: World, persona: Persona) -> Client:
    """A client of its own for each request, signed in (but for ``anonymous``) with the
    session built with the world: whatever a request does to the session or the cookies
    (a suspended player is signed out) is undone by the rollback or left in its client."""
    client = Client()
    user = world.user(persona.base)
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


@dataclass
class Cell:
    """What one persona got: the outcome in the table's words, whether the state stayed
    as it was, and the private texts the answer showed."""

    outcome: str
    unchanged: bool
    shown: set[str]
    status: int


def _request(world: World, check: Check, persona: Persona, want: Expected) -> Cell:
    """Send ``check`` as ``persona`` and roll it back."""
    client = _client(world, persona)  # signed in outside the rolled-back transaction
    with as_persona(world, persona):
        before = fingerprint(world)
        url = fill(check.route, check.params(world))
        if check.query:
            url += "?" + urlencode(check.query(world))
        body = check.body(world) if check.body else None
        response = _send(client, check, url, body)
        unchanged = fingerprint(world) == before
    content = response.content.decode(errors="replace") if hasattr(response, "content") else ""
    shown = {name for name, text in SECRETS.items() if text in content}
    return Cell(_outcome(response, want), unchanged, shown, response.status_code)


def _cell_problems(world: World, check: Check, persona: Persona) -> list[str]:
    want = expected(check, persona)
    cell = _request(world, check, persona, want)
    who = f"  {persona.name:<26}"
    problems = []
    if cell.outcome != str(want):
        problems.append(f"{who} expected {want!s:<14} got {cell.outcome}")
    elif _changes_nothing(want) and not cell.unchanged:
        problems.append(f"{who} was refused ({cell.outcome}) but the request changed the state")
    leaked = {s for s in cell.shown if not may_read(world, persona, s)}
    if leaked:
        problems.append(f"{who} was shown what it may not read: {sorted(leaked)}")
    if 200 <= cell.status < 300:
        missing = {s for s in check.shows if reads_as_a_player(world, persona, s)} - cell.shown
        if missing:
            problems.append(f"{who} was not shown what the page shows it: {sorted(missing)}")
    return problems


@pytest.mark.parametrize("check", CHECKS, ids=[c.id for c in CHECKS])
def test_each_persona_gets_the_expected_answer(world: World, check: Check) -> None:
    SCENES[check.scene](world)
    problems = [
        p for persona in personas(check.scene) for p in _cell_problems(world, check, persona)
    ]
    assert not problems, f"{check.id} (scene {check.scene}):\n" + "\n".join(problems)


def test_the_personas_hold_the_pairs_of_roles_the_issue_names() -> None:
    """The crossings the matrix exists for are among the personas it sends."""
    sent = {p.name for scene in SCENES for p in personas(scene)}
    for pair in (
        "opponent+moderator",  # the box (chouette scenes) or the other player, moderating
        "player+moderator",
        "captain+moderator",
        "left+moderator",
        "director+entered",
        "director+moderator",
        "player+superuser",
        "player+suspended",
        "player+moderator+suspended",
    ):
        assert pair in sent, pair


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

#: Who the staff rule is checked for: a visitor, players, a moderator, a superuser and a
#: suspended player.
ADMIN_PERSONAS = [
    Persona("anonymous"),
    Persona("spectator"),
    Persona("player"),
    Persona("spectator", frozenset({"moderator"})),
    Persona("player", frozenset({"superuser"})),
    Persona("player", frozenset({"suspended"})),
]


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
    for persona in ADMIN_PERSONAS:
        client = _client(world, persona)
        with as_persona(world, persona):
            response = client.get(url)
        status, location = response.status_code, response.get("Location", "")
        if "suspended" in persona.also:
            ok = status == 403 and b"suspended" in response.content
            want = SUSPENDED
        elif persona.staff:
            ok = status < 500 and "/admin/login/" not in location
            want = "the admin (no log-in redirect, no 5xx)"
        else:
            ok = status == 302 and "/admin/login/" in location
            want = "302 to the admin log-in"
        if not ok:
            problems.append(f"  {persona.name:<20} expected {want}, got {status} {location}")
    assert not problems, f"GET {url} ({route}):\n" + "\n".join(problems)


@dataclass(frozen=True)
class AdminAction:
    """A moderator's action in the admin, on an object of ``scene``: ``staked`` holds a
    stake in it (as a moderator, they are refused), a moderator who plays in nothing of it
    (charlie) takes it."""

    name: str  # the admin URL's name
    scene: str
    target: Callable[[World], Any]
    form: Callable[[World], dict[str, object]]
    staked: str  # a base of the scene
    prepare: Callable[[World], None] = lambda w: None


def _reason(**more: object) -> Callable[[World], dict[str, object]]:
    return lambda w: {"reason": "Seen in the matrix.", **more}


def _team_message(world: World) -> ChouetteMessage:
    return ChouetteMessage.objects.get(text=SECRETS["team"])


def _suspend_opponent(world: World) -> None:
    Suspension.objects.create(
        user=world.opponent, reason="Before.", starts_at=timezone.now(), created_by=world.moderator
    )


def _opponent_entered_too(world: World) -> None:
    assert world.tournament is not None
    tournament_registration.tournament_register(
        tournament_id=world.tournament.pk, user=world.opponent, now=timezone.now()
    )


def _report_about_player(world: World) -> Report:
    return Report.objects.get_or_create(
        reporter=world.opponent,
        reported=world.player,
        category=Report.Category.OTHER,
        defaults={"text": "Rude.", "created_at": timezone.now()},
    )[0]


ADMIN_ACTIONS = [
    AdminAction("matches_match_adjudicate", "on_turn", lambda w: w.match,
                _reason(decision="draw"), "player"),
    AdminAction("matches_match_extend-deadline", "on_turn", lambda w: w.match,
                _reason(hours=24), "opponent"),
    AdminAction("matches_gamemessage_hide", "on_turn", lambda w: w.message, _reason(), "player"),
    # A player warns, suspends or lifts the suspension of the opponent they are playing.
    AdminAction("accounts_user_warn", "on_turn", lambda w: w.opponent, _reason(), "player"),
    AdminAction("accounts_user_suspend", "on_turn", lambda w: w.opponent, _reason(days=2),
                "player"),
    AdminAction("accounts_user_lift", "on_turn", lambda w: w.opponent, _reason(), "player",
                prepare=_suspend_opponent),
    # The box removes a member, or hides the team's talk, of the chouette they sit at; a
    # member who left holds a stake still.
    AdminAction("chouettes_chouette_remove-player", "chouette_team_on_roll",
                lambda w: w.chouette, _reason(username="dora"), "opponent"),
    AdminAction("chouettes_message_hide", "chouette_team_on_roll", _team_message, _reason(),
                "left"),
    AdminAction("tournaments_tournament_cancel", "tournament_entered", lambda w: w.tournament,
                _reason(), "player"),
    AdminAction("tournaments_tournament_replace-player", "tournament_entered",
                lambda w: w.tournament,
                lambda w: {"username": w.player.username, "replacement": "eve",
                           "reason": "Gone."},
                "opponent", prepare=_opponent_entered_too),
    # A report about the moderator themselves.
    AdminAction("moderation_report_close", "on_turn", _report_about_player,
                lambda w: {"outcome": "dismiss", "note": "Not me."}, "player"),
]  # fmt: skip


def admin_action_names() -> set[str]:
    """Every moderator's action the admin offers (``ActionViewsMixin.object_actions``)."""
    from django.contrib import admin

    names = set()
    for model, model_admin in admin.site._registry.items():
        for name, *_rest in getattr(model_admin, "object_actions", []):
            names.add(f"{model._meta.app_label}_{model._meta.model_name}_{name}")
    return names


def test_every_admin_action_has_a_stake_row() -> None:
    assert admin_action_names() == {action.name for action in ADMIN_ACTIONS}


@pytest.mark.parametrize("action", ADMIN_ACTIONS, ids=[a.name for a in ADMIN_ACTIONS])
def test_a_moderator_with_a_stake_is_refused_every_admin_action(
    world: World, action: AdminAction
) -> None:
    SCENES[action.scene](world)
    action.prepare(world)
    for persona, status in (
        (Persona(action.staked, frozenset({"moderator"})), 403),
        (Persona("spectator", frozenset({"moderator"})), 302),
    ):
        client = _client(world, persona)
        with as_persona(world, persona):
            url = reverse(f"admin:{action.name}", args=[action.target(world).pk])
            before = fingerprint(world), Suspension.objects.count(), AuditEntry.objects.count()
            response = client.post(url, action.form(world))
            after = fingerprint(world), Suspension.objects.count(), AuditEntry.objects.count()
        assert response.status_code == status, (persona.name, response.status_code)
        if status == 403:
            assert "another moderator must deal with it" in response.content.decode()
            assert after == before, f"{persona.name} was refused but something changed"
        else:
            assert after[2] == before[2] + 1, "the action taken is audited"
