"""Matches, games and the append-only record of every turn.

A game's board is stored from White's side (White moves 24 -> 1), whoever is
on roll, so that a row reads the same in the admin, the API and the replay
check. The engine wants the board from the side of the player on roll;
:meth:`Game.position` does that turn.

A ``Game`` row caches the state its record leads to: the services move it on only by
:func:`matches.state.advance`, one event at a time (:meth:`Game.game_state`,
:meth:`Game.set_game_state`), and ``manage.py replay_games`` checks it. The stored
choices of ``Game.state`` and ``GameEvent.kind`` are the state machine's enums.
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from gammon import BoardView, Color, Position, Termination, Variant

from .state import EventKind, GameState, Stage

#: The highest cube limit: the largest power of two the column holds (a small integer,
#: at most 32767 on PostgreSQL).
MAX_CUBE_LIMIT = 1 << 14

START_BOARD: dict[str, list[int]] = {"points": [0] * 24, "bar": [0, 0], "off": [0, 0]}


class VariantChoice(models.TextChoices):
    STANDARD = Variant.STANDARD.value, _("Standard")
    NACKGAMMON = Variant.NACKGAMMON.value, _("Nackgammon")
    HYPERGAMMON = Variant.HYPERGAMMON.value, _("Hypergammon")


class Resignation(models.TextChoices):
    """How a game is resigned (a match option).

    ``offer``, the standard (GNU Backgammon, FIBS, DailyGammon): the player on turn
    offers a single game, a gammon or a backgammon, and the opponent accepts or declines;
    a declined offer costs nothing. ``immediate``, the site's first rule: the game ends at
    once, a gammon while the resigner has borne off nothing, else a single game.
    """

    OFFER = "offer", _("Offered to the opponent, who accepts or declines")
    IMMEDIATE = "immediate", _("At once: a gammon while nothing is borne off")


class MatchOptions(models.Model):
    """What a challenge offers and a match is then played with."""

    variant = models.CharField(
        _("variant"), max_length=12, choices=VariantChoice.choices, default=VariantChoice.STANDARD
    )
    length = models.PositiveSmallIntegerField(
        _("match length"),
        default=5,
        validators=[MaxValueValidator(25)],
        help_text=_("Points to win; 0 for a money session."),
    )
    days_per_move = models.PositiveSmallIntegerField(
        _("days per move"), default=3, validators=[MinValueValidator(1), MaxValueValidator(30)]
    )
    time_bank_days = models.PositiveSmallIntegerField(
        _("time bank (days)"), default=0, validators=[MaxValueValidator(365)]
    )
    cube_limit = models.PositiveSmallIntegerField(
        _("cube limit"), null=True, blank=True, default=64, help_text=_("Empty for no limit.")
    )
    jacoby = models.BooleanField(_("Jacoby rule"), default=False)
    automatic_doubles = models.BooleanField(_("automatic doubles"), default=False)
    rated = models.BooleanField(_("rated"), default=True)
    resignation = models.CharField(
        _("resignation"), max_length=10, choices=Resignation.choices, default=Resignation.OFFER
    )
    #: A live clock (issue 28) instead of days per move: each turn a delay of this many
    #: seconds runs first, then the player's reserve (``live_reserve`` seconds a match,
    #: kept in ``Match.bank_white``/``bank_black``). Empty: a correspondence match.
    live_delay = models.PositiveSmallIntegerField(
        _("delay per turn (seconds)"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(600)],
        help_text=_("A live clock; empty for days per move."),
    )
    live_reserve = models.PositiveSmallIntegerField(
        _("reserve (seconds)"), null=True, blank=True, validators=[MaxValueValidator(3600)]
    )
    #: What a claimed time-out costs in a match longer than one point: the game as a
    #: gammon (seed 004's rule, the default) or the whole match.
    timeout_loses_match = models.BooleanField(
        _("a claimed time-out loses the match"), default=False
    )

    class Meta:
        abstract = True

    @property
    def is_live(self) -> bool:
        """Played on a live clock of seconds (``live_delay``), not days per move."""
        return self.live_delay is not None

    @property
    def is_money(self) -> bool:
        return self.length == 0

    @property
    def checkers(self) -> int:
        return Variant(self.variant).checkers


class Match(MatchOptions):
    class Status(models.TextChoices):
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")

    class Result(models.TextChoices):
        WHITE = "white", _("White won")
        BLACK = "black", _("Black won")
        DRAW = "draw", _("Draw")
        CANCELLED = "cancelled", _("Cancelled")

    white = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="matches_as_white"
    )
    black = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="matches_as_black"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    result = models.CharField(max_length=10, choices=Result.choices, blank=True)
    termination = models.CharField(max_length=12, blank=True)
    score_white = models.PositiveSmallIntegerField(default=0)
    score_black = models.PositiveSmallIntegerField(default=0)
    crawford_played = models.BooleanField(default=False)
    draw_offered_by = models.PositiveSmallIntegerField(null=True, blank=True)
    bank_white = models.DurationField(null=True, blank=True)
    bank_black = models.DurationField(null=True, blank=True)
    #: A chouette's board (issue 16): one game of a money session, the box (White) against
    #: the team's captain (Black), which ends the match. The ``chouettes`` app keeps the
    #: members, their stakes and the cube decisions; the board's own cube actions, draws
    #: and chat go through it (the services here refuse them, code ``chouette``), and the
    #: players' match records and ratings leave it out.
    chouette = models.BooleanField(default=False)
    created_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = _("matches")
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "-finished_at"], name="match_status_finished")]
        permissions = [("adjudicate_match", _("Can adjudicate a match"))]

    def __str__(self) -> str:
        return f"Match #{self.pk}: {self.white} vs {self.black}"

    def get_absolute_url(self) -> str:
        return reverse("match_detail", args=[self.pk])

    def player(self, color: Color) -> User:
        return self.white if color == Color.WHITE else self.black

    def color_of(self, user: object) -> Color | None:
        user_id = getattr(user, "pk", None)
        if user_id == self.white_id:
            return Color.WHITE
        if user_id == self.black_id:
            return Color.BLACK
        return None

    @property
    def score(self) -> tuple[int, int]:
        return (self.score_white, self.score_black)

    @property
    def current_game(self) -> Game | None:
        return self.games.order_by("-number").first()


#: Labels of the engine's :class:`gammon.Termination`, the one definition of how a game
#: ends; the stored value is the enum's, so ``game.termination == Termination.TIMEOUT``.
TERMINATION_LABELS: dict[Termination, Promise] = {
    Termination.SINGLE: _("Single game"),
    Termination.GAMMON: _("Gammon"),
    Termination.BACKGAMMON: _("Backgammon"),
    Termination.DROP: _("Double dropped"),
    Termination.RESIGN: _("Resignation"),
    Termination.TIMEOUT: _("Time-out"),
    Termination.TIME_CLAIM: _("Time-out claimed"),
    Termination.DRAW: _("Draw"),
    Termination.ADJUDICATED: _("Adjudicated"),
    Termination.CANCELLED: _("Cancelled"),
}
TERMINATION_CHOICES = [(t.value, TERMINATION_LABELS[t]) for t in Termination]


class Game(models.Model):
    class State(models.TextChoices):
        """The stored :class:`matches.state.Stage` (its values, with labels)."""

        ROLLING = Stage.ROLLING.value, _("To roll or double")
        MOVING = Stage.MOVING.value, _("To move")
        DOUBLED = Stage.DOUBLED.value, _("Answering a double")
        RESIGNING = Stage.RESIGNING.value, _("Answering an offer to resign")
        FINISHED = Stage.FINISHED.value, _("Finished")

    # No index of its own: ``game_unique_number`` (match, number) serves it, and every
    # move's UPDATE (deadline_at is indexed, so it is never a HOT update) writes one less.
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games", db_index=False)
    number = models.PositiveSmallIntegerField()
    state = models.CharField(max_length=10, choices=State.choices, default=State.ROLLING)
    turn = models.PositiveSmallIntegerField(help_text="0 white, 1 black: whose action it is")
    board = models.JSONField(default=dict, help_text="From White's side: points, bar, off")
    die1 = models.PositiveSmallIntegerField(null=True, blank=True)
    die2 = models.PositiveSmallIntegerField(null=True, blank=True)
    cube_value = models.PositiveSmallIntegerField(default=1)
    cube_owner = models.PositiveSmallIntegerField(null=True, blank=True)
    crawford = models.BooleanField(default=False)
    automatic_doubles = models.PositiveSmallIntegerField(default=0)
    ply = models.PositiveIntegerField(default=0)
    deadline_at = models.DateTimeField(null=True, blank=True)
    #: When the turn (or the answer) of the player on turn began: a live clock runs from
    #: it (``matches.timecontrol.live_flag_at``), and a live record's ``took`` is
    #: measured from it. A live game has no ``deadline_at``: its time-out is claimed.
    turn_started_at = models.DateTimeField(null=True, blank=True)
    #: The board waits for a decision taken off it (a chouette team's vote, or each
    #: member's answer to the box's double): no one acts on it and its clock is stopped
    #: (``deadline_at`` is empty) until :func:`matches.record.release`.
    held = models.BooleanField(default=False)
    #: Who has offered a draw since their turn began (bit ``1 << color``): a player offers
    #: once a turn (:func:`matches.endings.match_offer_draw`), and their bit is cleared
    #: when their next turn begins (:func:`matches.record.begin_turn`).
    draw_offers = models.PositiveSmallIntegerField(default=0)
    #: The resignation on offer while the game is ``resigning`` (1, 2, 3: a single game, a
    #: gammon, a backgammon), and the highest one declined this turn: the record's
    #: (:class:`matches.state.GameState`), kept here as the rest of its state is.
    resign_offer = models.PositiveSmallIntegerField(default=0)
    resign_declined = models.PositiveSmallIntegerField(default=0)
    winner = models.PositiveSmallIntegerField(null=True, blank=True)
    termination = models.CharField(max_length=12, choices=TERMINATION_CHOICES, blank=True)
    points = models.PositiveSmallIntegerField(default=0)
    started_at = models.DateTimeField()
    updated_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="game_unique_number"),
        ]
        indexes = [
            models.Index(
                fields=["deadline_at"],
                name="game_active_deadline",
                condition=~Q(state="finished"),
            ),
            # Recent time-outs, for the moderators' overview (moderation.selectors).
            models.Index(
                fields=["finished_at"],
                name="game_timeout_finished",
                condition=Q(termination="timeout"),
            ),
        ]
        permissions = [("extend_deadline", _("Can extend a game's deadline"))]

    def __str__(self) -> str:
        return f"Game {self.number} of match #{self.match_id}"

    def get_absolute_url(self) -> str:
        return reverse("game_detail", args=[self.pk])

    def record(self, event: GameEvent) -> None:
        """Append ``event`` to the record, to be written by :meth:`take_unwritten_events`'s
        caller (the service that changed the game, in the same transaction).

        A turn often adds several rows (a move, then the opponent's roll or pass): the
        service writes them in one ``bulk_create`` after the game row.
        """
        self.__dict__.setdefault("_unsaved_events", []).append(event)
        self.__dict__.setdefault("_new_events", []).append(event)

    def take_unwritten_events(self) -> list[GameEvent]:
        """The rows :meth:`record` added since the last call, for the caller to write."""
        return self.__dict__.pop("_unsaved_events", [])

    @property
    def new_events(self) -> list[GameEvent]:
        """The rows :meth:`record` added through this instance, in order: what an action
        added, for a response that lists it without reading the record again."""
        return list(self.__dict__.get("_new_events", ()))

    @property
    def turn_color(self) -> Color:
        return Color(self.turn)

    def has_offered_draw(self, color: Color) -> bool:
        """Whether ``color`` has offered a draw since their turn began (:attr:`draw_offers`)."""
        return bool(self.draw_offers & (1 << int(color)))

    def note_draw_offer(self, color: Color, offered: bool = True) -> None:
        """Mark ``color``'s draw offer of this turn (``offered=False``: their turn began)."""
        bit = 1 << int(color)
        self.draw_offers = self.draw_offers | bit if offered else self.draw_offers & ~bit

    @property
    def dice(self) -> tuple[int, int] | None:
        if self.die1 is None or self.die2 is None:
            return None
        return (self.die1, self.die2)

    @property
    def is_finished(self) -> bool:
        return self.state == self.State.FINISHED

    def game_state(self) -> GameState | None:
        """The state the record gives this game, read off the row (None before the
        opening roll): what :func:`matches.state.advance` moves on."""
        if self.ply == 0:
            return None
        return GameState(
            board=self.white_view(),
            turn=Color(self.turn),
            stage=Stage(self.state),
            cube_value=self.cube_value,
            cube_owner=None if self.cube_owner is None else Color(self.cube_owner),
            dice=self.dice,
            ply=self.ply,
            winner=None if self.winner is None else Color(self.winner),
            points=self.points,
            resign_offer=self.resign_offer,
            resign_declined=self.resign_declined,
        )

    def set_game_state(self, state: GameState) -> None:
        """Store ``state`` on the row (in memory; the service saves it)."""
        self.board = state.board.to_dict()
        self.turn = int(state.turn)
        self.state = state.stage.value
        self.die1, self.die2 = state.dice or (None, None)
        self.cube_value = state.cube_value
        self.cube_owner = None if state.cube_owner is None else int(state.cube_owner)
        self.ply = state.ply
        self.winner = None if state.winner is None else int(state.winner)
        self.points = state.points
        self.resign_offer = state.resign_offer
        self.resign_declined = state.resign_declined

    def white_view(self) -> BoardView:
        """The stored board (``board``): from White's side, whoever is on turn."""
        return BoardView.from_dict(self.board)

    def position(self) -> Position:
        """The engine's position: the mover's view, from the side of the colour on turn."""
        return Position.from_white_view(self.white_view(), turn=self.turn_color)

    def set_position(self, position: Position) -> None:
        """Store ``position`` (the mover's view, whoever is on roll) from White's side."""
        self.board = position.to_white_view().to_dict()


class GameEvent(models.Model):
    """One entry of the game record. Rows are only ever appended: ``unique(game, ply)``."""

    class Kind(models.TextChoices):
        """The stored :class:`matches.state.EventKind` (its values, with labels)."""

        OPENING = EventKind.OPENING.value, _("Opening roll")
        ROLL = EventKind.ROLL.value, _("Roll")
        MOVE = EventKind.MOVE.value, _("Move")
        PASS = EventKind.PASS.value, _("Pass")
        DOUBLE = EventKind.DOUBLE.value, _("Double")
        TAKE = EventKind.TAKE.value, _("Take")
        DROP = EventKind.DROP.value, _("Drop")
        RESIGN = EventKind.RESIGN.value, _("Resign")
        RESIGN_OFFER = EventKind.RESIGN_OFFER.value, _("Offer to resign")
        RESIGN_DECLINE = EventKind.RESIGN_DECLINE.value, _("Resignation declined")
        RESIGN_ACCEPT = EventKind.RESIGN_ACCEPT.value, _("Resignation accepted")
        TIMEOUT = EventKind.TIMEOUT.value, _("Time-out")
        TIMEOUT_CLAIM = EventKind.TIMEOUT_CLAIM.value, _("Time-out claimed")
        DRAW_OFFER = EventKind.DRAW_OFFER.value, _("Draw offered")
        DRAW_DECLINE = EventKind.DRAW_DECLINE.value, _("Draw declined")
        DRAW = EventKind.DRAW.value, _("Draw agreed")
        WIN = EventKind.WIN.value, _("Win")
        ADJUDICATE = EventKind.ADJUDICATE.value, _("Adjudicated")

    # No index of its own: ``gameevent_unique_ply`` (game, ply) serves it.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events", db_index=False)
    ply = models.PositiveIntegerField()
    kind = models.CharField(max_length=14, choices=Kind.choices)
    color = models.PositiveSmallIntegerField(null=True, blank=True)
    die1 = models.PositiveSmallIntegerField(null=True, blank=True)
    die2 = models.PositiveSmallIntegerField(null=True, blank=True)
    notation = models.CharField(max_length=80, blank=True)
    value = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField()
    #: On a live clock, how long the player took for this action (a move, a pass, a
    #: double or an answer), from the start of their turn: the record keeps the clock.
    took = models.DurationField(null=True, blank=True)

    class Meta:
        ordering = ["game", "ply"]
        constraints = [
            models.UniqueConstraint(fields=["game", "ply"], name="gameevent_unique_ply"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}:{self.ply} {self.kind} {self.notation}"

    @property
    def dice(self) -> tuple[int, int] | None:
        if self.die1 is None or self.die2 is None:
            return None
        return (self.die1, self.die2)


class GameMessage(models.Model):
    """A short message one player sends the other within a game (issue 6).

    Moderators may hide one (``hidden``): it stays in the table, for the record and
    for the reports that point at it, but players no longer see its text.
    """

    MAX_LENGTH = 500

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="messages", verbose_name=_("game")
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="game_messages",
        verbose_name=_("author"),
    )
    text = models.CharField(_("message"), max_length=MAX_LENGTH)
    created_at = models.DateTimeField(_("sent"))
    hidden = models.BooleanField(_("hidden"), default=False)
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("hidden by"),
    )
    hidden_at = models.DateTimeField(_("hidden at"), null=True, blank=True)

    class Meta:
        verbose_name = _("game message")
        verbose_name_plural = _("game messages")
        ordering = ["game", "created_at", "pk"]
        indexes = [models.Index(fields=["game", "created_at"], name="gamemessage_game")]
        permissions = [("hide_gamemessage", _("Can hide a game message"))]

    def __str__(self) -> str:
        return f"Message #{self.pk} by {self.author_id} in game {self.game_id}"


class Vacation(models.Model):
    """A player away from ``start`` to ``end`` (both inclusive, dates in their zone).

    ``starts_at``/``ends_at`` are the instants, fixed when the vacation is taken
    (midnight at the start of ``start`` to midnight after ``end`` in the player's
    time zone then). While a vacation runs the player's clocks stop in every game.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="vacations",
        verbose_name=_("player"),
    )
    start = models.DateField(_("first day"))
    end = models.DateField(_("last day"))
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["user", "starts_at"]
        indexes = [models.Index(fields=["user", "ends_at"], name="vacation_user_end")]
        constraints = [
            models.CheckConstraint(condition=Q(end__gte=models.F("start")), name="vacation_order")
        ]

    def __str__(self) -> str:
        return f"{self.user} away {self.start}..{self.end}"

    @property
    def days(self) -> int:
        return (self.end - self.start).days + 1
