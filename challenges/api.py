"""The challenges API: list and create challenges, accept, decline or withdraw one."""

from __future__ import annotations

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.names import users_named
from accounts.requests import signed_in_user
from backgammon.api.views import APIView
from backgammon.errors import InvalidAction
from matches.api import ERRORS_WRITE, OBJECT_ID, match_data
from matches.serializers import MatchSerializer

from . import selectors, services
from .models import Challenge
from .serializers import ChallengeCreateSerializer, ChallengeSerializer


class ChallengeListView(APIView):
    """The caller's challenges (sent, received) and the open ones anyone may accept."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="challenges_list",
        description="Your challenges, sent and received, and the open ones anyone may "
        "accept; newest first.",
        responses={200: ChallengeSerializer(many=True), 401: ERRORS_WRITE[401]},
    )
    def get(self, request: Request) -> Response:
        user = signed_in_user(request)
        received = selectors.challenges_open_to(user).values("pk")
        sent = selectors.challenges_sent_by(user).values("pk")
        challenges = (
            Challenge.objects.filter(
                Q(pk__in=received) | Q(pk__in=sent) | Q(opponent=user, status=Challenge.Status.OPEN)
            )
            .select_related("challenger", "opponent")
            .order_by("-created_at", "-pk")
        )
        return Response(ChallengeSerializer(challenges, many=True).data)

    @extend_schema(
        operation_id="challenges_create",
        description="Challenge a player by `opponent` (their username), or anyone with "
        "`opponent` null or left out. The challenge stays open for 14 days.",
        request=ChallengeCreateSerializer,
        responses={201: ChallengeSerializer, **ERRORS_WRITE},
    )
    def post(self, request: Request) -> Response:
        body = ChallengeCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = dict(body.validated_data)
        username = data.pop("opponent")
        opponent = None
        if username is not None:
            opponent = users_named(username).filter(is_active=True).first()
            if opponent is None:
                raise InvalidAction(
                    _("There is no player called %(name)s."), code="opponent", name=username
                )
        challenge = services.challenge_create(
            challenger=signed_in_user(request), opponent=opponent, now=timezone.now(), **data
        )
        return Response(ChallengeSerializer(challenge).data, status=status.HTTP_201_CREATED)


class ChallengeAcceptView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="challenges_accept",
        parameters=[OBJECT_ID],
        request=None,
        responses={201: MatchSerializer, **ERRORS_WRITE},
        description="Accept a challenge: the match starts at once (colours drawn at random).",
    )
    def post(self, request: Request, pk: int) -> Response:
        match = services.challenge_accept(
            challenge_id=pk, user=signed_in_user(request), now=timezone.now()
        )
        return Response(match_data(match.pk), status=status.HTTP_201_CREATED)


class ChallengeDeclineView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="challenges_decline",
        description="Decline a challenge sent to you.",
        parameters=[OBJECT_ID],
        request=None,
        responses={200: ChallengeSerializer, **ERRORS_WRITE},
    )
    def post(self, request: Request, pk: int) -> Response:
        challenge = services.challenge_decline(
            challenge_id=pk, user=signed_in_user(request), now=timezone.now()
        )
        return Response(ChallengeSerializer(challenge).data)


class ChallengeWithdrawView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="challenges_withdraw",
        description="Withdraw a challenge you sent, while nobody has accepted it.",
        parameters=[OBJECT_ID],
        request=None,
        responses={200: ChallengeSerializer, **ERRORS_WRITE},
    )
    def post(self, request: Request, pk: int) -> Response:
        challenge = services.challenge_withdraw(
            challenge_id=pk, user=signed_in_user(request), now=timezone.now()
        )
        return Response(ChallengeSerializer(challenge).data)
