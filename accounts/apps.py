from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Accounts")

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from accounts.middleware import activate_on_login

        # Import the Celery app so that @shared_task binds to it in the web process
        # too (backgammon/__init__.py must stay empty, so it cannot do this).
        from backgammon import celery  # noqa: F401

        # The language of the messages a log-in adds (accounts/middleware.py).
        user_logged_in.connect(activate_on_login, dispatch_uid="accounts.activate_on_login")
