"""allauth's account adapter, as far as accounts go: whose address a request comes from,
log-in limits that do not lock out the innocent, the usernames people may choose, and
what a new password revokes.

``moderation.adapters.AccountAdapter`` (the ``ACCOUNT_ADAPTER``) builds on this one.
"""

from __future__ import annotations

import ipaddress
from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from django.conf import settings
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.utils.translation import gettext as _

from .names import username_check
from .services import user_password_set


def _is_address(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def client_ip(request: HttpRequest) -> str:
    """The address of the client that sent ``request``.

    ``REMOTE_ADDR``, unless ``settings.TRUSTED_PROXY_COUNT`` (env ``TRUSTED_PROXY_COUNT``)
    says that n reverse proxies of ours stand in front of the site. Each appends the
    address it was reached from to ``X-Forwarded-For``, so the client is the n-th entry
    from the right; entries further left were written by the client and prove nothing.
    With n = 0 (the default) the header is ignored: anyone can send it. A header with
    fewer entries than n (a request that skipped a proxy) gives its leftmost entry, and
    one whose entry is not an address gives ``REMOTE_ADDR``: never an error.
    """
    remote = str(request.META.get("REMOTE_ADDR") or "")
    proxies: int = settings.TRUSTED_PROXY_COUNT
    if proxies > 0:
        header = str(request.META.get("HTTP_X_FORWARDED_FOR") or "")
        forwarded = [entry.strip() for entry in header.split(",") if entry.strip()]
        if forwarded:
            candidate = forwarded[-proxies] if len(forwarded) >= proxies else forwarded[0]
            if _is_address(candidate):
                return candidate
    if not remote:
        raise PermissionDenied("Unable to determine the client's address")
    return remote


def address_block(address: str) -> str:
    """The block of addresses one client holds: the address itself for IPv4, its /64 for
    IPv6 (a home or a host gets a whole /64, so its single addresses are free to change).
    The same truncation allauth applies to its per-address limits."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if parsed.version == 6:
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False).network_address)
    return str(parsed)


class AccountAdapter(DefaultAccountAdapter):
    """Reads the client's address through :func:`client_ip` and limits failed log-ins per
    account *and* address (``settings.ACCOUNT_RATE_LIMITS["login_failed"]``).

    allauth limits failed log-ins per address (10 a minute) and per account from
    anywhere. The first locks every player behind one NAT, or behind a reverse proxy,
    out together after one of them mistypes eleven times; the second lets anyone lock a
    player out of their own account from across the world. Here the strict limit (5 in
    5 minutes) is per account as typed (username or e-mail, lower-cased) plus address
    block: only that account from that address waits, and only after five failures.

    The looser cap per address (300 failures an hour, whatever the accounts) stays,
    because without it one address could guess five passwords of every account every
    five minutes. It cannot lock out the innocent in normal use: failures are counted
    only, a successful log-in gives its attempt back, and a crowd sharing one address
    (a school, a carrier-grade NAT) mistypes a few times a person, far from 300 an
    hour; only someone trying passwords at that address reaches it. allauth's other
    per-address limit, 30 log-in forms sent a minute, is kept for the same reason. Behind
    a reverse proxy set ``TRUSTED_PROXY_COUNT``, or every client shares the proxy's
    address, and these caps with it.

    While Redis is down these limits are not enforced (they fail open, with a warning:
    ``backgammon.cache``): a log-in is never refused because the cache is away.
    """

    def get_client_ip(self, request: HttpRequest) -> str:
        return client_ip(request)

    def clean_username(self, username: str, shallow: bool = False) -> str:
        """The sign-up's username through :func:`accounts.names.username_check` (NFKC, no
        bot's name, unique in any case), then allauth's validators and blacklist."""
        username = username_check(username, unique=not shallow)
        return super().clean_username(username, shallow=True)

    def set_password(self, user: Any, password: str) -> None:
        """Every password allauth sets (changed, reset, set) revokes the API token, and
        the next page says so: whoever knew the old password may have made it."""
        if user_password_set(user=user, password=password) and self.request is not None:
            messages.warning(
                self.request,
                _(
                    "Your API token was revoked with your old password. "
                    "Create a new one on your profile."
                ),
            )

    def _get_login_attempts_cache_key(self, request: HttpRequest, **credentials: Any) -> str:
        # allauth's key names the account (site and login); the limit is per address too.
        account = super()._get_login_attempts_cache_key(request, **credentials)
        return f"{account}|{address_block(client_ip(request))}"
