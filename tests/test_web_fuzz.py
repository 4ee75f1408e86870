"""Fuzz every web page that takes input: forms, path segments and query parameters.

The API has its schemathesis run (tests/matches/test_schemathesis.py); this is the same for
the site's pages, with hypothesis. Signed in as a player with a live game (or as a visitor
for the sign-up and log-in forms), each target gets random and hostile values: NUL
characters, 100,000-character strings, the ends of the calendar, numbers past 2^63,
negative numbers, digits that are not ASCII, several values for one field, and lists where
one value is expected. No response may be a 5xx, and a refused request (4xx) changes no
stored row. Ids and plies are often aimed at the live objects, so that actions really run.
Two passes per page: each value of ``SWEEP`` in every segment, then in every field at once
(what a random run may miss), and a few random hypothesis examples.

Every URL of the site is listed here, either as a target or as taking no input, so that a
new page cannot escape: ``test_every_page_of_the_site_is_listed`` fails on an unlisted
one. Deterministic (``derandomize``) and bounded for CI.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from datetime import timedelta
from functools import cache
from typing import Any
from urllib.parse import quote

import pytest
from allauth.account.models import EmailAddress
from django import forms
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.forms import PreferencesForm
from accounts.models import User
from challenges import services as challenge_services
from challenges.forms import ChallengeForm
from challenges.models import Challenge
from chouettes import models as chouette_models
from chouettes import seating as chouette_seating
from chouettes import selectors as chouette_selectors
from chouettes.forms import (
    CUBE_ACTIONS,
    ChouetteForm,
    CubeForm,
    InviteForm,
    MessageForm,
    SuggestForm,
)
from live.lobby import SeekForm
from matches import chat, clock, record, selectors
from matches.forms import GameActionForm, GameMessageForm
from matches.models import Game, GameMessage, Match, Vacation
from matches.vacation_views import VacationForm
from moderation.forms import ReportForm
from moderation.models import Report
from notifications.models import Notification
from notifications.unsubscribe import unsubscribe_token
from tests.conftest import shared_by_the_module
from tests.factories import UserFactory
from tests.matches.api_helpers import SeededDice, snapshot
from tournaments import creation as tournament_creation
from tournaments.forms import TournamentForm
from tournaments.models import Entry, Invitation, Tournament

pytestmark = pytest.mark.django_db

HUGE = 2**63
HOSTILE = [
    "",
    " ",
    "\x00",
    "alice\x00",
    "x" * 100_000,
    "0001-01-01",
    "9999-12-31",
    "10000-01-01",
    "2026-02-30",
    "31/12/9999",
    str(HUGE - 1),
    str(HUGE),
    str(2**64),
    "9" * 5000,  # past Python's int() digit limit
    str(-HUGE - 1),
    "-1",
    "0",
    "1e309",
    "NaN",
    "²",  # str.isdigit() says yes, int() says no
    "١٢",  # Arabic-Indic digits: int() reads them
    "on",
    "null",
    "[]",
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "%00",
    "\u202e\u200b",
    "😀" * 300,
    "alice",
    "bob",
    "bob@example.com",
    "standard",
    "move",
    "abuse",
    "pass",
]

#: One field's value: hostile, random text, any integer, any date, or several values.
VALUE = st.one_of(
    st.sampled_from(HOSTILE),
    st.text(max_size=20),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    st.dates().map(lambda d: d.isoformat()),
    st.lists(st.sampled_from(HOSTILE), min_size=2, max_size=3),
)
#: An integer for an ``<id:…>`` path segment: mostly the live object's own id.
HOSTILE_IDS = [0, 1, 2**31, HUGE - 1, HUGE, 2**64, 10**30]
#: Swept through every field, parameter and segment of every page, one value at a time.
SWEEP: list[str | list[str]] = [
    "\x00",
    "x" * 100_000,
    "0001-01-01",
    "9999-12-31",
    str(HUGE),
    "9" * 5000,
    str(-HUGE - 1),
    "²",
    "١٢",
    "1e309",
    "",
    ["1", "²", "\x00"],
]


@dataclass
class World:
    """The signed-in player's live game, and one of every object a page acts on."""

    player: User
    opponent: User
    match: Match
    challenge_to_player: Challenge
    challenge_by_player: Challenge
    vacation: Vacation
    message: GameMessage
    #: Open for registration; the player may create tournaments (the form is fuzzed).
    tournament: Tournament
    clients: dict[int, Client] = field(default_factory=dict)
    started_chouette: chouette_models.Chouette | None = None
    #: The stored rows as the last refused request left them (it changed none), so that
    #: the next request need not read them again before it; None once something wrote.
    rows: tuple[Any, ...] | None = None

    @property
    def chouette(self) -> chouette_models.Chouette:
        """A chouette in play (the player in the box, bob captain, cy in line), made for
        the chouette pages' tests only."""
        if self.started_chouette is None:
            now = timezone.now()
            chouette = chouette_seating.chouette_create(
                creator=self.player, now=now, places_from_dice=False
            )
            for user in (self.opponent, UserFactory(username="cy")):
                chouette_seating.chouette_join(chouette_id=chouette.pk, user=user, now=now)
            chouette_seating.chouette_start(chouette_id=chouette.pk, user=self.player, now=now)
            self.started_chouette, self.rows = chouette, None
        return self.started_chouette

    def client_for(self, user: User) -> Client:
        """The user's client, signed in once: again only after a request signed it out
        (a new session for every request costs more than the request)."""
        client = self.clients.setdefault(user.pk, Client())
        if client.session.get("_auth_user_id") != str(user.pk):
            user.refresh_from_db()  # a "log out everywhere" changed its session hash
            client.force_login(user)
            self.rows = None  # the sign-in stored the user's last_login
        return client

    @property
    def game(self) -> Game:
        game = Game.objects.filter(match=self.match).order_by("-number").first()
        assert game is not None
        return game

    def chouette_board(self) -> Game:
        return Game.objects.get(match__chouette_game__chouette=self.chouette)

    def chouette_awaited(self) -> User:
        """Whoever the chouette's game waits for, so that aimed cube decisions really run."""
        panel = chouette_selectors.panel(self.chouette, None)
        return panel.awaited[0].seat.player if panel.awaited else self.player

    def on_turn(self) -> User:
        """Whoever must act in the live game, so that aimed game actions really run."""
        game = self.game
        match = Match.objects.select_related("white", "black").get(pk=self.match.pk)
        return match.black if game.turn == 1 and not game.is_finished else match.white


