"""A chouette: its players' seats, its games and the decisions the team and the box take.

The board of each game is an ordinary :class:`matches.models.Match` with
``chouette=True`` (the box White, the captain Black): its record, clock and
moves are the matches app's. What a chouette adds lives here: who sits where
(``Chouette.places``), each seat's running points and time bank, and for every
game its first places and the append-only record of the cube side
(:class:`Decision`: each proposal, vote, double and answer, and who made it).
The cube side's state is never stored: it is the fold of a game's decisions
through :mod:`gammon.chouette` (``chouettes.state``), so it cannot drift from
the record, and its settlement (:class:`Result`) is checked against the fold by
``manage.py replay_chouettes``.
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from gammon import chouette as rules
from matches.models import Match, VariantChoice


class Chouette(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("Open for players")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="chouettes_created"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    open_to_all = models.BooleanField(
        _("open to anyone"),
        default=True,
        help_text=_("Anyone may join until it starts; otherwise only the players invited."),
    )
    max_players = models.PositiveSmallIntegerField(
        _("players at most"),
        default=rules.MAX_PLAYERS,
        validators=[MinValueValidator(rules.MIN_PLAYERS), MaxValueValidator(rules.MAX_PLAYERS)],
    )
    variant = models.CharField(
        _("variant"), max_length=12, choices=VariantChoice.choices, default=VariantChoice.STANDARD
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
    places_from_dice = models.BooleanField(
        _("first places from the dice"),
        default=True,
        help_text=_(
            "Each player rolls a die for the first game's places; otherwise the "
            "order in which they joined decides."
        ),
    )
    #: The places of the game in play, or of the next one: user ids,
    #: ``{"box": id, "captain": id, "line": [id, ...]}``.
    places = models.JSONField(default=dict, blank=True)
    #: The opening dice that gave the first places (``gammon.chouette.Placing.rounds``):
    #: a list of rounds, each a list of ``[user id, die]``.
    opening_rounds = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField()
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "-created_at"], name="chouette_status")]
        permissions = [("moderate_chouette", _("Can remove a player from a chouette"))]

    def __str__(self) -> str:
        return f"Chouette #{self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("chouette_detail", args=[self.pk])

    def rules_options(self) -> rules.ChouetteOptions:
        return rules.ChouetteOptions(
            max_players=self.max_players,
            cube_limit=self.cube_limit,
            automatic_doubles=self.automatic_doubles,
            jacoby=self.jacoby,
            places_from_dice=self.places_from_dice,
        )

    def rules_places(self) -> rules.Places[int]:
        """The stored places as the engine's value."""
        return rules.Places(self.places["box"], self.places["captain"], tuple(self.places["line"]))

    def set_places(self, places: rules.Places[int]) -> None:
        self.places = {"box": places.box, "captain": places.captain, "line": list(places.line)}


