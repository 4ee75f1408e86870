"""Requesting, running and storing a match's analysis by GNU Backgammon.

- :func:`analysis_request`: a player of a finished match, or a moderator, asks for its
  analysis; :func:`analysis_request_finished` is the automatic one when a match ends
  (:func:`analyses_request_finished` for the expiry sweep's batch). A
  match already queued, running or analysed is left as it is (no second run); a failed
  one is queued again. Queuing sends ``analysis_queued``, which the tasks module turns
  into a task after the commit.
- :func:`analysis_run`: the task's work. It claims the row (queued, or running with a
  heartbeat older than ``ANALYSIS_STALL_SECONDS``: a task delivered twice never runs
  twice at once), has gnubg analyse the
  match game by game (each game moves ``games_done`` and the heartbeat), then
  :func:`analysis_store` writes the figures and the decisions and marks the row done in
  one transaction. Until then nothing of the run is stored.
- :func:`analysis_fail`: the task gave up; the row says why and may be requested again.
- :func:`analyses_requeue_stalled`: the sweeper's work: an analysis whose worker was lost
  (its heartbeat old) or whose task was never published is queued again (its row
  ``queued``, for the new task to claim).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from backgammon.errors import Conflict, Forbidden, NotFound, ServiceError
from backgammon.limits import rate_check
from gnubg_bridge import analysis as gnubg_analysis
from gnubg_bridge import process
from matches.export import export_mat
from matches.models import Game, GameEvent, Match

from .models import Decision, MatchAnalysis, PlayerAnalysis
from .signals import analysis_queued

#: A moderator's permission that also lets them request any finished match's analysis.
MODERATOR_PERMISSION = "matches.adjudicate_match"


class AnalysisUnavailable(ServiceError):
    status = 503
    default_code = "analysis_unavailable"


def analysis_available() -> bool:
    """Whether the site offers analysis: gnubg is installed here, or on the workers of
    the ``analysis`` queue elsewhere (``GNUBG_REMOTE``)."""
    return settings.GNUBG_REMOTE or process.available()


def is_analysable(match: Match) -> bool:
    """A match ended by play (won or drawn), not one in play or cancelled, nor a chouette's
    board, whose team members other than the captain could not read it."""
    return (
        match.status == Match.Status.FINISHED
        and match.result != Match.Result.CANCELLED
        and not match.chouette
    )


def may_request(match: Match, user: object) -> bool:
    """Its two players may ask for a match's analysis, and moderators for any."""
    if not getattr(user, "is_authenticated", False):
        return False
    return match.color_of(user) is not None or bool(
        getattr(user, "has_perm", lambda perm: False)(MODERATOR_PERMISSION)
    )


@transaction.atomic
def analysis_request(*, match_id: int, user: User, now: datetime) -> MatchAnalysis:
    """Queue the analysis of match ``match_id`` for ``user``; the analysis row.

    Refused: no such match (404), not one of its players nor a moderator (403), a match
    still in play or cancelled (409 ``match_not_finished``), gnubg missing (503
    ``analysis_unavailable``). A match already queued, running or done is returned as it
    is.
    """
    match = Match.objects.select_for_update().filter(pk=match_id).first()
    if match is None:
        raise NotFound(_("No such match."))
    if not may_request(match, user):
        raise Forbidden(_("Only the players of a match, and moderators, may ask for its analysis."))
    if not is_analysable(match):
        raise Conflict(
            _("A match is analysed only once it is over: no analysis while it is played."),
            code="match_not_finished",
        )
    if not analysis_available():
        raise AnalysisUnavailable(_("Analysis is unavailable: GNU Backgammon is not installed."))
    return _queue(match, user, now)


def analysis_request_finished(match: Match, now: datetime) -> MatchAnalysis | None:
    """Queue the analysis of ``match``, which has just ended (inside its transaction);
    nothing when gnubg is missing, automatic analysis is off or the match was cancelled."""
    if not settings.ANALYSIS_AUTOMATIC or not analysis_available() or not is_analysable(match):
        return None
    return _queue(match, None, now)


def analyses_request_finished(matches: Sequence[Match], now: datetime) -> int:
    """:func:`analysis_request_finished` for the expiry sweep's batch of matches just
    lost on time, in one statement whatever their number (the sweep's cost must not grow
    with the batch). None of them can have an analysis yet: it is asked for only once a
    match is over. The number queued."""
    if not settings.ANALYSIS_AUTOMATIC or not analysis_available():
        return 0
    rows = [
        MatchAnalysis(match=match, plies=settings.ANALYSIS_PLIES, requested_at=now)
        for match in matches
        if is_analysable(match)
    ]
    MatchAnalysis.objects.bulk_create(rows, ignore_conflicts=True)
    for analysis in rows:
        analysis_queued.send(sender=MatchAnalysis, analysis=analysis)
    return len(rows)


