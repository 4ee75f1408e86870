"""What the API reads and writes: request bodies and the JSON shape of challenges, matches
and games.

Serializers only describe data. The game representation is built by the API view from
the selectors (what the viewer may do) and the engine (IDs, pips, legal plays); nothing
here changes a row.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.core.validators import ProhibitNullCharactersValidator, RegexValidator
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field, extend_schema_serializer
from rest_framework import serializers
from rest_framework.fields import empty

from backgammon.api.errors import ErrorSerializer

from . import questions
from .models import MAX_CUBE_LIMIT, GameEvent, GameMessage, Match, Resignation, VariantChoice
from .resignations import LEVEL_NAMES
from .selectors import Decision

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

COLORS = ("white", "black")


def color_name(value: int | None) -> str | None:
    """``0``/``1`` as the API spells colours (``"white"``/``"black"``), None stays None."""
    return None if value is None else COLORS[value]


class ColorField(serializers.ChoiceField):
    """``"white"`` or ``"black"`` (one ``Color`` enum in the schema, see settings)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=COLORS, **kwargs)


class OptionalColorField(ColorField):
    """``"white"``, ``"black"`` or null."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(allow_null=True, **kwargs)


class VariantField(serializers.ChoiceField):
    """``standard``, ``nackgammon`` or ``hypergammon``, as the models spell them."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=VariantChoice.choices, **kwargs)


# --------------------------------------------------------------------------- request fields
# A request body is read exactly as the schema describes it: what the schema refuses is
# refused (DRF alone would turn 5 into "5", "true" into True, and trim "  x" before
# checking a length), so clients, schemathesis and the service agree.


class StrictCharField(serializers.CharField):
    """Text that must be a JSON string (DRF's own also takes a number and turns it into
    text, which the schema does not allow)."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return str(super().to_internal_value(data))


class TextField(StrictCharField):
    """A string whose limits (length, pattern) hold for the text as sent, as the schema
    states them; the whitespace around it is dropped afterwards."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(trim_whitespace=False, **kwargs)

    def run_validation(self, data: Any = empty) -> Any:
        value = super().run_validation(data)
        return value.strip() if isinstance(value, str) else value


class StrictIntegerField(serializers.IntegerField):
    """A JSON number (DRF's own also takes the string ``"5"``)."""

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int | float):
            self.fail("invalid")
        return int(super().to_internal_value(data))


class StrictBooleanField(serializers.BooleanField):
    """``true`` or ``false`` (DRF's own also takes ``"yes"``, ``1``, ``"on"``...)."""

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid", input=data)
        return data


#: Text without a NUL character (which no database column stores), so the schema agrees
#: with DRF's own ProhibitNullCharactersValidator. ``+``: a field that allows blanks
#: skips its validators for "", and drf-spectacular adds "" as a second ``oneOf`` case,
#: which must not match this one too. (``\Z``: the schema gets ``$``.)
NO_NUL = RegexValidator(r"^[^\x00]+\Z", message=ProhibitNullCharactersValidator.message)


def not_blank(message: StrOrPromise) -> RegexValidator:
    """Something besides whitespace, and no NUL; ``message`` says what to write."""
    return RegexValidator(r"^[^\x00]*[^\s\x00][^\x00]*\Z", message=message)


CUBE_LIMITS = [1 << i for i in range(MAX_CUBE_LIMIT.bit_length())]


@extend_schema_field({"type": "integer", "enum": [*CUBE_LIMITS, None]})
class CubeLimitField(StrictIntegerField):
    """A power of two up to ``MAX_CUBE_LIMIT`` (the service refuses the others)."""


# --------------------------------------------------------------------------- users


class PlayerSerializer(serializers.Serializer):
    username = serializers.CharField()
    display_name = serializers.CharField(source="public_name")
    is_bot = serializers.BooleanField(help_text="A computer player (GNU Backgammon).")


# --------------------------------------------------------------------------- matches


class PairingPlaceSerializer(serializers.Serializer):
    stage = serializers.CharField(help_text="`knockout`, `group` or `swiss`.")
    round = serializers.IntegerField(help_text="The round, from 1.")
    index = serializers.IntegerField(
        help_text="The match's place in its round (its bracket slot), or in a group stage "
        "the group."
    )


