from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ChouettesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "chouettes"
    verbose_name = _("Chouettes")

    def ready(self) -> None:
        """Connect the receivers: a chouette's board ending (``matches.signals``) settles
        the game and starts the next one. ``matches`` never imports this app."""
        from . import receivers

        receivers.connect()
