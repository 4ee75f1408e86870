from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Accounts")

    def ready(self) -> None:
        # Import the Celery app so that @shared_task binds to it in the web process
        # too (backgammon/__init__.py must stay empty, so it cannot do this).
        from backgammon import celery  # noqa: F401
