"""The bots in the API: who they are, at which gnubg level, and whether they play here.

To play one, challenge its username (``POST /api/challenges/`` with ``opponent``): it
accepts at once, or the challenge is refused with the reason.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from backgammon.api.views import APIView

from . import selectors


class BotSerializer(serializers.Serializer):
    username = serializers.CharField(help_text="Challenge this username to play the bot.")
    name = serializers.CharField()
    is_bot = serializers.BooleanField()
    level = serializers.CharField(help_text="gnubg's named player: `beginner` … `world_class`.")
    plies = serializers.IntegerField(help_text="gnubg's look-ahead at this level.")
    noise = serializers.FloatField(help_text="gnubg's (deterministic) evaluation noise.")
    available = serializers.BooleanField(help_text="False where gnubg is not installed.")


class BotListView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="bots_list",
        tags=["bots"],
        description="The computer players (GNU Backgammon at its named levels), weakest "
        "first. Challenge one by its `username`; it accepts at once when `available`.",
        responses={200: BotSerializer(many=True)},
    )
    def get(self, request: Request) -> Response:
        return Response(BotSerializer(selectors.bots_listed(), many=True).data)
