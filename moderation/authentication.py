"""DRF authentication that refuses suspended players, with the reason and the end."""

from __future__ import annotations

from typing import Any

from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token
from rest_framework.request import Request

from .selectors import suspension_of, suspensions_in_force


def _refuse_suspended(user: Any) -> None:
    suspension = suspension_of(user)
    if suspension is not None:
        raise exceptions.AuthenticationFailed(suspension.message(), code="suspended")


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's ``Authorization: Token …``; a suspended player's token is refused (401).

    DRF's own lookup (the token with its user) also says whether a suspension is in force
    (``Exists`` over :func:`moderation.selectors.suspensions_in_force`, the definition the
    middleware and the log-in use), so a bot's request costs one query, by the token's key
    (no ``ORDER BY``); only a suspended player's reads the suspension itself, for its
    message. Nothing is cached: a token revoked or regenerated is refused at once.
    """

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        suspended = suspensions_in_force(timezone.now()).filter(user_id=OuterRef("user_id"))
        try:
            token = (
                Token.objects.select_related("user")
                .annotate(suspended=Exists(suspended))
                .get(key=key)
            )
        except Token.DoesNotExist:
            raise exceptions.AuthenticationFailed(_("Invalid token.")) from None
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        if token.suspended:
            _refuse_suspended(token.user)
        return token.user, token


class SessionAuthentication(authentication.SessionAuthentication):
    """The session; ``SuspensionMiddleware`` already ends a suspended player's session,
    this refuses it again should the middleware be left out."""

    def authenticate(self, request: Request) -> tuple[Any, None] | None:
        result = super().authenticate(request)
        if result is not None:
            _refuse_suspended(result[0])
        return result
