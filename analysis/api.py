"""The analysis in the API: ``GET`` and ``POST /api/matches/{id}/analysis``.

As on the page: anyone may read a finished match's analysis; its players and moderators
may ask for it; nothing is given of a match in play (409 ``match_not_finished``).
"""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.requests import signed_in_user
from backgammon.api.errors import ErrorSerializer
from backgammon.api.views import APIView
from backgammon.errors import Conflict, NotFound
from matches.models import Match

from . import selectors, services
from .models import Decision, MatchAnalysis

OBJECT_ID = OpenApiParameter(
    "id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The match's id."
)


class PlayerAnalysisSerializer(serializers.Serializer):
    color = serializers.ChoiceField(choices=["white", "black"])
    pr = serializers.FloatField(
        allow_null=True,
        help_text="500 × (chequer error + cube error, EMG) / (unforced moves + close "
        "cube decisions).",
    )
    chequer_rating = serializers.CharField(help_text="gnubg's name, or n/a.")
    cube_rating = serializers.CharField()
    overall_rating = serializers.CharField()
    luck_rating = serializers.CharField()
    figures = serializers.DictField(
        help_text="Every figure by name (gnubg_bridge.analysis.PlayerFigures): errors "
        "positive, EMG, and MWC as a fraction (points in a money session)."
    )
    texts = serializers.DictField(
        help_text="The figures as gnubg's 'show statistics match' prints them, by section "
        "and label."
    )


#: A step of a play: [from, to], from the mover's side (25 the bar, 0 borne off).
STEP = serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2)


class DecisionSerializer(serializers.Serializer):
    game = serializers.IntegerField(source="game.number", help_text="The game's number.")
    game_id = serializers.IntegerField()
    ply = serializers.IntegerField(allow_null=True, help_text="The event's ply in the game.")
    color = serializers.ChoiceField(choices=["white", "black"])
    kind = serializers.ChoiceField(choices=Decision.Kind.values)
    dice = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    made = serializers.CharField(help_text="The play or cube action made; empty: no legal play.")
    made_steps = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField())
    )
    best = serializers.CharField()
    best_steps = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField())
    )
    made_equity = serializers.FloatField(
        allow_null=True, help_text="Null for a roll with no legal play: nothing to choose."
    )
    best_equity = serializers.FloatField(allow_null=True)
    equity_lost = serializers.FloatField()
    mark = serializers.CharField(
        help_text="gnubg's mark: empty, doubtful (?!), bad (?) or very bad (??)."
    )
    luck = serializers.FloatField(allow_null=True)
    luck_mark = serializers.CharField(
        help_text="gnubg's mark of the roll: empty, very lucky, lucky, unlucky or very unlucky."
    )
    candidates = serializers.ListField(child=serializers.DictField())

    def to_representation(self, instance: Decision) -> dict[str, object]:
        data = super().to_representation(instance)
        data["color"] = "white" if instance.color == 0 else "black"
        return data


class AnalysisSerializer(serializers.Serializer):
    match = serializers.IntegerField(source="match_id")
    status = serializers.ChoiceField(choices=MatchAnalysis.Status.values)
    plies = serializers.IntegerField()
    games_done = serializers.IntegerField()
    games_total = serializers.IntegerField()
    error = serializers.CharField()
    requested_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    players = PlayerAnalysisSerializer(many=True, help_text="White, then Black; once done.")
    decisions = DecisionSerializer(many=True, help_text="Once done: by game, in order.")


def _players(analysis: MatchAnalysis) -> list[dict[str, object]]:
    if not analysis.is_done:
        return []
    return [
        {
            "color": "white" if p.color == 0 else "black",
            "pr": p.pr,
            "chequer_rating": p.chequer_rating,
            "cube_rating": p.cube_rating,
            "overall_rating": p.overall_rating,
            "luck_rating": p.luck_rating,
            "figures": p.figures,
            "texts": p.texts,
        }
        for p in analysis.players.all()
    ]


def analysis_data(analysis: MatchAnalysis) -> dict[str, object]:
    decisions = (
        analysis.decisions.select_related("game").order_by("game__number", "record", "id")
        if analysis.is_done
        else Decision.objects.none()
    )
    return {
        "match": analysis.match_id,
        "status": analysis.status,
        "plies": analysis.plies,
        "games_done": analysis.games_done,
        "games_total": analysis.games_total,
        "error": analysis.error,
        "requested_at": analysis.requested_at,
        "finished_at": analysis.finished_at,
        "players": PlayerAnalysisSerializer(_players(analysis), many=True).data,
        "decisions": DecisionSerializer(decisions, many=True).data,
    }


ERROR = ErrorSerializer
IN_PLAY = OpenApiResponse(
    ERROR, description="The match is still in play (`match_not_finished`): no analysis."
)


class MatchAnalysisView(APIView):
    """A finished match's analysis by GNU Backgammon."""

    permission_classes = [AllowAny]

    def get_permissions(self) -> list[BasePermission]:
        """Reading is open to anyone; asking needs a signed-in user."""
        if self.request.method == "POST":
            return [IsAuthenticated()]
        return [AllowAny()]

    @extend_schema(
        operation_id="matches_analysis_retrieve",
        parameters=[OBJECT_ID],
        responses={
            200: AnalysisSerializer,
            404: OpenApiResponse(ERROR, description="No such match, or not analysed."),
            409: IN_PLAY,
        },
        description="The analysis: its status (`queued`, `running` with `games_done` of "
        "`games_total`, `done`, `failed`), and once done each player's figures (gnubg's "
        "'show statistics match', and PR) and every analysed decision by game and ply. "
        "Anyone may read it once the match is over; nothing is given while it is played.",
    )
    def get(self, request: Request, pk: int) -> Response:
        match = Match.objects.filter(pk=pk).first()
        if match is None:
            raise NotFound(_("No such match."))
        if not services.is_analysable(match):
            raise Conflict(
                _("A match is analysed only once it is over: no analysis while it is played."),
                code="match_not_finished",
            )
        analysis = selectors.match_analysis(match)
        if analysis is None:
            raise NotFound(_("This match has not been analysed."), code="not_analysed")
        return Response(analysis_data(analysis))

    @extend_schema(
        operation_id="matches_analysis_create",
        parameters=[OBJECT_ID],
        request=None,
        responses={
            202: AnalysisSerializer,
            401: OpenApiResponse(ERROR, description="Not authenticated."),
            403: OpenApiResponse(ERROR, description="Neither a player nor a moderator."),
            404: OpenApiResponse(ERROR, description="No such match."),
            409: IN_PLAY,
            503: OpenApiResponse(
                ERROR, description="GNU Backgammon is not installed (`analysis_unavailable`)."
            ),
        },
        description="Ask for the analysis of a finished match you played (moderators: any). "
        "A match already queued, running or analysed is not analysed twice; a failed one "
        "is queued again.",
    )
    def post(self, request: Request, pk: int) -> Response:
        user = signed_in_user(request)
        analysis = services.analysis_request(match_id=pk, user=user, now=timezone.now())
        return Response(analysis_data(analysis), status=status.HTTP_202_ACCEPTED)
