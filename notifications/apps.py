from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NotificationsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "notifications"
    verbose_name = _("Notifications")

    def ready(self) -> None:
        """Connect the receivers: the outbox rows that the games' and challenges' signals
        owe (:mod:`.receivers`), and the delivery task each e-mail row gets after the
        commit (:mod:`.tasks`). Neither ``matches`` nor ``challenges`` imports this app:
        they send signals, and it listens, as ``stats`` does."""
        from . import receivers, tasks

        receivers.connect()
        tasks.connect()
