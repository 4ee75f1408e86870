"""Limits on what one player can make the site do: the rates, counted in the cache.

Measured on the full stack, one player could send another a hundred e-mails in a
minute, keep gnubg busy for minutes, and queue an analysis per resigned match. The
site's limits (``settings.LIMIT_*``, README's deployment table) are of two kinds:

- **counts of things in play** (open challenges, challenges to one player, pending
  chouette invitations, bot matches in play) are business rules: the service that
  would add one more counts them exactly in the database and refuses with
  :class:`~backgammon.errors.LimitReached` (429). Their ``Retry-After`` is given only
  when a time is known (the first open challenge to lapse), since a match in play or an
  invitation ends when someone acts;
- **rates** (:data:`RATES`: challenges and invitations sent an hour, messages a minute,
  analyses asked for a day, API actions a minute) are counted here, per player, in the
  cache, by django-ratelimit's fixed windows (``get_usage``, each player's window
  shifted by a hash of the key so that windows do not all end at once). A refusal says
  how long until the window ends, as ``Retry-After`` and in the message.

Rates fail open, as the log-in limits do: while Redis is down the cache answers as an
empty one (``backgammon.cache``: ``add`` says it stored the first count, and the outage
is logged as a warning once per interval), and ``RATELIMIT_FAIL_OPEN`` lets an action
through should a count be lost midway. A rate is checked by the service after its other
checks, just before it writes: a refused request spends nothing. The window is the
cache's wall clock, not the service's ``now``: its keys expire in real time anyway.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from django.conf import settings
from django.utils.functional import Promise, lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from django_ratelimit.core import get_usage

from backgammon.errors import LimitReached


@dataclass(frozen=True)
class Rate:
    """One rate: the setting that holds its number, its window, and its refusal."""

    setting: str
    period: int  # seconds
    code: str
    message: Promise  # with %(limit)s and %(wait)s

    @property
    def limit(self) -> int:
        return int(getattr(settings, self.setting))


RATES: dict[str, Rate] = {
    "invitations": Rate(
        "LIMIT_INVITATIONS_PER_HOUR",
        3600,
        "too_many_invitations",
        _(
            "You have sent as many challenges and chouette invitations as a player may in "
            "an hour (%(limit)s). Try again in %(wait)s."
        ),
    ),
    "messages": Rate(
        "LIMIT_MESSAGES_PER_MINUTE",
        60,
        "too_many_messages",
        _(
            "You have sent as many messages as a player may in a minute (%(limit)s). "
            "Try again in %(wait)s."
        ),
    ),
    "analyses": Rate(
        "LIMIT_ANALYSES_PER_DAY",
        86400,
        "too_many_analyses",
        _(
            "You have asked for as many analyses as a player may in a day (%(limit)s). "
            "Try again in %(wait)s."
        ),
    ),
    "api_actions": Rate(
        "LIMIT_API_ACTIONS_PER_MINUTE",
        60,
        "too_many_api_actions",
        _(
            "You have sent as many actions through the API as a player may in a minute "
            "(%(limit)s). Try again in %(wait)s."
        ),
    ),
}


def wait_text(seconds: int) -> str:
    """``seconds`` as a person says it, rounded up: "40 seconds", "3 minutes", "2 hours",
    "14 days" (from two days on)."""
    if seconds < 60:
        return ngettext("%(count)d second", "%(count)d seconds", seconds) % {"count": seconds}
    if seconds < 3600:
        minutes = math.ceil(seconds / 60)
        return ngettext("%(count)d minute", "%(count)d minutes", minutes) % {"count": minutes}
    if seconds < 2 * 86400:
        hours = math.ceil(seconds / 3600)
        return ngettext("%(count)d hour", "%(count)d hours", hours) % {"count": hours}
    days = math.ceil(seconds / 86400)
    return ngettext("%(count)d day", "%(count)d days", days) % {"count": days}


#: :func:`wait_text` in the language active when the refusal is shown, not when it is made.
wait_text_lazy = lazy(wait_text, str)


def refusal(scope: str, retry_after: int) -> LimitReached:
    """The refusal of rate ``scope``, with its wait in seconds (at least one)."""
    rate = RATES[scope]
    wait = max(1, retry_after)
    return LimitReached(
        rate.message,
        code=rate.code,
        retry_after=wait,
        limit=rate.limit,
        wait=wait_text_lazy(wait),
    )


def rate_wait(scope: str, user_id: int, *, count: int = 1) -> int | None:
    """Count ``count`` actions of ``scope`` by player ``user_id``: None while within the
    rate, else the seconds until its window ends. Nothing is refused while the cache
    cannot count (Redis down)."""
    rate = RATES[scope]
    spec = f"{rate.limit}/{rate.period}s"
    wait: int | None = None
    for _action in range(count):
        usage = get_usage(
            None,
            group=f"limits.{scope}",
            key=lambda group, request: str(user_id),
            rate=spec,
            increment=True,
        )
        if usage is not None and usage["should_limit"]:
            wait = max(1, int(usage["time_left"]))
    return wait


def rate_check(scope: str, user_id: int, *, count: int = 1) -> None:
    """Count ``count`` actions of ``scope`` by player ``user_id``; past the rate, refuse
    with :class:`LimitReached` (429) saying when to try again."""
    wait = rate_wait(scope, user_id, count=count)
    if wait is not None:
        raise refusal(scope, wait)