class Seat(models.Model):
    """A player's place in a chouette: invited, seated, or gone, with their points."""

    class Status(models.TextChoices):
        INVITED = "invited", _("Invited")
        SEATED = "seated", _("Seated")
        LEFT = "left", _("Left")
        REMOVED = "removed", _("Removed by a moderator")

    chouette = models.ForeignKey(Chouette, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="chouette_seats"
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.SEATED)
    joined_at = models.DateTimeField(null=True, blank=True)
    left_at = models.DateTimeField(null=True, blank=True)
    #: The running points: the sum of the player's :class:`Result` rows.
    points = models.IntegerField(default=0)
    games = models.PositiveIntegerField(default=0)
    bank = models.DurationField(null=True, blank=True)
    #: What the seat becomes when the game in play ends (``left`` or ``removed``): a
    #: player leaves a chouette in play between games.
    leaving = models.CharField(max_length=8, choices=Status.choices, blank=True)
    #: When a decision of theirs off the board (a team vote, an answer to the box's
    #: double) counts as refused or dropped; empty when none is awaited.
    deadline_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["chouette", models.F("joined_at").asc(nulls_last=True), "pk"]
        constraints = [
            models.UniqueConstraint(fields=["chouette", "player"], name="seat_unique_player")
        ]
        indexes = [
            models.Index(
                fields=["deadline_at"], name="seat_deadline", condition=Q(deadline_at__isnull=False)
            ),
            models.Index(fields=["player", "status"], name="seat_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in chouette #{self.chouette_id}"

    @property
    def active(self) -> bool:
        return self.status == self.Status.SEATED


class ChouetteGame(models.Model):
    """One game of a chouette: its board (a one-game money match) and its first places."""

    chouette = models.ForeignKey(Chouette, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveIntegerField()
    match = models.OneToOneField(Match, on_delete=models.PROTECT, related_name="chouette_game")
    #: The places when the game began (user ids, as ``Chouette.places``).
    places = models.JSONField()
    #: Equal opening throws that turned every member's cube (automatic doubles).
    opening_ties = models.PositiveSmallIntegerField(default=0)
    settled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["chouette", "number"]
        constraints = [
            models.UniqueConstraint(fields=["chouette", "number"], name="chouettegame_number")
        ]

    def __str__(self) -> str:
        return f"Game {self.number} of chouette #{self.chouette_id}"

    def get_absolute_url(self) -> str:
        return reverse("chouette_game", args=[self.chouette_id, self.number])

    def rules_places(self) -> rules.Places[int]:
        return rules.Places(self.places["box"], self.places["captain"], tuple(self.places["line"]))


class Decision(models.Model):
    """One entry of a game's cube-side record, in order: who decided what, at which ply."""

    class Kind(models.TextChoices):
        PROPOSE = "propose", _("Proposed the team's double")
        VOTE = "vote", _("Voted on the team's double")
        BOX_ANSWER = "box_answer", _("Answered the team's double")
        BOX_DOUBLE = "box_double", _("Doubled the team")
        ANSWER = "answer", _("Answered the box's double")

    game = models.ForeignKey(ChouetteGame, on_delete=models.CASCADE, related_name="decisions")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=10, choices=Kind.choices)
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    #: A vote's yes, a take; empty for a proposal or a double.
    yes = models.BooleanField(null=True)
    #: Not answered in time: a vote refused, a double dropped.
    timed_out = models.BooleanField(default=False)
    #: The board's ply when the decision was made.
    ply = models.PositiveIntegerField()
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["game", "seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="decision_seq")]

    def __str__(self) -> str:
        return f"{self.game}: {self.kind} by {self.player_id}"


class Result(models.Model):
    """What one player won or lost in a game (the box's row is the opposite of the rest)."""

    class Role(models.TextChoices):
        BOX = "box", _("Box")
        CAPTAIN = "captain", _("Captain")
        MEMBER = "member", _("Team member")

    game = models.ForeignKey(ChouetteGame, on_delete=models.CASCADE, related_name="results")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="chouette_results"
    )
    role = models.CharField(max_length=8, choices=Role.choices)
    stake = models.PositiveIntegerField(default=0)
    dropped = models.BooleanField(default=False)
    points = models.IntegerField()

    class Meta:
        ordering = ["game", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="result_unique_player")
        ]

    def __str__(self) -> str:
        return f"{self.game}: {self.player_id} {self.points:+d}"


class Suggestion(models.Model):
    """A team member's suggested play for the captain, for one roll (the latest counts)."""

    game = models.ForeignKey(ChouetteGame, on_delete=models.CASCADE, related_name="suggestions")
    ply = models.PositiveIntegerField()
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    play = models.CharField(max_length=80)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["game", "ply", "created_at"]
        constraints = [
            models.UniqueConstraint(fields=["game", "ply", "author"], name="suggestion_unique")
        ]

    def __str__(self) -> str:
        return f"{self.game} ply {self.ply}: {self.play}"


class Message(models.Model):
    """A message to the whole table, or to the team only (the box never reads those)."""

    MAX_LENGTH = 500

    chouette = models.ForeignKey(Chouette, on_delete=models.CASCADE, related_name="messages")
    #: The game it was written in; a team message is read by that game's team.
    game = models.ForeignKey(ChouetteGame, on_delete=models.CASCADE, related_name="messages")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chouette_messages"
    )
    team = models.BooleanField(_("team only"), default=False)
    text = models.CharField(_("message"), max_length=MAX_LENGTH)
    created_at = models.DateTimeField(_("sent"))
    hidden = models.BooleanField(_("hidden"), default=False)
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    hidden_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["chouette", "created_at", "pk"]
        indexes = [models.Index(fields=["chouette", "created_at"], name="chouettemessage_time")]
        permissions = [("hide_message", _("Can hide a chouette message"))]

    def __str__(self) -> str:
        return f"Message #{self.pk} in chouette #{self.chouette_id}"
