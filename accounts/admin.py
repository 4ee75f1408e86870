from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.utils.translation import gettext_lazy as _

from accounts.models import User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
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
