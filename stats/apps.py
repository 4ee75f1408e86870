from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class StatsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "stats"
    verbose_name = _("Statistics")

    def ready(self) -> None:
        """Connect the counters to the signals that ``matches`` sends.

        ``matches`` never imports ``stats``: it sends its signals inside the transaction
        that changed the game, and the receivers here write in that same transaction.
        The dice are counted from the record by the beat (:mod:`stats.dice`).
        """
        from challenges.signals import rating_asked
        from matches.signals import (
            game_finished,
            games_timed_out,
            match_cancelled,
            match_finished,
        )

        from . import receivers

        game_finished.connect(receivers.on_game_finished, dispatch_uid="stats.game_finished")
        match_finished.connect(receivers.on_match_finished, dispatch_uid="stats.match_finished")
        games_timed_out.connect(receivers.on_games_timed_out, dispatch_uid="stats.games_timed_out")
        match_cancelled.connect(receivers.on_match_cancelled, dispatch_uid="stats.match_cancelled")
        rating_asked.connect(receivers.on_rating_asked, dispatch_uid="stats.rating_asked")
