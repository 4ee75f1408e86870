"""The one error type every service raises: a refusal the player is shown.

A service error carries a translatable message, a stable ``code`` and the HTTP
status that fits, so that the web page and the API say the same thing in the
player's language. It lives in the project package, below every app, because every
app's services raise it and the API contract (``backgammon.api.errors``) answers it.
"""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise


class ServiceError(Exception):
    status = 400
    default_code = "invalid"

    def __init__(self, message: str | Promise, *, code: str | None = None, **params: Any):
        self.message = message
        self.code = code or self.default_code
        self.params = params
        super().__init__(str(message))

    def __str__(self) -> str:
        return str(self.message) % self.params if self.params else str(self.message)


class InvalidAction(ServiceError):
    status = 400
    default_code = "invalid"


class Forbidden(ServiceError):
    status = 403
    default_code = "forbidden"


class NotFound(ServiceError):
    status = 404
    default_code = "not_found"


class Conflict(ServiceError):
    status = 409
    default_code = "conflict"
