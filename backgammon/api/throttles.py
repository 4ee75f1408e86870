"""The API's rate of actions per player (``settings.LIMIT_API_ACTIONS_PER_MINUTE``).

One client moving fast in thirty bot matches kept gnubg busy for 96 s in two minutes.
Every request that changes something (``POST``, ``PUT``, ``PATCH``, ``DELETE``) by a
signed-in player counts; reading (a client polling its games) does not. It is DRF's
throttle hook (``DEFAULT_THROTTLE_CLASSES``) over the site's rates
(:mod:`backgammon.limits`: counted in the cache, failing open while Redis is down). A
request past the rate is refused with the site's own 429 (``LimitReached``: code
``too_many_api_actions``, ``Retry-After``) rather than DRF's ``throttled``, so its
``detail`` says which limit, in the player's language: DRF has authenticated the player,
and the base view switched to their language, before it asks the throttles.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rest_framework.permissions import SAFE_METHODS
from rest_framework.throttling import BaseThrottle

from backgammon.limits import rate_check

if TYPE_CHECKING:  # rest_framework.views imports this module (its settings name it)
    from rest_framework.request import Request
    from rest_framework.views import APIView


class ApiActionsThrottle(BaseThrottle):
    """Counts a signed-in player's changing requests (``api_actions`` of ``RATES``)."""

    def allow_request(self, request: Request, view: APIView) -> bool:
        user = request.user
        if request.method not in SAFE_METHODS and user.is_authenticated:
            rate_check("api_actions", int(user.pk))  # past it: LimitReached, a 429
        return True
