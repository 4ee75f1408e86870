"""The notification outbox and the claims that make each time-out warning go out once.

A :class:`Notification` is written in the transaction that changed the game (by the
receivers in :mod:`notifications.receivers`), so a committed change always owes its
e-mail; :mod:`notifications.delivery` sends it after the commit.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Notification(models.Model):
    """One thing a player is told: a row of the in-site list and of the e-mail outbox.

    Services write it in the transaction that changed the game. ``delivery`` is the
    recipient's preference when it was written: ``email`` rows are sent one by one
    (``notifications.tasks.email_deliver``), ``digest`` rows go out in the daily digest,
    ``none`` rows are only listed on the site.
    """

    class Kind(models.TextChoices):
        YOUR_TURN = "your_turn", _("Your turn")
        CHALLENGE_RECEIVED = "challenge_received", _("Challenge received")
        CHALLENGE_ACCEPTED = "challenge_accepted", _("Challenge accepted")
        CHALLENGE_DECLINED = "challenge_declined", _("Challenge declined")
        DOUBLE_OFFERED = "double_offered", _("Double offered")
        GAME_OVER = "game_over", _("Game over")
        MATCH_OVER = "match_over", _("Match over")
        TIMEOUT_WARNING = "timeout_warning", _("Time-out warning")
        DRAW_OFFERED = "draw_offered", _("Draw offered")
        TIME_OUT = "time_out", _("Time-out")
        MODERATION = "moderation", _("Message from the moderators")
        MESSAGE_RECEIVED = "message_received", _("New message")
        CHOUETTE_INVITED = "chouette_invited", _("Chouette invitation")
        CHOUETTE_VOTE = "chouette_vote", _("Team double: your vote")
        CHOUETTE_ANSWER = "chouette_answer", _("The box doubles: your answer")
        CHOUETTE_SETTLED = "chouette_settled", _("Chouette game over")
        CHOUETTE_OVER = "chouette_over", _("Chouette over")
        TOURNEY_REGISTERED = "tourney_registered", _("Tournament registration")
        TOURNEY_STARTED = "tourney_started", _("Tournament started")
        TOURNEY_MATCH = "tourney_match", _("New tournament match")
        TOURNEY_ADVANCED = "tourney_advanced", _("Through to the next round")
        TOURNEY_OUT = "tourney_out", _("Out of a tournament")
        TOURNEY_RESULT = "tourney_result", _("Tournament result")
        TOURNEY_CANCELLED = "tourney_cancelled", _("Tournament cancelled")

    class Delivery(models.TextChoices):
        EMAIL = "email", _("E-mail")
        DIGEST = "digest", _("Daily digest")
        NONE = "none", _("Site only")

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        SENDING = "sending", _("Sending")
        SENT = "sent", _("Sent")
        FAILED = "failed", _("Failed")
        SKIPPED = "skipped", _("Not e-mailed")

    # No index of its own: ``notification_recipient`` (recipient, created_at) serves it,
    # and every row written (one a move) updates one index fewer.
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="notifications",
        db_index=False,
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    game = models.ForeignKey("matches.Game", on_delete=models.CASCADE, null=True, blank=True)
    match = models.ForeignKey("matches.Match", on_delete=models.CASCADE, null=True, blank=True)
    challenge = models.ForeignKey(
        "challenges.Challenge", on_delete=models.CASCADE, null=True, blank=True
    )
    payload = models.JSONField(default=dict, blank=True)
    delivery = models.CharField(max_length=8, choices=Delivery.choices)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField()
    claimed_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    created_at = models.DateTimeField()
    sent_at = models.DateTimeField(null=True, blank=True)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [
            models.Index(fields=["recipient", "-created_at"], name="notification_recipient"),
            models.Index(
                fields=["recipient"], name="notification_unread", condition=Q(read_at=None)
            ),
            # The sweeper and the digest read only rows still owed.
            models.Index(
                fields=["next_attempt_at"],
                name="notification_owed",
                condition=Q(status__in=["pending", "sending"]),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} for {self.recipient_id} ({self.status})"


class TimeoutWarning(models.Model):
    """The claim for one time-out warning: one row per (game, deadline, hours).

    The deadline identifies the turn (a roll inside a turn changes the ply but not
    the deadline), so a player is warned once per turn at each of their hours.
    """

    game = models.ForeignKey("matches.Game", on_delete=models.CASCADE, related_name="+")
    deadline_at = models.DateTimeField()
    hours = models.PositiveSmallIntegerField()
    ply = models.PositiveIntegerField()
    created_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game", "deadline_at", "hours"], name="timeoutwarning_once"
            )
        ]

    def __str__(self) -> str:
        return f"warning {self.hours}h game {self.game_id}"
