"""Usernames and display names: one normalisation and one check, wherever a name is made.

A name is compared by what it looks like, not by its code points: ``ｇｎｕｂｇ-expert`` in
fullwidth letters is ``gnubg-expert`` after Unicode's compatibility normalisation (NFKC),
and ``Bob`` is ``bob`` to a reader. So a username is stored NFKC-normalised (Django's own
``normalize_username`` does the same for ``create_user``) and is unique whatever its case:
the check here says so in the user's language, and ``accounts_user_username_lower_unique``
(``UNIQUE (lower(username))``) holds it in the database. PostgreSQL lowers every letter;
SQLite's ``lower()`` and ``LIKE`` fold ASCII letters only, so there two names differing
only in the case of a non-ASCII letter pass: the development database's limit, not
production's. The log-in finds a user by NFKC-normalised username without regard to case
(allauth's ``iexact`` lookup, ``accounts.forms.LoginForm``).

No person's name may claim to be one of the computer players: a username or display name
that, folded to its letters and digits (NFKC, case-folded, everything else dropped, so
spaces, dashes, dots and zero-width characters do not hide it), contains ``gnubg`` or
``gnubackgammon``, or is a bot's name, is refused. Lookalike letters of other scripts
(a Cyrillic ``о`` for a Latin ``o``, Unicode's "confusables") are not folded: that needs a
table this project does not carry, and a refused word is still refused in any spelling a
reader would take for it in Latin letters.
"""

from __future__ import annotations

import unicodedata

from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from accounts.models import User

#: What a person's name may not contain, in :func:`name_skeleton` form.
BOT_WORDS = ("gnubg", "gnubackgammon")


def username_normalize(username: str) -> str:
    """The stored form of a username: NFKC, as ``AbstractBaseUser.normalize_username``."""
    return unicodedata.normalize("NFKC", username)


def users_named(name: str) -> QuerySet[User]:
    """The user (one at most) whose username is ``name`` as a reader would type it: any
    case, any width. Longer than any username, it names no one (SQLite refuses a LIKE
    pattern of thousands of characters: that would be a 500)."""
    name = username_normalize(name.strip())
    limit = User._meta.get_field("username").max_length or 150
    if not name or len(name) > limit:
        return User.objects.none()
    return User.objects.filter(username__iexact=name)


def name_skeleton(name: str) -> str:
    """What a reader sees of ``name``: NFKC, case-folded, letters and digits only."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return "".join(char for char in folded if char.isalnum())


def name_claims_a_bot(name: str) -> bool:
    """Whether ``name`` would pass for one of the computer players'."""
    skeleton = name_skeleton(name)
    if any(word in skeleton for word in BOT_WORDS):
        return True
    bots = User.objects.filter(is_bot=True).values_list("username", "display_name")
    return any(skeleton in (name_skeleton(u), name_skeleton(d)) for u, d in bots if skeleton)


def _refuse_bot_name() -> ValidationError:
    return ValidationError(
        _("Names containing “gnubg” or “GNU Backgammon” belong to the computer players."),
        code="bot_name",
    )


def username_check(username: str, *, user: User | None = None, unique: bool = True) -> str:
    """``username`` normalised, or a ``ValidationError``: a person's name that claims to be
    a bot's, or (with ``unique``) one that another account holds in any case.

    ``user`` is the account being renamed (a bot may keep a bot's name), None for a new one.
    """
    username = username_normalize(username)
    if not (user is not None and user.is_bot) and name_claims_a_bot(username):
        raise _refuse_bot_name()
    if unique:
        taken = User.objects.filter(username__iexact=username)
        if user is not None and user.pk is not None:
            taken = taken.exclude(pk=user.pk)
        if taken.exists():
            raise ValidationError(
                _("A user with that username already exists."), code="username_taken"
            )
    return username


def display_name_check(display_name: str, *, user: User | None = None) -> str:
    """``display_name`` as given, or a ``ValidationError`` if a person's claims to be a bot's."""
    if display_name and not (user is not None and user.is_bot):
        if name_claims_a_bot(display_name):
            raise _refuse_bot_name()
    return display_name