@extend_schema_serializer(
    description="What a match belongs to: a tournament (with the pairing that placed it) "
    "or a chouette (this match is one game's board: the box against the captain). Null "
    "for a match of its own. Later versions may add kinds: ignore one you do not know."
)
class BelongsToSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["tournament", "chouette"])
    id = serializers.IntegerField(help_text="The tournament's or the chouette's id.")
    url = serializers.CharField(
        help_text="Its API path: `/api/tournaments/{id}/` or `/api/chouettes/{id}/`."
    )
    name = serializers.CharField(allow_null=True, help_text="The tournament's name.")
    pairing = PairingPlaceSerializer(
        allow_null=True, help_text="A tournament match's place; null for a chouette."
    )
    game = serializers.IntegerField(
        allow_null=True, help_text="The chouette game this match is the board of (1, 2, …)."
    )


class ScoreSerializer(serializers.Serializer):
    white = serializers.IntegerField()
    black = serializers.IntegerField()


class GameSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    state = serializers.CharField()
    winner = serializers.SerializerMethodField()
    termination = serializers.CharField()
    points = serializers.IntegerField()

    @extend_schema_field(OptionalColorField())
    def get_winner(self, game: Any) -> str | None:
        return color_name(game.winner)


@extend_schema_serializer(
    description="A match with its players, options, score and games (the last one is being played)."
)
class MatchSerializer(serializers.ModelSerializer):
    """Read-only; the list view leaves the games out (MatchListSerializer)."""

    white = PlayerSerializer()
    black = PlayerSerializer()
    score = serializers.SerializerMethodField()
    draw_offered_by = serializers.SerializerMethodField()
    games = GameSummarySerializer(many=True)
    result = serializers.ChoiceField(
        choices=Match.Result.choices, allow_blank=True, help_text="Empty while it is played."
    )
    belongs_to = serializers.SerializerMethodField()

    class Meta:
        model = Match
        fields = [
            "id",
            "white",
            "black",
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
            "status",
            "result",
            "termination",
            "score",
            "crawford_played",
            "draw_offered_by",
            "created_at",
            "finished_at",
            "belongs_to",
            "games",
        ]
        read_only_fields = fields

    @extend_schema_field(BelongsToSerializer(allow_null=True))
    def get_belongs_to(self, match: Match) -> dict[str, Any] | None:
        """From the view's ``context["belongings"]`` (``matches.questions.belongings``,
        asked once for a whole list)."""
        belongings = self.context.get("belongings")
        if belongings is None:
            belongings = questions.belongings([match])
        return questions.belonging_data(belongings.get(match.pk))

    @extend_schema_field(ScoreSerializer)
    def get_score(self, match: Match) -> dict[str, int]:
        return {"white": match.score_white, "black": match.score_black}

    @extend_schema_field(OptionalColorField())
    def get_draw_offered_by(self, match: Match) -> str | None:
        return color_name(match.draw_offered_by)


@extend_schema_serializer(
    description="A match as listed: without its games; `current_game` is the one being "
    "played (or the last one)."
)
class MatchListSerializer(MatchSerializer):
    """The list leaves the games out; ``current_game`` is the one being played (or last)."""

    current_game = serializers.IntegerField(source="current_game_pk", allow_null=True)

    class Meta(MatchSerializer.Meta):
        fields = [f for f in MatchSerializer.Meta.fields if f != "games"] + ["current_game"]
        read_only_fields = fields


# --------------------------------------------------------------------------- games


@extend_schema_serializer(
    description="A board from one side: `points[i]` is point `i + 1` counted from that "
    "side. Positive numbers are that side's checkers, negative ones the other side's; "
    "`bar` and `off` are `[that side, the other side]`. That side moves from 24 down to 1."
)
class BoardSerializer(serializers.Serializer):
    """A board from one side: ``points[i]`` is point ``i + 1`` counted from that side.

    Positive numbers are that side's checkers, negative ones the other side's; ``bar`` and
    ``off`` are ``[that side, the other side]``. That side moves from 24 down to 1.
    """

    side = ColorField()
    points = serializers.ListField(child=serializers.IntegerField(), min_length=24, max_length=24)
    bar = serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2)
    off = serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2)


class CubeSerializer(serializers.Serializer):
    value = serializers.IntegerField()
    owner = OptionalColorField()


@extend_schema_serializer(
    description="Who is on turn (while a double or an offer to resign waits: the player "
    "who answers it). A draw offer is answered out of turn: see `awaiting`."
)
class TurnSerializer(serializers.Serializer):
    """Who must act now (while a double or an offer to resign waits: who answers it)."""

    color = ColorField()
    username = serializers.CharField()


