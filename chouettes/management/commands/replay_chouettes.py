"""``manage.py replay_chouettes``: check that every chouette follows from its record."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from chouettes.models import Chouette
from chouettes.replay import chouette_differences


class Command(BaseCommand):
    help = (
        "Replay every chouette's decisions with the rules engine and report each chouette "
        "whose stakes, captains, results, points or places differ from the replay. Its "
        "boards are games, checked by replay_games. Exits non-zero if any differ."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("chouette_ids", nargs="*", type=int, help="Only these chouettes.")

    def handle(self, *args: Any, **options: Any) -> None:
        chouettes = Chouette.objects.exclude(status=Chouette.Status.OPEN).order_by("pk")
        if options["chouette_ids"]:
            chouettes = chouettes.filter(pk__in=options["chouette_ids"])
        checked = differ = 0
        for chouette in chouettes.iterator(chunk_size=100):
            checked += 1
            problems = chouette_differences(chouette)
            if not problems:
                continue
            differ += 1
            self.stdout.write(f"Chouette {chouette.pk}:")
            for problem in problems:
                self.stdout.write(f"  {problem}")
        self.stdout.write(f"{checked} chouettes checked, {differ} differ")
        if differ:
            raise CommandError(f"{differ} of {checked} chouettes differ from their replay")
