from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        """Connect the receivers: a tournament match's end advances its tournament, in the
        transaction that ended it. ``matches`` never imports this app."""
        from . import receivers

        receivers.connect()