@extend_schema_serializer(
    description="An answer the game waits for: whose, to what, and where it is sent. "
    "`decision` is `roll` (roll, or double first where `actions` has `double`), `move`, "
    "`take_or_drop` (a double was offered), `accept_resign` (accept or decline the "
    "opponent's offer to resign: `resign_offer` says what), `accept_draw` (accept or "
    "decline the opponent's draw offer) or `vote` (a chouette member agrees to the team's "
    "double or refuses it). Later versions may add decisions: ignore one you do not know.\n\n"
    "`send_to` is null when the answer is an action on this game (one of `actions`). "
    "Otherwise the answer is not taken on this game: POST it to `send_to` with this "
    "game's `ply`, as that endpoint documents: on a chouette's board, "
    '`/api/chouettes/{id}/vote` (`{"ply", "agree"}`), `/api/chouettes/{id}/answer` (each '
    "member's answer to the box's double) and `/api/chouettes/{id}/box-answer` (the "
    'box\'s answer to the team\'s double), both `{"ply", "take"}`.'
)
class AwaitingSerializer(serializers.Serializer):
    player = serializers.CharField(help_text="The username of whoever must answer.")
    color = ColorField(
        help_text="Their side: on a chouette's board every team member is Black's side."
    )
    decision = serializers.ChoiceField(choices=[d.value for d in Decision])
    send_to = serializers.CharField(
        allow_null=True,
        help_text="Null: answer with an action on this game. Else the API path to POST "
        "the answer to, with this game's `ply`.",
    )


@extend_schema_field(
    {
        "type": "array",
        "items": {
            "type": "array",
            "minItems": 3,
            "maxItems": 3,
            "items": {"oneOf": [{"type": "integer"}, {"type": "boolean"}]},
        },
        "description": "[from, to, hit]: 25 is the bar, 0 is off, from the mover's side.",
    }
)
class StepsField(serializers.JSONField):
    pass


class PlaySerializer(serializers.Serializer):
    notation = serializers.CharField(help_text="Send this as `play` to /move.")
    steps = StepsField()


class EventSerializer(serializers.ModelSerializer):
    color = serializers.SerializerMethodField()
    dice = serializers.SerializerMethodField()
    took_seconds = serializers.SerializerMethodField(
        help_text="On a live clock, how long the player took for this action (a move, a "
        "pass, a double or an answer), from the start of their turn; null otherwise."
    )

    class Meta:
        model = GameEvent
        fields = ["ply", "kind", "color", "dice", "notation", "value", "created_at", "took_seconds"]
        read_only_fields = fields

    @extend_schema_field(OptionalColorField())
    def get_color(self, event: GameEvent) -> str | None:
        return color_name(event.color)

    @extend_schema_field(
        serializers.ListField(
            child=serializers.IntegerField(), min_length=2, max_length=2, allow_null=True
        )
    )
    def get_dice(self, event: GameEvent) -> list[int] | None:
        return list(event.dice) if event.dice else None

    @extend_schema_field(serializers.FloatField(allow_null=True))
    def get_took_seconds(self, event: GameEvent) -> float | None:
        return None if event.took is None else event.took.total_seconds()


class ReservesSerializer(serializers.Serializer):
    white = serializers.FloatField()
    black = serializers.FloatField()


class LiveClockSerializer(serializers.Serializer):
    """A live clock (issue 28): a delay each turn, then the player's reserve."""

    delay_seconds = serializers.IntegerField(help_text="The delay of every turn, run first.")
    reserve_seconds = ReservesSerializer(
        help_text="Each player's reserve as it stood when the turn began."
    )
    turn_started_at = serializers.DateTimeField(help_text="When the turn on the clock began.")
    flag_at = serializers.DateTimeField(
        help_text="When the clock of the player on turn falls: the opponent may then claim."
    )
    time_left_seconds = serializers.FloatField(help_text="What is left of it now.")
    fallen = serializers.BooleanField(
        help_text="It has fallen: the opponent may claim the win (`claim-time`)."
    )


@extend_schema_serializer(
    description="The clock of the player on turn: when their move time runs out, what is "
    "left of their time bank, and their vacation."
)
class ClockSerializer(serializers.Serializer):
    """The clock of the player on turn (issue 4): ``deadline`` is when they lose on time."""

    move_deadline = serializers.DateTimeField(
        allow_null=True, help_text="When the move time runs out; null once the bank is running."
    )
    bank_seconds = serializers.IntegerField(help_text="What is left of their time bank.")
    away_until = serializers.DateField(
        allow_null=True, help_text="Last day of the vacation they are on (their clock stops)."
    )
    live = LiveClockSerializer(
        allow_null=True, help_text="A live clock of seconds; null for days per move."
    )


