"""Read-only API over the same selectors as the pages; public, like the pages.

Percentages are strings with two decimals (``"49.95"``): exact, and never
localized, so a client formats them for its own reader.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.generics import ListAPIView
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.names import users_named
from backgammon.api.views import APIView, UserLanguageMixin

from . import selectors
from .models import PlayerStats

# --------------------------------------------------------------------------- serializers


class ResultLineSerializer(serializers.Serializer):
    white = serializers.IntegerField()
    black = serializers.IntegerField()
    draw = serializers.IntegerField()
    total = serializers.IntegerField()
    white_pct = serializers.DecimalField(max_digits=5, decimal_places=2)
    black_pct = serializers.DecimalField(max_digits=5, decimal_places=2)
    draw_pct = serializers.DecimalField(max_digits=5, decimal_places=2)


class VariantStatsSerializer(serializers.Serializer):
    variant = serializers.CharField(help_text="standard, nackgammon, hypergammon or all")
    games = ResultLineSerializer()
    matches = ResultLineSerializer()


class SiteStatsSerializer(serializers.Serializer):
    games = serializers.DictField(
        child=ResultLineSerializer(), help_text="Keyed by variant, and 'all'."
    )
    matches = serializers.DictField(
        child=ResultLineSerializer(), help_text="Keyed by variant, and 'all'."
    )
    terminations = serializers.DictField(
        child=serializers.IntegerField(), help_text="Finished games by how they ended."
    )
    games_in_progress = serializers.IntegerField()
    matches_in_progress = serializers.IntegerField()
    active_players = serializers.IntegerField(help_text="Players active in the last 30 days.")


class RecordLineSerializer(serializers.Serializer):
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    lost = serializers.IntegerField()
    drawn = serializers.IntegerField()


class RecordSerializer(serializers.Serializer):
    total = RecordLineSerializer()
    by_variant = serializers.DictField(child=RecordLineSerializer())
    by_color = serializers.DictField(child=RecordLineSerializer())


class RatingPointSerializer(serializers.Serializer):
    at = serializers.DateTimeField()
    rating = serializers.FloatField()
    experience = serializers.IntegerField()
    change = serializers.FloatField()
    match_id = serializers.IntegerField()


class PlayerRecordSerializer(serializers.Serializer):
    username = serializers.CharField(source="player.username")
    is_bot = serializers.BooleanField(source="player.is_bot")
    games = RecordSerializer()
    matches = RecordSerializer()
    gammons_won = serializers.IntegerField()
    gammons_lost = serializers.IntegerField()
    backgammons_won = serializers.IntegerField()
    backgammons_lost = serializers.IntegerField()
    rating = serializers.FloatField()
    best_rating = serializers.FloatField()
    experience = serializers.IntegerField()
    rated_matches = serializers.IntegerField()
    history = RatingPointSerializer(many=True)


class LeaderboardRowSerializer(serializers.ModelSerializer):
    username = serializers.CharField(source="player.username")
    name = serializers.CharField(source="player.public_name")
    is_bot = serializers.BooleanField(source="player.is_bot")

    class Meta:
        model = PlayerStats
        fields = [
            "username",
            "name",
            "is_bot",
            "rating",
            "best_rating",
            "experience",
            "rated_matches",
        ]
        read_only_fields = fields


class RollCountSerializer(serializers.Serializer):
    roll = serializers.CharField(source="label", help_text="High die first, e.g. '6-5'.")
    count = serializers.IntegerField()
    expected = serializers.FloatField()


class ChiSquareSerializer(serializers.Serializer):
    statistic = serializers.FloatField()
    degrees_of_freedom = serializers.IntegerField()
    p_value = serializers.FloatField(allow_null=True)


class DiceStatsSerializer(serializers.Serializer):
    total_rolls = serializers.IntegerField()
    doubles = serializers.IntegerField()
    doubles_pct = serializers.DecimalField(max_digits=5, decimal_places=2)
    rolls = RollCountSerializer(many=True)
    faces = serializers.SerializerMethodField()
    rolls_test = ChiSquareSerializer()
    faces_test = ChiSquareSerializer()

    def get_faces(self, obj: selectors.DiceStats) -> dict[str, int]:
        return {str(face): count for face, count in obj.faces.items()}


# --------------------------------------------------------------------------- views


class _Public(APIView):
    permission_classes = [AllowAny]


class SiteStatsView(_Public):
    """Finished games and matches by result, per variant; live counts; how games ended."""

    @extend_schema(
        responses=SiteStatsSerializer,
        tags=["stats"],
        operation_id="stats_site",
        description="Finished games and matches by result, per variant; the games and "
        "matches in progress; how finished games ended.",
    )
    def get(self, request: Request) -> Response:
        return Response(SiteStatsSerializer(selectors.site_stats()).data)


class VariantStatsView(_Public):
    """Finished games and matches of one variant (or ``all``)."""

    @extend_schema(
        responses=VariantStatsSerializer,
        tags=["stats"],
        operation_id="stats_variant",
        parameters=[
            OpenApiParameter(
                "variant",
                str,
                OpenApiParameter.PATH,
                enum=["standard", "nackgammon", "hypergammon", "all"],
                description="A variant, or `all`.",
            )
        ],
        description="Finished games and matches of one variant (or of all of them).",
    )
    def get(self, request: Request, variant: str) -> Response:
        stats = selectors.site_stats()
        if variant not in stats.games:
            raise Http404
        data: dict[str, Any] = {
            "variant": variant,
            "games": stats.games[variant],
            "matches": stats.matches[variant],
        }
        return Response(VariantStatsSerializer(data).data)


class PlayerRecordView(_Public):
    """The record of an active player; 404 for an unknown or deactivated one."""

    @extend_schema(
        responses=PlayerRecordSerializer,
        tags=["stats"],
        operation_id="stats_player",
        description="A player's record, rating and rating history.",
    )
    def get(self, request: Request, username: str) -> Response:
        player = get_object_or_404(users_named(username), is_active=True)
        return Response(PlayerRecordSerializer(selectors.player_record(player)).data)


class LeaderboardPagination(PageNumberPagination):
    page_size = 50


class LeaderboardView(UserLanguageMixin, ListAPIView):
    """Players with at least five finished rated matches, best rating first."""

    permission_classes = [AllowAny]
    serializer_class = LeaderboardRowSerializer
    pagination_class = LeaderboardPagination

    def get_queryset(self) -> QuerySet[PlayerStats]:
        return selectors.leaderboard()

    @extend_schema(
        tags=["stats"],
        operation_id="stats_leaderboard",
        description="Players with at least five finished rated matches, best rating first, "
        "50 to a page.",
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


class DiceStatsView(_Public):
    """Every roll the server has thrown, and two chi-square tests of fairness."""

    @extend_schema(
        responses=DiceStatsSerializer,
        tags=["stats"],
        operation_id="stats_dice",
        description="Every roll the server has thrown, and two chi-square tests of fairness "
        "(of the 36 rolls and of the six faces).",
    )
    def get(self, request: Request) -> Response:
        return Response(DiceStatsSerializer(selectors.dice_stats()).data)


class PlayerDiceStatsView(_Public):
    """The dice thrown for one player."""

    @extend_schema(
        responses=DiceStatsSerializer,
        tags=["stats"],
        operation_id="stats_player_dice",
        description="The dice thrown for one player, with the same tests of fairness.",
    )
    def get(self, request: Request, username: str) -> Response:
        player = get_object_or_404(users_named(username), is_active=True)
        return Response(DiceStatsSerializer(selectors.dice_stats(player)).data)
