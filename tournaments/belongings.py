"""Which matches are a tournament's, and at which pairing: the tournaments' answer to
``matches.signals.match_belongings_asked`` (``matches`` imports no tournaments; its API
shows a match's ``belongs_to`` from the answer). Connected in ``TournamentsConfig.ready()``.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from matches.models import Match
from matches.questions import Belonging
from matches.questions import Pairing as Place

from .models import Pairing


def match_belongings(matches: list[Match]) -> dict[int, Belonging]:
    """The tournament and pairing of each tournament match among ``matches``: one query
    on the pairing's unique match column (none when every one is a chouette's board,
    which no tournament pairs)."""
    ids = [m.pk for m in matches if not m.chouette]
    if not ids:
        return {}
    rows = Pairing.objects.filter(match_id__in=ids).values_list(
        "match_id", "tournament_id", "tournament__name", "stage", "round", "index"
    )
    return {
        match_id: Belonging(
            "tournament",
            tournament_id,
            reverse("api_tournament", args=[tournament_id]),
            name=name,
            pairing=Place(stage, round_, index),
            page=reverse("tournament_detail", args=[tournament_id]),
        )
        for match_id, tournament_id, name, stage, round_, index in rows
    }


def on_match_belongings_asked(
    sender: type, *, matches: list[Match], **kwargs: Any
) -> dict[int, Belonging]:
    return match_belongings(matches)
