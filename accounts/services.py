"""Writes for accounts. Views call these; they hold no rules themselves."""

from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import F
from rest_framework.authtoken.models import Token

from accounts.models import User

#: How stale ``User.seen_at`` may grow before a request writes it again: one UPDATE a
#: minute for a player on the site, not one a request.
SEEN_EVERY = timedelta(minutes=1)
#: A player seen this recently is shown as online (the directory, the player page).
ONLINE_WITHIN = timedelta(minutes=5)


@transaction.atomic
def user_api_token_regenerate(*, user: User) -> Token:
    """Create the user's API token, replacing any previous one."""
    Token.objects.filter(user=user).delete()
    return Token.objects.create(user=user)


@transaction.atomic
def user_api_token_revoke(*, user: User) -> bool:
    """Delete the user's API token. Returns whether there was one.

    The token authentication reads the token row on every request (no cache), so the
    revoked key is refused from the next request on."""
    deleted, _ = Token.objects.filter(user=user).delete()
    return deleted > 0


@transaction.atomic
def user_password_set(*, user: User, password: str) -> bool:
    """Set a new password, and revoke the API token: whoever knew the old password could
    have made the token, and a program would otherwise keep playing for them. Every other
    session ends too (Django's session hash follows the password; the page that set it
    keeps its own session). Returns whether a token was revoked."""
    user.set_password(password)
    user.save(update_fields=["password"])
    return user_api_token_revoke(user=user)


@transaction.atomic
def user_logout_everywhere(*, user: User) -> bool:
    """End every session of the user, on every device, and revoke the API token: what a
    player does who fears someone else is signed in as them. Their password stays, so
    they sign in again with it. Returns whether a token was revoked."""
    User.objects.filter(pk=user.pk).update(session_epoch=F("session_epoch") + 1)
    user.refresh_from_db(fields=["session_epoch"])
    return user_api_token_revoke(user=user)


def user_language_set(*, user: User, language: str) -> None:
    if language in User.Language.values and user.language != language:
        user.language = language
        user.save(update_fields=["language"])


def user_mark_seen(*, user: User, now: datetime) -> bool:
    """Record that ``user`` made a request at ``now``, at most once per :data:`SEEN_EVERY`.

    The value on the instance (read with the user by the request's authentication)
    decides, so a request costs no query while it is fresh; the write is one conditional
    UPDATE, which a concurrent request's makes harmless. Returns whether it wrote."""
    seen = user.seen_at
    if seen is not None and seen > now - SEEN_EVERY:
        return False
    user.seen_at = now
    return User.objects.filter(pk=user.pk).update(seen_at=now) == 1


def is_online(user: User, now: datetime) -> bool:
    """Whether ``user`` made a request within :data:`ONLINE_WITHIN` of ``now``: on the
    site, so a live match with them can start at once."""
    seen = user.seen_at
    return seen is not None and seen > now - ONLINE_WITHIN
