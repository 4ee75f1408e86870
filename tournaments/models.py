"""Tournaments: their options, the players entered, and the matches of every round.

A tournament match is an ordinary :class:`matches.models.Match` (the same clock,
notifications, ratings, analysis and export), tied to its place in the tournament by a
:class:`Pairing` row: the stage (a knock-out bracket, a round-robin group, a Swiss
round), the round and the index of the match within it. ``unique(tournament, stage,
round, index)`` is what makes advancing idempotent: a pairing made twice, by a beat
task run twice or by two matches ending at once, is refused by the database, and the
services create only the pairings missing. Who meets whom is
:mod:`gammon.tournament`'s decision, read off the stored results.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from matches.models import Match, VariantChoice


class Format(models.TextChoices):
    KNOCKOUT = "knockout", _("Knock-out")
    ROUND_ROBIN = "round_robin", _("Round-robin")
    SWISS = "swiss", _("Swiss")


class TournamentOptions(models.Model):
    """What a tournament is played with; a schedule's editions copy them."""

    name = models.CharField(_("name"), max_length=100)
    description = models.TextField(_("description"), max_length=2000, blank=True)
    format = models.CharField(_("format"), max_length=12, choices=Format.choices)
    length = models.PositiveSmallIntegerField(
        _("match length"),
        default=5,
        validators=[MinValueValidator(1), MaxValueValidator(21)],
        help_text=_("Points to win each match: an odd number from 1 to 21."),
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
    rated = models.BooleanField(_("rated"), default=True)
    min_players = models.PositiveSmallIntegerField(
        _("players at least"), default=4, validators=[MinValueValidator(2)]
    )
    max_players = models.PositiveSmallIntegerField(
        _("players at most"), default=64, validators=[MaxValueValidator(4096)]
    )
    rating_min = models.FloatField(_("lowest rating"), null=True, blank=True)
    rating_max = models.FloatField(_("highest rating"), null=True, blank=True)
    invitation_only = models.BooleanField(_("invitation only"), default=False)
    #: Swiss: the rounds to play. A knock-out: its bracket's rounds, set when it begins.
    rounds = models.PositiveSmallIntegerField(_("Swiss rounds"), default=0)
    #: Round-robin: the players in a group (0: one group of everyone).
    group_size = models.PositiveSmallIntegerField(_("group size"), default=0)
    #: Round-robin: the group winners go on to a knock-out.
    knockout_after = models.BooleanField(_("group winners play a knock-out"), default=False)

    class Meta:
        abstract = True


class Tournament(TournamentOptions):
    class Status(models.TextChoices):
        REGISTERING = "registering", _("Registration open")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournaments_created"
    )
    schedule = models.ForeignKey(
        "Schedule", on_delete=models.SET_NULL, null=True, blank=True, related_name="editions"
    )
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.REGISTERING)
    registration_opens_at = models.DateTimeField(_("registration opens"))
    starts_at = models.DateTimeField(_("starts"))
    created_at = models.DateTimeField()
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    #: Why it was cancelled (too few players, a moderator's reason).
    cancel_reason = models.CharField(max_length=200, blank=True)
    winner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-starts_at", "-pk"]
        indexes = [models.Index(fields=["status", "starts_at"], name="tournament_status")]
        permissions = [("manage_tournament", _("Can create and run tournaments"))]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournament_detail", args=[self.pk])


class Entry(models.Model):
    """A player entered in a tournament, with their seed and how far they got."""

    class Status(models.TextChoices):
        REGISTERED = "registered", _("Registered")
        PLAYING = "playing", _("Playing")
        ELIMINATED = "eliminated", _("Eliminated")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        FINISHED = "finished", _("Finished")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournament_entries"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.REGISTERED)
    #: The rating at registration, then at the start (the seeding's).
    rating = models.FloatField()
    #: 1 for the best seed, set at the start.
    seed = models.PositiveIntegerField(null=True, blank=True)
    #: Round-robin: the group (from 1).
    group = models.PositiveSmallIntegerField(null=True, blank=True)
    #: The final place (1 the winner), set when the tournament ends or the player goes out.
    rank = models.PositiveIntegerField(null=True, blank=True)
    registered_at = models.DateTimeField()
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "seed", "registered_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="entry_unique_player")
        ]
        indexes = [models.Index(fields=["player", "status"], name="entry_player")]
        verbose_name_plural = _("entries")

    def __str__(self) -> str:
        return f"{self.player} in {self.tournament}"


class Invitation(models.Model):
    """A player invited to an invitation-only tournament."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="invitations")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="invitation_unique")
        ]

    def __str__(self) -> str:
        return f"{self.player} invited to {self.tournament}"


class Pairing(models.Model):
    """One match of a tournament at its place: the stage, the round, the index in it."""

    class Stage(models.TextChoices):
        KNOCKOUT = "knockout", _("Knock-out")
        GROUP = "group", _("Group")
        SWISS = "swiss", _("Swiss")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="pairings")
    stage = models.CharField(max_length=8, choices=Stage.choices)
    #: The round, from 1; in a group stage, the group.
    round = models.PositiveSmallIntegerField()
    #: The match's index in its round (its bracket slot) or in its group.
    index = models.PositiveIntegerField()
    white = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="+")
    #: Empty for a Swiss bye (the player scores a win without a match).
    black = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="+", null=True)
    match = models.OneToOneField(
        Match, on_delete=models.PROTECT, null=True, blank=True, related_name="tournament_pairing"
    )
    winner = models.ForeignKey(
        Entry, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    #: Points each scored (the match's score): the round-robin's points difference.
    white_points = models.PositiveSmallIntegerField(default=0)
    black_points = models.PositiveSmallIntegerField(default=0)
    #: Won without play: the opponent withdrew, or a Swiss bye.
    forfeit = models.BooleanField(default=False)
    created_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "stage", "round", "index"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "stage", "round", "index"], name="pairing_place"
            ),
        ]
        indexes = [
            models.Index(
                fields=["tournament"], name="pairing_open", condition=Q(winner__isnull=True)
            )
        ]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.stage} round {self.round} #{self.index}"


class Schedule(TournamentOptions):
    """A repeating tournament: every ``every_days`` an edition opens for registration,
    starting ``registration_days`` later."""

    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    active = models.BooleanField(default=True)
    every_days = models.PositiveSmallIntegerField(
        _("every (days)"), default=7, validators=[MinValueValidator(1)]
    )
    registration_days = models.PositiveSmallIntegerField(
        _("registration (days)"), default=3, validators=[MinValueValidator(1)]
    )
    #: When the next edition starts (its registration opens ``registration_days`` before).
    next_start_at = models.DateTimeField(_("next start"))

    class Meta:
        ordering = ["next_start_at"]

    def __str__(self) -> str:
        return self.name

    @property
    def next_opens_at(self) -> datetime:
        """When the next edition opens for registration."""
        return self.next_start_at - timedelta(days=self.registration_days)
