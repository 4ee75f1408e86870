from typing import Any

from allauth.account.forms import LoginForm as AllauthLoginForm
from django import forms
from django.core.validators import MaxLengthValidator
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.names import display_name_check, username_normalize
from accounts.validators import parse_warning_hours
from accounts.zones import curated_time_zones

ChoiceGroups = list[tuple[str, Any]]


def time_zone_choices(current: str | None = None) -> ChoiceGroups:
    """The curated zones grouped by region (``Europe`` → ``Madrid``), and ``current``
    among them if it is a valid zone that the list leaves out (a player keeps theirs)."""
    names = list(curated_time_zones())
    if current and current not in names:
        names.append(current)
    groups: dict[str, list[tuple[str, str]]] = {}
    for name in names:
        region, _slash, place = name.partition("/")
        groups.setdefault(region if place else "", []).append(
            (name, (place or name).replace("_", " ").replace("/", " / "))
        )
    return [(region, sorted(groups[region], key=lambda c: c[1])) for region in sorted(groups)]


class PreferencesForm(forms.ModelForm):
    time_zone = forms.ChoiceField(
        # A declared field's label is shown as written (a model field's is capitalised).
        label=_("Time zone"),
        choices=time_zone_choices,
        # static/js/timezone.js preselects the browser's zone while the player still
        # has the default, UTC.
        widget=forms.Select(
            attrs={
                "data-browser-zone": "suggest",
                "data-browser-zone-note": _(
                    "Your browser's time zone is selected. Save to keep it."
                ),
            }
        ),
    )

    class Meta:
        model = User
        fields = [
            "display_name",
            "language",
            "time_zone",
            "notify",
            "digest_hour",
            "warning_hours",
            "board_side",
            "confirm_moves",
            "stay_after_move",
        ]
        widgets = {
            "digest_hour": forms.NumberInput(attrs={"min": 0, "max": 23}),
            "notify": forms.RadioSelect,
            "board_side": forms.RadioSelect,
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["time_zone"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = time_zone_choices(self.instance.time_zone)

    def clean_display_name(self) -> str:
        return display_name_check(self.cleaned_data["display_name"], user=self.instance)

    def clean_warning_hours(self) -> str:
        hours = parse_warning_hours(self.cleaned_data["warning_hours"])
        return ",".join(str(hour) for hour in hours)


#: The longest login that can name anyone: an e-mail address (RFC 5321's 254).
LOGIN_MAX_LENGTH = 254


class LoginForm(AllauthLoginForm):
    """allauth's log-in form, with a length limit on the username or e-mail it reads, and
    the username normalised.

    With log-in by username *or* e-mail allauth leaves the field unbounded, and a
    100,000-character login reached ``username__iexact``: SQLite refused the LIKE pattern
    as too complex (a 500). Longer than any username or address, it is refused as a form
    error instead, in the user's language.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        login = self.fields["login"]
        if getattr(login, "max_length", None) is None:
            login.max_length = LOGIN_MAX_LENGTH
            login.validators.append(MaxLengthValidator(LOGIN_MAX_LENGTH))
            login.widget.attrs["maxlength"] = str(LOGIN_MAX_LENGTH)

    def clean_login(self) -> str:
        """What was typed, NFKC-normalised as usernames are stored (``accounts.names``):
        ``ｂｏｂ`` signs in as ``bob``; allauth then looks it up in any case."""
        return username_normalize(super().clean_login())
