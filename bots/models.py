"""A bot: a user account that GNU Backgammon plays at one of its named levels."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from gnubg_bridge.decisions import LEVELS, Level

LEVEL_CHOICES = [(level.name, level.title) for level in LEVELS.values()]


class Bot(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="bot",
        verbose_name=_("account"),
    )
    level = models.CharField(_("level"), max_length=20, choices=LEVEL_CHOICES, unique=True)

    class Meta:
        ordering = ["user__username"]

    def __str__(self) -> str:
        return f"{self.user} ({self.level})"

    @property
    def gnubg_level(self) -> Level:
        return LEVELS[self.level]
