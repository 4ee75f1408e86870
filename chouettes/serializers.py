"""The chouettes API's request and response bodies."""

from __future__ import annotations

from django.contrib.auth.validators import UnicodeUsernameValidator
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from gammon import chouette as rules
from matches.models import MAX_CUBE_LIMIT
from matches.serializers import (
    CUBE_LIMITS,
    ActionSerializer,
    CubeLimitField,
    MoveSerializer,
    PlayerSerializer,
    StrictBooleanField,
    StrictCharField,
    StrictIntegerField,
    TextField,
    not_blank,
)

from .models import Message
from .selectors import Action, Role


@extend_schema_serializer(
    description="A new chouette. Every field may be left out; the defaults are shown."
)
class ChouetteCreateSerializer(serializers.Serializer):
    invite = serializers.ListField(
        child=TextField(min_length=1, max_length=150, validators=[UnicodeUsernameValidator()]),
        max_length=rules.MAX_PLAYERS - 1,
        default=list,
        help_text="Usernames of the players invited (they are told, and may join).",
    )
    open_to_all = StrictBooleanField(
        default=True, help_text="Anyone may join until it starts; else the invited only."
    )
    max_players = StrictIntegerField(
        min_value=rules.MIN_PLAYERS, max_value=rules.MAX_PLAYERS, default=rules.MAX_PLAYERS
    )
    days_per_move = StrictIntegerField(min_value=1, max_value=30, default=3)
    time_bank_days = StrictIntegerField(min_value=0, max_value=365, default=0)
    cube_limit = CubeLimitField(
        min_value=1,
        max_value=CUBE_LIMITS[-1],
        allow_null=True,
        default=64,
        help_text=f"The highest stake: a power of two from 1 to {MAX_CUBE_LIMIT}; null for "
        "no limit.",
    )
    jacoby = StrictBooleanField(default=False)
    automatic_doubles = StrictBooleanField(default=False)
    places_from_dice = StrictBooleanField(
        default=True,
        help_text="The first game's places from one die each (ties throw again); "
        "false: in the order the players joined.",
    )


class ChouetteInviteSerializer(serializers.Serializer):
    players = serializers.ListField(
        child=TextField(min_length=1, max_length=150, validators=[UnicodeUsernameValidator()]),
        min_length=1,
        max_length=rules.MAX_PLAYERS - 1,
        help_text="Usernames of the players invited.",
    )


class ChouetteAnswerSerializer(ActionSerializer):
    take = StrictBooleanField(help_text="true: take the double; false: drop it.")


class ChouetteVoteSerializer(ActionSerializer):
    agree = StrictBooleanField(help_text="true: double the box; false: refuse (the vote ends).")


class ChouetteSuggestSerializer(MoveSerializer):
    """A team mate's suggested play for the captain's roll."""


class ChouetteMessageCreateSerializer(serializers.Serializer):
    text = StrictCharField(
        min_length=1,
        max_length=Message.MAX_LENGTH,
        trim_whitespace=False,
        validators=[not_blank(_("Write a message first."))],
        help_text=f"At most {Message.MAX_LENGTH} characters.",
    )
    team = StrictBooleanField(
        default=False, help_text="true: to the team only (the box never reads it)."
    )


class ChouetteMessageSerializer(serializers.ModelSerializer):
    author = PlayerSerializer()
    text = serializers.SerializerMethodField()
    game = serializers.IntegerField(source="game.number")

    class Meta:
        model = Message
        fields = ["id", "author", "game", "team", "text", "hidden", "created_at"]
        read_only_fields = fields

    def get_text(self, message: Message) -> str | None:
        return None if message.hidden else message.text


class ChouetteLineSerializer(serializers.Serializer):
    player = PlayerSerializer(source="seat.player")
    status = serializers.CharField(source="seat.status")
    role = serializers.ChoiceField(choices=[r.value for r in Role])
    place = serializers.IntegerField(help_text="0 the box, 1 the first captain, 2 next in line…")
    stake = serializers.IntegerField(allow_null=True, help_text="A member's stake in this game.")
    dropped = serializers.BooleanField()
    points = serializers.IntegerField(source="seat.points", help_text="Running points.")
    games = serializers.IntegerField(source="seat.games")
    leaving = serializers.BooleanField(help_text="Leaves when the game in play ends.")
    deadline_at = serializers.DateTimeField(
        source="seat.deadline_at",
        allow_null=True,
        help_text="When their awaited vote or answer counts as refused or dropped.",
    )
    awaited = serializers.ListField(
        child=serializers.ChoiceField(choices=[a.value for a in Action]),
        help_text="What the game waits for from them.",
    )