@dataclass(frozen=True)
class Segment:
    """A path segment: mostly a live object's id or a real name, otherwise anything."""

    real: Callable[[World], str]
    digits: bool = False  # an ``<id:…>`` converter: only ASCII digits reach the view

    def draw(self, data: st.DataObject, world: World) -> str:
        if data.draw(st.integers(0, 3), label="aim the segment"):
            return self.real(world)
        if self.digits:
            return str(data.draw(st.sampled_from(HOSTILE_IDS), label="hostile id"))
        return self.hostile(data.draw(st.one_of(st.sampled_from(HOSTILE), st.text())), world)

    def hostile(self, value: str | list[str], world: World) -> str:
        value = value[0] if isinstance(value, list) else value
        if self.digits:
            return value if value.isascii() and value.isdigit() else self.real(world)
        return quote(value, safe="") or "x"  # percent-encoded: it stays one segment


def object_id(real: Callable[[World], int]) -> Segment:
    return Segment(lambda world: str(real(world)), digits=True)


def named(real: str) -> Segment:
    return Segment(lambda world: real)


@dataclass(frozen=True)
class Target:
    """A page that takes input. What a POST sends is the fields of its form, read from the
    form class (``post_fields``), so a field added to a form is fuzzed with no edit here:
    ``form`` names it for a function view; a class-based view's own form is found."""

    path: str  # with {segment} fields
    segments: dict[str, Segment] = field(default_factory=dict)
    form: type[forms.BaseForm] | None = None  # the form a function view binds to the POST
    extra: tuple[str, ...] = ()  # POST names outside the form: buttons, ids, a plain view's
    query: tuple[str, ...] = ()  # the GET parameters the view reads
    post: bool = True
    get: bool = True
    anonymous: bool = False

    @property
    def methods(self) -> list[str]:
        return [m for m, on in (("get", self.get), ("post", self.post)) if on]


