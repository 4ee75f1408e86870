from zoneinfo import available_timezones

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.validators import parse_warning_hours


def time_zone_choices() -> list[tuple[str, str]]:
    names = sorted(available_timezones() | {"UTC"})
    return [(name, name.replace("_", " ")) for name in names]


class PreferencesForm(forms.ModelForm):
    time_zone = forms.ChoiceField(label=_("time zone"), choices=time_zone_choices)

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
        ]
        widgets = {
            "digest_hour": forms.NumberInput(attrs={"min": 0, "max": 23}),
            "notify": forms.RadioSelect,
            "board_side": forms.RadioSelect,
        }

    def clean_warning_hours(self) -> str:
        hours = parse_warning_hours(self.cleaned_data["warning_hours"])
        return ",".join(str(hour) for hour in hours)
