"""Forms of the match pages. They only read input; the services decide what is allowed."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext, ngettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from gammon import DEFAULT_CUBE_LIMIT, OFFERED_LENGTHS, PASS

from .models import VariantChoice


def length_choices() -> list[tuple[int, str]]:
    """The match lengths offered, in the active language.

    A callable, so the labels are formatted when a form is shown: ``ngettext_lazy(...) % n``
    gives a plain string, and at import time that string was English for everyone.
    """
    return [(n, ngettext("%(n)s point", "%(n)s points", n) % {"n": n}) for n in OFFERED_LENGTHS] + [
        (0, gettext("Money session"))
    ]


CUBE_LIMIT_CHOICES: list[tuple[Any, Any]] = [(2**k, str(2**k)) for k in range(1, 11)] + [
    ("", pgettext_lazy("cube limit", "None (money sessions only)"))
]


class IsoDateInput(forms.DateInput):
    """``<input type="date">``, whose value is always ISO (YYYY-MM-DD) in every language.

    The browser's date picker reads nothing else: Django's DateInput writes the active
    language's format (``02/01/2030`` in Spanish and Catalan), which the input drops. A
    bound value typed in that format (the field accepts it) is rewritten as ISO too.
    """

    input_type = "date"

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__(attrs, format="%Y-%m-%d")

    def format_value(self, value: Any) -> str | None:
        if isinstance(value, str):
            try:
                value = forms.DateField().to_python(value)
            except forms.ValidationError:
                return value
        return super().format_value(value)


class ChallengeForm(forms.Form):
    opponent = forms.CharField(
        label=_("Opponent"),
        max_length=150,
        required=False,
        help_text=_("A player's username. Leave it empty to let anyone accept."),
    )
    variant = forms.ChoiceField(
        label=_("Variant"), choices=VariantChoice.choices, initial=VariantChoice.STANDARD
    )
    length = forms.TypedChoiceField(
        label=_("Match length"), choices=length_choices, coerce=int, initial=5
    )
    days_per_move = forms.IntegerField(
        label=_("Days per move"), min_value=1, max_value=30, initial=3
    )
    time_bank_days = forms.IntegerField(
        label=_("Time bank (days)"),
        min_value=0,
        max_value=365,
        initial=0,
        help_text=_("Extra days each player may spend over the whole match."),
    )
    cube_limit = forms.TypedChoiceField(
        label=_("Cube limit"),
        choices=CUBE_LIMIT_CHOICES,
        coerce=int,
        empty_value=None,
        required=False,
        initial=DEFAULT_CUBE_LIMIT,
    )
    jacoby = forms.BooleanField(
        label=_("Jacoby rule (money sessions)"), required=False, initial=False
    )
    automatic_doubles = forms.BooleanField(
        label=_("Automatic doubles (money sessions)"), required=False, initial=False
    )
    rated = forms.BooleanField(label=_("Rated"), required=False, initial=True)
    message = forms.CharField(
        label=_("Message"), max_length=200, required=False, widget=forms.Textarea({"rows": 2})
    )

    #: Which field a service error code belongs to (others go on top of the form).
    ERROR_FIELDS = {
        "self_challenge": "opponent",
        "variant": "variant",
        "length": "length",
        "days_per_move": "days_per_move",
        "time_bank": "time_bank_days",
        "cube_limit": "cube_limit",
        "cube": "cube_limit",
    }

    def clean_opponent(self) -> User | None:
        username = self.cleaned_data["opponent"].strip()
        if not username:
            return None
        try:
            return User.objects.get(username__iexact=username, is_active=True)
        except User.DoesNotExist:
            raise forms.ValidationError(
                _("There is no player called %(name)s."), params={"name": username}
            ) from None


def pass_words() -> frozenset[str]:
    """The word for "pass" in each of the site's languages (``paso``, ``passo``), lower case.

    The engine reads only its canonical ``pass``; localising it is this layer's job. The
    words are the translations of the same msgid the game record shows (``_("pass")``), so
    what a player reads is what they may type, and any language's word is accepted.
    """
    words = {PASS}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            words.add(gettext("pass").lower())
    return frozenset(words)


def canonical_play_text(text: str) -> str:
    """``text`` for the engine: a localised word for pass becomes ``pass``, the rest is kept."""
    cleaned = text.strip()
    return PASS if cleaned.lower() in pass_words() else cleaned


class GameActionForm(forms.Form):
    """Every form of the game page: which action, the ply the player saw, and the move."""

    ACTIONS = (
        "roll",
        "double",
        "move",
        "take",
        "drop",
        "resign",
        "resign_match",
        "offer_draw",
        "accept_draw",
        "decline_draw",
    )

    action = forms.ChoiceField(choices=[(a, a) for a in ACTIONS])
    ply = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    play = forms.CharField(
        label=_("Your move"),
        max_length=80,
        required=False,
        widget=forms.TextInput(
            {"autocomplete": "off", "autocapitalize": "off", "spellcheck": "false"}
        ),
    )
    confirm = forms.BooleanField(required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        action = data.get("action")
        if action == "move" and not (data.get("play") or "").strip():
            self.add_error("play", _("Write your move, for example 24/18 13/11."))
        elif action == "move":
            data["play"] = canonical_play_text(data["play"])
        if action == "resign_match" and not data.get("confirm"):
            self.add_error("confirm", _("Tick the box to confirm that you resign the match."))
        if action in ("take", "drop") and not data.get("confirm"):
            self.add_error("confirm", _("Tick the box to confirm your answer to the double."))
        return data


class GameMessageForm(forms.Form):
    """A chat message from the game page. The form refuses only what cannot be stored
    (a NUL character: Django's ``ProhibitNullCharactersValidator`` on every ``CharField``);
    an empty or too long text is the service's to refuse, with its own message."""

    text = forms.CharField(required=False, strip=False)
