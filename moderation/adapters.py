"""allauth's account adapter, refusing a suspended player at log-in with the reason."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse

from accounts.adapters import AccountAdapter as AccountsAdapter

from .middleware import suspended_response
from .selectors import suspension_of


class AccountAdapter(AccountsAdapter):
    """The ``ACCOUNT_ADAPTER``: the accounts' one (client address, log-in limits), and a
    suspended player is refused at log-in."""

    def pre_login(self, request: HttpRequest, user: Any, **kwargs: Any) -> HttpResponse | None:
        suspension = suspension_of(user)
        if suspension is not None:
            from allauth.account.internal.stagekit import clear_login

            clear_login(request)
            return suspended_response(request, suspension)
        return super().pre_login(request, user, **kwargs)