def _queue(match: Match, user: User | None, now: datetime) -> MatchAnalysis:
    """Queue ``match``'s analysis, unless it is queued, running or done. A player's request
    that would queue a run counts against their ``LIMIT_ANALYSES_PER_DAY`` (429 past it,
    nothing queued); the automatic one (``user`` None) and a request for an analysis
    already there cost nothing."""
    analysis, created = MatchAnalysis.objects.select_for_update().get_or_create(
        match=match,
        defaults={"plies": settings.ANALYSIS_PLIES, "requested_by": user, "requested_at": now},
    )
    if not created and analysis.status != MatchAnalysis.Status.FAILED:
        return analysis  # queued, running or done: never twice
    if user is not None:
        rate_check("analyses", user.pk)  # a refusal rolls the new row back
    if not created:
        analysis.status = MatchAnalysis.Status.QUEUED
        analysis.plies = settings.ANALYSIS_PLIES
        analysis.requested_by = user
        analysis.requested_at = now
        analysis.error = ""
        analysis.games_done = 0
        analysis.heartbeat_at = None
        analysis.save()
    analysis_queued.send(sender=MatchAnalysis, analysis=analysis)
    return analysis


def analysis_run(*, match_id: int, clock: Callable[[], datetime]) -> str:
    """Analyse match ``match_id`` if its analysis is queued, or running but stalled; its
    status after.

    The run claims the row (one conditional ``UPDATE``): a queued one, or a running one
    whose heartbeat is older than ``ANALYSIS_STALL_SECONDS`` (its worker died). A running
    one with a fresh heartbeat is another worker's: the same task delivered twice (the
    broker's visibility timeout, the sweeper's lost publish) used to run it twice at
    once; now the second delivery leaves it alone. ``clock`` gives the time of each step
    (the run lasts minutes). A :class:`~gnubg_bridge.process.GnubgError` is left to the
    caller (the task retries) with the row queued again and nothing stored, so the
    retry claims it and starts over.
    """
    now = clock()
    stall = now - timedelta(seconds=settings.ANALYSIS_STALL_SECONDS)
    rows = MatchAnalysis.objects.filter(pk=match_id).filter(
        Q(status=MatchAnalysis.Status.QUEUED)
        | Q(status=MatchAnalysis.Status.RUNNING, heartbeat_at__lt=stall)
        | Q(status=MatchAnalysis.Status.RUNNING, heartbeat_at__isnull=True)
    )
    claimed = rows.update(
        status=MatchAnalysis.Status.RUNNING,
        started_at=now,
        heartbeat_at=now,
        games_done=0,
        attempts=F("attempts") + 1,
        error="",
    )
    analysis = MatchAnalysis.objects.select_related("match").filter(pk=match_id).first()
    if analysis is None:
        return "missing"
    if not claimed:
        return analysis.status
    match = analysis.match

    def on_game(number: int, count: int) -> None:
        MatchAnalysis.objects.filter(pk=match_id, status=MatchAnalysis.Status.RUNNING).update(
            games_done=number - 1, games_total=count, heartbeat_at=clock()
        )

    try:
        result = gnubg_analysis.analyse_match(
            export_mat(match),
            plies=analysis.plies,
            jacoby=match.jacoby,
            on_game=on_game,
            timeout=settings.ANALYSIS_TIMEOUT,
        )
    except process.GnubgError:  # the claim is given back, for the task's retry
        MatchAnalysis.objects.filter(pk=match_id, status=MatchAnalysis.Status.RUNNING).update(
            status=MatchAnalysis.Status.QUEUED
        )
        raise
    analysis_store(match_id=match_id, result=result, now=clock())
    return MatchAnalysis.Status.DONE


#: Our events that stand for each action of gnubg's record.
_ACTIONS = {
    GameEvent.Kind.MOVE: "move",
    GameEvent.Kind.PASS: "move",
    GameEvent.Kind.DOUBLE: "double",
    GameEvent.Kind.TAKE: "take",
    GameEvent.Kind.DROP: "drop",
    GameEvent.Kind.RESIGN: "resign",
    GameEvent.Kind.RESIGN_ACCEPT: "resign",
    GameEvent.Kind.TIMEOUT: "resign",
    GameEvent.Kind.ADJUDICATE: "resign",
}


def record_plies(
    events: Sequence[tuple[int, str]], actions: Sequence[str]
) -> dict[int, tuple[int, int | None]]:
    """gnubg's record index of a game -> (our event's ply, the ply of the roll before it),
    from the game's ``events`` as (ply, kind) in the order of their plies.

    gnubg's records and our events come in the same order (the ``.mat`` file is written
    from the events): each gnubg action is paired with the next event of that action.
    The roll's ply is that of the ROLL (or OPENING) event the play was thrown by.
    """
    ours: list[tuple[str, int, int | None]] = []
    roll: int | None = None
    for ply, kind in events:
        if kind in (GameEvent.Kind.ROLL, GameEvent.Kind.OPENING):
            roll = ply
        action = _ACTIONS.get(GameEvent.Kind(kind))
        if action is not None:
            ours.append((action, ply, roll if action == "move" else None))
            if action == "move":
                roll = None
    found: dict[int, tuple[int, int | None]] = {}
    position = 0
    for index, action in enumerate(actions):
        for at in range(position, len(ours)):
            if ours[at][0] == action:
                found[index] = (ours[at][1], ours[at][2])
                position = at + 1
                break
    return found


