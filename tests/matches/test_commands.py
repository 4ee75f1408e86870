"""The management commands of ``matches``: legalplays and the demo data."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command

from accounts.models import User
from challenges.models import Challenge
from gammon import Position, legal_plays
from matches.models import Game, GameEvent, Match
from matches.selectors import games_awaiting, games_awaiting_count

START = {"points": list(Position.start().points), "bar": [0, 0], "off": [0, 0]}


def legalplays(text: str) -> list[dict]:
    out = StringIO()
    call_command("legalplays", stdin=StringIO(text), stdout=out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_legalplays_answers_each_line_in_order() -> None:
    requests = [{"id": 1, **START, "dice": [3, 1]}, {"id": "b", **START, "dice": [6, 6]}]
    answers = legalplays("\n".join(json.dumps(r) for r in requests) + "\n")
    assert [a["id"] for a in answers] == [1, "b"]
    expected = {str(play) for play in legal_plays(Position.start(), (3, 1))}
    assert {play["notation"] for play in answers[0]["plays"]} == expected
    assert "8/5 6/5" in expected
    result = next(p["result"] for p in answers[0]["plays"] if p["notation"] == "8/5 6/5")
    assert result["points"][4] == 2


def test_legalplays_answers_a_bad_line_with_an_error_and_goes_on() -> None:
    lines = [
        json.dumps({"id": 1, **START, "dice": [7, 1]}),
        "not json",
        "",
        json.dumps({"id": 3, "points": [1] * 24, "dice": [1, 2]}),
        json.dumps({"id": 4, **START, "dice": [2, 1]}),
    ]
    answers = legalplays("\n".join(lines))
    assert [a["id"] for a in answers] == [1, None, 3, 4]
    assert all("error" in a for a in answers[:3])
    assert len(answers[3]["plays"]) == len(legal_plays(Position.start(), (2, 1)))


# --------------------------------------------------------------------------- demo data


@pytest.mark.django_db
def test_demo_data_creates_matches_and_challenges_once(db: None) -> None:
    out = StringIO()
    call_command("demo_data", stdout=out)
    assert "Created demo match" in out.getvalue()
    counts = (Match.objects.count(), Game.objects.count(), GameEvent.objects.count())
    challenges = Challenge.objects.count()

    again = StringIO()
    call_command("demo_data", stdout=again)
    assert "Created" not in again.getvalue()
    assert (Match.objects.count(), Game.objects.count(), GameEvent.objects.count()) == counts
    assert Challenge.objects.count() == challenges

    live = Match.objects.filter(status=Match.Status.PLAYING)
    playing = live.filter(chouette=False, tournament_pairing__isnull=True)
    assert playing.count() == 4
    assert live.filter(chouette=True).count() == 1  # the chouette's board
    assert live.filter(tournament_pairing__isnull=False).count() == 1  # the cup's semi-final
    assert Match.objects.filter(status=Match.Status.FINISHED).count() == 1
    assert playing.filter(length=0).exists()
    assert playing.filter(variant="nackgammon").exists()
    assert Game.objects.filter(match__length=7, cube_value=2).exists()
    assert GameEvent.objects.filter(kind=GameEvent.Kind.TAKE).exists()
    open_challenges = Challenge.objects.filter(status=Challenge.Status.OPEN)
    assert open_challenges.filter(opponent__isnull=True).count() == 1
    assert open_challenges.filter(opponent__username="alice").count() == 1


@pytest.mark.django_db
def test_demo_data_passes_the_replay_check_and_the_recount(db: None) -> None:
    call_command("demo_data", stdout=StringIO())
    out = StringIO()
    call_command("replay_games", stdout=out)
    assert out.getvalue().endswith(f"{Game.objects.count()} games checked, 0 differ\n")
    # README.md: "two games wait for her move, one for bob, and two for carol (one the
    # cup's semi-final)".
    waiting = {u.username: games_awaiting(u).count() for u in User.objects.filter(is_bot=False)}
    assert waiting == {"alice": 2, "bob": 1, "carol": 2}
    # The header's badge counts the same games by its own leaner query, bots included
    # (each of the demo's kinds of game: held chouette boards, a tournament's, finished).
    for user in User.objects.all():
        assert games_awaiting_count(user) == games_awaiting(user).count(), user.username
    counted = StringIO()
    call_command("recount_stats", stdout=counted)  # raises CommandError on a difference
    assert counted.getvalue().strip() == "No differences."
