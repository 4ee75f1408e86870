from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Accounts")

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from accounts.middleware import activate_on_login

        # The language of the messages a log-in adds (accounts/middleware.py).
        user_logged_in.connect(activate_on_login, dispatch_uid="accounts.activate_on_login")
