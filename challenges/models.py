"""A challenge: one player's offer of a match, to a player or to anyone.

Accepting it creates the :class:`~matches.models.Match` (``challenges.services``);
the challenge keeps the link, so a match knows the offer it came from.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from matches.models import MatchOptions


class Challenge(MatchOptions):
    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        EXPIRED = "expired", _("Expired")

    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="challenges_sent",
        verbose_name=_("challenger"),
    )
    opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="challenges_received",
        verbose_name=_("opponent"),
        help_text=_("Empty for an open challenge that anyone may accept."),
    )
    message = models.CharField(_("message"), max_length=200, blank=True)
    #: A seek's rating range (issue 28's lobby): only a player rated within it may accept
    #: (``challenges.services.challenge_accept`` asks ``stats`` through ``rating_asked``).
    rating_min = models.PositiveSmallIntegerField(_("lowest rating"), null=True, blank=True)
    rating_max = models.PositiveSmallIntegerField(_("highest rating"), null=True, blank=True)
    #: A seek nobody takes within ``settings.BOT_SEEK_WAIT`` seconds may be taken by a bot
    #: (``bots.services.bot_take_seek``) unless its seeker said no.
    bots_may_accept = models.BooleanField(
        _("the computer may accept"),
        default=True,
        help_text=_("A seek no person takes within a few seconds may be taken by a bot."),
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN
    )
    created_at = models.DateTimeField(_("created"))
    expires_at = models.DateTimeField(_("expires"))
    responded_at = models.DateTimeField(_("answered"), null=True, blank=True)
    match = models.OneToOneField(
        "matches.Match", on_delete=models.SET_NULL, null=True, blank=True, related_name="challenge"
    )

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(
                fields=["expires_at"], name="challenge_open_expiry", condition=Q(status="open")
            )
        ]

    def __str__(self) -> str:
        return f"Challenge #{self.pk} by {self.challenger}"

    @property
    def is_open_to_anyone(self) -> bool:
        return self.opponent_id is None
