"""DRF authentication that refuses suspended players, with the reason and the end."""

from __future__ import annotations

from typing import Any

from rest_framework import authentication, exceptions
from rest_framework.request import Request

from .selectors import suspension_of


def _refuse_suspended(user: Any) -> None:
    suspension = suspension_of(user)
    if suspension is not None:
        raise exceptions.AuthenticationFailed(suspension.message(), code="suspended")


class TokenAuthentication(authentication.TokenAuthentication):
    """``Authorization: Token …``; a suspended player's token is refused (401)."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        user, token = super().authenticate_credentials(key)
        _refuse_suspended(user)
        return user, token


class SessionAuthentication(authentication.SessionAuthentication):
    """The session; ``SuspensionMiddleware`` already ends a suspended player's session,
    this refuses it again should the middleware be left out."""

    def authenticate(self, request: Request) -> tuple[Any, None] | None:
        result = super().authenticate(request)
        if result is not None:
            _refuse_suspended(result[0])
        return result
