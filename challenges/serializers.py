"""The challenges API's request and response bodies."""

from __future__ import annotations

from django.contrib.auth.validators import UnicodeUsernameValidator
from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from matches.models import MAX_CUBE_LIMIT, Resignation, VariantChoice
from matches.serializers import (
    CUBE_LIMITS,
    NO_NUL,
    CubeLimitField,
    StrictBooleanField,
    StrictIntegerField,
    TextField,
    VariantField,
)

from .models import Challenge


@extend_schema_serializer(
    description="A new challenge. Every field may be left out; the defaults are shown."
)
class ChallengeCreateSerializer(serializers.Serializer):
    """A new challenge. The ranges are the service's; it checks them again."""

    opponent = TextField(
        allow_null=True,
        required=False,
        default=None,
        min_length=1,
        max_length=150,
        validators=[UnicodeUsernameValidator()],
        help_text="Username of the challenged player; null for a challenge open to anyone.",
    )
    variant = VariantField(default=VariantChoice.STANDARD.value)
    length = StrictIntegerField(
        min_value=0, max_value=25, default=5, help_text="Points to win; 0 for a money session."
    )
    days_per_move = StrictIntegerField(min_value=1, max_value=30, default=3)
    time_bank_days = StrictIntegerField(min_value=0, max_value=365, default=0)
    cube_limit = CubeLimitField(
        min_value=1,
        max_value=CUBE_LIMITS[-1],
        allow_null=True,
        default=64,
        help_text=f"The highest cube value: a power of two from 1 to {MAX_CUBE_LIMIT}; "
        "null (no limit) only for money sessions.",
    )
    jacoby = StrictBooleanField(default=False, help_text="Money sessions only.")
    automatic_doubles = StrictBooleanField(default=False, help_text="Money sessions only.")
    rated = StrictBooleanField(default=True)
    resignation = serializers.ChoiceField(
        choices=Resignation.choices,
        default=Resignation.OFFER.value,
        help_text="How a game is resigned: `offer` (the player on turn offers a single game, "
        "a gammon or a backgammon; the opponent accepts or declines, as in GNU Backgammon) "
        "or `immediate` (at once: a gammon while nothing is borne off, else a single game).",
    )
    live_delay = StrictIntegerField(
        min_value=1,
        max_value=600,
        allow_null=True,
        default=None,
        help_text="A live clock: seconds of delay every turn, run first (seed 004: 11); "
        "null for days per move. An open live challenge is a seek of the lobby.",
    )
    live_reserve = StrictIntegerField(
        min_value=0,
        max_value=3600,
        allow_null=True,
        default=None,
        help_text="A live clock: each player's reserve in seconds, run after the delay "
        "(90 when left out).",
    )
    timeout_loses_match = StrictBooleanField(
        default=False,
        help_text="A live match longer than one point: a claimed time-out loses the match "
        "(else the game, as a gammon).",
    )
    rating_min = StrictIntegerField(
        min_value=0,
        max_value=4000,
        allow_null=True,
        default=None,
        help_text="Only a player rated at least this may accept (a seek's rating range).",
    )
    rating_max = StrictIntegerField(
        min_value=0,
        max_value=4000,
        allow_null=True,
        default=None,
        help_text="Only a player rated at most this may accept.",
    )
    bots_may_accept = StrictBooleanField(
        default=True,
        help_text="A seek (an open live challenge): if no person accepts it within the "
        "site's wait (20 seconds unless the site says otherwise), a computer player "
        "(GNU Backgammon) rated within its range may accept it. Ignored elsewhere.",
    )
    message = TextField(max_length=200, default="", allow_blank=True, validators=[NO_NUL])


class ChallengeSerializer(serializers.ModelSerializer):
    challenger = serializers.CharField(source="challenger.username")
    opponent = serializers.CharField(source="opponent.username", allow_null=True)
    opponent_is_bot = serializers.BooleanField(
        source="opponent.is_bot",
        default=False,
        help_text="The challenge is to a computer player (GNU Backgammon).",
    )
    match = serializers.IntegerField(source="match_id", allow_null=True)

    class Meta:
        model = Challenge
        fields = [
            "id",
            "challenger",
            "opponent",
            "opponent_is_bot",
            "variant",
            "length",
            "days_per_move",
            "time_bank_days",
            "cube_limit",
            "jacoby",
            "automatic_doubles",
            "rated",
            "resignation",
            "live_delay",
            "live_reserve",
            "timeout_loses_match",
            "rating_min",
            "rating_max",
            "bots_may_accept",
            "message",
            "status",
            "created_at",
            "expires_at",
            "responded_at",
            "match",
        ]
        read_only_fields = fields
