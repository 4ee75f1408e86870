"""Small typed helpers that read settings from environment variables.

Every helper raises ``ImproperlyConfigured`` naming the variable when a value
cannot be parsed, so a bad deployment fails at start-up instead of later.

>>> parse_bool("X", "yes")
True
>>> parse_email_url("smtp://mail.example.org:587")["EMAIL_PORT"]
587
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def _raw(name: str, environ: Mapping[str, str] | None) -> str | None:
    value = (os.environ if environ is None else environ).get(name)
    if value is None or value.strip() == "":
        return None
    return value.strip()


def parse_bool(name: str, value: str) -> bool:
    lowered = value.strip().lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={value!r} is not a boolean (use 1/0, true/false, yes/no)")


def env_str(name: str, default: str, environ: Mapping[str, str] | None = None) -> str:
    value = _raw(name, environ)
    return default if value is None else value


def env_optional(name: str, environ: Mapping[str, str] | None = None) -> str | None:
    return _raw(name, environ)


def env_bool(name: str, default: bool, environ: Mapping[str, str] | None = None) -> bool:
    value = _raw(name, environ)
    return default if value is None else parse_bool(name, value)


def env_int(
    name: str,
    default: int,
    environ: Mapping[str, str] | None = None,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
) -> int:
    value = _raw(name, environ)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not an integer") from None
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name}={number} is below the minimum {minimum}")
    if maximum is not None and number > maximum:
        raise ImproperlyConfigured(f"{name}={number} is above the maximum {maximum}")
    return number


def env_list(name: str, default: list[str], environ: Mapping[str, str] | None = None) -> list[str]:
    """A comma-separated list; blank items are dropped."""
    value = _raw(name, environ)
    if value is None:
        return list(default)
    return [item.strip() for item in value.split(",") if item.strip()]


def env_choice(
    name: str, default: str, choices: set[str], environ: Mapping[str, str] | None = None
) -> str:
    value = env_str(name, default, environ)
    if value not in choices:
        raise ImproperlyConfigured(f"{name}={value!r} is not one of {sorted(choices)}")
    return value


def parse_redis_url(name: str, value: str) -> str:
    parts = urlsplit(value)
    if parts.scheme not in {"redis", "rediss", "unix"} or not (parts.hostname or parts.path):
        raise ImproperlyConfigured(
            f"{name}={value!r} is not a Redis URL (expected redis://host:port/db)"
        )
    return value


def parse_site_url(name: str, value: str) -> str:
    parts = urlsplit(value)
    if parts.scheme not in {"http", "https"} or not parts.hostname:
        raise ImproperlyConfigured(f"{name}={value!r} is not an http(s) URL")
    return value.rstrip("/")


def parse_email_url(value: str, name: str = "EMAIL_URL") -> dict[str, Any]:
    """Turn ``EMAIL_URL`` into Django e-mail settings.

    Supported: ``console:`` (one line per e-mail: to, subject, link; ``console:?full=1``
    for whole messages), ``locmem:``, ``dummy:``, ``file:///path``,
    ``smtp://[user:password@]host[:port]`` (``?tls=1`` or ``smtp+tls://`` for
    STARTTLS, ``smtps://`` for implicit TLS).
    """
    parts = urlsplit(value)
    scheme = parts.scheme.lower()
    simple = {
        "console": "backgammon.mail.OneLineConsoleBackend",
        "locmem": "django.core.mail.backends.locmem.EmailBackend",
        "dummy": "django.core.mail.backends.dummy.EmailBackend",
    }
    if scheme == "console" and any(
        parse_bool(name, v) for v in parse_qs(parts.query).get("full", []) if v
    ):
        return {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}
    if scheme in simple:
        return {"EMAIL_BACKEND": simple[scheme]}
    if scheme == "file":
        if not parts.path:
            raise ImproperlyConfigured(f"{name}={value!r} needs a directory: file:///path")
        return {
            "EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
            "EMAIL_FILE_PATH": unquote(parts.path),
        }
    if scheme in {"smtp", "smtp+tls", "smtps"}:
        if not parts.hostname:
            raise ImproperlyConfigured(f"{name}={value!r} has no host")
        try:
            port = parts.port
        except ValueError:
            raise ImproperlyConfigured(f"{name}={value!r} has a bad port") from None
        query = parse_qs(parts.query)
        use_tls = scheme == "smtp+tls" or any(
            parse_bool(name, v) for v in query.get("tls", []) if v
        )
        use_ssl = scheme == "smtps"
        return {
            "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "EMAIL_HOST": parts.hostname,
            "EMAIL_PORT": port or (465 if use_ssl else 587 if use_tls else 25),
            "EMAIL_HOST_USER": unquote(parts.username or ""),
            "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
            "EMAIL_USE_TLS": use_tls,
            "EMAIL_USE_SSL": use_ssl,
        }
    raise ImproperlyConfigured(
        f"{name}={value!r}: unsupported scheme {scheme!r} "
        "(use console:, locmem:, dummy:, file:///dir or smtp://host:port)"
    )