GAME = object_id(lambda w: w.game.pk)
MATCH = object_id(lambda w: w.match.pk)
USERNAME = named("bob")
CHOUETTE = object_id(lambda w: w.chouette.pk)
TOURNAMENT = object_id(lambda w: w.tournament.pk)

TARGETS: dict[str, Target] = {
    # matches
    "challenge_new": Target("/challenges/new/", form=ChallengeForm, query=("opponent",)),
    "challenge_opponents": Target("/challenges/opponents/", query=("q",), post=False),
    "challenge_accept": Target(
        "/challenges/{id}/accept/",
        {"id": object_id(lambda w: w.challenge_to_player.pk)},
        get=False,
    ),
    "challenge_decline": Target(
        "/challenges/{id}/decline/",
        {"id": object_id(lambda w: w.challenge_to_player.pk)},
        get=False,
    ),
    "challenge_withdraw": Target(
        "/challenges/{id}/withdraw/",
        {"id": object_id(lambda w: w.challenge_by_player.pk)},
        get=False,
    ),
    "game_detail": Target("/games/{id}/", {"id": GAME}, form=GameActionForm, query=("ply",)),
    "game_board_svg": Target("/games/{id}/board.svg", {"id": GAME}, post=False),
    "game_ply": Target("/games/{id}/ply", {"id": GAME}, post=False),
    "game_message_post": Target(
        "/games/{id}/messages/", {"id": GAME}, form=GameMessageForm, get=False
    ),
    "game_swap_dice": Target("/games/{id}/swap-dice/", {"id": GAME}, get=False),
    "game_claim_time": Target("/games/{id}/claim-time/", {"id": GAME}, extra=("ply",), get=False),
    # the lobby of live play (issue 28)
    "lobby": Target("/play/", form=SeekForm),
    "lobby_seeks": Target("/play/seeks/", post=False),
    "lobby_state": Target("/play/state/", query=("seeks",), post=False),
    "match_detail": Target("/matches/{id}/", {"id": MATCH}, post=False),
    "match_rematch": Target("/matches/{id}/rematch/", {"id": MATCH}, get=False),
    "match_export_mat": Target(
        "/matches/{id}/export.mat", {"id": MATCH}, query=("header",), post=False
    ),
    # analysis (the match page's button, and the progress it polls)
    "analysis_request": Target("/matches/{id}/analysis/request", {"id": MATCH}, get=False),
    "analysis_progress": Target("/matches/{id}/analysis/progress", {"id": MATCH}, post=False),
    # chouettes
    "chouette_new": Target("/chouettes/new", form=ChouetteForm),
    "chouette_detail": Target("/chouettes/{id}/", {"id": CHOUETTE}, post=False),
    "chouette_join": Target("/chouettes/{id}/join", {"id": CHOUETTE}, get=False),
    "chouette_leave": Target("/chouettes/{id}/leave", {"id": CHOUETTE}, get=False),
    "chouette_start": Target("/chouettes/{id}/start", {"id": CHOUETTE}, get=False),
    "chouette_invite": Target(
        "/chouettes/{id}/invite", {"id": CHOUETTE}, form=InviteForm, get=False
    ),
    "chouette_cube": Target("/chouettes/{id}/cube", {"id": CHOUETTE}, form=CubeForm, get=False),
    "chouette_suggest": Target(
        "/chouettes/{id}/suggest", {"id": CHOUETTE}, form=SuggestForm, get=False
    ),
    "chouette_message_post": Target(
        "/chouettes/{id}/messages", {"id": CHOUETTE}, form=MessageForm, get=False
    ),
    "chouette_game": Target(
        "/chouettes/{id}/games/{number}/",
        {"id": CHOUETTE, "number": object_id(lambda w: 1)},
        post=False,
    ),
    "chouette_game_stamp": Target(
        "/chouettes/{id}/games/{number}/stamp",
        {"id": CHOUETTE, "number": object_id(lambda w: 1)},
        post=False,
    ),
    "chouette_game_export_mat": Target(
        "/chouettes/{id}/games/{number}/export.mat",
        {"id": CHOUETTE, "number": object_id(lambda w: 1)},
        query=("header",),
        post=False,
    ),
    "vacations": Target("/vacations/", form=VacationForm),
    "vacation_cancel": Target(
        "/vacations/{id}/cancel/", {"id": object_id(lambda w: w.vacation.pk)}, get=False
    ),
    "notifications": Target("/notifications/", query=("page", "unread"), post=False),
    "notifications_read": Target("/notifications/read/", extra=("id",), get=False),
    "notifications_unsubscribe": Target(
        "/notifications/unsubscribe/{token}/",
        {"token": Segment(lambda w: unsubscribe_token(w.player))},
    ),
    # accounts
    "profile": Target("/accounts/profile/", form=PreferencesForm),
    "profile_token_create": Target("/accounts/profile/token/", get=False),
    "profile_token_revoke": Target("/accounts/profile/token/revoke/", get=False),
    "logout_everywhere": Target("/accounts/logout/everywhere/", get=False),
    "player_detail": Target("/players/{name}/", {"name": USERNAME}, post=False),
    "player_list": Target("/players/", query=("q", "page"), post=False),
    "set_language": Target("/i18n/setlang/", extra=("language", "next"), get=False),
    # moderation
    "report_new": Target(
        "/report/{name}/",
        {"name": USERNAME},
        form=ReportForm,
        query=("message", "game"),
    ),
    # stats
    "stats_leaderboard": Target("/stats/leaderboard/", query=("page",), post=False),
    "stats_player_dice": Target("/stats/dice/{name}/", {"name": USERNAME}, post=False),
    # tournaments
    "tournament_list": Target("/tournaments/", query=("type", "length"), post=False),
    "tournament_create": Target("/tournaments/new", form=TournamentForm),
    "tournament_detail": Target("/tournaments/{id}/", {"id": TOURNAMENT}, post=False),
    "tournament_register": Target("/tournaments/{id}/register/", {"id": TOURNAMENT}, get=False),
    "tournament_withdraw": Target("/tournaments/{id}/withdraw/", {"id": TOURNAMENT}, get=False),
    "tournament_stop_repeating": Target(
        "/tournaments/{id}/stop-repeating/", {"id": TOURNAMENT}, get=False
    ),
    # allauth: the forms of a visitor
    "account_login": Target("/accounts/login/", anonymous=True),
    "account_signup": Target("/accounts/signup/", anonymous=True),
    "account_reset_password": Target("/accounts/password/reset/", anonymous=True),
    "account_reset_password_from_key": Target(
        "/accounts/password/reset/key/{uid}-{key}/",
        {"uid": named("1"), "key": named("set-password")},
        anonymous=True,
    ),
    "account_confirm_email": Target(
        "/accounts/confirm-email/{key}/", {"key": named("abc")}, anonymous=True
    ),
    "account_confirm_login_code": Target(
        "/accounts/login/code/confirm/", extra=("action",), anonymous=True
    ),
    # allauth: the forms of a signed-in player
    "account_logout": Target("/accounts/logout/"),
    "account_email": Target(
        "/accounts/email/", extra=("action_add", "action_send", "action_remove", "action_primary")
    ),
    "account_change_password": Target("/accounts/password/change/"),
    "account_set_password": Target("/accounts/password/set/"),
    "account_reauthenticate": Target("/accounts/reauthenticate/"),
    "account_request_reauthentication_code": Target("/accounts/reauthenticate/code/"),
    "account_confirm_reauthentication_code": Target(
        "/accounts/reauthenticate/code/confirm/", extra=("action",)
    ),
}

