import logging
from importlib import import_module
from importlib.util import find_spec

from django.apps import apps
from django.conf import settings
from django.core.management.base import BaseCommand

from accounts.demo import DEMO_PASSWORD, demo_users_create


class Command(BaseCommand):
    help = (
        "Create demo players (idempotent). Then every other installed app with a "
        "`demo` module gets `create_demo_data(users=..., stdout=...)` called."
    )

    def handle(self, *args: object, **options: object) -> None:
        # The demo games owe their players turn e-mails; printing a hundred of them on the
        # console would bury the log-ins. The notification rows are still written.
        backend = settings.EMAIL_BACKEND
        settings.EMAIL_BACKEND = "django.core.mail.backends.dummy.EmailBackend"
        tasks_log = logging.getLogger("celery.app.trace")
        level = tasks_log.level
        tasks_log.setLevel(logging.WARNING)
        try:
            self._create()
        finally:
            settings.EMAIL_BACKEND = backend
            tasks_log.setLevel(level)

    def _create(self) -> None:
        users = demo_users_create()
        for app_config in apps.get_app_configs():
            if app_config.name == "accounts":
                continue
            module_name = f"{app_config.name}.demo"
            if find_spec(module_name) is None:
                continue
            create = getattr(import_module(module_name), "create_demo_data", None)
            if create is not None:
                create(users=users, stdout=self.stdout)
        self.stdout.write(f"Demo players (password: {DEMO_PASSWORD}):")
        for user in users:
            self.stdout.write(f"  {user.username:<8} {user.email}")
