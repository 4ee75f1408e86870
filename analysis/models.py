"""A finished match's analysis by GNU Backgammon: its state, each player's figures, and
every decision, tied to the game and the ply of our record.

- :class:`MatchAnalysis`, one per match: queued, running (with games done of total, for
  the progress shown), done or failed. Its figures and decisions are stored in the one
  transaction that marks it done, so a reader never sees half an analysis.
- :class:`PlayerAnalysis`, two per done analysis (White, Black): the figures of gnubg's
  ``show statistics match`` (see :class:`gnubg_bridge.analysis.PlayerFigures`).
- :class:`Decision`, one per play, cube action and missed double that gnubg flags, read
  per game and ply (``Decision.objects.filter(game=game)``, indexed on ``(game, ply)``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from matches.models import Game, Match


class MatchAnalysis(models.Model):
    """The analysis of one match, and where it stands.

    ``plies`` is the level (0 to 2, chequer play and cube alike); ``games_done`` of
    ``games_total`` is the progress while running; ``error`` says why a run failed;
    ``attempts`` counts the runs started. ``heartbeat_at`` moves with each game analysed:
    a running analysis whose heartbeat is old lost its worker, and the sweeper queues it
    again (:func:`analysis.services.analyses_stalled`).
    """

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    match = models.OneToOneField(
        Match, on_delete=models.CASCADE, primary_key=True, related_name="analysis"
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    plies = models.PositiveSmallIntegerField(_("level (plies)"), default=0)
    games_done = models.PositiveSmallIntegerField(default=0)
    games_total = models.PositiveSmallIntegerField(default=0)
    attempts = models.PositiveSmallIntegerField(default=0)
    error = models.TextField(blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    requested_at = models.DateTimeField()
    started_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("match analysis")
        verbose_name_plural = _("match analyses")
        indexes = [models.Index(fields=["status", "heartbeat_at"], name="analysis_status")]

    def __str__(self) -> str:
        return f"Analysis of match #{self.match_id} ({self.status})"

    @property
    def is_done(self) -> bool:
        return self.status == self.Status.DONE

    @property
    def is_pending(self) -> bool:
        return self.status in (self.Status.QUEUED, self.Status.RUNNING)


class PlayerAnalysis(models.Model):
    """One player's figures: ``color`` 0 White, 1 Black.

    ``figures`` holds every number of :class:`gnubg_bridge.analysis.PlayerFigures` by its
    field name (errors positive, EMG and MWC as fractions); ``texts`` the figures as
    gnubg's table prints them, by section and label (``texts["Overall statistics"]
    ["Error rate mEMG (MWC)"]``), which the page shows. ``pr`` is 500 × (chequer error EMG
    + cube error EMG) / (unforced moves + close cube decisions); the ratings are gnubg's
    names ("World class", "Expert"…, or "n/a").
    """

    analysis = models.ForeignKey(MatchAnalysis, on_delete=models.CASCADE, related_name="players")
    color = models.PositiveSmallIntegerField()
    pr = models.FloatField(null=True)
    chequer_rating = models.CharField(max_length=20)
    cube_rating = models.CharField(max_length=20)
    overall_rating = models.CharField(max_length=20)
    luck_rating = models.CharField(max_length=20)
    figures = models.JSONField()
    texts = models.JSONField()

    class Meta:
        ordering = ["color"]
        constraints = [
            models.UniqueConstraint(fields=["analysis", "color"], name="analysis_player_once")
        ]

    def __str__(self) -> str:
        return f"{self.analysis} · {'White' if self.color == 0 else 'Black'}"


class Decision(models.Model):
    """One analysed decision, on our record: ``game`` and ``ply`` (the ``GameEvent.ply``).

    The ply is the event's: a play's MOVE (or PASS), a DOUBLE, a TAKE, the DROP; for a
    missed double (``kind`` "no double") the ROLL the player threw instead of doubling.
    ``color`` 0 White, 1 Black. ``made``/``best`` are notations ("13/7 8/7", or "Double",
    "No double", "Take", "Drop"), ``made_steps``/``best_steps`` their (from, to) steps
    from the mover's side (25 the bar, 0 off) for the arrows. Equities are cubeful EMG
    from the deciding player's side, ``equity_lost = best_equity - made_equity``; a roll
    with no legal play (``made`` "") has none, only its luck.
    ``mark`` is gnubg's ("", "doubtful", "bad", "very bad"; shown ?!, ?, ??), ``luck`` the
    roll's luck (EMG) and ``luck_mark`` gnubg's ("", "very lucky", "lucky", "unlucky",
    "very unlucky"). ``candidates``: gnubg's top plays, best first, each ``{"play",
    "steps", "equity"}``. ``record`` is the index in gnubg's record of the game.
    """

    class Kind(models.TextChoices):
        PLAY = "play", _("Play")
        DOUBLE = "double", _("Double")
        TAKE = "take", _("Take")
        DROP = "drop", _("Drop")
        NO_DOUBLE = "no double", _("Missed double")

    class Mark(models.TextChoices):
        NONE = "", _("None")
        DOUBTFUL = "doubtful", _("Doubtful")
        BAD = "bad", _("Bad")
        VERY_BAD = "very bad", _("Very bad")

    analysis = models.ForeignKey(MatchAnalysis, on_delete=models.CASCADE, related_name="decisions")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="analysed_decisions")
    ply = models.PositiveIntegerField(null=True)
    record = models.PositiveIntegerField()
    color = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=10, choices=Kind.choices)
    dice = models.JSONField(null=True)
    made = models.CharField(max_length=80)
    made_steps = models.JSONField(default=list)
    best = models.CharField(max_length=80)
    best_steps = models.JSONField(default=list)
    made_equity = models.FloatField(null=True)
    best_equity = models.FloatField(null=True)
    equity_lost = models.FloatField()
    mark = models.CharField(max_length=10, choices=Mark.choices, blank=True)
    luck = models.FloatField(null=True)
    luck_mark = models.CharField(max_length=12, blank=True)
    candidates = models.JSONField(default=list)

    class Meta:
        ordering = ["game", "record", "id"]
        indexes = [models.Index(fields=["game", "ply"], name="decision_game_ply")]

    def __str__(self) -> str:
        return f"{self.kind} at ply {self.ply} of game #{self.game_id}"
