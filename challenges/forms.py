"""The challenge form: the options of the match offered."""

from __future__ import annotations

from typing import Any

from django import forms
from django.urls import reverse_lazy
from django.utils.translation import gettext, ngettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from gammon import DEFAULT_CUBE_LIMIT, OFFERED_LENGTHS
from gnubg_bridge.process import available as gnubg_available
from matches.models import Resignation, VariantChoice
from matches.timecontrol import live_presets


def length_choices() -> list[tuple[int, str]]:
    """The match lengths offered, in the active language.

    A callable, so the labels are formatted when a form is shown: ``ngettext_lazy(...) % n``
    gives a plain string, and at import time that string was English for everyone.
    """
    return [(n, ngettext("%(n)s point", "%(n)s points", n) % {"n": n}) for n in OFFERED_LENGTHS] + [
        (0, gettext("Money session"))
    ]


def clock_choices() -> list[tuple[str, str]]:
    """Days per move, or one of the live clocks (``delay+reserve`` in seconds): seed
    004's 11 s a turn and a 90 s reserve first. Formatted when a form is shown."""
    return [("", gettext("Days per move (correspondence)"))] + live_clock_choices()


def live_clock_choices() -> list[tuple[str, str]]:
    """The live clocks offered, as ``delay+reserve`` with their label."""
    return [
        (
            f"{delay}+{reserve}",
            gettext("Live: %(delay)s s a turn, then a reserve of %(reserve)s s")
            % {"delay": delay, "reserve": reserve},
        )
        for delay, reserve in live_presets()
    ]


def parse_clock(value: str) -> tuple[int | None, int | None]:
    """``delay+reserve`` (a choice of :func:`clock_choices`) as two numbers; None, None
    for days per move."""
    if not value:
        return None, None
    delay, reserve = value.split("+")
    return int(delay), int(reserve)


CUBE_LIMIT_CHOICES: list[tuple[Any, Any]] = [(2**k, str(2**k)) for k in range(1, 11)] + [
    ("", pgettext_lazy("cube limit", "None (money sessions only)"))
]


class ChallengeForm(forms.Form):
    opponent = forms.CharField(
        label=_("Opponent"),
        max_length=150,
        required=False,
        help_text=_("A player's username. Leave it empty to let anyone accept."),
        # The page's script fills the datalist from challenge_opponents as one types;
        # without it this is a plain text field.
        widget=forms.TextInput(
            attrs={
                "list": "opponent-options",
                "autocomplete": "off",
                "data-complete-url": reverse_lazy("challenge_opponents"),
            }
        ),
    )
    computer = forms.ChoiceField(
        label=_("Or play the computer"),
        required=False,
        help_text=_("GNU Backgammon at the level you choose accepts at once."),
    )
    variant = forms.ChoiceField(
        label=_("Variant"), choices=VariantChoice.choices, initial=VariantChoice.STANDARD
    )
    length = forms.TypedChoiceField(
        label=_("Match length"), choices=length_choices, coerce=int, initial=5
    )
    clock = forms.ChoiceField(
        label=_("Clock"),
        choices=clock_choices,
        required=False,
        help_text=_(
            "Days per move, or a live clock for a match in one sitting: each turn the "
            "delay runs first, then the player's reserve."
        ),
    )
    timeout_loses_match = forms.BooleanField(
        label=_("On a live clock, a time-out claimed loses the match (not the game)"),
        required=False,
        initial=False,
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
    resignation = forms.ChoiceField(
        label=_("Resigning a game"),
        choices=Resignation.choices,
        initial=Resignation.OFFER,
        required=False,  # left out (an older form): the standard
        help_text=_(
            "As in GNU Backgammon: the player offers a single game, a gammon or a "
            "backgammon, and the opponent accepts or declines. Or the site's first rule: "
            "at once, a gammon while nothing is borne off."
        ),
    )
    message = forms.CharField(
        label=_("Message"), max_length=200, required=False, widget=forms.Textarea({"rows": 2})
    )

    #: Which field a service error code belongs to (others go on top of the form).
    ERROR_FIELDS = {
        "self_challenge": "opponent",
        "bot_refuses": "computer",
        "bots_unavailable": "computer",
        "variant": "variant",
        "length": "length",
        "days_per_move": "days_per_move",
        "time_bank": "time_bank_days",
        "cube_limit": "cube_limit",
        "cube": "cube_limit",
        "resignation": "resignation",
        "live_delay": "clock",
        "live_reserve": "clock",
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The bots are users (accounts); whether gnubg is here is the bridge's answer.
        unavailable = "" if gnubg_available() else " " + gettext("(unavailable)")
        bots = User.objects.filter(is_bot=True, is_active=True).order_by("pk")
        computer = self.fields["computer"]
        assert isinstance(computer, forms.ChoiceField)
        computer.choices = [
            ("", pgettext_lazy("play the computer", "No, a person")),
            *((bot.username, bot.public_name + unavailable) for bot in bots),
        ]

    def clean(self) -> dict[str, Any]:
        """A level of the computer chosen is the opponent: that bot."""
        data = super().clean() or {}
        data["resignation"] = data.get("resignation") or Resignation.OFFER
        data["live_delay"], data["live_reserve"] = parse_clock(data.get("clock") or "")
        username = data.get("computer")
        if username:
            data["opponent"] = User.objects.get(username=username, is_bot=True)
        return data

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