class ResignationOfferSerializer(serializers.Serializer):
    level = serializers.ChoiceField(
        choices=list(LEVEL_NAMES.values()),
        help_text="A single game, a gammon or a backgammon, times the cube.",
    )
    points = serializers.IntegerField(help_text="The points it gives the opponent.")
    ends_match = serializers.BooleanField(
        help_text="Whether those points end the match (they reach what the opponent needs)."
    )


class PendingResignationSerializer(ResignationOfferSerializer):
    by = ColorField(help_text="Who offered it; the other player answers.")


@extend_schema_serializer(
    description="The full state of a game, as every GET and action returns it.\n\n"
    "`awaiting` lists whose answer the game waits for, to what, and where: the player on "
    "turn, and the answer to a draw offer. `actions` and `plays` are what the requesting "
    "user may do now: a bot needs nothing else. Send the `ply` you saw with each action; "
    "if the game moved on meanwhile you get 409 `stale` and nothing changes.\n\n"
    "A chouette's board (`belongs_to.kind` is `chouette`) is played here (rolls, moves, "
    "resigning), but its cube is the chouette's: `awaiting` names each decision the "
    "chouette waits for with its `send_to`. While the team votes on its double, or its "
    "members answer the box's double, the board is `held`: nobody acts on it, its clock "
    "stops, and `awaiting` lists the votes or answers (or nothing).\n\n"
    "The record (`events`) is listed from ply `events_from` on: all of it for a GET "
    "(unless its `events_from` parameter asks for less); after an action, the plies "
    "that action added, from the one after the `ply` sent."
)
class GameSerializer(serializers.Serializer):
    """The full state of a game, as the API returns it after every GET and action.

    The record (``events``) is listed from ply ``events_from`` on: all of it for a GET
    (unless its ``events_from`` parameter asks for less); after an action, the plies that
    action added, from the one after the ``ply`` sent.

    ``actions`` and ``plays`` are what the requesting user may do now: a bot needs nothing
    else. Send the ``ply`` you saw with each action; if the game moved on meanwhile you
    get 409 ``stale`` and nothing changes.
    """

    id = serializers.IntegerField()
    match = serializers.IntegerField()
    number = serializers.IntegerField()
    next_game = serializers.IntegerField(
        allow_null=True, help_text="The game that followed this one in the match, once it exists."
    )
    variant = VariantField()
    state = serializers.ChoiceField(
        choices=["rolling", "moving", "doubled", "resigning", "finished"],
        help_text="`resigning`: the player on turn answers the opponent's offer to resign.",
    )
    ply = serializers.IntegerField()
    white = PlayerSerializer()
    black = PlayerSerializer()
    viewer_color = OptionalColorField(help_text="The requesting user's colour, if a player.")
    turn = TurnSerializer(allow_null=True)
    held = serializers.BooleanField(
        help_text="The board waits for decisions taken off it (a chouette's vote or answers): "
        "nobody acts on it and its clock stops; `awaiting` says whose and where to send them."
    )
    awaiting = AwaitingSerializer(
        many=True,
        help_text="Every answer the game waits for, the turn's first; empty once it is over. "
        "A bot answers each entry whose `player` it is, on this game or at its `send_to`.",
    )
    belongs_to = BelongsToSerializer(allow_null=True)
    dice = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=6),
        min_length=2,
        max_length=2,
        allow_null=True,
    )
    cube = CubeSerializer()
    crawford = serializers.BooleanField()
    length = serializers.IntegerField(help_text="Match length; 0 for a money session.")
    score = ScoreSerializer(help_text="The match score before this game.")
    deadline = serializers.DateTimeField(allow_null=True)
    clock = ClockSerializer(allow_null=True)
    board = BoardSerializer(help_text="From White's side.")
    viewer_board = BoardSerializer(
        allow_null=True, help_text="From the requesting player's side; null for spectators."
    )
    pips = ScoreSerializer()
    position_id = serializers.CharField(
        allow_null=True, help_text="gnubg Position ID, for the player on roll."
    )
    match_id = serializers.CharField(allow_null=True, help_text="gnubg Match ID.")
    actions = serializers.ListField(
        child=serializers.ChoiceField(
            choices=[
                "roll",
                "double",
                "move",
                "take",
                "drop",
                "offer_resign",
                "accept_resign",
                "decline_resign",
                "resign",
                "offer_draw",
                "accept_draw",
                "decline_draw",
            ]
        )
    )
    plays = PlaySerializer(many=True)
    resignation = serializers.ChoiceField(
        choices=Resignation.choices,
        help_text="How a game of this match is resigned: `offer` (the player on turn offers "
        "a single game, a gammon or a backgammon with `offer-resign`; the opponent accepts "
        "or declines) or `immediate` (`resign` with `scope: game` ends it at once: a gammon "
        "while nothing is borne off, else a single game). Either way `resign` with "
        "`scope: match` resigns the whole match.",
    )
    resign_offers = ResignationOfferSerializer(
        many=True,
        help_text="The offers to resign open to you now (`offer_resign` in `actions`), the "
        "smallest first: only those that make sense here.",
    )
    resign_offer = PendingResignationSerializer(
        allow_null=True, help_text="The offer to resign that waits for an answer, if any."
    )
    winner = OptionalColorField()
    termination = serializers.CharField()
    points = serializers.IntegerField()
    draw_offered_by = OptionalColorField()
    events_from = serializers.IntegerField(
        min_value=1,
        help_text="The ply of the first event listed: 1 when `events` is the whole record "
        "(a GET of the game, by default); after an action, the ply after the one sent: only "
        "the plies the action added are listed (the client has the earlier ones).",
    )
    events = EventSerializer(many=True, help_text="The record from ply `events_from` on.")


