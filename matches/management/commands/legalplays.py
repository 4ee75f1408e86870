"""``manage.py legalplays``: the engine's legal plays as JSON lines (stdin to stdout)."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand

from gammon.jsonio import answer_lines


class Command(BaseCommand):
    help = (
        'Read one JSON object per line on stdin ({"id": …, "points": [24 ints], "bar": [mine, '
        'theirs], "off": [mine, theirs], "dice": [d1, d2]}) and write one JSON line per request, '
        'in order: {"id": …, "plays": [{"notation": …, "result": {…}}]} or {"id": …, "error": …}.'
    )
    #: ``call_command("legalplays", stdin=...)`` reads from a file object instead.
    stealth_options = ("stdin",)

    def handle(self, *args: Any, **options: Any) -> None:
        stdin = options.get("stdin") or sys.stdin
        for line in answer_lines(stdin):
            self.stdout.write(line)
            self.stdout.flush()  # answer each line at once, for a checker that waits on it
