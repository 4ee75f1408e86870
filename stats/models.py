"""Counters, ratings and rating history.

The statistics pages read only these small tables, never the games table, so they
cost the same at two thousand games as at two million. Each counter is one row,
incremented (``UPDATE … SET count = count + n``, :func:`stats.services.bump`) in the
transaction that ended the game, so concurrent finishes never lose a count and a
rolled-back game never leaves one behind. The dice are counted after the fact, from the
record, by the beat (:mod:`stats.dice`), up to the event its :class:`Cursor` names.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .maths import INITIAL_EXPERIENCE, INITIAL_RATING

#: Finished rated matches a player needs to appear on the leaderboard.
LEADERBOARD_MIN_MATCHES = 5


class Counter(models.Model):
    """One named count, site-wide (``player`` empty) or for one player.

    Keys (``v`` a variant, ``c`` a colour ``white``/``black``):

    - site: ``game:v:white|black|draw``, ``game:v:end:<termination>``,
      ``match:v:white|black|draw``, ``roll:<low><high>`` (21 rolls),
      ``opening:<face>`` (each die of an opening roll, as a single die);
    - player: ``game:v:c:won|lost|drawn``, ``match:v:c:won|lost|drawn``,
      ``gammon:won|lost``, ``backgammon:won|lost``, ``roll:<low><high>``,
      ``opening:<face>`` (their own die of each opening roll).

    A key-value row rather than a wide row keeps adding a statistic a code change
    only, and keeps the hot rows (one per roll kind) many rather than one.
    """

    # No index of its own: ``counter_unique_player_key`` (player, key) serves it.
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="stat_counters",
        db_index=False,
    )
    key = models.CharField(max_length=40)
    count = models.BigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["player", "key"],
                name="counter_unique_player_key",
                condition=Q(player__isnull=False),
            ),
            models.UniqueConstraint(
                fields=["key"], name="counter_unique_site_key", condition=Q(player__isnull=True)
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_id or 'site'} {self.key}={self.count}"


class Cursor(models.Model):
    """How far a count kept from the record has got: every event up to ``event_id`` is
    counted, and ``counted_until`` is the moment the figures are fresh to (the page says
    it). One row per count, by ``name``; the dice's is ``dice`` (:mod:`stats.dice`), made
    by the migration at the record's last event, which the receivers had counted then."""

    name = models.CharField(max_length=40, unique=True)
    event_id = models.BigIntegerField(default=0)
    counted_until = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.name}: events up to {self.event_id}"


class PlayerStats(models.Model):
    """A player's rating, experience and last activity: one row, locked to rate a match."""

    player = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="stats",
    )
    rating = models.FloatField(_("rating"), default=INITIAL_RATING)
    best_rating = models.FloatField(_("best rating"), default=INITIAL_RATING)
    experience = models.PositiveIntegerField(_("experience"), default=INITIAL_EXPERIENCE)
    rated_matches = models.PositiveIntegerField(_("rated matches"), default=0)
    last_active_at = models.DateTimeField(null=True, blank=True, db_index=True)

    class Meta:
        verbose_name_plural = _("player statistics")
        indexes = [
            models.Index(
                fields=["-rating"],
                name="playerstats_leaderboard",
                condition=Q(rated_matches__gte=LEADERBOARD_MIN_MATCHES),
            )
        ]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.rating:.2f} ({self.experience})"


class RatingHistory(models.Model):
    """A player's rating after each rated match they finished: the rating chart's points."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_history"
    )
    match = models.ForeignKey("matches.Match", on_delete=models.CASCADE, related_name="+")
    rating = models.FloatField()
    experience = models.PositiveIntegerField()
    change = models.FloatField()
    at = models.DateTimeField()

    class Meta:
        # Rows of one player are written under the lock on their stats row, so id order is
        # the order the changes were applied in (``at`` can tie or cross under concurrency).
        ordering = ["player", "pk"]
        verbose_name_plural = _("rating history")
        constraints = [
            models.UniqueConstraint(fields=["player", "match"], name="ratinghistory_unique")
        ]
        indexes = [models.Index(fields=["player", "at"], name="ratinghistory_player_at")]

    def __str__(self) -> str:
        return f"{self.player_id} after match {self.match_id}: {self.rating:.2f}"
