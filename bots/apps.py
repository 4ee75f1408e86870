from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BotsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "bots"
    verbose_name = _("Bots")

    def ready(self) -> None:
        """Connect the receiver that queues a bot's turn after the commit (:mod:`.tasks`):
        ``matches`` never imports this app, it sends ``turn_started`` and this listens."""
        from . import tasks

        tasks.connect()
