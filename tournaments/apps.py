from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        """Connect the receivers: a tournament match's end advances its tournament, in the
        transaction that ended it; and answer ``matches``' question of what its matches
        belong to (``belongings``). ``matches`` never imports this app."""
        from matches.signals import match_belongings_asked

        from . import belongings, receivers

        receivers.connect()
        match_belongings_asked.connect(
            belongings.on_match_belongings_asked, dispatch_uid="tournaments.belongings_asked"
        )
