"""Forms of the match pages. They only read input; the services decide what is allowed."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from gammon import PASS


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


def _words(msgid: str) -> frozenset[str]:
    """``msgid`` and its translation in each of the site's languages, lower case."""
    words = {msgid}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            words.add(gettext(msgid).lower())
    return frozenset(words)


def pass_words() -> frozenset[str]:
    """The word for "pass" in each of the site's languages (``paso``, ``passo``), lower case.

    The engine reads only its canonical ``pass``; localising it is this layer's job. The
    words are the translations of the same msgid the game record shows (``_("pass")``), so
    what a player reads is what they may type, and any language's word is accepted.
    """
    return _words(PASS)


_WORD = re.compile(r"[^\W\d_]+")


def canonical_play_text(text: str) -> str:
    """``text`` for the engine: a localised word for pass becomes ``pass``, and the
    board's words for the bar and off (``barra``, ``fora``, ``fuera``: its labels, and the
    notation help's examples) become ``bar`` and ``off``; the rest is kept."""
    cleaned = text.strip()
    if cleaned.lower() in pass_words():
        return PASS
    bar, off = _words("bar"), _words("off")

    def canonical(word: re.Match[str]) -> str:
        lower = word.group(0).lower()
        return "bar" if lower in bar else "off" if lower in off else word.group(0)

    return _WORD.sub(canonical, cleaned)


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
        "offer_resign",
        "accept_resign",
        "decline_resign",
        "offer_draw",
        "accept_draw",
        "decline_draw",
    )
    #: What an offer to resign gives up (``offer_resign``), by the API's names.
    LEVELS = ("single", "gammon", "backgammon")

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
    level = forms.ChoiceField(choices=[(level, level) for level in LEVELS], required=False)

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data  # what Form.clean() returns (its type allows None)
        action = data.get("action")
        if action == "move" and not (data.get("play") or "").strip():
            self.add_error("play", _("Write your move, for example 24/18 13/11."))
        elif action == "move":
            data["play"] = canonical_play_text(data["play"])
        if action == "resign_match" and not data.get("confirm"):
            self.add_error("confirm", _("Tick the box to confirm that you resign the match."))
        if action in ("take", "drop") and not data.get("confirm"):
            self.add_error("confirm", _("Tick the box to confirm your answer to the double."))
        if action == "offer_resign" and not data.get("level"):
            self.add_error(
                "level", _("Choose what you offer: a single game, a gammon or a backgammon.")
            )
        elif action == "offer_resign" and not data.get("confirm"):
            self.add_error("confirm", _("Tick the box to confirm your offer to resign."))
        if action in ("accept_resign", "decline_resign") and not data.get("confirm"):
            self.add_error("confirm", _("Tick the box to confirm your answer to the offer."))
        return data


class GameMessageForm(forms.Form):
    """A chat message from the game page. The form refuses only what cannot be stored
    (a NUL character: Django's ``ProhibitNullCharactersValidator`` on every ``CharField``);
    an empty or too long text is the service's to refuse, with its own message."""

    text = forms.CharField(required=False, strip=False)
