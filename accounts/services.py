"""Writes for accounts. Views call these; they hold no rules themselves."""

from django.db import transaction
from rest_framework.authtoken.models import Token

from accounts.models import User


@transaction.atomic
def user_api_token_regenerate(*, user: User) -> Token:
    """Create the user's API token, replacing any previous one."""
    Token.objects.filter(user=user).delete()
    return Token.objects.create(user=user)


@transaction.atomic
def user_api_token_revoke(*, user: User) -> bool:
    """Delete the user's API token. Returns whether there was one."""
    deleted, _ = Token.objects.filter(user=user).delete()
    return deleted > 0


def user_language_set(*, user: User, language: str) -> None:
    if language in User.Language.values and user.language != language:
        user.language = language
        user.save(update_fields=["language"])
