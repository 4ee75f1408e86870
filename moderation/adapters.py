"""allauth's account adapter, refusing a suspended player at log-in with the reason."""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from django.http import HttpRequest, HttpResponse

from .middleware import suspended_response
from .selectors import suspension_of


class AccountAdapter(DefaultAccountAdapter):
    def pre_login(self, request: HttpRequest, user: Any, **kwargs: Any) -> HttpResponse | None:
        suspension = suspension_of(user)
        if suspension is not None:
            from allauth.account.internal.stagekit import clear_login

            clear_login(request)
            return suspended_response(request, suspension)
        return super().pre_login(request, user, **kwargs)
