"""The signed-in user of a request, typed as ours."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from accounts.models import User


def signed_in_user(request: HttpRequest) -> User:
    """``request.user`` behind ``login_required`` or DRF's ``IsAuthenticated``.

    Django types ``request.user`` as "a user or AnonymousUser"; behind those guards it is
    always a :class:`User`, and the services take one. This says so in one place, for the
    page views and the API views alike (DRF's stubs make its ``Request`` an
    ``HttpRequest``), so that no view narrows it by hand. Called on a request that no
    guard let through, it fails loudly: that is a missing guard, not a visitor's mistake.
    """
    user = request.user
    assert isinstance(user, User), "signed_in_user() behind no login guard"
    return user


def context_user(context: Any) -> User | None:
    """The signed-in user of a template context's request, or None for a visitor (or a
    template rendered without a request): what the nav's and pages' tags read."""
    user = getattr(context.get("request"), "user", None)
    return user if isinstance(user, User) and user.is_authenticated else None
