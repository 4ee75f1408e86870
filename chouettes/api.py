"""The chouettes API: list and create chouettes, join, invite, start, leave, and every
decision off the board (the team's vote, the box's answer and double, each member's
answer, a suggested play), with the table's and the team's chat.

A chouette's board is an ordinary game: its rolls, moves and resignations are
``/api/games/{id}/...``, with the board's id in ``game.board``. Each decision here
takes the board's ``ply`` as the caller last saw it (a stale one is a 409) and answers
the chouette as the caller now sees it, the board's ply (``game.ply``) included, so the
next decision needs no other request.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import Prefetch
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import Serializer

from accounts.models import User
from accounts.requests import signed_in_user
from backgammon.api.views import APIView
from backgammon.errors import Forbidden, InvalidAction, NotFound
from matches.api import ERROR, ERRORS_READ, ERRORS_WRITE, OBJECT_ID
from matches.models import Game
from matches.serializers import ActionSerializer

from . import chat, decisions, seating, selectors
from .models import Chouette, Decision
from .serializers import (
    ChouetteAnswerSerializer,
    ChouetteCreateSerializer,
    ChouetteDetailSerializer,
    ChouetteInviteSerializer,
    ChouetteMessageCreateSerializer,
    ChouetteMessageSerializer,
    ChouetteSerializer,
    ChouetteSuggestSerializer,
    ChouetteVoteSerializer,
)


def _players(usernames: list[str]) -> list[User]:
    found = {u.username: u for u in User.objects.filter(username__in=usernames, is_active=True)}
    for name in usernames:
        if name not in found:
            raise InvalidAction(_("There is no player called %(name)s."), code="player", name=name)
    return [found[name] for name in usernames]


def _chouette(pk: int) -> Chouette:
    chouette = Chouette.objects.select_related("creator").filter(pk=pk).first()
    if chouette is None:
        raise NotFound(_("No such chouette."))
    return chouette


def chouette_data(chouette: Chouette, user: object) -> dict[str, Any]:
    """The chouette as ``user`` sees it: what ``GET /api/chouettes/{id}/`` answers."""
    panel = selectors.panel(chouette, user)
    names = dict(chouette.seats.values_list("player_id", "player__username"))
    boards = dict(
        Game.objects.filter(match__chouette_game__chouette=chouette).values_list("match_id", "pk")
    )
    games = [
        {
            "number": game.number,
            "board": boards[game.match_id],
            "settled": game.settled_at is not None,
            "decisions": list(game.decisions.all()),
            "results": list(game.results.all()),
        }
        for game in chouette.games.prefetch_related(
            "results__player",
            Prefetch("decisions", queryset=Decision.objects.select_related("player")),
        )
    ]
    current = None
    if panel.game is not None and panel.board is not None and panel.side is not None:
        current = {
            "number": panel.game.number,
            "board": panel.board.pk,
            "ply": panel.board.ply,
            "stage": panel.side.stage.value,
            "settled": panel.game.settled_at is not None,
            "decisions": list(selectors.decisions_of(panel.game)),
            "results": list(selectors.results_of(panel.game)),
            "suggestions": list(selectors.suggestions_for(panel.game, panel.board, user)),
        }
    lineup = [
        {
            "seat": line.seat,
            "role": line.role.value,
            "place": line.place,
            "stake": line.stake,
            "dropped": line.dropped,
            "leaving": bool(line.seat.leaving),
            "awaited": [a.value for a in line.awaited],
        }
        for line in panel.lines
    ]
    fields = ChouetteDetailSerializer().fields
    return {
        **ChouetteSerializer(chouette).data,
        "lineup": fields["lineup"].to_representation(lineup),
        "standings": fields["standings"].to_representation(list(selectors.standings(chouette))),
        "your_actions": [a.value for a in panel.actions],
        "game": None if current is None else fields["game"].to_representation(current),
        "games": fields["games"].to_representation(games),
        "opening_rounds": [
            [{"player": names.get(player, "?"), "die": die} for player, die in round_]
            for round_ in chouette.opening_rounds
        ],
    }


class ChouetteListView(APIView):
    """The chouettes open for players, and the caller's own."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="chouettes_list",
        description="The chouettes still taking players, and those you sit in or are "
        "invited to; newest first.",
        responses={200: ChouetteSerializer(many=True), 401: ERRORS_WRITE[401]},
    )
    def get(self, request: Request) -> Response:
        user = signed_in_user(request)
        mine = selectors.chouettes_of(user).values("pk")
        chouettes = (
            (selectors.chouettes_open() | Chouette.objects.filter(pk__in=mine))
            .select_related("creator")
            .order_by("-created_at", "-pk")
        )
        return Response(ChouetteSerializer(chouettes, many=True).data)

    @extend_schema(
        operation_id="chouettes_create",
        description="Create a chouette: you are seated, the players invited are told. "
        "It starts when you start it, with 3 to `max_players` seated.",
        request=ChouetteCreateSerializer,
        responses={201: ChouetteDetailSerializer, **ERRORS_WRITE},
    )
    def post(self, request: Request) -> Response:
        body = ChouetteCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = dict(body.validated_data)
        invite = _players(data.pop("invite"))
        user = signed_in_user(request)
        chouette = seating.chouette_create(creator=user, invite=invite, now=timezone.now(), **data)
        return Response(chouette_data(chouette, user), status=status.HTTP_201_CREATED)


