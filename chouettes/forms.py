"""The chouette pages' forms. They only read input; the services decide what is allowed."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from challenges.forms import CUBE_LIMIT_CHOICES
from gammon import chouette as rules

from .models import Message


def _users_named(text: str) -> list[User]:
    """The players named in ``text`` (usernames separated by commas or spaces), in order,
    read case-insensitively as the challenge form reads an opponent; a name no active
    player has is a form error that names it."""
    names = [name for name in re.split(r"[\s,]+", text.strip()) if name]
    if len(names) >= rules.MAX_PLAYERS:
        raise forms.ValidationError(
            _("Invite at most %(max)s players."), params={"max": rules.MAX_PLAYERS - 1}
        )
    users = []
    for name in names:
        user = User.objects.filter(username__iexact=name, is_active=True).first()
        if user is None:
            raise forms.ValidationError(
                _("There is no player called %(name)s."), params={"name": name}
            )
        users.append(user)
    return users


class InviteField(forms.CharField):
    """Usernames, comma or space separated: the players they name."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 2000)
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)

    def clean(self, value: Any) -> list[User]:
        text = super().clean(value)
        return _users_named(text) if text else []


class ChouetteForm(forms.Form):
    """The options of a new chouette, and the players invited to it."""

    max_players = forms.TypedChoiceField(
        label=_("Players at most"),
        choices=[(n, str(n)) for n in range(rules.MIN_PLAYERS, rules.MAX_PLAYERS + 1)],
        coerce=int,
        initial=rules.MAX_PLAYERS,
        help_text=_("It starts with at least 3; the creator starts it."),
    )
    days_per_move = forms.IntegerField(
        label=_("Days per move"), min_value=1, max_value=30, initial=3
    )
    time_bank_days = forms.IntegerField(
        label=_("Time bank (days)"),
        min_value=0,
        max_value=365,
        initial=0,
        help_text=_("Extra days each player may spend over the whole chouette."),
    )
    cube_limit = forms.TypedChoiceField(
        label=_("Cube limit"),
        choices=CUBE_LIMIT_CHOICES,
        coerce=int,
        empty_value=None,
        required=False,
        initial=64,
    )
    jacoby = forms.BooleanField(label=_("Jacoby rule"), required=False, initial=False)
    automatic_doubles = forms.BooleanField(
        label=_("Automatic doubles"), required=False, initial=False
    )
    places_from_dice = forms.TypedChoiceField(
        label=_("The first game's places"),
        choices=[("dice", _("From the opening dice")), ("order", _("From the order of joining"))],
        coerce=lambda value: value == "dice",
        initial="dice",
        widget=forms.RadioSelect,
    )
    open_to_all = forms.TypedChoiceField(
        label=_("Who may join"),
        choices=[("anyone", _("Anyone, until it starts")), ("invited", _("Invited players only"))],
        coerce=lambda value: value == "anyone",
        initial="anyone",
        widget=forms.RadioSelect,
    )
    invite = InviteField(
        label=_("Invite players"),
        help_text=_("Usernames, separated by commas or spaces."),
    )

    #: Which field a service error code belongs to (others go on top of the form).
    ERROR_FIELDS = {
        "chouette_self": "invite",
        "chouette_invitee": "invite",
        "chouette_full": "invite",
    }


class InviteForm(forms.Form):
    invite = InviteField(
        label=_("Invite players"),
        required=True,
        help_text=_("Usernames, separated by commas or spaces."),
    )


#: The cube decisions of the game page's chouette panel, by the name its buttons send.
CUBE_ACTIONS = (
    "propose",  # a member proposes the team's double
    "vote_yes",
    "vote_no",
    "box_take",  # the box answers the team's double
    "box_drop",
    "box_double",
    "take",  # a member answers the box's double
    "drop",
)


#: The decisions that are asked twice, with what they cost, as an ordinary game's take and
#: drop are: a vote, and every answer to a double. A proposal, like a double, is not: it
#: opens the question and settles nothing.
CONFIRMED_ACTIONS = frozenset({"vote_yes", "vote_no", "box_take", "box_drop", "take", "drop"})


class CubeForm(forms.Form):
    """One cube decision, and the board's ply the player saw (a stale page is a 409).
    A vote or an answer carries ``confirm``: the page asked it (its dialog, or the box
    ticked without the script)."""

    action = forms.ChoiceField(choices=[(a, a) for a in CUBE_ACTIONS])
    ply = forms.IntegerField(min_value=0, max_value=2**31 - 1)
    confirm = forms.BooleanField(required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("action") in CONFIRMED_ACTIONS and not data.get("confirm"):
            self.add_error("confirm", _("Tick the box to confirm your decision."))
        return data


class SuggestForm(forms.Form):
    play = forms.CharField(label=_("Suggest a play"), max_length=80)
    ply = forms.IntegerField(min_value=0, max_value=2**31 - 1)


class MessageForm(forms.Form):
    """A message to the table or the team; ``back`` says which page to go back to."""

    text = forms.CharField(label=_("Message"), max_length=Message.MAX_LENGTH)
    team = forms.BooleanField(required=False)
    back = forms.ChoiceField(choices=[("session", "session"), ("game", "game")], required=False)
