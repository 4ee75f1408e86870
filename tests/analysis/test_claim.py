"""An analysis delivered twice runs once; the analyses a player asks for are limited.

- ``analysis_run`` claims a run that is queued, or running but stalled past
  ``ANALYSIS_STALL_SECONDS``; a second delivery of a run under way leaves it alone (it
  used to claim it and run gnubg on it twice at once).
- The broker's visibility timeout outlasts the longest analysis the settings allow, so a
  long run is not delivered again while it runs.
- A player asks for at most ``LIMIT_ANALYSES_PER_DAY`` runs (429 past it, nothing
  queued); the automatic analysis of a finished match, and asking for one already
  there, cost nothing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pytest_django.fixtures import Settings

from accounts.models import User
from analysis import services
from analysis import tasks as analysis_tasks
from analysis.models import MatchAnalysis
from backgammon.celery import app
from backgammon.errors import LimitReached
from gnubg_bridge import analysis as gnubg_analysis
from gnubg_bridge.process import GnubgError
from matches.models import Match
from tests.bot_games import BotGames
from tests.matches.api_helpers import token_client
from tests.stats.helpers import match_resign, match_start

from .helpers import finished_match

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def clock() -> datetime:
    return timezone.now()


@pytest.mark.gnubg
def test_a_second_delivery_during_the_run_leaves_it_alone(
    bot_games: BotGames, player: User, opponent: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = finished_match(bot_games, player, opponent)
    MatchAnalysis.objects.create(match=match, requested_at=NOW)
    real = gnubg_analysis.analyse_match
    runs: list[int] = []
    seconds: list[str] = []

    def analyse(*args: Any, **kwargs: Any) -> Any:
        runs.append(match.pk)
        if len(runs) == 1:  # the broker delivers the task again while gnubg works
            seconds.append(services.analysis_run(match_id=match.pk, clock=clock))
        return real(*args, **kwargs)

    monkeypatch.setattr(gnubg_analysis, "analyse_match", analyse)
    assert services.analysis_run(match_id=match.pk, clock=clock) == "done"
    assert seconds == ["running"] and runs == [match.pk]  # gnubg ran once
    assert MatchAnalysis.objects.get(match=match).attempts == 1


def never_runs(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("gnubg was started")


def fails(*args: Any, **kwargs: Any) -> Any:
    raise GnubgError("gnubg died")


def test_a_run_under_way_is_not_claimed_but_a_stalled_one_is(
    bot_games: BotGames,
    player: User,
    opponent: User,
    monkeypatch: pytest.MonkeyPatch,
    settings: Settings,
) -> None:
    settings.ANALYSIS_STALL_SECONDS = 900
    match = finished_match(bot_games, player, opponent)
    now = timezone.now()
    MatchAnalysis.objects.create(
        match=match, requested_at=now, status="running", heartbeat_at=now, attempts=1
    )
    monkeypatch.setattr(gnubg_analysis, "analyse_match", never_runs)
    assert services.analysis_run(match_id=match.pk, clock=clock) == "running"
    assert MatchAnalysis.objects.get(match=match).attempts == 1

    MatchAnalysis.objects.filter(match=match).update(heartbeat_at=now - timedelta(seconds=901))
    monkeypatch.setattr(gnubg_analysis, "analyse_match", fails)
    with pytest.raises(GnubgError):  # claimed: gnubg was started (and failed)
        services.analysis_run(match_id=match.pk, clock=clock)
    analysis = MatchAnalysis.objects.get(match=match)
    assert analysis.attempts == 2
    assert analysis.status == "queued"  # given back, for the task's retry to claim


def test_the_sweeper_queues_a_stalled_run_for_the_next_delivery_to_claim(
    bot_games: BotGames, player: User, opponent: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = finished_match(bot_games, player, opponent)
    MatchAnalysis.objects.create(
        match=match, requested_at=NOW, status="running", heartbeat_at=NOW, attempts=1
    )
    later = NOW + timedelta(hours=1)
    assert services.analyses_requeue_stalled(now=later) == [match.pk]
    analysis = MatchAnalysis.objects.get(match=match)
    assert (analysis.status, analysis.requested_at) == ("queued", later)
    monkeypatch.setattr(gnubg_analysis, "analyse_match", fails)
    with pytest.raises(GnubgError):
        services.analysis_run(match_id=match.pk, clock=clock)
    assert MatchAnalysis.objects.get(match=match).attempts == 2


def test_the_brokers_visibility_timeout_outlasts_the_longest_analysis() -> None:
    """A late-acknowledged task is delivered again once the visibility timeout passes: it
    must outlast the analysis task's hard time limit and a retry's countdown, for any
    ``ANALYSIS_TIMEOUT`` (README suggests more at 2-ply)."""
    visibility = app.conf.broker_transport_options["visibility_timeout"]
    limit = analysis_tasks.analysis_run.time_limit
    assert limit is not None and visibility > limit + analysis_tasks.RETRY_DELAY
    code = (
        "import json, backgammon.settings as s;"
        "print(json.dumps([s.ANALYSIS_TASK_TIME_LIMIT,"
        " s.CELERY_BROKER_TRANSPORT_OPTIONS['visibility_timeout']]))"
    )
    for timeout in ("60", "3600", "14400", "86400"):
        out = subprocess.run(
            [sys.executable, "-c", code],
            env={**os.environ, "ANALYSIS_TIMEOUT": timeout},
            cwd=Path(__file__).resolve().parents[2],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        task_limit, visibility = json.loads(out.strip().splitlines()[-1])
        assert task_limit > int(timeout)
        assert visibility > task_limit + analysis_tasks.RETRY_DELAY, timeout


# --------------------------------------------------------------------------- the limit


def finished_matches(player: User, opponent: User, count: int) -> list[Match]:
    return [match_resign(match_start(player, opponent), opponent) for _ in range(count)]


def test_a_players_requests_a_day_are_limited(
    player: User, opponent: User, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(services, "analysis_available", lambda: True)
    settings.ANALYSIS_AUTOMATIC = False
    settings.LIMIT_ANALYSES_PER_DAY = 2
    first, second, third = finished_matches(player, opponent, 3)
    for match in (first, second):
        services.analysis_request(match_id=match.pk, user=player, now=NOW)
    services.analysis_request(match_id=first.pk, user=player, now=NOW)  # there: costs nothing
    with pytest.raises(LimitReached) as caught:
        services.analysis_request(match_id=third.pk, user=player, now=NOW)
    error = caught.value
    assert (error.status, error.code) == (429, "too_many_analyses")
    assert error.retry_after is not None and 1 <= error.retry_after <= 86400
    assert not MatchAnalysis.objects.filter(match=third).exists()
    services.analysis_request(match_id=third.pk, user=opponent, now=NOW)  # their own count


def test_the_request_button_and_the_api_answer_429(
    player: User, opponent: User, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(services, "analysis_available", lambda: True)
    settings.ANALYSIS_AUTOMATIC = False
    settings.LIMIT_ANALYSES_PER_DAY = 1
    first, second, third = finished_matches(player, opponent, 3)
    player.language = "es"
    player.save(update_fields=["language"])
    client = Client()
    client.force_login(player)
    assert client.post(reverse("analysis_request", args=[first.pk])).status_code == 302
    page = client.post(reverse("analysis_request", args=[second.pk]))
    assert page.status_code == 429
    assert 1 <= int(page["Retry-After"]) <= 86400
    assert "Has pedido tantos análisis como puede pedir un jugador" in page.content.decode()
    api = token_client(player).post(f"/api/matches/{third.pk}/analysis")
    assert api.status_code == 429 and api.json()["code"] == "too_many_analyses"
    assert api.json()["detail"].startswith("Has pedido tantos análisis")
    assert MatchAnalysis.objects.count() == 1
