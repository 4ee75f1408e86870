"""Reports, suspensions, warnings and the audit log of every moderator's action (issue 6).

Rows here are written only by the moderators' actions (:mod:`moderation.audit`); the
admin shows them and calls those actions. Game messages live in ``matches``
(``matches.GameMessage``): they are part of correspondence play.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Report(models.Model):
    """A player's complaint about another player, or about one of their messages."""

    class Category(models.TextChoices):
        ABUSE = "abuse", _("Abusive message or behaviour")
        STALLING = "stalling", _("Stalling or abandoning games")
        CHEATING = "cheating", _("Cheating")
        DISPUTE = "dispute", _("Disputed game")
        SPAM = "spam", _("Spam account")
        OTHER = "other", _("Other")

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        RESOLVED = "resolved", _("Resolved")
        DISMISSED = "dismissed", _("Dismissed")

    MAX_TEXT = 2000

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="reports_made",
        verbose_name=_("reported by"),
    )
    reported = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="reports_received",
        verbose_name=_("reported player"),
    )
    message = models.ForeignKey(
        "matches.GameMessage",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="reports",
        verbose_name=_("message"),
    )
    game = models.ForeignKey(
        "matches.Game",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="reports",
        verbose_name=_("game"),
    )
    category = models.CharField(_("category"), max_length=10, choices=Category.choices)
    text = models.TextField(_("what happened"), max_length=MAX_TEXT)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN
    )
    resolution_note = models.TextField(_("resolution note"), blank=True)
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("handled by"),
    )
    created_at = models.DateTimeField(_("reported at"))
    handled_at = models.DateTimeField(_("handled at"), null=True, blank=True)

    class Meta:
        verbose_name = _("report")
        verbose_name_plural = _("reports")
        ordering = ["-created_at", "-pk"]
        indexes = [
            models.Index(
                fields=["-created_at"], name="report_open_queue", condition=Q(status="open")
            ),
            models.Index(fields=["reported", "-created_at"], name="report_reported"),
            models.Index(fields=["reporter", "-created_at"], name="report_reporter"),
        ]

    def __str__(self) -> str:
        return f"Report #{self.pk} ({self.category}) about {self.reported_id}"


class AuditEntry(models.Model):
    """One moderator's action: who, what (a dotted name), to whom, why and when.

    Append-only: only :func:`moderation.audit.audit` writes it, and no admin can
    add, change or delete one.
    """

    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="audit_entries_made",
        verbose_name=_("moderator"),
    )
    action = models.CharField(_("action"), max_length=64)
    target_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="audit_entries",
        verbose_name=_("player"),
    )
    target_type = models.CharField(_("object type"), max_length=64, blank=True)
    target_id = models.PositiveBigIntegerField(_("object id"), null=True, blank=True)
    target_repr = models.CharField(_("object"), max_length=200, blank=True)
    reason = models.TextField(_("reason"))
    data = models.JSONField(_("details"), default=dict, blank=True)
    created_at = models.DateTimeField(_("when"))

    class Meta:
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit log")
        ordering = ["-created_at", "-pk"]
        indexes = [
            models.Index(fields=["-created_at"], name="audit_created"),
            models.Index(fields=["actor", "-created_at"], name="audit_actor"),
            models.Index(fields=["target_user", "-created_at"], name="audit_target_user"),
            models.Index(fields=["action", "-created_at"], name="audit_action"),
        ]

    def __str__(self) -> str:
        return f"{self.action} by {self.actor_id} at {self.created_at:%Y-%m-%d %H:%M}"


class Suspension(models.Model):
    """A player may not log in or act from ``starts_at`` until ``ends_at`` (None: forever).

    ``lifted_at`` ends it early. A suspension is in force while not lifted and not ended.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="suspensions",
        verbose_name=_("player"),
    )
    reason = models.TextField(_("reason"))
    starts_at = models.DateTimeField(_("from"))
    ends_at = models.DateTimeField(_("until"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("suspended by"),
    )
    lifted_at = models.DateTimeField(_("lifted at"), null=True, blank=True)
    lifted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("lifted by"),
    )

    class Meta:
        verbose_name = _("suspension")
        verbose_name_plural = _("suspensions")
        ordering = ["-starts_at", "-pk"]
        indexes = [
            models.Index(fields=["user"], name="suspension_unlifted", condition=Q(lifted_at=None)),
            models.Index(fields=["-starts_at"], name="suspension_starts"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_at=None) | Q(ends_at__gt=models.F("starts_at")),
                name="suspension_ends_after_start",
            )
        ]
        permissions = [("suspend_user", _("Can suspend players and lift suspensions"))]

    def __str__(self) -> str:
        return f"Suspension #{self.pk} of {self.user_id}"

    @property
    def is_permanent(self) -> bool:
        return self.ends_at is None

    def in_force(self, now: datetime) -> bool:
        return (
            self.lifted_at is None
            and self.starts_at <= now
            and (self.ends_at is None or self.ends_at > now)
        )


class Warning(models.Model):  # noqa: A001 - the domain's word; shadows only a builtin class
    """A moderator's warning to a player (they are sent it as a message)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="warnings",
        verbose_name=_("player"),
    )
    reason = models.TextField(_("reason"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("warned by"),
    )
    created_at = models.DateTimeField(_("when"))

    class Meta:
        verbose_name = _("warning")
        verbose_name_plural = _("warnings")
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["user", "-created_at"], name="warning_user")]
        permissions = [("warn_user", _("Can warn players"))]

    def __str__(self) -> str:
        return f"Warning #{self.pk} to {self.user_id}"