#: Pages that read nothing from the request but who asks (still walked once, below).
NO_INPUT = {
    "home": "/",
    "favicon": "/favicon.ico",
    "dashboard": "/dashboard/",
    "next_game": "/next/",
    "challenge_list": "/challenges/",
    "chouette_list": "/chouettes/",
    "stats_site": "/stats/",
    "stats_dice": "/stats/dice/",
    "bot_list": "/computer/",
    "live_badges": "/live/badges/",
    "account_inactive": "/accounts/inactive/",
    "account_email_verification_sent": "/accounts/confirm-email/",
    "account_reset_password_done": "/accounts/password/reset/done/",
    "account_reset_password_from_key_done": "/accounts/password/reset/key/done/",
}


def site_urls() -> Iterator[tuple[str, str, Callable[..., Any]]]:
    """(route, name, view) of every URL of the site: not the admin's (Django's own forms, and
    tests/moderation/test_admin.py) nor the API's (tests/matches/test_schemathesis.py)."""

    def walk(patterns: list[Any], prefix: str) -> Iterator[tuple[str, str, Callable[..., Any]]]:
        for pattern in patterns:
            route = prefix + str(pattern.pattern)
            if route.startswith(("admin/", "api/")):
                continue
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, route)
            else:
                assert isinstance(pattern, URLPattern)
                yield route, pattern.name or route, pattern.callback

    yield from walk(get_resolver().url_patterns, "")


