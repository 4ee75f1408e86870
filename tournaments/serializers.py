"""The tournaments API's bodies."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from matches.serializers import PlayerSerializer

from .models import Entry, Format, Pairing, Tournament


class RepeatSerializer(serializers.Serializer):
    every_days = serializers.IntegerField(help_text="Days between two editions' starts.")
    next_opens_at = serializers.DateTimeField(
        help_text="When the next edition opens for registration."
    )


class TournamentSerializer(serializers.ModelSerializer):
    players = serializers.IntegerField(help_text="Players registered.")
    winner = serializers.CharField(source="winner.username", allow_null=True, default=None)
    repeats = serializers.SerializerMethodField(
        help_text="For an edition of a repeating tournament still repeating: how it repeats."
    )

    class Meta:
        model = Tournament
        fields = [
            "id",
            "name",
            "description",
            "format",
            "length",
            "variant",
            "days_per_move",
            "time_bank_days",
            "rated",
            "min_players",
            "max_players",
            "rating_min",
            "rating_max",
            "invitation_only",
            "rounds",
            "group_size",
            "knockout_after",
            "status",
            "registration_opens_at",
            "starts_at",
            "started_at",
            "finished_at",
            "cancel_reason",
            "players",
            "winner",
            "repeats",
        ]
        read_only_fields = fields

    @extend_schema_field(RepeatSerializer(allow_null=True))
    def get_repeats(self, tournament: Tournament) -> dict[str, object] | None:
        schedule = tournament.schedule
        if schedule is None or not schedule.active:
            return None
        return dict(RepeatSerializer(schedule).data)


class TournamentQuerySerializer(serializers.Serializer):
    status = serializers.ChoiceField(
        choices=["upcoming", *Tournament.Status.values],
        required=False,
        help_text="`upcoming`: open for registration.",
    )
    # Not ``format``: DRF reads that query parameter as the response's format.
    type = serializers.ChoiceField(choices=Format.values, required=False, help_text="The format.")
    length = serializers.IntegerField(min_value=1, max_value=21, required=False)
    entered = serializers.ChoiceField(
        choices=["me"],
        required=False,
        help_text="`me`: only the tournaments you are entered in (signed in; a 401 if not).",
    )


class StandingDetailSerializer(serializers.Serializer):
    """A line's tiebreaks: each format fills its own and leaves the others out."""

    buchholz = serializers.IntegerField(
        required=False, help_text="Swiss: the sum of the opponents' scores."
    )
    sonneborn_berger = serializers.IntegerField(
        required=False, help_text="Swiss: the sum of the scores of the opponents beaten."
    )
    group = serializers.IntegerField(required=False, help_text="Round-robin: the group, from 1.")
    head_to_head = serializers.IntegerField(
        required=False,
        help_text="Round-robin: wins against the players level on match wins.",
    )
    points = serializers.IntegerField(
        required=False, help_text="Round-robin: the points difference over the group's matches."
    )


class EntrySerializer(serializers.Serializer):
    player = PlayerSerializer(source="entry.player")
    status = serializers.ChoiceField(source="entry.status", choices=Entry.Status.choices)
    seed = serializers.IntegerField(source="entry.seed", allow_null=True)
    rating = serializers.FloatField(source="entry.rating")
    group = serializers.IntegerField(source="entry.group", allow_null=True)
    rank = serializers.IntegerField(help_text="The place now (0 while not known).")
    score = serializers.IntegerField(help_text="Swiss: score; round-robin: match wins.")
    detail = StandingDetailSerializer(
        help_text="The format's tiebreaks (a knock-out's is empty, and every format's "
        "before the start)."
    )


class TournamentPairingSerializer(serializers.Serializer):
    stage = serializers.ChoiceField(choices=Pairing.Stage.choices)
    round = serializers.IntegerField(help_text="The round, from 1 (in a group stage, the group).")
    index = serializers.IntegerField()
    white = serializers.CharField(source="white.player.username")
    black = serializers.CharField(source="black.player.username", allow_null=True, default=None)
    winner = serializers.CharField(source="winner.player.username", allow_null=True, default=None)
    match = serializers.IntegerField(source="match_id", allow_null=True)
    forfeit = serializers.BooleanField()
    white_points = serializers.IntegerField()
    black_points = serializers.IntegerField()
    created_at = serializers.DateTimeField(help_text="When it was paired.")
    finished_at = serializers.DateTimeField(
        allow_null=True, help_text="When its winner was known (null while it is played)."
    )


class StandingsSerializer(serializers.Serializer):
    round = serializers.IntegerField(help_text="The highest round paired so far.")
    rounds = serializers.IntegerField(help_text="The rounds of the format (0 before the start).")
    standings = EntrySerializer(many=True)
    pairings = TournamentPairingSerializer(many=True)


__all__ = [
    "EntrySerializer",
    "TournamentDetailSerializer",
    "StandingDetailSerializer",
    "StandingsSerializer",
    "TournamentPairingSerializer",
    "TournamentQuerySerializer",
    "TournamentSerializer",
]


class TournamentDetailSerializer(TournamentSerializer):
    """A tournament with its progress, standings and pairings."""

    round = serializers.IntegerField(help_text="The highest round paired so far.")
    rounds = serializers.IntegerField(help_text="The format's rounds (0 before the start).")
    standings = EntrySerializer(many=True)
    pairings = TournamentPairingSerializer(many=True)

    class Meta(TournamentSerializer.Meta):
        fields = [*TournamentSerializer.Meta.fields, "round", "rounds", "standings", "pairings"]
        read_only_fields = fields
