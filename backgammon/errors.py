"""The one error type every service raises: a refusal the player is shown.

A service error carries a translatable message, a stable ``code`` and the HTTP
status that fits, so that the web page and the API say the same thing in the
player's language. It lives in the project package, below every app, because every
app's services raise it and the API contract (``backgammon.api.errors``) answers it.

A refusal may say when to try again (``retry_after``, in seconds): a limit reached
(:class:`LimitReached`, 429). The API sends it as ``Retry-After``
(``backgammon.api.errors``), and so do the pages, whichever view rendered the refusal
(``backgammon.middleware.RetryAfterMiddleware``, through :func:`refusals_noted`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.utils.functional import Promise

#: The refusals made inside :func:`refusals_noted`'s block (the request being served).
_refusals: ContextVar[list[ServiceError] | None] = ContextVar("refusals", default=None)


class ServiceError(Exception):
    status = 400
    default_code = "invalid"

    def __init__(
        self,
        message: str | Promise,
        *,
        code: str | None = None,
        retry_after: int | None = None,
        **params: Any,
    ):
        self.message = message
        self.code = code or self.default_code
        self.params = params
        #: Seconds after which the same request may succeed; None when no time is known.
        self.retry_after = retry_after
        super().__init__(str(message))
        noted = _refusals.get()
        if noted is not None:
            noted.append(self)

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


class LimitReached(ServiceError):
    """A per-player limit (``settings.LIMIT_*``): too many things in play, or too many
    actions in a while. ``retry_after`` says when, if a time is known."""

    status = 429
    default_code = "limit_reached"


@contextmanager
def refusals_noted() -> Iterator[list[ServiceError]]:
    """The refusals made (constructed) inside the block, in order: how the pages learn a
    refusal's ``retry_after`` without each view passing its error on
    (``backgammon.middleware.RetryAfterMiddleware``)."""
    noted: list[ServiceError] = []
    token = _refusals.set(noted)
    try:
        yield noted
    finally:
        _refusals.reset(token)
