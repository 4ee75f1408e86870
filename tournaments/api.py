"""The tournaments API: list (filtered), read one with its standings and pairings,
register and withdraw. Tournament matches are ordinary matches: play them through
``/api/games/{id}/``; each pairing names its ``match``."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.exceptions import NotAuthenticated
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.requests import signed_in_user
from backgammon.api.views import APIView
from backgammon.errors import NotFound
from matches.api import ERRORS_READ, ERRORS_WRITE, OBJECT_ID

from . import registration, selectors
from .models import Tournament
from .serializers import (
    StandingsSerializer,
    TournamentDetailSerializer,
    TournamentQuerySerializer,
    TournamentSerializer,
)


def _tournament(pk: int) -> Tournament:
    tournament = selectors.tournaments_listed().filter(pk=pk).first()
    if tournament is None:
        raise NotFound(_("No such tournament."))
    return tournament


def tournament_data(tournament: Tournament) -> dict[str, Any]:
    """A tournament with its standings and every pairing (``GET /api/tournaments/{id}/``)."""
    progress = selectors.progress(tournament)
    body = StandingsSerializer(
        {
            "round": progress.round,
            "rounds": progress.rounds,
            "standings": selectors.standings(tournament),
            "pairings": list(selectors.pairings_of(tournament)),
        }
    ).data
    return {**TournamentSerializer(tournament).data, **body}  # TournamentDetailSerializer


class TournamentListView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="tournaments_list",
        description="Tournaments: `status=upcoming` for those open for registration "
        "(soonest first), `running` or `finished`; filter by format (`type`) and `length`. "
        "`entered=me`: only those you are entered in (withdrawn from: no longer); it needs "
        "you signed in, and answers 401 otherwise.",
        parameters=[
            OpenApiParameter("status", str, enum=["upcoming", *Tournament.Status.values]),
            OpenApiParameter("type", str, enum=["knockout", "round_robin", "swiss"]),
            OpenApiParameter("length", int),
            OpenApiParameter("entered", str, enum=["me"]),
        ],
        responses={
            200: TournamentSerializer(many=True),
            400: ERRORS_WRITE[400],
            401: ERRORS_WRITE[401],
        },
    )
    def get(self, request: Request) -> Response:
        query = TournamentQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        data = dict(query.validated_data)
        entered = None
        if data.get("entered") == "me":
            if not request.user.is_authenticated:
                raise NotAuthenticated(_("Sign in to list the tournaments you entered."))
            entered = signed_in_user(request)
        rows = selectors.tournaments_listed(
            status=data.get("status"),
            format=data.get("type"),
            length=data.get("length"),
            entered=entered,
        )[:200]
        return Response(TournamentSerializer(rows, many=True).data)


class TournamentDetailView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="tournaments_read",
        parameters=[OBJECT_ID],
        description="A tournament: its options, the progress (`round` of `rounds`), the "
        "standings of its format and every pairing with its match. Anyone may look.",
        responses={200: TournamentDetailSerializer, **ERRORS_READ},
    )
    def get(self, request: Request, pk: int) -> Response:
        return Response(tournament_data(_tournament(pk)))


class TournamentRegisterView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="tournaments_enter",
        parameters=[OBJECT_ID],
        request=None,
        description="Register for the tournament, while registration is open (within its "
        "rating limits, and invited if it is by invitation).",
        responses={200: TournamentDetailSerializer, **ERRORS_WRITE},
    )
    def post(self, request: Request, pk: int) -> Response:
        registration.tournament_register(
            tournament_id=pk, user=signed_in_user(request), now=timezone.now()
        )
        return Response(tournament_data(_tournament(pk)))


class TournamentWithdrawView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="tournaments_withdraw",
        parameters=[OBJECT_ID],
        request=None,
        description="Withdraw: before the start your registration goes; once it runs, your "
        "matches in play are forfeited and you are paired no more (results stand).",
        responses={200: TournamentDetailSerializer, **ERRORS_WRITE},
    )
    def post(self, request: Request, pk: int) -> Response:
        registration.tournament_withdraw(
            tournament_id=pk, user=signed_in_user(request), now=timezone.now()
        )
        return Response(tournament_data(_tournament(pk)))
