from collections.abc import Iterator

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.core.validators import MaxValueValidator
from django.db import models
from django.db.models.functions import Lower
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.validators import parse_warning_hours, validate_time_zone, validate_warning_hours

#: The computer players' (``bots``) usernames start with this: no person's name may
#: contain ``gnubg`` (``accounts.names``), so a name like ``gnubg-expert`` is always the bot.
BOT_USERNAME_PREFIX = "gnubg-"

#: Django's salt for the session hash (``AbstractBaseUser._get_session_auth_hash``).
SESSION_HASH_SALT = "django.contrib.auth.models.AbstractBaseUser.get_session_auth_hash"


class User(AbstractUser):
    """A player. Preferences live on the user row: they are few and read on every request."""

    class Language(models.TextChoices):
        ENGLISH = "en", "English"
        SPANISH = "es", "Español"
        CATALAN = "ca", "Català"

    class Notify(models.TextChoices):
        EVERY = "every", _("An e-mail for every move")
        DIGEST = "digest", _("One daily digest")
        NONE = "none", _("No e-mails")

    class BoardSide(models.TextChoices):
        RIGHT = "right", _("Right")
        LEFT = "left", _("Left")

    display_name = models.CharField(_("display name"), max_length=50, blank=True)
    language = models.CharField(
        _("language"), max_length=5, choices=Language.choices, default=Language.ENGLISH
    )
    time_zone = models.CharField(
        _("time zone"), max_length=64, default="UTC", validators=[validate_time_zone]
    )
    notify = models.CharField(
        _("notifications"), max_length=10, choices=Notify.choices, default=Notify.EVERY
    )
    digest_hour = models.PositiveSmallIntegerField(
        _("digest hour"),
        default=8,
        validators=[MaxValueValidator(23)],
        help_text=_("Hour of the day (0-23, in your time zone) when the digest is sent."),
    )
    warning_hours = models.CharField(
        _("time-out warnings"),
        max_length=50,
        default="24,2",
        validators=[validate_warning_hours],
        help_text=_("Hours before a deadline to warn you, separated by commas."),
    )
    board_side = models.CharField(
        _("home board side"), max_length=5, choices=BoardSide.choices, default=BoardSide.RIGHT
    )
    confirm_moves = models.BooleanField(
        _("confirm moves"),
        default=False,
        help_text=_("Ask for confirmation before a move is sent."),
    )
    stay_after_move = models.BooleanField(
        _("stay on the game after moving"),
        default=False,
        help_text=_("Without it, sending a move takes you to the next game waiting for you."),
    )
    vacation_days_per_year = models.PositiveSmallIntegerField(
        _("vacation days per year"), default=30
    )
    # On the user row, not only in the ``bots`` app: every page and API answer that names a
    # player marks a bot, and reads nothing more to know it.
    is_bot = models.BooleanField(
        _("bot"), default=False, help_text=_("A computer player (GNU Backgammon), not a person.")
    )
    #: Raised by "log out everywhere" (``accounts.services.user_logout_everywhere``):
    #: part of the session hash, so every session signed in before it ends.
    session_epoch = models.PositiveIntegerField(default=0, editable=False)
    #: When the player last made a request, to a minute (``accounts.services.user_mark_seen``,
    #: from ``ActivityMiddleware``): a player seen lately is on the site, and is not
    #: e-mailed what the site is showing them (``notifications.outbox``). Never: None.
    seen_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"
        constraints = [
            # "Bob" and "bob" are one name (accounts.names); PostgreSQL lowers every
            # letter, SQLite the ASCII ones.
            models.UniqueConstraint(
                Lower("username"),
                name="accounts_user_username_lower_unique",
                violation_error_message=_("A user with that username already exists."),
            ),
            models.CheckConstraint(
                condition=models.Q(digest_hour__lte=23), name="accounts_user_digest_hour_range"
            ),
            models.CheckConstraint(
                condition=models.Q(notify__in=["every", "digest", "none"]),
                name="accounts_user_notify_valid",
            ),
        ]

    def __str__(self) -> str:
        return self.username

    def get_session_auth_hash(self) -> str:
        """Django's hash of the password, which a session stores to end when the password
        changes; once the player logged out everywhere, of the password and the epoch.

        With the epoch at 0 it is Django's own hash, so no session ended when the epoch
        came in."""
        return self._session_hash(None)

    def get_session_auth_fallback_hash(self) -> Iterator[str]:
        for secret in settings.SECRET_KEY_FALLBACKS:
            yield self._session_hash(secret)

    def _session_hash(self, secret: str | bytes | None) -> str:
        value = self.password if not self.session_epoch else f"{self.password}:{self.session_epoch}"
        return salted_hmac(SESSION_HASH_SALT, value, secret=secret, algorithm="sha256").hexdigest()

    @property
    def public_name(self) -> str:
        """The name shown to other players; a bot's, the site's own words ("GNU Backgammon
        (Expert)", ``bots.services.BOT_NAMES``), in the reader's language."""
        name = self.display_name or self.username
        return gettext(name) if self.is_bot else name

    @property
    def warning_hours_list(self) -> list[int]:
        """Warning hours before a deadline, largest first (``"24,2"`` -> ``[24, 2]``)."""
        return parse_warning_hours(self.warning_hours)
