from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views import i18n
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST
from rest_framework.authtoken.models import Token

from accounts.forms import PreferencesForm
from accounts.middleware import activate_user_preferences
from accounts.requests import signed_in_user
from accounts.services import (
    user_api_token_regenerate,
    user_api_token_revoke,
    user_language_set,
    user_logout_everywhere,
)


@never_cache  # it shows the API token: no cache, shared or the browser's, keeps it
@login_required
def profile(request: HttpRequest) -> HttpResponse:
    user = signed_in_user(request)
    status = 200
    if request.method == "POST":
        form = PreferencesForm(request.POST, instance=user)
        if form.is_valid():
            form.save()
            # The next page is in the language just chosen: so is its message.
            activate_user_preferences(request, user)
            messages.success(request, _("Your preferences have been saved."))
            return redirect("profile")
        status = 400  # the form again, with what is wrong; nothing saved
    else:
        form = PreferencesForm(instance=user)
    token = Token.objects.filter(user=user).first()
    return render(request, "accounts/profile.html", {"form": form, "token": token}, status=status)


@login_required
@require_POST
def token_create(request: HttpRequest) -> HttpResponse:
    user_api_token_regenerate(user=signed_in_user(request))
    messages.success(request, _("A new API token has been created."))
    return redirect("profile")


@login_required
@require_POST
def token_revoke(request: HttpRequest) -> HttpResponse:
    if user_api_token_revoke(user=signed_in_user(request)):
        messages.success(request, _("Your API token has been revoked."))
    return redirect("profile")


@login_required
@require_POST
def logout_everywhere(request: HttpRequest) -> HttpResponse:
    """End every session of the player and revoke their API token, then log this one out
    (the log-out page and the profile offer it; a plain log-out ends this one only)."""
    revoked = user_logout_everywhere(user=signed_in_user(request))
    logout(request)
    if revoked:
        messages.success(
            request, _("You are logged out everywhere, and your API token was revoked.")
        )
    else:
        messages.success(request, _("You are logged out everywhere."))
    return redirect(settings.ACCOUNT_LOGOUT_REDIRECT_URL)


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Django's ``set_language``; a signed-in user's choice is also saved on the profile."""
    response = i18n.set_language(request)
    if request.user.is_authenticated:
        user_language_set(user=signed_in_user(request), language=request.POST.get("language", ""))
    return response
