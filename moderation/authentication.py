"""DRF authentication that refuses suspended players, with the reason and the end."""

from __future__ import annotations

from functools import cache
from typing import Any

from django.db import connection
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token
from rest_framework.request import Request

from accounts.models import User
from matches.locking import Part, from_row, select_part

from .models import Suspension
from .selectors import suspension_of


def _refuse_suspended(user: Any) -> None:
    suspension = suspension_of(user)
    if suspension is not None:
        raise exceptions.AuthenticationFailed(suspension.message(), code="suspended")


@cache
def _token_plan(vendor: str) -> tuple[str, list[Part]]:
    """The query of :class:`TokenAuthentication` and how to cut its row (built once)."""
    qn = connection.ops.quote_name
    user_columns, user_part = select_part(User, "u")
    token_columns, token_part = select_part(Token, "t")
    user, token, suspension = (qn(model._meta.db_table) for model in (User, Token, Suspension))
    sql = (
        f"SELECT {', '.join(user_columns + token_columns)}, EXISTS ("  # noqa: S608
        f"SELECT 1 FROM {suspension} s WHERE s.user_id = u.id AND s.lifted_at IS NULL"
        " AND s.starts_at <= %s AND (s.ends_at IS NULL OR s.ends_at > %s))"
        f" FROM {user} u JOIN {token} t ON t.user_id = u.id WHERE t.{qn('key')} = %s"
    )
    return sql, [user_part, token_part]


class TokenAuthentication(authentication.TokenAuthentication):
    """``Authorization: Token …``; a suspended player's token is refused (401).

    Every API request of a bot comes this way, so the token, its user and whether a
    suspension is in force are read in one query, whose SQL is built once per process
    (DRF's ``select_related`` lookup and the suspension check were two queries and a
    cache round trip). Only a suspended player's request reads the suspension itself,
    for its message.
    """

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        sql, (user_part, token_part) = _token_plan(connection.vendor)
        now = connection.ops.adapt_datetimefield_value(timezone.now())
        with connection.cursor() as cursor:
            cursor.execute(sql, [now, now, key])
            row = cursor.fetchone()
        if row is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        size = len(user_part[1])
        user = from_row(user_part, row[:size])
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        if row[-1]:
            _refuse_suspended(user)
        token = from_row(token_part, row[size:-1])
        token.user = user
        return user, token


class SessionAuthentication(authentication.SessionAuthentication):
    """The session; ``SuspensionMiddleware`` already ends a suspended player's session,
    this refuses it again should the middleware be left out."""

    def authenticate(self, request: Request) -> tuple[Any, None] | None:
        result = super().authenticate(request)
        if result is not None:
            _refuse_suspended(result[0])
        return result