@transaction.atomic
def analysis_store(*, match_id: int, result: gnubg_analysis.MatchAnalysis, now: datetime) -> bool:
    """Store ``result`` as match ``match_id``'s analysis and mark it done, all at once;
    False (nothing written) when it is already done or gone."""
    analysis = MatchAnalysis.objects.select_for_update().filter(pk=match_id).first()
    if analysis is None or analysis.status == MatchAnalysis.Status.DONE:
        return False
    games = list(Game.objects.filter(match_id=match_id).order_by("number"))
    # Only each event's ply and kind: ~400 rows a match, read as tuples, not models.
    events: dict[int, list[tuple[int, str]]] = {}
    for game_id, event_ply, kind in (
        GameEvent.objects.filter(game__match_id=match_id)
        .order_by("game_id", "ply")
        .values_list("game_id", "ply", "kind")
    ):
        events.setdefault(game_id, []).append((event_ply, kind))
    plies = {
        game.number: record_plies(events.get(game.pk, []), actions)
        for game, actions in zip(games, result.records, strict=False)
    }
    by_number = {game.number: game for game in games}
    PlayerAnalysis.objects.filter(analysis=analysis).delete()
    Decision.objects.filter(analysis=analysis).delete()
    PlayerAnalysis.objects.bulk_create(
        PlayerAnalysis(
            analysis=analysis,
            color=color,
            pr=figures.pr,
            chequer_rating=figures.chequer_rating,
            cube_rating=figures.cube_rating,
            overall_rating=figures.overall_rating,
            luck_rating=figures.luck_rating,
            figures={k: v for k, v in asdict(figures).items() if k != "texts"},
            texts={section: dict(cells) for section, cells in figures.texts.items()},
        )
        for color, figures in enumerate(result.players)
    )
    rows = []
    for decision in result.decisions:
        game = by_number.get(decision.game)
        if game is None:
            continue
        ply, roll = plies.get(decision.game, {}).get(decision.record, (None, None))
        rows.append(
            Decision(
                analysis=analysis,
                game=game,
                ply=roll if decision.kind == "no double" and roll is not None else ply,
                record=decision.record,
                color=decision.player,
                kind=decision.kind,
                dice=list(decision.dice) if decision.dice else None,
                made=decision.made[:80],
                made_steps=[list(step) for step in decision.made_steps],
                best=decision.best[:80],
                best_steps=[list(step) for step in decision.best_steps],
                made_equity=decision.made_equity,
                best_equity=decision.best_equity,
                equity_lost=decision.equity_lost,
                mark=decision.mark,
                luck=decision.luck,
                luck_mark=decision.luck_mark,
                candidates=[
                    {"play": c.play, "steps": [list(s) for s in c.steps], "equity": c.equity}
                    for c in decision.candidates
                ],
            )
        )
    Decision.objects.bulk_create(rows, batch_size=500)
    analysis.status = MatchAnalysis.Status.DONE
    analysis.games_total = analysis.games_done = result.games
    analysis.finished_at = now
    analysis.heartbeat_at = now
    analysis.error = ""
    analysis.save()
    return True


def analysis_fail(*, match_id: int, error: str, now: datetime) -> None:
    """The run gave up: the row is ``failed`` with the reason (a new request retries)."""
    MatchAnalysis.objects.filter(pk=match_id).exclude(status=MatchAnalysis.Status.DONE).update(
        status=MatchAnalysis.Status.FAILED, error=error[-2000:], finished_at=now
    )


@transaction.atomic
def analyses_requeue_stalled(*, now: datetime) -> list[int]:
    """Queue again each analysis whose run was lost: running with a heartbeat older than
    ``ANALYSIS_STALL_SECONDS`` (its worker died), or queued for longer than that (its
    task was never published). One that has used its ``ANALYSIS_MAX_ATTEMPTS`` runs is
    marked failed instead (a player may ask again). The match ids queued again."""
    stall = now - timedelta(seconds=settings.ANALYSIS_STALL_SECONDS)
    stalled = list(
        MatchAnalysis.objects.select_for_update(skip_locked=True).filter(
            Q(status=MatchAnalysis.Status.RUNNING, heartbeat_at__lt=stall)
            | Q(status=MatchAnalysis.Status.QUEUED, requested_at__lt=stall)
        )
    )
    requeued = []
    for analysis in stalled:
        if analysis.attempts >= settings.ANALYSIS_MAX_ATTEMPTS:
            analysis.status = MatchAnalysis.Status.FAILED
            analysis.error = f"gave up after {analysis.attempts} runs that did not finish"
            analysis.finished_at = now
            analysis.save(update_fields=["status", "error", "finished_at"])
            continue
        requeued.append(analysis.pk)
        # Queued again, its clock started again: the task just queued claims it (a run
        # still going but silent past the stall loses its claim), and the next sweep
        # leaves it to that task.
        analysis.status = MatchAnalysis.Status.QUEUED
        analysis.requested_at = now
        analysis.save(update_fields=["status", "requested_at"])
        analysis_queued.send(sender=MatchAnalysis, analysis=analysis)
    return requeued
