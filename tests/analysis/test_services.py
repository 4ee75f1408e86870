"""Requesting, running and storing an analysis: who may ask, never twice, never half-stored."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.models import Permission
from django.utils import timezone

from accounts.models import User
from analysis import selectors, services
from analysis import tasks as analysis_tasks
from analysis.models import Decision, MatchAnalysis, PlayerAnalysis
from analysis.signals import analysis_queued
from backgammon.errors import ServiceError
from gnubg_bridge import analysis as gnubg_analysis
from gnubg_bridge.process import GnubgError
from matches.export import export_mat
from matches.models import GameEvent, Match
from matches.signals import games_timed_out, match_finished
from tests.bot_games import BotGames
from tests.factories import UserFactory

from .helpers import finished_match, match_in_play

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


@pytest.fixture
def queued() -> list[int]:
    """The match ids ``analysis_queued`` announces (each becomes a task after the commit)."""
    seen: list[int] = []

    def hear(sender: type, *, analysis: MatchAnalysis, **kwargs: object) -> None:
        seen.append(analysis.pk)

    analysis_queued.connect(hear, dispatch_uid="test.queued")
    yield seen
    analysis_queued.disconnect(dispatch_uid="test.queued")


@pytest.fixture
def moderator(db: None) -> User:
    user = UserFactory(username="mod", is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="adjudicate_match"))
    return User.objects.get(pk=user.pk)


def finished(bot_games: BotGames, alice: User, bob: User, queued: list[int]) -> Match:
    match = finished_match(bot_games, alice, bob)
    queued.clear()  # what the set's recording announced
    return match


def end_of(match: Match) -> None:
    """What ``match_finished`` does here: its receiver, connected by the app (the signal
    itself would have stats count the match a second time)."""
    assert any(entry[0][0] == "analysis.match_finished" for entry in match_finished.receivers)
    analysis_tasks._on_match_finished(Match, match=match, now=NOW)


def request(match_id: int, user: User) -> MatchAnalysis:
    return services.analysis_request(match_id=match_id, user=user, now=NOW)


def refusal(match_id: int, user: User) -> ServiceError:
    with pytest.raises(ServiceError) as caught:
        request(match_id, user)
    return caught.value


@pytest.mark.usefixtures("gnubg_here")
def test_a_player_queues_a_finished_match_once(
    bot_games: BotGames, player: User, opponent: User, queued: list[int]
) -> None:
    match = finished(bot_games, player, opponent, queued)
    first = request(match.pk, player)
    again = request(match.pk, opponent)
    assert first.pk == again.pk == match.pk
    assert first.status == again.status == MatchAnalysis.Status.QUEUED
    assert first.requested_by == player and first.plies == 0
    assert queued == [match.pk]
    assert MatchAnalysis.objects.count() == 1


@pytest.mark.usefixtures("gnubg_here")
def test_a_finished_match_is_queued_when_it_ends(
    bot_games: BotGames, player: User, opponent: User, queued: list[int]
) -> None:
    match = finished(bot_games, player, opponent, queued)
    end_of(match)
    analysis = MatchAnalysis.objects.get(match=match)
    assert analysis.status == MatchAnalysis.Status.QUEUED and analysis.requested_by is None
    assert queued == [match.pk]


@pytest.mark.usefixtures("gnubg_here")
def test_a_failed_analysis_is_queued_again_and_a_done_one_is_not(
    bot_games: BotGames, player: User, opponent: User, queued: list[int]
) -> None:
    match = finished(bot_games, player, opponent, queued)
    request(match.pk, player)
    MatchAnalysis.objects.filter(match=match).update(status="failed", error="gnubg died")
    assert request(match.pk, player).status == MatchAnalysis.Status.QUEUED
    assert MatchAnalysis.objects.get(match=match).error == ""
    MatchAnalysis.objects.filter(match=match).update(status="done")
    assert request(match.pk, player).status == MatchAnalysis.Status.DONE
    assert queued == [match.pk, match.pk]


@pytest.mark.usefixtures("gnubg_here")
def test_a_moderator_may_ask_for_any_finished_match_and_an_outsider_may_not(
    bot_games: BotGames, player: User, opponent: User, outsider: User, moderator: User
) -> None:
    match = finished_match(bot_games, player, opponent)
    error = refusal(match.pk, outsider)
    assert (error.status, error.code) == (403, "forbidden")
    assert not MatchAnalysis.objects.exists()
    assert request(match.pk, moderator).requested_by == moderator


@pytest.mark.usefixtures("gnubg_here")
def test_nobody_gets_an_analysis_of_a_match_in_play(
    player: User, opponent: User, moderator: User, queued: list[int]
) -> None:
    match = match_in_play(player, opponent, NOW)
    for user in (player, opponent, moderator):
        error = refusal(match.pk, user)
        assert (error.status, error.code) == (409, "match_not_finished")
    assert selectors.game_decisions_by_ply(match.games.get()) is None
    assert not MatchAnalysis.objects.exists() and queued == []


@pytest.mark.usefixtures("no_gnubg")
def test_without_gnubg_nothing_is_queued(bot_games: BotGames, player: User, opponent: User) -> None:
    match = finished_match(bot_games, player, opponent)
    end_of(match)
    assert not MatchAnalysis.objects.exists()
    error = refusal(match.pk, player)
    assert (error.status, error.code) == (503, "analysis_unavailable")
    assert not MatchAnalysis.objects.exists()


@pytest.mark.usefixtures("gnubg_here")
def test_a_stalled_run_and_a_lost_task_are_queued_again(
    bot_games: BotGames, player: User, opponent: User, queued: list[int]
) -> None:
    match = finished(bot_games, player, opponent, queued)
    request(match.pk, player)
    queued.clear()
    later = NOW + timedelta(hours=2)
    MatchAnalysis.objects.filter(match=match).update(
        status="running", heartbeat_at=NOW, requested_at=NOW
    )
    assert services.analyses_requeue_stalled(now=NOW + timedelta(minutes=1)) == []
    assert services.analyses_requeue_stalled(now=later) == [match.pk]
    assert services.analyses_requeue_stalled(now=later) == []  # its clock started again
    MatchAnalysis.objects.filter(match=match).update(status="queued", requested_at=NOW)
    assert services.analyses_requeue_stalled(now=later) == [match.pk]
    assert queued == [match.pk, match.pk]


# --------------------------------------------------------------------------- gnubg runs


def clock() -> datetime:
    return timezone.now()


@pytest.mark.gnubg
def test_a_run_stores_gnubgs_figures_and_each_decision_on_our_record(
    bot_games: BotGames, player: User, opponent: User
) -> None:
    match = finished_match(bot_games, player, opponent)
    MatchAnalysis.objects.create(match=match, requested_at=NOW)
    assert services.analysis_run(match_id=match.pk, clock=clock) == "done"

    analysis = MatchAnalysis.objects.get(match=match)
    assert analysis.status == "done" and analysis.attempts == 1
    assert analysis.games_done == analysis.games_total == match.games.count()
    direct = gnubg_analysis.analyse_match(export_mat(match), plies=0, jacoby=match.jacoby)
    white, black = PlayerAnalysis.objects.filter(analysis=analysis)
    for row, figures in zip((white, black), direct.players, strict=True):
        assert row.texts == {section: dict(cells) for section, cells in figures.texts.items()}
        assert row.pr == figures.pr and row.overall_rating == figures.overall_rating
    decisions = list(Decision.objects.filter(analysis=analysis).select_related("game"))
    assert len(decisions) == len(direct.decisions)
    # Each decision stored as gnubg_bridge gives it (which holds every one to gnubg's own
    # record: tests/gnubg_bridge/test_analysis.py): its mark, luck and equities.
    assert {
        (d.game.number, d.record, d.kind): (
            d.mark,
            d.luck_mark,
            d.luck,
            d.made_equity,
            d.best_equity,
            d.equity_lost,
        )
        for d in decisions
    } == {
        (d.game, d.record, d.kind): (
            d.mark,
            d.luck_mark,
            d.luck,
            d.made_equity,
            d.best_equity,
            d.equity_lost,
        )
        for d in direct.decisions
    }
    assert {d.kind for d in decisions if d.mark} >= {"double", "drop"}
    kinds = {
        "play": {GameEvent.Kind.MOVE, GameEvent.Kind.PASS},
        "double": {GameEvent.Kind.DOUBLE},
        "take": {GameEvent.Kind.TAKE},
        "drop": {GameEvent.Kind.DROP},
        "no double": {GameEvent.Kind.ROLL},
    }
    events = {(e.game_id, e.ply): e for e in GameEvent.objects.filter(game__match=match)}
    for decision in decisions:
        event = events[(decision.game_id, decision.ply)]
        assert event.kind in kinds[decision.kind], decision
        assert event.color == decision.color
        if decision.kind == "play":
            assert sorted(decision.dice) == sorted(event.dice)
    assert {d.kind for d in decisions} >= {"play", "double", "take", "drop"}

    # What the game page marks: each game's decisions by the ply of their event.
    for game in match.games.all():
        by_ply = selectors.game_decisions_by_ply(game)
        assert by_ply is not None
        assert sum(map(len, by_ply.values())) == sum(d.game_id == game.pk for d in decisions)
        assert all((game.pk, ply) in events for ply in by_ply)

    # A second delivery of the task finds it done: nothing runs, nothing changes.
    assert services.analysis_run(match_id=match.pk, clock=clock) == "done"
    assert Decision.objects.filter(analysis=analysis).count() == len(decisions)


@pytest.mark.gnubg
def test_a_failed_run_stores_nothing_and_the_next_delivery_completes_it(
    bot_games: BotGames,
    player: User,
    opponent: User,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    match = finished_match(bot_games, player, opponent)
    MatchAnalysis.objects.create(match=match, requested_at=NOW)
    with monkeypatch.context() as broken:
        broken.setenv("GNUBG", "/bin/false")  # starts, and dies without an answer
        with pytest.raises(GnubgError):
            services.analysis_run(match_id=match.pk, clock=clock)
    analysis = MatchAnalysis.objects.get(match=match)
    assert analysis.status == "queued"  # the failed run gave its claim back, for the retry
    assert not PlayerAnalysis.objects.exists() and not Decision.objects.exists()
    assert services.analysis_run(match_id=match.pk, clock=clock) == "done"
    assert PlayerAnalysis.objects.filter(analysis=analysis).count() == 2
    assert MatchAnalysis.objects.get(match=match).attempts == 2


@pytest.mark.usefixtures("gnubg_here")
def test_a_run_that_never_finishes_is_given_up_after_its_attempts(
    bot_games: BotGames, player: User, opponent: User, queued: list[int]
) -> None:
    match = finished(bot_games, player, opponent, queued)
    request(match.pk, player)
    queued.clear()
    MatchAnalysis.objects.filter(match=match).update(status="running", heartbeat_at=NOW, attempts=3)
    assert services.analyses_requeue_stalled(now=NOW + timedelta(hours=2)) == []
    analysis = MatchAnalysis.objects.get(match=match)
    assert analysis.status == "failed" and "3 runs" in analysis.error
    assert queued == []
    assert request(match.pk, player).status == "queued"  # a player may ask again


@pytest.mark.usefixtures("gnubg_here")
def test_matches_lost_on_time_in_a_batch_are_queued(
    bot_games: BotGames, player: User, opponent: User, queued: list[int]
) -> None:
    """The expiry sweep's batch sends games_timed_out, not match_finished, per match."""
    match = finished(bot_games, player, opponent, queued)
    assert any(entry[0][0] == "analysis.games_timed_out" for entry in games_timed_out.receivers)
    analysis_tasks._on_games_timed_out(Match, games=[], matches=[match], now=NOW)
    assert MatchAnalysis.objects.get(match=match).status == "queued"
    assert queued == [match.pk]
