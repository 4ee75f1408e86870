"""The vacation page: the yearly allowance, the player's vacations, taking and cancelling.

The page writes through :func:`matches.clock.vacation_take` and
:func:`matches.clock.vacation_cancel`; their errors are shown on the page, in the
player's language, with the status the error carries (400). Dates are the player's
own: the service reads them in the player's time zone.
"""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from accounts.models import User
from accounts.requests import signed_in_user
from backgammon.errors import ServiceError

from . import clock
from .forms import IsoDateInput
from .models import Vacation


class VacationForm(forms.Form):
    start = forms.DateField(label=gettext_lazy("First day"), widget=IsoDateInput)
    end = forms.DateField(label=gettext_lazy("Last day"), widget=IsoDateInput)


def _local_today(user: User, now: datetime) -> date:
    return now.astimezone(ZoneInfo(user.time_zone or "UTC")).date()


def _render(
    request: HttpRequest,
    *,
    form: VacationForm | None = None,
    error: str | None = None,
    status: int = 200,
) -> HttpResponse:
    user = signed_in_user(request)
    now = timezone.now()
    today = _local_today(user, now)
    allowance = user.vacation_days_per_year
    used = clock.vacation_days_used(user, today.year)
    vacations = [
        {"vacation": v, "current": v.starts_at <= now}
        for v in Vacation.objects.filter(user=user, ends_at__gt=now).order_by("starts_at")
    ]
    if form is None:
        form = VacationForm(initial={"start": today, "end": today})
    context = {
        "form": form,
        "error": error,
        "today": today,
        "year": today.year,
        "allowance": allowance,
        "used": used,
        "left": max(allowance - used, 0),
        "vacations": vacations,
        "time_zone": user.time_zone or "UTC",
    }
    return render(request, "matches/vacations.html", context, status=status)


@login_required
def vacation_list(request: HttpRequest) -> HttpResponse:
    """GET shows the page; POST takes a vacation from the form."""
    if request.method != "POST":
        return _render(request)
    form = VacationForm(request.POST)
    if not form.is_valid():
        return _render(request, form=form, status=400)
    try:
        vacation = clock.vacation_take(
            user=signed_in_user(request),
            start=form.cleaned_data["start"],
            end=form.cleaned_data["end"],
            now=timezone.now(),
        )
    except ServiceError as error:
        return _render(request, form=form, error=str(error), status=error.status)
    messages.success(
        request,
        _("Your vacation from %(start)s to %(end)s is booked.")
        % {"start": formats.date_format(vacation.start), "end": formats.date_format(vacation.end)},
    )
    return redirect("vacations")


@login_required
@require_POST
def vacation_cancel(request: HttpRequest, vacation_id: int) -> HttpResponse:
    """Cancel a vacation that has not started, or end a running one now."""
    try:
        clock.vacation_cancel(
            user=signed_in_user(request), vacation_id=vacation_id, now=timezone.now()
        )
    except ServiceError as error:
        return _render(request, error=str(error), status=error.status)
    messages.success(request, _("Your vacation has been cancelled."))
    return redirect("vacations")