def view_form(view: Callable[..., Any]) -> type[forms.BaseForm] | None:
    """The form class a class-based view binds (allauth's views apply ACCOUNT_FORMS in
    ``get_form_class``); those that choose it by the request give their default one."""
    view_class = getattr(view, "view_class", None)
    if view_class is None or not hasattr(view_class, "get_form_class"):
        return None
    try:
        form: type[forms.BaseForm] | None = view_class().get_form_class()
    except AttributeError:  # it reads the request (allauth's code confirmations)
        form = getattr(view_class, "form_class", None)
    return form


def form_fields(form: type[forms.BaseForm]) -> tuple[str, ...]:
    """The fields a bound ``form`` reads: the declared ones and those its ``__init__`` adds
    (allauth builds the log-in and sign-up fields from the settings there). A form that
    cannot be built without arguments (the user it re-authenticates) gives its declared ones."""
    try:
        return tuple(form().fields)
    except (TypeError, KeyError):
        return tuple(form.base_fields)


@cache
def post_fields(name: str) -> tuple[str, ...]:
    """What a POST to target ``name`` sends: its form's fields, then its ``extra`` names."""
    target = TARGETS[name]
    form = target.form or view_form(next(v for _r, n, v in site_urls() if n == name))
    return (form_fields(form) if form is not None else ()) + target.extra


def test_every_page_of_the_site_is_listed() -> None:
    names = {name for _route, name, _view in site_urls()}
    unlisted = names - set(TARGETS) - set(NO_INPUT)
    assert not unlisted, f"add these to TARGETS (or NO_INPUT) in {__file__}: {sorted(unlisted)}"
    assert not (set(TARGETS) | set(NO_INPUT)) - names, "listed pages that no longer exist"


