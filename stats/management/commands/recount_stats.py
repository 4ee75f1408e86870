"""``manage.py recount_stats [--repair]``: check the counters against the record (the
dice up to the beat's count of them, :mod:`stats.dice`)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from stats.recount import stats_differences, stats_repair


class Command(BaseCommand):
    help = (
        "Recount games, matches, dice (as far as the beat has counted them) and ratings from "
        "the games, matches and events tables and report every counter that differs; "
        "--repair sets them to the recount."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--repair", action="store_true", help="Write the recounted values.")

    def handle(self, *args: Any, repair: bool = False, **options: Any) -> None:
        differences = stats_repair() if repair else stats_differences()
        for difference in differences:
            self.stdout.write(str(difference))
        if not differences:
            self.stdout.write(self.style.SUCCESS("No differences."))
        elif repair:
            self.stdout.write(self.style.SUCCESS(f"Repaired {len(differences)} differences."))
        else:
            raise CommandError(f"{len(differences)} differences; run with --repair to fix them.")
