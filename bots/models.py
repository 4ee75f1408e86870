"""A bot: a user account that GNU Backgammon plays at one of its named levels."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from gnubg_bridge.decisions import LEVELS, Level


class Bot(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="bot",
        verbose_name=_("account"),
    )
    # One of gnubg_bridge.decisions.LEVELS; no choices here, so that a level gnubg adds
    # needs no migration (bots_create writes only known levels).
    level = models.CharField(_("level"), max_length=20, unique=True)

    class Meta:
        ordering = ["user__username"]

    def __str__(self) -> str:
        return f"{self.user} ({self.level})"

    @property
    def gnubg_level(self) -> Level:
        return LEVELS[self.level]
