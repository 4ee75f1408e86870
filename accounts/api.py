from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.models import User
from backgammon.api.views import APIView


class MeSerializer(serializers.ModelSerializer):
    class Meta:
        model = User
        fields = [
            "username",
            "display_name",
            "is_bot",
            "language",
            "time_zone",
            "notify",
            "digest_hour",
            "warning_hours",
            "board_side",
            "confirm_moves",
            "stay_after_move",
        ]
        read_only_fields = fields


class MeView(APIView):
    """The authenticated user and their preferences."""

    serializer_class = MeSerializer

    @extend_schema(
        operation_id="me_retrieve",
        description="The authenticated user and their preferences (set on the profile page).",
    )
    def get(self, request: Request) -> Response:
        return Response(MeSerializer(request.user).data)
