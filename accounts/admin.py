from django.contrib import admin
from django.contrib.auth import forms as auth_forms
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.names import display_name_check, username_check
from accounts.services import user_api_token_revoke


class UserChangeForm(auth_forms.UserChangeForm):
    """A staff member's change: the names are checked as at sign-up (``accounts.names``)."""

    def clean_username(self) -> str:
        return username_check(self.cleaned_data["username"], user=self.instance)

    def clean_display_name(self) -> str:
        return display_name_check(self.cleaned_data["display_name"], user=self.instance)


class PasswordChangeForm(auth_forms.AdminPasswordChangeForm):
    """A staff member's new password for a player revokes the player's API token, as the
    player's own change or reset does (:func:`accounts.services.user_password_set`)."""

    def save(self, commit: bool = True) -> User:
        user = super().save(commit=commit)
        if commit:
            user_api_token_revoke(user=user)
        return user


class UserCreationForm(auth_forms.AdminUserCreationForm):
    """A new account made by a staff member: a person's, named as at sign-up."""

    def clean_username(self) -> str:
        return username_check(self.cleaned_data["username"])


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    form = UserChangeForm
    add_form = UserCreationForm
    change_password_form = PasswordChangeForm
    list_display = ["username", "email", "display_name", "language", "is_active", "date_joined"]
    list_filter = ["is_active", "is_staff", "language", "notify", "date_joined"]
    search_fields = ["username", "email", "display_name"]
    fieldsets = [
        *(BaseUserAdmin.fieldsets or ()),  # Django's UserAdmin sets them; the stubs allow None
        (
            _("Preferences"),
            {
                "fields": [
                    "display_name",
                    "language",
                    "time_zone",
                    "notify",
                    "digest_hour",
                    "warning_hours",
                    "board_side",
                    "confirm_moves",
                    "stay_after_move",
                    "vacation_days_per_year",
                ]
            },
        ),
    ]
