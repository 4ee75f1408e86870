from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AnalysisConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "analysis"
    verbose_name = _("Analysis")

    def ready(self) -> None:
        """Connect the receivers (:mod:`.tasks`): a finished match's analysis is requested
        when ``matches`` sends ``match_finished``, and each queued analysis becomes a task
        on the ``analysis`` queue after the commit. ``matches`` never imports this app."""
        from . import tasks

        tasks.connect()
