"""The REST API for challenges, matches and games: thin views over the services.

Every write calls one service with ``now=timezone.now()`` and returns the new state; every
refusal is a :class:`~backgammon.errors.ServiceError` turned into its HTTP status with the
body ``{"code": ..., "detail": ...}``, the detail in the caller's language. A game's
representation lists the ``actions`` and ``plays`` open to the caller, so a bot written
against the schema needs no other knowledge of the rules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db.models import OuterRef, Prefetch, Subquery
from django.http import HttpResponse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.parsers import BaseParser
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import Serializer

from accounts.models import User
from accounts.requests import signed_in_user
from backgammon.api.errors import ErrorSerializer
from backgammon.api.views import APIView
from backgammon.errors import Forbidden, NotFound
from gammon import (
    Color,
    InvalidIdError,
    MatchKey,
    Position,
    ResignationOffer,
    Termination,
    match_id,
    position_id,
)
from gammon.gnubg_ids import GameState

from . import chat, endings, questions, resignations, selectors, turns
from .export_views import exportable_match, mat_response
from .models import Game, GameEvent, Match
from .serializers import (
    ActionSerializer,
    GameMessageCreateSerializer,
    GameMessageSerializer,
    GameQuerySerializer,
    GameSerializer,
    MatchListSerializer,
    MatchSerializer,
    MatExportQuerySerializer,
    MoveSerializer,
    OfferResignSerializer,
    ResignSerializer,
    color_name,
)
from .signals import messages_shown

# --------------------------------------------------------------------------- errors


ERROR = ErrorSerializer
#: The ``{id}`` of every object URL (the converter in api_urls.py takes any segment, so
#: that a bad one is still a JSON 404).
OBJECT_ID = OpenApiParameter(
    "id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The object's id."
)
ERRORS_READ = {404: OpenApiResponse(ERROR, description="No such object.")}
ERRORS_WRITE = {
    400: OpenApiResponse(ERROR, description="Malformed body, or a move the rules refuse."),
    401: OpenApiResponse(ERROR, description="Not authenticated."),
    403: OpenApiResponse(ERROR, description="Not yours to do (not a player, not your turn)."),
    404: OpenApiResponse(ERROR, description="No such object."),
    409: OpenApiResponse(ERROR, description="Stale ply, already answered, or game over."),
}


# --------------------------------------------------------------------------- game payload


def _score_before(game: Game) -> tuple[int, int]:
    """The match score when ``game`` began (gnubg's Match ID carries that one)."""
    score = [0, 0]
    if game.number == 1:
        return 0, 0
    earlier = game.match.games.filter(number__lt=game.number, winner__isnull=False)
    for winner, points in earlier.values_list("winner", "points"):
        if winner is not None:  # always (winner__isnull=False); the column is nullable
            score[winner] += points
    return score[0], score[1]


def _gnubg_ids(game: Game, score: tuple[int, int]) -> tuple[str | None, str | None]:
    """gnubg's Position ID (for the player on roll) and Match ID of ``game``.

    While a double is offered, the player on roll is the doubler and the one to act is
    the taker; while an offer to resign waits, the offerer is on roll, the one to act
    answers it, and the Match ID says what is offered (gnubg's ``fResigned``). None when
    the game cannot be written as gnubg IDs (a cube past 32768).
    """
    match = game.match
    turn = Color(game.turn)
    answering = game.state in (Game.State.DOUBLED, Game.State.RESIGNING)
    on_roll = turn.other if answering else turn
    if not game.is_finished:
        game_state = GameState.PLAYING
    elif game.termination == Termination.RESIGN:
        game_state = GameState.RESIGNED
    elif game.termination == Termination.DROP:
        game_state = GameState.DROPPED
    else:
        game_state = GameState.OVER
    try:
        pid = position_id(Position.from_white_view(game.white_view(), turn=on_roll))
        key = MatchKey(
            cube_value=game.cube_value,
            cube_owner=None if game.cube_owner is None else Color(game.cube_owner),
            on_roll=on_roll,
            crawford=game.crawford and not match.is_money,
            game_state=game_state,
            turn=turn,
            double_offered=game.state == Game.State.DOUBLED,
            resigned=game.resign_offer if game.state == Game.State.RESIGNING else 0,
            dice=game.dice or (0, 0),
            match_length=match.length,
            score=score,
            jacoby=match.jacoby,
        )
    except InvalidIdError:
        return None, None
    return pid, match_id(key)


def _board(position: Position, side: Color) -> dict[str, Any]:
    """The board from ``side``'s side (White's is the one stored), for the payload."""
    seen = position.view(side)
    return {
        "side": color_name(side),
        "points": list(seen.points),
        "bar": list(seen.bar),
        "off": list(seen.off),
    }


EVENT_FIELDS = ("ply", "kind", "color", "die1", "die2", "notation", "value", "created_at", "took")


def _event(row: tuple[Any, ...]) -> dict[str, Any]:
    ply, kind, color, die1, die2, notation, value, created_at, took = row
    return {
        "ply": ply,
        "kind": kind,
        "color": color_name(color),
        "dice": None if die1 is None or die2 is None else [die1, die2],
        "notation": notation,
        "value": value,
        "created_at": created_at,
        "took_seconds": None if took is None else took.total_seconds(),
    }


def _resignation(offer: ResignationOffer) -> dict[str, Any]:
    return {
        "level": resignations.LEVEL_NAMES[offer.level],
        "points": offer.points,
        "ends_match": offer.ends_match,
    }


def _player(user: User) -> dict[str, Any]:
    return {"username": user.username, "display_name": user.public_name, "is_bot": user.is_bot}


def _clock(game: Game) -> dict[str, Any] | None:
    from .clock import game_clock, live_clock

    if game.is_finished:
        return None
    now = timezone.now()
    clock = game_clock(game, now)
    return {
        "move_deadline": clock["move_deadline_at"],
        "bank_seconds": int(clock["bank"].total_seconds()) if clock["bank"] else 0,
        "away_until": clock["away_until"],
        "live": live_clock(game, now),
    }


def game_payload(
    game: Game,
    user: User | AnonymousUser,
    *,
    events_from: int = 1,
    new_events: list[GameEvent] | None = None,
) -> dict[str, Any]:
    """Everything the API shows about ``game`` to ``user`` (a player, spectator or visitor).

    ``game`` must come with its match and both players loaded (``select_related``). The
    record is listed from ply ``events_from`` on (1: all of it); or, with ``new_events``
    (an action's response), just those rows, which the action added after the ply the
    client had seen: they come from memory, not from a query.
    """
    match = game.match
    viewer = match.color_of(user) if user.is_authenticated else None
    position = game.position()
    actions = selectors.game_actions(game, user) if viewer is not None else []
    plays = selectors.game_plays(game) if "move" in actions else []
    offers = (
        selectors.game_resignation_offers(game, viewer)
        if viewer is not None and "offer_resign" in actions
        else ()
    )
    pending = selectors.game_resignation_pending(game)
    score = _score_before(game)
    pid, mid = _gnubg_ids(game, score)
    pips = position.to_white_view().pip_count()
    clock = _clock(game)
    if viewer is not None and clock and clock["live"] and clock["live"]["fallen"]:
        if game.turn != int(viewer) and not game.held:
            actions = [*actions, "claim_time"]
    next_game = None
    if game.is_finished:  # the next game is only started when this one ends
        next_game = match.games.filter(number=game.number + 1).values_list("pk", flat=True).first()
    if new_events is not None:
        events_from = new_events[0].ply if new_events else game.ply + 1
        rows: Any = [tuple(getattr(e, name) for name in EVENT_FIELDS) for e in new_events]
    else:
        events_from = min(max(1, events_from), game.ply + 1)
        events = game.events.all() if events_from == 1 else game.events.filter(ply__gte=events_from)
        rows = events.values_list(*EVENT_FIELDS)
    return {
        "id": game.pk,
        "match": match.pk,
        "number": game.number,
        "next_game": next_game,
        "variant": match.variant,
        "state": game.state,
        "ply": game.ply,
        "white": _player(match.white),
        "black": _player(match.black),
        "viewer_color": color_name(None if viewer is None else int(viewer)),
        "turn": None
        if game.is_finished
        else {"color": color_name(game.turn), "username": match.player(game.turn_color).username},
        "held": game.held,
        "awaiting": [
            {
                "player": waiting.player.username,
                "color": color_name(int(waiting.color)),
                "decision": waiting.decision.value,
                "send_to": waiting.send_to,
            }
            for waiting in questions.game_awaiting(game)
        ],
        "belongs_to": questions.belonging_data(questions.belonging(match)),
        "dice": list(game.dice) if game.dice else None,
        "cube": {"value": game.cube_value, "owner": color_name(game.cube_owner)},
        "crawford": game.crawford,
        "length": match.length,
        "score": {"white": score[0], "black": score[1]},
        "deadline": game.deadline_at,
        "clock": clock,
        "board": _board(position, Color.WHITE),
        "viewer_board": None if viewer is None else _board(position, viewer),
        "pips": {"white": pips[0], "black": pips[1]},
        "position_id": pid,
        "match_id": mid,
        "actions": actions,
        "plays": [
            {
                "notation": str(play),
                "steps": [[s.source, s.dest, s.hit] for s in play.steps],
            }
            for play in plays
        ],
        "resignation": match.resignation,
        "resign_offers": [_resignation(offer) for offer in offers],
        "resign_offer": None
        if pending is None
        else {"by": color_name(int(pending.offerer)), **_resignation(pending.offer)},
        "winner": color_name(game.winner),
        "termination": game.termination,
        "points": game.points,
        "draw_offered_by": color_name(match.draw_offered_by),
        "events_from": events_from,
        "events": [_event(row) for row in rows],
    }


def _game_response(
    game_id: int, user: User | AnonymousUser, code: int = 200, *, events_from: int = 1
) -> Response:
    try:
        game = Game.objects.select_related("match", "match__white", "match__black").get(pk=game_id)
    except Game.DoesNotExist:
        raise NotFound(_("No such game.")) from None
    # The payload is plain data already (a long record through nested serializers costs
    # more than the rest of the request); GameSerializer documents it, and the schema
    # tests check that the two agree.
    return Response(game_payload(game, user, events_from=events_from), status=code)


# --------------------------------------------------------------------------- matches


def match_data(match_id: int) -> dict[str, Any]:
    match = (
        Match.objects.select_related("white", "black")
        .prefetch_related(Prefetch("games", queryset=Game.objects.order_by("number")))
        .filter(pk=match_id)
        .first()
    )
    if match is None:
        raise NotFound(_("No such match."))
    return MatchSerializer(match, context={"belongings": questions.belongings([match])}).data


class MatchListView(APIView):
    """The caller's matches, live ones first."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="matches_list",
        description="Your matches, live ones first; `belongs_to` says which are a "
        "tournament's (with the pairing) or a chouette's board.",
        responses={200: MatchListSerializer(many=True), 401: ERRORS_WRITE[401]},
    )
    def get(self, request: Request) -> Response:
        last_game = Game.objects.filter(match=OuterRef("pk")).order_by("-number").values("pk")
        matches = list(
            selectors.matches_of(signed_in_user(request)).annotate(
                current_game_pk=Subquery(last_game[:1])
            )
        )
        context = {"belongings": questions.belongings(matches)}
        return Response(MatchListSerializer(matches, many=True, context=context).data)


class MatchDetailView(APIView):
    """Anyone may look at a match."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="matches_retrieve",
        description="A match: players, options, score and games (the last one is being "
        "played), and what it belongs to (a tournament, a chouette). Anyone may look, also "
        "without signing in.",
        parameters=[OBJECT_ID],
        responses={200: MatchSerializer, **ERRORS_READ},
    )
    def get(self, request: Request, pk: int) -> Response:
        return Response(match_data(pk))


