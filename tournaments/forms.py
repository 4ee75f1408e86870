"""The tournament pages' forms: the list's filter and a new tournament's options."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts.models import User
from matches.models import VariantChoice

from .models import Format

#: Odd match lengths, 1 to 21.
LENGTHS = tuple(range(1, 22, 2))
MAX_INVITED = 200


def length_choices() -> list[tuple[int, str]]:
    """The lengths offered, labelled in the active language (a callable: see
    ``challenges.forms.length_choices``)."""
    return [(n, ngettext("%(n)s point", "%(n)s points", n) % {"n": n}) for n in LENGTHS]


def any_length_choices() -> list[tuple[Any, str]]:
    return [("", str(_("Any length"))), *length_choices()]


class TournamentFilterForm(forms.Form):
    """The list's filter (GET): the same query names as the API's, ``type`` and ``length``."""

    type = forms.ChoiceField(
        label=_("Format"),
        required=False,
        choices=[("", _("Any format")), *Format.choices],
    )
    length = forms.TypedChoiceField(
        label=_("Match length"),
        required=False,
        choices=any_length_choices,
        coerce=int,
        empty_value=None,
    )


class LocalDateTimeInput(forms.DateTimeInput):
    """An ``<input type="datetime-local">``, in the user's time zone (the middleware's)."""

    input_type = "datetime-local"

    def __init__(self) -> None:
        super().__init__(format="%Y-%m-%dT%H:%M")


class LocalDateTimeField(forms.DateTimeField):
    """A date and time in the user's time zone; one that cannot be stored (the calendar's
    ends, once in UTC) is a form error."""

    widget = LocalDateTimeInput
    input_formats = ["%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M"]

    def to_python(self, value: Any) -> datetime | None:
        try:
            result = super().to_python(value)
            if result is not None:
                result.astimezone(UTC)  # out of range near year 1 or 9999
        except (OverflowError, ValueError) as error:
            raise forms.ValidationError(
                _("Enter a valid date and time."), code="invalid"
            ) from error
        return result


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=100)
    description = forms.CharField(
        label=_("Description"),
        max_length=2000,
        required=False,
        widget=forms.Textarea({"rows": 3}),
    )
    format = forms.ChoiceField(label=_("Format"), choices=Format.choices, initial=Format.KNOCKOUT)
    length = forms.TypedChoiceField(
        label=_("Match length"), choices=length_choices, coerce=int, initial=5
    )
    days_per_move = forms.IntegerField(
        label=_("Days per move"), min_value=1, max_value=30, initial=3
    )
    time_bank_days = forms.IntegerField(
        label=_("Time bank (days)"), min_value=0, max_value=365, initial=0
    )
    variant = forms.ChoiceField(
        label=_("Variant"), choices=VariantChoice.choices, initial=VariantChoice.STANDARD
    )
    rated = forms.BooleanField(label=_("Rated"), required=False, initial=True)
    min_players = forms.IntegerField(
        label=_("Players at least"), min_value=2, max_value=4096, initial=4
    )
    max_players = forms.IntegerField(
        label=_("Players at most"), min_value=2, max_value=4096, initial=64
    )
    rating_min = forms.FloatField(
        label=_("Lowest rating"), required=False, min_value=0, max_value=10000
    )
    rating_max = forms.FloatField(
        label=_("Highest rating"), required=False, min_value=0, max_value=10000
    )
    registration_opens_at = LocalDateTimeField(
        label=_("Registration opens"),
        required=False,
        help_text=_("In your time zone. Leave it empty to open registration now."),
    )
    starts_at = LocalDateTimeField(label=_("Starts"), help_text=_("In your time zone."))
    invitation_only = forms.BooleanField(label=_("Invitation only"), required=False)
    invited = forms.CharField(
        label=_("Invited players"),
        required=False,
        max_length=5000,
        widget=forms.Textarea({"rows": 2}),
        help_text=_("Usernames, separated by spaces or commas."),
    )
    rounds = forms.IntegerField(
        label=_("Swiss rounds"),
        min_value=0,
        max_value=20,
        initial=0,
        help_text=_("Swiss only: the number of rounds."),
    )
    group_size = forms.IntegerField(
        label=_("Group size"),
        min_value=0,
        max_value=64,
        initial=0,
        help_text=_("Round-robin only: players in a group (0: one group of everyone)."),
    )
    knockout_after = forms.BooleanField(label=_("Group winners play a knock-out"), required=False)
    repeat_days = forms.IntegerField(
        label=_("Repeat every (days)"),
        min_value=0,
        max_value=365,
        initial=0,
        required=False,
        help_text=_(
            "Moderators only: a new edition every so many days, each opening for "
            "registration as long before its start as this one. 0: this tournament only."
        ),
    )

    #: Which field a service error code belongs to (others go on top of the form).
    ERROR_FIELDS = {
        "name": "name",
        "format": "format",
        "length": "length",
        "players": "max_players",
        "rounds": "rounds",
        "groups": "group_size",
        "rating_limits": "rating_max",
        "dates": "starts_at",
        "repeat": "repeat_days",
    }

    def __init__(self, *args: Any, repeating: bool = True, **kwargs: Any) -> None:
        """``repeating``: whether the user may set up a repeating tournament (the field
        is left out for those who may not)."""
        super().__init__(*args, **kwargs)
        if not repeating:
            del self.fields["repeat_days"]

    def clean_repeat_days(self) -> int:
        return self.cleaned_data.get("repeat_days") or 0

    def clean_invited(self) -> list[User]:
        """The invited usernames, each an active player's."""
        names = [n for n in re.split(r"[\s,]+", self.cleaned_data.get("invited") or "") if n]
        names = list(dict.fromkeys(names))
        if len(names) > MAX_INVITED:
            raise forms.ValidationError(
                _("Invite at most %(n)s players.") % {"n": MAX_INVITED}, code="too_many"
            )
        found = {u.username: u for u in User.objects.filter(username__in=names, is_active=True)}
        unknown = [n for n in names if n not in found]
        if unknown:
            raise forms.ValidationError(
                _("No such player: %(names)s.") % {"names": ", ".join(unknown[:5])[:200]},
                code="unknown",
            )
        return [found[n] for n in names]

    def options(self) -> dict[str, Any]:
        """The cleaned options as :func:`tournaments.creation.tournament_create` takes them."""
        data = dict(self.cleaned_data)
        data["invite"] = data.pop("invited")
        return data