class ChouetteDetailView(APIView):
    """Anyone may look at a chouette, as at a match."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="chouettes_read",
        parameters=[OBJECT_ID],
        description="The chouette: its options, the line-up (box, captain, each member's "
        "stake and running points, who is awaited for what), the standings of everyone who "
        "sat (those who left keep their points), what you may do now, the game in play "
        "with its board's ply and cube-side record, and every game's record and results. "
        "Anyone may read it; the team's suggestions are shown to the team only.",
        responses={200: ChouetteDetailSerializer, **ERRORS_READ},
    )
    def get(self, request: Request, pk: int) -> Response:
        return Response(chouette_data(_chouette(pk), request.user))


class ChouetteCallView(APIView):
    """One chouette action: validate the body, call the service, answer the chouette."""

    permission_classes = [IsAuthenticated]
    body: type[Serializer] | None = None

    def call(self, chouette_id: int, user: User, data: dict[str, Any]) -> object:
        raise NotImplementedError

    def post(self, request: Request, pk: int) -> Response:
        data: dict[str, Any] = {}
        if self.body is not None:
            body = self.body(data=request.data)
            body.is_valid(raise_exception=True)
            data = dict(body.validated_data)
        user = signed_in_user(request)
        self.call(pk, user, data)
        return Response(chouette_data(_chouette(pk), user))


def _call_view(
    name: str,
    description: str,
    call: Callable[[int, User, dict[str, Any]], object],
    body: type[Serializer] | None = None,
) -> type[ChouetteCallView]:
    """A documented view class for one action (they differ only in the service called)."""

    class View(ChouetteCallView):
        def call(self, chouette_id: int, user: User, data: dict[str, Any]) -> object:
            return call(chouette_id, user, data)

        @extend_schema(
            operation_id=f"chouettes_{name.replace('-', '_')}",
            summary=description.split(".")[0] + ".",
            description=description,
            parameters=[OBJECT_ID],
            request=body,
            responses={200: ChouetteDetailSerializer, **ERRORS_WRITE},
        )
        def post(self, request: Request, pk: int) -> Response:
            return super().post(request, pk)

    View.body = body
    View.__name__ = View.__qualname__ = f"Chouette{name.title().replace('-', '')}View"
    return View


def _now() -> Any:
    return timezone.now()


ChouetteJoinView = _call_view(
    "join",
    "Take a seat before the start: accept an invitation, or join a chouette open to anyone.",
    lambda c, u, d: seating.chouette_join(chouette_id=c, user=u, now=_now()),
)
ChouetteInviteView = _call_view(
    "invite",
    "Invite more players before the start (the creator only).",
    lambda c, u, d: seating.chouette_invite(
        chouette_id=c, user=u, players=_players(d["players"]), now=_now()
    ),
    ChouetteInviteSerializer,
)
ChouetteStartView = _call_view(
    "start",
    "Start the chouette (the creator only, with at least 3 players seated): the first "
    "places are thrown and the first game's board begins.",
    lambda c, u, d: seating.chouette_start(chouette_id=c, user=u, now=_now()),
)
ChouetteLeaveView = _call_view(
    "leave",
    "Leave: before the start at once (the creator's leaving cancels the chouette); during "
    "play when the game in play ends. Your points stand and the line closes up.",
    lambda c, u, d: seating.chouette_leave(chouette_id=c, user=u, now=_now()),
)
ChouetteProposeView = _call_view(
    "propose",
    "Propose that the team double the box, before the team's roll (your own vote is yes). "
    "The board waits while the other members vote; one vote a turn.",
    lambda c, u, d: decisions.team_propose_double(
        chouette_id=c, user=u, expected_ply=d["ply"], now=_now()
    ),
    ActionSerializer,
)
ChouetteVoteView = _call_view(
    "vote",
    "Vote on the team's double. One refusal ends the vote; the last yes doubles the box.",
    lambda c, u, d: decisions.team_vote(
        chouette_id=c, user=u, agree=d["agree"], expected_ply=d["ply"], now=_now()
    ),
    ChouetteVoteSerializer,
)
ChouetteBoxAnswerView = _call_view(
    "box-answer",
    "The box takes or drops the team's double (a drop ends the game: every member still in "
    "it wins their stake).",
    lambda c, u, d: decisions.box_answer(
        chouette_id=c, user=u, take=d["take"], expected_ply=d["ply"], now=_now()
    ),
    ChouetteAnswerSerializer,
)
ChouetteBoxDoubleView = _call_view(
    "box-double",
    "The box doubles every member still in the game, before its roll; each member then "
    "takes or drops alone, by their own deadline.",
    lambda c, u, d: decisions.box_double(chouette_id=c, user=u, expected_ply=d["ply"], now=_now()),
    ActionSerializer,
)
ChouetteAnswerView = _call_view(
    "answer",
    "A member takes or drops the box's double. A dropper pays their stake and is out of the "
    "game; when the captain drops, the next taker in line captains.",
    lambda c, u, d: decisions.team_answer(
        chouette_id=c, user=u, take=d["take"], expected_ply=d["ply"], now=_now()
    ),
    ChouetteAnswerSerializer,
)
ChouetteSuggestView = _call_view(
    "suggest",
    "Suggest the captain's play for the team's roll (team mates only); the captain's own "
    "play is what counts.",
    lambda c, u, d: decisions.play_suggest(
        chouette_id=c, user=u, play_text=d["play"], expected_ply=d["ply"], now=_now()
    ),
    ChouetteSuggestSerializer,
)


class ChouetteMessagesView(APIView):
    """The table's chat and the team's, each to whom it belongs."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="chouettes_messages_list",
        parameters=[OBJECT_ID],
        responses={
            200: ChouetteMessageSerializer(many=True),
            401: ERRORS_WRITE[401],
            403: OpenApiResponse(ERROR, description="Not a player of this chouette."),
            404: ERRORS_WRITE[404],
        },
        description="The messages you may read, oldest first: the table's, and the team's "
        "of each game you were on the team of (never the box's to read). A player who left "
        "the chouette, or was removed, reads what was written until then.",
    )
    def get(self, request: Request, pk: int) -> Response:
        chouette = _chouette(pk)
        user = signed_in_user(request)
        if not selectors.may_read_chat(chouette, user):
            raise Forbidden(_("You are not playing in this chouette."))
        messages = selectors.messages_for(chouette, user).select_related("game")
        return Response(ChouetteMessageSerializer(messages, many=True).data)

    @extend_schema(
        operation_id="chouettes_messages_create",
        parameters=[OBJECT_ID],
        request=ChouetteMessageCreateSerializer,
        responses={201: ChouetteMessageSerializer, **ERRORS_WRITE},
        description="Write to the table, or (`team`) to the game's team only.",
    )
    def post(self, request: Request, pk: int) -> Response:
        body = ChouetteMessageCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        message = chat.message_post(
            chouette_id=pk,
            author=signed_in_user(request),
            text=body.validated_data["text"],
            team=body.validated_data["team"],
            now=timezone.now(),
        )
        return Response(ChouetteMessageSerializer(message).data, status=status.HTTP_201_CREATED)