def build_world() -> tuple[World, SeededDice]:
    """The world, and the dice as its play left them (the next throws of every test)."""
    player, opponent = UserFactory(username="alice"), UserFactory(username="bob")
    dice = SeededDice(12)
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(record, "dice", dice)
        now = timezone.now()
        challenge = challenge_services.challenge_create(
            challenger=player, opponent=opponent, length=3, now=now
        )
        match = challenge_services.challenge_accept(
            challenge_id=challenge.pk, user=opponent, now=now
        )
        game = match.current_game
        assert game is not None
        message = chat.game_message_post(game_id=game.pk, author=opponent, text="hi", now=now)
        tomorrow = now.date() + timedelta(days=1)
        vacation = clock.vacation_take(user=player, start=tomorrow, end=tomorrow, now=now)
        player.user_permissions.add(Permission.objects.get(codename="manage_tournament"))
        tournament = tournament_creation.tournament_create(
            creator=User.objects.get(pk=player.pk),
            now=now,
            name="Fuzz cup",
            format="knockout",
            starts_at=now + timedelta(days=2),
        )
        world = World(
            player=player,
            opponent=opponent,
            match=match,
            challenge_to_player=challenge_services.challenge_create(
                challenger=opponent, opponent=player, now=now
            ),
            challenge_by_player=challenge_services.challenge_create(
                challenger=player, opponent=None, now=now
            ),
            vacation=vacation,
            message=message,
            tournament=tournament,
        )
    return world, dice


@pytest.fixture(scope="module")
def built_world(
    django_db_setup: None, django_db_blocker: Any
) -> Iterator[tuple[World, SeededDice]]:
    """The world, built once for the module's tests (tests.conftest.shared_by_the_module):
    each test meets it as built, whatever an earlier one did in its own transaction."""
    yield from shared_by_the_module(django_db_blocker, build_world)


@pytest.fixture
def world(
    built_world: tuple[World, SeededDice], db: None, monkeypatch: pytest.MonkeyPatch
) -> World:
    """The module's world as built, with no client signed in yet and the dice where the
    build left them; its users re-read (an earlier test may have changed the objects)."""
    world, dice = built_world
    monkeypatch.setattr(record, "dice", copy.deepcopy(dice))
    for user in (world.player, world.opponent):
        user.refresh_from_db()
    return replace(world, clients={}, rows=None)


USER_FIELDS = [f.attname for f in User._meta.concrete_fields if f.name != "seen_at"]


def stored() -> tuple[Any, ...]:
    """Every row a page could write, to check that a refused request wrote none."""
    return (
        snapshot(),
        list(Challenge.objects.order_by("pk").values()),
        list(Vacation.objects.order_by("pk").values()),
        # Every field but when the player was last seen: any request of theirs records
        # that (accounts.middleware.ActivityMiddleware), refused or not.
        list(User.objects.order_by("pk").values(*USER_FIELDS)),
        list(EmailAddress.objects.order_by("pk").values()),
        list(Report.objects.order_by("pk").values()),
        list(GameMessage.objects.order_by("pk").values("pk", "text", "hidden")),
        list(Tournament.objects.order_by("pk").values()),
        list(Entry.objects.order_by("pk").values()),
        list(Invitation.objects.order_by("pk").values()),
        Notification.objects.count(),
        list(chouette_models.Chouette.objects.order_by("pk").values()),
        list(chouette_models.Seat.objects.order_by("pk").values()),
        list(chouette_models.Decision.objects.order_by("pk").values()),
        list(chouette_models.Message.objects.order_by("pk").values("pk", "text", "team")),
        list(chouette_models.Suggestion.objects.order_by("pk").values()),
    )


def aim(world: World, name: str, values: dict[str, Any], *, action: str, play: int) -> None:
    """Point a game action at the live game: a real action, the current ply and, when
    ``play`` is odd, a legal play; a report at a real message. The rest stays hostile."""
    if name == "game_detail":
        game = world.game
        plays = [str(p) for p in selectors.game_plays(game)] if game.dice else []
        values.update(action=action, ply=str(game.ply), confirm="on")
        if plays and play % 2:
            values["play"] = plays[play % len(plays)]
    if name in ("chouette_cube", "chouette_suggest"):
        board = world.chouette_board()
        values["ply"] = str(board.ply)
        if name == "chouette_cube":
            values.update(action=CUBE_ACTIONS[play % len(CUBE_ACTIONS)], confirm="on")
        elif board.dice and play % 2:
            plays = selectors.game_plays(board)
            if plays:
                values["play"] = str(plays[play % len(plays)])
    if name == "report_new" and "message" in values:
        values["message"] = str(world.message.pk)