class GameQuerySerializer(serializers.Serializer):
    """The query parameters of a GET of one game."""

    events_from = serializers.IntegerField(
        min_value=1,
        required=False,
        default=1,
        help_text="List the record from this ply on (a client that has the earlier plies "
        "need not fetch them again). Default: 1, the whole record.",
    )


class MatExportQuerySerializer(serializers.Serializer):
    """The query parameters of a match's .mat download."""

    header = serializers.ChoiceField(
        choices=["xg", "gnubg"],
        default="xg",
        help_text="`xg`: with the header lines eXtreme Gammon writes (the default); "
        "`gnubg`: exactly as GNU Backgammon's own export writes the file.",
    )


# --------------------------------------------------------------------------- game messages


@extend_schema_serializer(
    description="A message of the game's chat. A message the moderators hid keeps its "
    "place, with `hidden` true and `text` null."
)
class GameMessageSerializer(serializers.ModelSerializer):
    """A message of the game's chat. A message the moderators hid keeps its place in the
    list with ``hidden`` true and ``text`` null (the game page shows a mask there)."""

    author = PlayerSerializer()
    text = serializers.SerializerMethodField()

    class Meta:
        model = GameMessage
        fields = ["id", "author", "text", "hidden", "created_at"]
        read_only_fields = fields

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_text(self, message: GameMessage) -> str | None:
        return None if message.hidden else message.text


@extend_schema_serializer(
    description="A new message: some text besides whitespace, at most "
    f"{GameMessage.MAX_LENGTH} characters."
)
class GameMessageCreateSerializer(serializers.Serializer):
    """A new message. Blank after trimming is refused by the service (``empty_message``)."""

    text = StrictCharField(
        min_length=1,
        max_length=GameMessage.MAX_LENGTH,
        trim_whitespace=False,  # the limits apply to the text as sent; the service trims
        validators=[not_blank(_("Write a message first."))],
        help_text=f"At most {GameMessage.MAX_LENGTH} characters; leading and trailing "
        "whitespace is dropped.",
    )


# --------------------------------------------------------------------------- action bodies


class ActionSerializer(serializers.Serializer):
    ply = StrictIntegerField(
        min_value=0, help_text="The game's `ply` as you last saw it; a stale one gets 409."
    )


class MoveSerializer(ActionSerializer):
    play = TextField(
        min_length=1,
        max_length=80,
        validators=[not_blank(_("That is not a move. Write it like 24/18 13/11, or pass."))],
        help_text="Standard notation, e.g. `24/18 13/11`, `bar/22*`, `6/off`, `8/2(2)`.",
    )


class ResignSerializer(ActionSerializer):
    scope = serializers.ChoiceField(
        choices=["game", "match"],
        help_text="Resign this game only (where the match resigns at once: `resignation` "
        "`immediate`; else 409 `resign_by_offer`), or the whole match.",
    )


class OfferResignSerializer(ActionSerializer):
    level = serializers.ChoiceField(
        choices=list(LEVEL_NAMES.values()),
        help_text="What you offer to lose: one of `resign_offers[].level`.",
    )


__all__ = [
    "ActionSerializer",
    "ErrorSerializer",
    "GameMessageCreateSerializer",
    "GameMessageSerializer",
    "GameQuerySerializer",
    "GameSerializer",
    "MatExportQuerySerializer",
    "MatchListSerializer",
    "MatchSerializer",
    "MoveSerializer",
    "OfferResignSerializer",
    "ResignSerializer",
]
