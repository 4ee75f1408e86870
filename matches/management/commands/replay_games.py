"""``manage.py replay_games``: check that every stored game follows from its record."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db.models import Prefetch

from matches.models import Game, GameEvent
from matches.replay import game_differences


class Command(BaseCommand):
    help = (
        "Replay every game's record with the rules engine and report each game whose stored "
        "board, turn, state, cube, dice or ply differ from the replay. Exits non-zero if any do."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_ids", nargs="*", type=int, help="Only these games.")

    def handle(self, *args: Any, **options: Any) -> None:
        games = (
            Game.objects.select_related("match")
            .prefetch_related(Prefetch("events", queryset=GameEvent.objects.order_by("ply")))
            .order_by("pk")
        )
        if options["game_ids"]:
            games = games.filter(pk__in=options["game_ids"])
        checked = differ = 0
        for game in games.iterator(chunk_size=200):
            checked += 1
            problems = game_differences(game, game.events.all())
            if not problems:
                continue
            differ += 1
            self.stdout.write(f"Game {game.pk} (match #{game.match_id}, game {game.number}):")
            for problem in problems:
                self.stdout.write(f"  {problem}")
        self.stdout.write(f"{checked} games checked, {differ} differ")
        if differ:
            raise CommandError(f"{differ} of {checked} games differ from their replay")
