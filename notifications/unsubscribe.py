"""One-click unsubscribe: a signed token in every e-mail turns e-mails off."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.urls import reverse

from accounts.models import User

#: Named for the module that first signed the tokens: links in e-mails already sent
#: stay valid.
UNSUBSCRIBE_SALT = "matches.notifications.unsubscribe"
UNSUBSCRIBE_MAX_AGE = timedelta(days=365)


def unsubscribe_token(user: User) -> str:
    """A signed token that turns e-mails off; it dies when the preference changes."""
    return signing.TimestampSigner(salt=UNSUBSCRIBE_SALT).sign_object(
        {"u": user.pk, "n": user.notify}
    )


def unsubscribe_user(token: str) -> User | None:
    """The user the token names, if it is valid and their preference is unchanged."""
    try:
        data = signing.TimestampSigner(salt=UNSUBSCRIBE_SALT).unsign_object(
            token, max_age=UNSUBSCRIBE_MAX_AGE
        )
    except (signing.BadSignature, TypeError, ValueError):
        return None
    user = User.objects.filter(pk=data.get("u")).first()
    if user is None or user.notify != data.get("n") or user.notify == User.Notify.NONE:
        return None
    return user


def unsubscribe_url(user: User) -> str:
    path = reverse("notifications_unsubscribe", args=[unsubscribe_token(user)])
    return settings.SITE_URL.rstrip("/") + path
