"""The in-site notification list and the one-click unsubscribe page."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from accounts.models import User
from accounts.requests import signed_in_user
from backgammon.inputs import positive_int

from .inbox import latest, notifications_mark_read
from .models import Notification
from .texts import notification_text, notification_url
from .unsubscribe import unsubscribe_user


@login_required
def notification_list(request: HttpRequest) -> HttpResponse:
    rows = latest(Notification.objects.filter(recipient=signed_in_user(request))).select_related(
        "game", "match"
    )
    if request.GET.get("unread"):
        rows = rows.filter(read_at=None)
    page = Paginator(rows, 30).get_page(request.GET.get("page"))
    items = [
        {"row": row, "text": notification_text(row), "link": notification_url(row)} for row in page
    ]
    return render(
        request,
        "matches/notifications.html",
        {"page": page, "items": items, "unread_only": bool(request.GET.get("unread"))},
    )


@login_required
@require_POST
def notification_mark_read(request: HttpRequest) -> HttpResponse:
    ids = [n for n in map(positive_int, request.POST.getlist("id")) if n is not None] or None
    notifications_mark_read(user=signed_in_user(request), now=timezone.now(), ids=ids)
    return redirect("notifications")


@csrf_exempt  # the signed token authenticates; mail clients POST List-Unsubscribe=One-Click
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET asks for confirmation (link scanners must not unsubscribe); POST turns e-mails off."""
    user = unsubscribe_user(token)
    if request.method == "POST" and user is not None:
        User.objects.filter(pk=user.pk, notify=user.notify).update(notify=User.Notify.NONE)
        return render(request, "matches/unsubscribe.html", {"done": True})
    return render(request, "matches/unsubscribe.html", {"valid": user is not None, "token": token})
