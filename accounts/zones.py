"""The time zones a player is offered."""

from __future__ import annotations

from functools import cache
from importlib import resources


@cache
def curated_time_zones() -> tuple[str, ...]:
    """The zones people live in: the IANA ``zone.tab`` list (one or more per country, as
    tzdata ships it), plus UTC. ``available_timezones()`` has some 600 names, with
    aliases such as ``US/Eastern`` and oddities such as ``Factory`` and ``localtime``."""
    table = resources.files("tzdata.zoneinfo").joinpath("zone.tab").read_text()
    names = {
        line.split("\t")[2] for line in table.splitlines() if line and not line.startswith("#")
    }
    return ("UTC", *sorted(names))
