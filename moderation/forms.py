from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from .audit import MAX_REASON
from .models import Report
from .rulings import Decision


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"),
        widget=forms.Textarea(attrs={"rows": 4}),
        max_length=MAX_REASON,
        help_text=_("Required. The player is sent it."),
    )


class SuspendForm(ReasonForm):
    days = forms.IntegerField(
        label=_("Days"), min_value=1, max_value=3650, required=False, initial=7
    )
    permanent = forms.BooleanField(label=_("Permanently"), required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not data.get("permanent") and not data.get("days"):
            raise forms.ValidationError(_("Give a number of days, or suspend permanently."))
        return data

    def duration(self) -> timedelta | None:
        if self.cleaned_data.get("permanent"):
            return None
        return timedelta(days=self.cleaned_data["days"])


class RemovePlayerForm(ReasonForm):
    username = forms.CharField(label=_("Player"), max_length=150, help_text=_("Their username."))
    field_order = ["username", "reason"]


class ReplacePlayerForm(ReasonForm):
    username = forms.CharField(label=_("Player"), max_length=150, help_text=_("Their username."))
    replacement = forms.CharField(
        label=_("Replacement"), max_length=150, help_text=_("The new player's username.")
    )
    field_order = ["username", "replacement", "reason"]


class AdjudicateForm(ReasonForm):
    decision = forms.ChoiceField(label=_("Decision"), choices=Decision.CHOICES)
    field_order = ["decision", "reason"]


class ExtendDeadlineForm(ReasonForm):
    hours = forms.IntegerField(label=_("Hours to add"), min_value=1, max_value=60 * 24, initial=24)
    field_order = ["hours", "reason"]


class ReportCloseForm(forms.Form):
    outcome = forms.ChoiceField(
        label=_("Outcome"),
        choices=[
            ("resolve", _("Resolve: action was taken")),
            ("dismiss", _("Dismiss: no breach of the rules")),
        ],
        widget=forms.RadioSelect,
    )
    note = forms.CharField(
        label=_("Note"),
        widget=forms.Textarea(attrs={"rows": 4}),
        max_length=MAX_REASON,
        help_text=_("For the moderators; the reporter is told only the outcome."),
    )


class ReportForm(forms.Form):
    """What a player fills in to report another player or a message."""

    category = forms.ChoiceField(label=_("What is it about?"), choices=Report.Category.choices)
    text = forms.CharField(
        label=_("What happened?"),
        widget=forms.Textarea(attrs={"rows": 6}),
        max_length=Report.MAX_TEXT,
    )
