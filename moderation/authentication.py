"""DRF authentication that refuses suspended players, with the reason and the end."""

from __future__ import annotations

from datetime import UTC
from typing import Any

from django.db import connection
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token
from rest_framework.request import Request

from accounts.models import User

from .models import Suspension
from .selectors import suspension_of


def _refuse_suspended(user: Any) -> None:
    suspension = suspension_of(user)
    if suspension is not None:
        raise exceptions.AuthenticationFailed(suspension.message(), code="suspended")


def _token_user_sql() -> str:
    qn = connection.ops.quote_name
    user, token, suspension = (qn(model._meta.db_table) for model in (User, Token, Suspension))
    return (
        f"SELECT u.*, t.{qn('created')} AS token_created, EXISTS ("  # noqa: S608
        f"SELECT 1 FROM {suspension} s WHERE s.user_id = u.id AND s.lifted_at IS NULL"
        " AND s.starts_at <= %s AND (s.ends_at IS NULL OR s.ends_at > %s)) AS suspended"
        f" FROM {user} u JOIN {token} t ON t.user_id = u.id WHERE t.{qn('key')} = %s"
    )


class TokenAuthentication(authentication.TokenAuthentication):
    """``Authorization: Token …``; a suspended player's token is refused (401).

    Every API request of a bot comes this way, so the token, its user and whether a
    suspension is in force are read in one raw query (DRF's ``select_related`` lookup
    and the suspension check were two queries and a cache round trip). Only a
    suspended player's request reads the suspension itself, for its message.
    """

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        now = connection.ops.adapt_datetimefield_value(timezone.now())
        rows = list(User.objects.raw(_token_user_sql(), [now, now, key]))
        if not rows:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        user = rows[0]
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        if user.suspended:
            _refuse_suspended(user)
        created = user.token_created
        if isinstance(created, str):  # SQLite: a raw column may come back as text
            created = parse_datetime(created)
        if created is not None and timezone.is_naive(created):  # SQLite: stored in UTC
            created = timezone.make_aware(created, UTC)
        token = Token(key=key, user=user, created=created)
        token._state.adding = False
        return user, token


class SessionAuthentication(authentication.SessionAuthentication):
    """The session; ``SuspensionMiddleware`` already ends a suspended player's session,
    this refuses it again should the middleware be left out."""

    def authenticate(self, request: Request) -> tuple[Any, None] | None:
        result = super().authenticate(request)
        if result is not None:
            _refuse_suspended(result[0])
        return result