class ChouetteDecisionSerializer(serializers.Serializer):
    kind = serializers.CharField()
    player = serializers.CharField(source="player.username")
    yes = serializers.BooleanField(allow_null=True, help_text="A vote's yes; a take.")
    timed_out = serializers.BooleanField()
    ply = serializers.IntegerField(help_text="The board's ply when it was decided.")
    created_at = serializers.DateTimeField()


class ChouetteResultSerializer(serializers.Serializer):
    player = serializers.CharField(source="player.username")
    role = serializers.CharField()
    stake = serializers.IntegerField()
    dropped = serializers.BooleanField()
    points = serializers.IntegerField()


class ChouetteSuggestionSerializer(serializers.Serializer):
    author = serializers.CharField(source="author.username")
    play = serializers.CharField()
    created_at = serializers.DateTimeField()


class ChouetteGameSummarySerializer(serializers.Serializer):
    number = serializers.IntegerField()
    board = serializers.IntegerField(help_text="The board's game id (/api/games/{id}/).")
    settled = serializers.BooleanField()
    decisions = ChouetteDecisionSerializer(
        many=True, help_text="The game's cube-side record, kept once it is over."
    )
    results = ChouetteResultSerializer(many=True)


class ChouetteStandingSerializer(serializers.Serializer):
    player = PlayerSerializer()
    status = serializers.CharField(help_text="`seated`, `left` or `removed`.")
    points = serializers.IntegerField(help_text="Points over the session so far.")
    games = serializers.IntegerField()


class OpeningThrowSerializer(serializers.Serializer):
    player = serializers.CharField()
    die = serializers.IntegerField()


class ChouetteGameSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    board = serializers.IntegerField(
        help_text="The board's game id: play it with /api/games/{id}/ (roll, move, resign)."
    )
    ply = serializers.IntegerField(
        help_text="The board's ply: send it with the next decision (no GET of the board needed)."
    )
    stage = serializers.ChoiceField(
        choices=[s.value for s in rules.Stage], help_text="What the cube side waits for."
    )
    settled = serializers.BooleanField()
    decisions = ChouetteDecisionSerializer(many=True)
    results = ChouetteResultSerializer(many=True)
    suggestions = ChouetteSuggestionSerializer(
        many=True, help_text="The team's suggestions for this roll (to the team only)."
    )


class ChouetteSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.CharField()
    creator = serializers.CharField(source="creator.username")
    open_to_all = serializers.BooleanField()
    max_players = serializers.IntegerField()
    days_per_move = serializers.IntegerField()
    time_bank_days = serializers.IntegerField()
    cube_limit = serializers.IntegerField(allow_null=True)
    jacoby = serializers.BooleanField()
    automatic_doubles = serializers.BooleanField()
    places_from_dice = serializers.BooleanField()
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)


class ChouetteDetailSerializer(ChouetteSerializer):
    lineup = ChouetteLineSerializer(many=True)
    standings = ChouetteStandingSerializer(
        many=True,
        help_text="Everyone who sat, most points first; those who left or were removed keep "
        "their points.",
    )
    your_actions = serializers.ListField(
        child=serializers.ChoiceField(choices=[a.value for a in Action]),
        help_text="What you may do now: propose (the team's double), vote, box_answer, "
        "box_double, answer (the box's double), suggest; move means play the board.",
    )
    game = ChouetteGameSerializer(allow_null=True, help_text="The game in play, or the last.")
    games = ChouetteGameSummarySerializer(many=True, help_text="Every game, oldest first.")
    opening_rounds = serializers.ListField(
        child=OpeningThrowSerializer(many=True),
        help_text="The first places' dice, round by round (ties throw again).",
    )


__all__ = [
    "ChouetteAnswerSerializer",
    "ChouetteCreateSerializer",
    "ChouetteDetailSerializer",
    "ChouetteMessageCreateSerializer",
    "ChouetteMessageSerializer",
    "ChouetteSerializer",
    "ChouetteInviteSerializer",
    "ChouetteSuggestSerializer",
    "ChouetteVoteSerializer",
]