def send(world: World, name: str, method: str, url: str, values: dict[str, Any]) -> None:
    """One request as the target's user; no 5xx, and nothing stored changes on a 4xx."""
    target = TARGETS[name]
    if target.anonymous:
        client = Client()
    else:
        if name == "game_detail":
            user = world.on_turn()
        elif name in ("chouette_cube", "chouette_suggest"):
            user = world.chouette_awaited()
        else:
            user = world.player
        client = world.client_for(user)
    before = stored() if world.rows is None else world.rows
    world.rows = None
    response = getattr(client, method)(url, values)
    shown = {
        k: (v[:40] + "…" if isinstance(v, str) and len(v) > 40 else v) for k, v in values.items()
    }
    assert response.status_code < 500, (method, url[:200], shown)
    if 400 <= response.status_code < 500:
        after = stored()
        assert after == before, f"a refused {method} {url[:200]} {shown} changed stored rows"
        world.rows = after


@pytest.mark.parametrize("name", sorted(TARGETS))
def test_every_hostile_value_in_every_field_of_every_page(name: str, world: World) -> None:
    """Each value of SWEEP in every path segment, then in every field and parameter at once
    (on the live objects' address; a game action also aimed at the live game): the cases a
    random run may miss."""
    target = TARGETS[name]
    real = target.path.format(
        **{key: segment.real(world) for key, segment in target.segments.items()}
    )
    for value in SWEEP:
        if target.segments:
            hostile = {key: seg.hostile(value, world) for key, seg in target.segments.items()}
            send(world, name, target.methods[-1], target.path.format(**hostile), {})
        for method in target.methods:
            names = post_fields(name) if method == "post" else target.query
            values = {key: value for key in names}
            send(world, name, method, real, values)
            if method == "post" and name in (
                "game_detail",
                "report_new",
                "chouette_cube",
                "chouette_suggest",
            ):
                aim(world, name, values, action="move", play=1)
                send(world, name, method, real, values)


@pytest.mark.parametrize("name", sorted(TARGETS))
@settings(
    max_examples=6,
    derandomize=True,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    database=None,
)
@given(data=st.data())
def test_no_page_answers_random_input_with_a_5xx(
    name: str, world: World, data: st.DataObject
) -> None:
    """Random values, fields left out, several values for one field; half of the game
    actions aimed at the live game. The draws never depend on the stored state (earlier
    examples change it), so that hypothesis can replay an example."""
    target = TARGETS[name]
    url = target.path.format(
        **{key: segment.draw(data, world) for key, segment in target.segments.items()}
    )
    method = data.draw(st.sampled_from(target.methods), label="method")
    values: dict[str, Any] = {}
    for key in post_fields(name) if method == "post" else target.query:
        value = data.draw(st.one_of(st.none(), VALUE), label=key)
        if value is not None:
            values[key] = value
    aimed = data.draw(st.booleans(), label="aim")
    action = data.draw(st.sampled_from(GameActionForm.ACTIONS), label="aimed action")
    play = data.draw(st.integers(0, 1000), label="aimed play")
    if aimed:
        aim(world, name, values, action=action, play=play)
    send(world, name, method, url, values)


@pytest.mark.parametrize("name", sorted(NO_INPUT))
def test_the_pages_without_input_answer(name: str, world: World) -> None:
    client = Client()
    client.force_login(world.player)
    assert client.get(NO_INPUT[name]).status_code < 500
    client.force_login(UserFactory())
    assert client.get(NO_INPUT[name]).status_code < 500