def query_params(request: Request) -> dict[str, str]:
    """The query as a plain dict: DRF reads ``?header=`` from a QueryDict as "left out"
    (the default), where the schema, like a reader, sees an empty value to refuse."""
    return request.query_params.dict()


class AlwaysJSONErrors(BaseContentNegotiation):
    """The first renderer (JSON) whatever the client accepts: the view's success is a
    file it builds itself, and its errors stay in the API's error shape."""

    def select_parser(self, request: Request, parsers: Iterable[BaseParser]) -> BaseParser:
        return next(iter(parsers))

    def select_renderer(
        self, request: Request, renderers: Iterable[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        renderer = next(iter(renderers))
        return renderer, renderer.media_type


class MatchExportView(APIView):
    """The match page's download (matches/export_views.py), for programs."""

    permission_classes = [AllowAny]
    renderer_classes = [JSONRenderer]
    content_negotiation_class = AlwaysJSONErrors

    @extend_schema(
        operation_id="matches_export_mat",
        parameters=[OBJECT_ID, MatExportQuerySerializer],
        responses={
            (200, "text/plain"): OpenApiResponse(
                OpenApiTypes.STR, description="The .mat file, as an attachment."
            ),
            400: OpenApiResponse(ERROR, description="An unknown `header`."),
            **ERRORS_READ,
        },
        description="The match as a Jellyfish .mat file, for GNU Backgammon or eXtreme "
        "Gammon, finished or still being played: the file the match page offers. Anyone "
        "may download it, also without signing in.",
    )
    def get(self, request: Request, pk: int) -> HttpResponse:
        query = MatExportQuerySerializer(data=query_params(request))
        query.is_valid(raise_exception=True)
        match = exportable_match(pk)
        return mat_response(match, xg_header=query.validated_data["header"] == "xg")


# --------------------------------------------------------------------------- games


class GameDetailView(APIView):
    """Anyone may look at a game; ``actions`` and ``plays`` are filled for its players."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="games_retrieve",
        description="A game's full state and record. Anyone may look, also without signing "
        "in; `actions` and `plays` are filled for its players. `awaiting` says who must "
        "answer now, what, and where (`send_to`, for a chouette's decisions); `belongs_to` "
        "says whether the match is a tournament's or a chouette's board.",
        parameters=[OBJECT_ID, GameQuerySerializer],
        responses={
            200: GameSerializer,
            400: OpenApiResponse(ERROR, description="A malformed query parameter."),
            **ERRORS_READ,
        },
    )
    def get(self, request: Request, pk: int) -> Response:
        query = GameQuerySerializer(data=query_params(request))
        query.is_valid(raise_exception=True)
        return _game_response(pk, request.user, events_from=query.validated_data["events_from"])


class GameMessagesView(APIView):
    """The game's chat, for its two players only (as on the game page).

    Anyone else is refused: 401 for a visitor, 403 ``forbidden`` for a spectator, the
    message the website gives when they try to post. Posting goes through
    ``chat.game_message_post``, which also notifies the opponent.
    """

    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="games_messages_list",
        parameters=[OBJECT_ID],
        responses={
            200: GameMessageSerializer(many=True),
            401: ERRORS_WRITE[401],
            403: OpenApiResponse(ERROR, description="Not a player of this game."),
            404: ERRORS_WRITE[404],
        },
        description="The game's messages, oldest first. Hidden ones keep their place, "
        "with `hidden` true and `text` null. Reading them marks the caller's "
        "`message_received` notifications for this game read.",
    )
    def get(self, request: Request, pk: int) -> Response:
        game = Game.objects.select_related("match").filter(pk=pk).first()
        if game is None:
            raise NotFound(_("No such game."))
        user = signed_in_user(request)
        messages = selectors.game_messages(game, user)
        if messages is None:
            raise Forbidden(_("You are not playing in this game."))
        messages_shown.send(sender=Game, game=game, user=user, now=timezone.now())
        return Response(GameMessageSerializer(messages, many=True).data)

    @extend_schema(
        operation_id="games_messages_create",
        parameters=[OBJECT_ID],
        request=GameMessageCreateSerializer,
        responses={
            201: GameMessageSerializer,
            400: OpenApiResponse(ERROR, description="Malformed body, or an empty message."),
            401: ERRORS_WRITE[401],
            403: OpenApiResponse(ERROR, description="Not a player of this game."),
            404: ERRORS_WRITE[404],
        },
        description="Send the opponent a message (also once the game is over). They are "
        "notified, once per burst of messages.",
    )
    def post(self, request: Request, pk: int) -> Response:
        body = GameMessageCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        message = chat.game_message_post(
            game_id=pk,
            author=signed_in_user(request),
            text=body.validated_data["text"],
            now=timezone.now(),
        )
        return Response(GameMessageSerializer(message).data, status=status.HTTP_201_CREATED)


class GameActionView(APIView):
    """One game action: validate the body, call the service, return the new game state.

    The state is built from the game the service returns (locked, changed and saved with
    its match and players loaded), not read again; its record lists only the plies the
    action added (``events_from`` is the ply after the one the client sent).
    """

    permission_classes = [IsAuthenticated]
    body: type[Serializer] = ActionSerializer

    def call(self, *, game_id: int, player: User, expected_ply: int, data: dict[str, Any]) -> Game:
        raise NotImplementedError

    def post(self, request: Request, pk: int) -> Response:
        body = self.body(data=request.data)
        body.is_valid(raise_exception=True)
        data = dict(body.validated_data)
        player = signed_in_user(request)
        game = self.call(game_id=pk, player=player, expected_ply=data.pop("ply"), data=data)
        payload = game_payload(game, player, new_events=game.new_events)
        return Response(payload)


def _action_view(
    name: str,
    summary: str,
    call: Callable[[int, User, int, dict[str, Any]], Game],
    body: type[Serializer] = ActionSerializer,
) -> type[GameActionView]:
    """A documented view class for one action (they differ only in the service they call)."""

    class View(GameActionView):
        def call(
            self, *, game_id: int, player: User, expected_ply: int, data: dict[str, Any]
        ) -> Game:
            return call(game_id, player, expected_ply, data)

        @extend_schema(
            operation_id=f"games_{name.replace('-', '_')}",
            summary=summary,
            description=summary,
            parameters=[OBJECT_ID],
            request=body,
            responses={200: GameSerializer, **ERRORS_WRITE},
        )
        def post(self, request: Request, pk: int) -> Response:
            return super().post(request, pk)

    View.body = body
    View.__name__ = View.__qualname__ = f"Game{name.title().replace('-', '')}View"
    return View


def _now() -> Any:
    return timezone.now()


GameRollView = _action_view(
    "roll",
    "Roll the dice (instead of doubling).",
    lambda g, p, ply, d: turns.game_roll(game_id=g, player=p, expected_ply=ply, now=_now()),
)
GameMoveView = _action_view(
    "move",
    "Play the rolled dice; `play` in standard notation (one of `plays[].notation`).",
    lambda g, p, ply, d: turns.game_play_move(
        game_id=g, player=p, expected_ply=ply, play_text=d["play"], now=_now()
    ),
    MoveSerializer,
)
GameDoubleView = _action_view(
    "double",
    "Offer a double (before rolling).",
    lambda g, p, ply, d: turns.game_double(game_id=g, player=p, expected_ply=ply, now=_now()),
)
GameTakeView = _action_view(
    "take",
    "Take the double: the cube is doubled and passes to you.",
    lambda g, p, ply, d: turns.game_take(game_id=g, player=p, expected_ply=ply, now=_now()),
)
GameDropView = _action_view(
    "drop",
    "Drop the double: you lose the game at the current cube value.",
    lambda g, p, ply, d: turns.game_drop(game_id=g, player=p, expected_ply=ply, now=_now()),
)
GameResignView = _action_view(
    "resign",
    "Resign the whole match (`scope: match`), or this game at once (`scope: game`) where "
    "the match resigns games that way (`resignation: immediate`; else 409 "
    "`resign_by_offer`: offer with `offer-resign`).",
    lambda g, p, ply, d: endings.game_resign(
        game_id=g, player=p, expected_ply=ply, now=_now(), whole_match=d["scope"] == "match"
    ),
    ResignSerializer,
)
GameOfferResignView = _action_view(
    "offer-resign",
    "Offer to resign a single game, a gammon or a backgammon (one of `resign_offers`), on "
    "your turn: your opponent accepts (the game ends, for those points times the cube) or "
    "declines (play goes on; this turn you may offer only more).",
    lambda g, p, ply, d: resignations.game_offer_resignation(
        game_id=g,
        player=p,
        expected_ply=ply,
        now=_now(),
        level=resignations.LEVELS_BY_NAME[d["level"]],
    ),
    OfferResignSerializer,
)
GameAcceptResignView = _action_view(
    "accept-resign",
    "Accept the opponent's offer to resign (`resign_offer`): you win the points offered.",
    lambda g, p, ply, d: resignations.game_answer_resignation(
        game_id=g, player=p, expected_ply=ply, now=_now(), accept=True
    ),
)
GameDeclineResignView = _action_view(
    "decline-resign",
    "Decline the opponent's offer to resign: play goes on where it was.",
    lambda g, p, ply, d: resignations.game_answer_resignation(
        game_id=g, player=p, expected_ply=ply, now=_now(), accept=False
    ),
)
GameClaimTimeView = _action_view(
    "claim-time",
    "Claim the win when the opponent's live clock has fallen (`claim_time` in `actions`): "
    "a gammon at the cube, or the match where `timeout_loses_match`. Refused with 409 "
    "`time_left`, `your_turn` or `not_live`.",
    lambda g, p, ply, d: endings.game_claim_time(game_id=g, player=p, expected_ply=ply, now=_now()),
)
GameOfferDrawView = _action_view(
    "offer-draw",
    "Propose that the match end as a draw.",
    lambda g, p, ply, d: endings.match_offer_draw(
        game_id=g, player=p, expected_ply=ply, now=_now()
    ),
)
GameAcceptDrawView = _action_view(
    "accept-draw",
    "Accept the opponent's draw offer: the match ends as a draw.",
    lambda g, p, ply, d: endings.match_answer_draw(
        game_id=g, player=p, expected_ply=ply, now=_now(), accept=True
    ),
)
GameDeclineDrawView = _action_view(
    "decline-draw",
    "Decline the opponent's draw offer: play goes on.",
    lambda g, p, ply, d: endings.match_answer_draw(
        game_id=g, player=p, expected_ply=ply, now=_now(), accept=False
    ),
)

#: URL segment -> view, for api_urls.py.
GAME_ACTIONS: dict[str, type[GameActionView]] = {
    "roll": GameRollView,
    "move": GameMoveView,
    "double": GameDoubleView,
    "take": GameTakeView,
    "drop": GameDropView,
    "resign": GameResignView,
    "offer-resign": GameOfferResignView,
    "accept-resign": GameAcceptResignView,
    "decline-resign": GameDeclineResignView,
    "claim-time": GameClaimTimeView,
    "offer-draw": GameOfferDrawView,
    "accept-draw": GameAcceptDrawView,
    "decline-draw": GameDeclineDrawView,
}
