"""A tournament's start and its advance: each match's end recorded, and whatever it makes
ready paired.

Advancing happens inside the transaction that finishes a tournament match
(:func:`pairing_finished`, from ``match_finished``), under the tournament row's lock:
the result is recorded on its :class:`~tournaments.models.Pairing`, and whatever the
result makes ready is paired, by :mod:`gammon.tournament` reading every stored result.
Only pairings missing are created, and ``unique(tournament, stage, round, index)``
refuses a second one, so a beat task run twice, or two matches ending at once (their
transactions wait for each other on the tournament row), pair nobody twice and skip
no round. Lock order: the board (game and match) first, then the tournament, as a
move that ends a match takes them.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Exists, OuterRef, Q

from accounts.models import User
from gammon import tournament as pairings
from gammon.errors import NoPairingError
from matches import record, timecontrol
from matches.models import Match, Vacation
from stats.selectors import ratings_of

from .models import Entry, Format, Pairing, Tournament
from .steps import Kind, Step, locked

# The start ---------------------------------------------------------------------


def tournaments_start_due(*, now: datetime) -> int:
    """Start (or, short of players, cancel) every tournament whose start has come; the
    beat runs this every minute. Each in its own transaction; the number handled."""
    due = Tournament.objects.filter(
        status=Tournament.Status.REGISTERING, starts_at__lte=now
    ).values_list("pk", flat=True)
    return sum(1 for pk in list(due) if _start_due(pk, now))


@transaction.atomic
def _start_due(tournament_id: int, now: datetime) -> bool:
    tournament = locked(tournament_id)
    if tournament.status != Tournament.Status.REGISTERING or tournament.starts_at > now:
        return False  # another run took it
    entries = list(tournament.entries.select_related("player"))
    step = Step(tournament, now)
    if len(entries) < tournament.min_players:
        tournament.status, tournament.finished_at = Tournament.Status.CANCELLED, now
        tournament.cancel_reason = "too_few"
        tournament.save(update_fields=["status", "finished_at", "cancel_reason"])
        step.tell([e.player for e in entries], Kind.TOURNEY_CANCELLED)
    else:
        _start(step, entries)
    step.send()
    return True


def _groups(entries: list[Entry], size: int) -> tuple[tuple[Entry, ...], ...]:
    """Snake-seeded groups of at most ``size`` (0: one group of everyone). A field too
    small to make groups of two or more at that size plays in fewer, larger groups: in
    one group of everyone below four players, whose winner then wins the tournament."""
    if not size:
        return (tuple(entries),)
    count = max(1, min(-(-len(entries) // size), len(entries) // 2))
    return pairings.split_groups(entries, groups=count)


def _start(step: Step, entries: list[Entry]) -> None:
    """Seed by rating now (best first; registration order breaks ties), then pair."""
    tournament, now = step.tournament, step.now
    ratings = ratings_of(e.player_id for e in entries)
    entries.sort(key=lambda e: (-ratings[e.player_id], e.registered_at, e.pk))
    for seed, entry in enumerate(entries, start=1):
        entry.seed, entry.rating, entry.status = (
            seed,
            ratings[entry.player_id],
            Entry.Status.PLAYING,
        )
    if tournament.format == Format.ROUND_ROBIN:
        for number, group in enumerate(_groups(entries, tournament.group_size), start=1):
            for entry in group:
                entry.group = number
    Entry.objects.bulk_update(entries, ["seed", "rating", "status", "group"])
    tournament.status, tournament.started_at = Tournament.Status.RUNNING, now
    tournament.save(update_fields=["status", "started_at"])
    step.tell([e.player for e in entries], Kind.TOURNEY_STARTED)
    if tournament.format == Format.ROUND_ROBIN:
        for number in sorted({e.group or 1 for e in entries}):
            members = [e for e in entries if e.group == number]
            for k, pair in enumerate(pairings.round_robin_pairs(members)):
                _pair(step, Pairing.Stage.GROUP, number, k, pair.white, pair.black)
        return
    _advance(step)


# Advancing ---------------------------------------------------------------------


def pairing_finished(match: Match, now: datetime) -> Pairing | None:
    """A tournament match has ended (inside its transaction): record it and advance."""
    # The match's tournament, locked, in one query (none: not a tournament match).
    tournament = (
        Tournament.objects.select_for_update(of=("self",)).filter(pairings__match=match).first()
    )
    if tournament is None:
        return None
    # Read under the lock, with the two entries and their players (the loser's
    # elimination and its notice need them).
    pairing = Pairing.objects.select_related("white__player", "black__player").get(match=match)
    if pairing.winner_id is not None or tournament.status != Tournament.Status.RUNNING:
        return pairing
    step = Step(tournament, now)
    if match.result in (Match.Result.WHITE, Match.Result.BLACK):
        _record(step, pairing, match)
        _advance(step, pairing)
    else:  # drawn or cancelled by a moderator: the pairing is played again
        _replay(step, pairing)
    step.send()
    return pairing


def _record(step: Step, pairing: Pairing, match: Match) -> None:
    """The pairing's result, from its match won by one side; a knock-out's loser is out."""
    white_won = match.result == Match.Result.WHITE
    pairing.winner = pairing.white if white_won else pairing.black  # with its player
    pairing.white_points, pairing.black_points = match.score_white, match.score_black
    pairing.finished_at = step.now
    pairing.save(update_fields=["winner", "white_points", "black_points", "finished_at"])
    if pairing.stage == Pairing.Stage.KNOCKOUT:
        loser = pairing.black if white_won else pairing.white
        assert loser is not None
        _eliminate(step, loser, step.tournament.rounds - pairing.round + 1)


def pairings_finished(matches: Iterable[Match], now: datetime) -> None:
    """:func:`pairing_finished` for the expiry sweep's batch of matches lost on time: one
    query finds which of them are tournament matches (the sweep's cost must not grow with
    its batch when none are)."""
    batch = {match.pk: match for match in matches}
    placed = Pairing.objects.filter(match_id__in=batch).values_list("match_id", flat=True)
    for match_id in list(placed):
        pairing_finished(batch[match_id], now)


def tournaments_advance(*, now: datetime) -> int:
    """The beat's safety net: a tournament match that ended without being recorded (none
    should) is recorded now. The number recorded."""
    stray = Pairing.objects.filter(
        winner__isnull=True,
        match__status=Match.Status.FINISHED,
        tournament__status=Tournament.Status.RUNNING,
    ).values_list("match_id", flat=True)
    done = 0
    for match_id in list(stray):
        with transaction.atomic():
            match = Match.objects.get(pk=match_id)
            if pairing_finished(match, now) is not None:
                done += 1
    return done


def _advance(step: Step, finished: Pairing | None = None) -> None:
    """Pair what the result of ``finished`` (or, without one, the start) makes ready; end
    the tournament when it is won. Reads only what the next pairing depends on."""
    tournament = step.tournament
    if tournament.format == Format.SWISS:
        _advance_swiss(step)
    elif finished is not None and finished.stage == Pairing.Stage.KNOCKOUT:
        _knockout_next(step, finished)
    elif tournament.format == Format.ROUND_ROBIN:
        if _groups_done(step):
            entries = _entries(tournament)
            winners = [table[0].player for table in _group_tables(tournament, entries).values()]
            _knockout_start(step, sorted((entries[w] for w in winners), key=_by_seed))
    else:
        _knockout_start(step, sorted(_entries(tournament).values(), key=_by_seed))


def _by_seed(entry: Entry) -> int:
    return entry.seed or 0


def _entries(tournament: Tournament) -> dict[int, Entry]:
    return {e.pk: e for e in tournament.entries.select_related("player")}


def _pairings(tournament: Tournament, stage: str) -> list[Pairing]:
    return list(tournament.pairings.filter(stage=stage).order_by("round", "index"))


def _knockout_start(step: Step, field: list[Entry]) -> None:
    """The bracket of ``field`` (best seed first), by :func:`gammon.tournament.knockout_seeding`:
    its first round paired, and each bye's player through at once (a row with no match)."""
    tournament = step.tournament
    bracket = pairings.knockout_seeding([e.pk for e in field])
    tournament.rounds = bracket.rounds
    tournament.save(update_fields=["rounds"])
    by_id = {e.pk: e for e in field}
    byes = []
    for slot in bracket.slots(1):
        top, bottom = bracket.players(slot, {})
        assert top is not None
        if bracket.is_bye(slot):
            byes.append(_walkover(step, slot, by_id[top], None))
        else:
            assert bottom is not None
            _knockout_pair(step, slot, by_id[top], by_id[bottom])
    for bye in byes:
        _knockout_next(step, bye)


def _knockout_next(step: Step, finished: Pairing) -> None:
    """After ``finished``'s result: the final won ends the tournament; otherwise the next
    match is paired once its other feeding match has a winner too (only that one is
    read), and its notice tells both players of it. A winner whose next opponent is
    still playing is told at once that they are through."""
    tournament, now = step.tournament, step.now
    slot = pairings.Slot(finished.round, finished.index)
    winner = finished.winner
    assert winner is not None
    if slot.round >= tournament.rounds:
        _finish(step, winner)
        return
    after = pairings.Slot(slot.round + 1, slot.index // 2)
    # One query: the two feeding matches, with their winners and whether each winner
    # has a vacation ahead (the new match's clock), and the next match if it exists.
    nearby = list(
        tournament.pairings.filter(stage=Pairing.Stage.KNOCKOUT)
        .filter(
            Q(round=slot.round, index__in=(2 * after.index, 2 * after.index + 1))
            | Q(round=after.round, index=after.index)
        )
        .select_related("winner__player")
        .annotate(
            winner_away=Exists(
                Vacation.objects.filter(ends_at__gt=now, user_id=OuterRef("winner__player_id"))
            )
        )
    )
    feeders = {p.index: p for p in nearby if p.round == slot.round}
    ready = len(feeders) == 2 and all(p.winner_id is not None for p in feeders.values())
    paired = any(p.round == after.round for p in nearby)
    top = feeders[2 * after.index].winner if ready else None
    bottom = feeders[2 * after.index + 1].winner if ready else None
    withdrawn = [e for e in (top, bottom) if e is not None and e.status == Entry.Status.WITHDRAWN]
    if winner.status != Entry.Status.WITHDRAWN and (paired or not ready or withdrawn):
        step.tell([winner.player], Kind.TOURNEY_ADVANCED, round=after.round)
    if paired or not ready:
        return
    assert top is not None and bottom is not None
    for feeder in feeders.values():
        assert feeder.winner is not None
        timecontrol.note_vacation_ahead(feeder.winner.player, feeder.winner_away)
    if withdrawn:  # the other goes on without playing
        through = bottom if top in withdrawn and bottom not in withdrawn else top
        _knockout_next(step, _walkover(step, after, through, top, bottom))
        return
    _knockout_pair(step, after, top, bottom)


def _knockout_pair(step: Step, slot: pairings.Slot, top: Entry, bottom: Entry) -> Pairing:
    """The match of ``slot``: the colours alternate down the bracket and by round."""
    white, black = (top, bottom) if (slot.round + slot.index) % 2 == 0 else (bottom, top)
    return _pair(step, Pairing.Stage.KNOCKOUT, slot.round, slot.index, white, black)


def _walkover(
    step: Step,
    slot: pairings.Slot,
    winner: Entry,
    white: Entry | None,
    black: Entry | None = None,
) -> Pairing:
    """A knock-out place won without play: a bye (no opponent), or a withdrawn opponent."""
    return Pairing.objects.create(
        tournament=step.tournament,
        stage=Pairing.Stage.KNOCKOUT,
        round=slot.round,
        index=slot.index,
        white=winner if white is None else white,
        black=black,
        winner=winner,
        forfeit=True,
        created_at=step.now,
        finished_at=step.now,
    )


def _group_tables(
    tournament: Tournament, entries: dict[int, Entry]
) -> dict[int, tuple[pairings.GroupStanding[int], ...]]:
    """Each group's table by :func:`gammon.tournament.rank_group`."""
    results: dict[int, list[pairings.MatchResult[int]]] = {}
    for p in _pairings(tournament, Pairing.Stage.GROUP):
        if p.winner_id is None or p.black_id is None:
            continue
        white_won = p.winner_id == p.white_id
        results.setdefault(p.round, []).append(
            pairings.MatchResult(
                p.winner_id,
                p.black_id if white_won else p.white_id,
                p.white_points if white_won else p.black_points,
                p.black_points if white_won else p.white_points,
            )
        )
    groups: dict[int, list[Entry]] = {}
    for entry in sorted(entries.values(), key=lambda e: e.seed or 0):
        groups.setdefault(entry.group or 1, []).append(entry)
    return {
        number: pairings.rank_group([e.pk for e in group], results.get(number, []))
        for number, group in groups.items()
    }


def _groups_done(step: Step) -> bool:
    """Whether every group match has a winner and the winners play a knock-out; if the
    groups are over and there is no knock-out (or only one group, whose winner has no
    one to play), the tournament ends with the group's table."""
    tournament = step.tournament
    if tournament.pairings.filter(stage=Pairing.Stage.GROUP, winner__isnull=True).exists():
        return False
    if tournament.knockout_after and tournament.entries.filter(group__gt=1).exists():
        return True
    entries = _entries(tournament)
    table = _group_tables(tournament, entries)[1]
    for row in table:
        entries[row.player].rank = row.rank
    Entry.objects.bulk_update(list(entries.values()), ["rank"])
    _finish(step, entries[table[0].player])
    return False


def _advance_swiss(step: Step) -> None:
    """Pair the next round once the last one is over; after the last round, finish. The
    Swiss also ends early, on the standings so far, when fewer than two players are left
    or every pairing of the next round would repeat one of an earlier round."""
    tournament, now = step.tournament, step.now
    if tournament.pairings.filter(stage=Pairing.Stage.SWISS, winner__isnull=True).exists():
        return  # the round goes on (one query, on the index of open pairings)
    rounds = _pairings(tournament, Pairing.Stage.SWISS)
    entries = _entries(tournament)
    played = max((p.round for p in rounds), default=0)
    standings = _swiss_table(tournament, entries, rounds)
    active = [row for row in standings if entries[row.player].status != Entry.Status.WITHDRAWN]
    if played >= tournament.rounds or len(active) < 2:
        _swiss_finish(step, entries, standings)
        return
    history = [
        pairings.SwissRound(
            tuple(
                pairings.Pairing(p.white_id, p.black_id)
                for p in rounds
                if p.round == r and p.black_id is not None
            ),
            bye=next((p.white_id for p in rounds if p.round == r and p.black_id is None), None),
        )
        for r in range(1, played + 1)
    ]
    try:
        next_round = pairings.swiss_pair(active, history)
    except NoPairingError:
        _swiss_finish(step, entries, standings)
        return
    round_ = played + 1
    for k, pair in enumerate(next_round.pairings):
        _pair(step, Pairing.Stage.SWISS, round_, k, entries[pair.white], entries[pair.black])
    if next_round.bye is not None:
        bye = entries[next_round.bye]
        Pairing.objects.create(
            tournament=tournament,
            stage=Pairing.Stage.SWISS,
            round=round_,
            index=len(next_round.pairings),
            white=bye,
            black=None,
            winner=bye,
            forfeit=True,
            created_at=now,
            finished_at=now,
        )


def _swiss_finish(
    step: Step, entries: dict[int, Entry], standings: tuple[pairings.SwissStanding[int], ...]
) -> None:
    for row in standings:
        entries[row.player].rank = row.rank
    Entry.objects.bulk_update(list(entries.values()), ["rank"])
    _finish(step, entries[standings[0].player])


def _swiss_table(
    tournament: Tournament, entries: dict[int, Entry], rounds: list[Pairing]
) -> tuple[pairings.SwissStanding[int], ...]:
    results = [
        pairings.MatchResult(p.winner_id, p.black_id if p.winner_id == p.white_id else p.white_id)
        for p in rounds
        if p.winner_id is not None and p.black_id is not None
    ]
    byes = [p.white_id for p in rounds if p.black_id is None]
    by_seed = [e.pk for e in sorted(entries.values(), key=lambda e: e.seed or 0)]
    return pairings.swiss_standings(by_seed, results, byes)


def swiss_table(tournament: Tournament) -> tuple[pairings.SwissStanding[int], ...]:
    """The Swiss standings now, by entry id (for the pages and the API)."""
    return _swiss_table(
        tournament, _entries(tournament), _pairings(tournament, Pairing.Stage.SWISS)
    )


def group_tables(tournament: Tournament) -> dict[int, tuple[pairings.GroupStanding[int], ...]]:
    """Each round-robin group's table now, by entry id (for the pages and the API)."""
    return _group_tables(tournament, _entries(tournament))


def _pair(step: Step, stage: str, round_: int, index: int, white: Entry, black: Entry) -> Pairing:
    """A tournament match at its place: an ordinary match, its first game thrown."""
    match = _new_match(step, white.player, black.player)
    pairing = Pairing.objects.create(
        tournament=step.tournament,
        stage=stage,
        round=round_,
        index=index,
        white=white,
        black=black,
        match=match,
        created_at=step.now,
    )
    step.tell([white.player, black.player], Kind.TOURNEY_MATCH, round=round_)
    return pairing


def _new_match(step: Step, white: User, black: User) -> Match:
    tournament, now = step.tournament, step.now
    bank = timedelta(days=tournament.time_bank_days)
    match = Match.objects.create(
        white=white,
        black=black,
        variant=tournament.variant,
        length=tournament.length,
        days_per_move=tournament.days_per_move,
        time_bank_days=tournament.time_bank_days,
        rated=tournament.rated,
        bank_white=bank,
        bank_black=bank,
        created_at=now,
    )
    game = record.start_game(match, number=1, state=record.state_of(match), now=now)
    record.announce_turn(game, now, told=True)  # the notice goes with the step's
    step.tell_turn(game)
    return match


def _replay(step: Step, pairing: Pairing) -> None:
    """A drawn or cancelled tournament match is played again, at the same place."""
    white, black = pairing.white, pairing.black
    assert black is not None  # a bye has no match
    pairing.match = _new_match(step, white.player, black.player)
    pairing.save(update_fields=["match"])


def _eliminate(step: Step, entry: Entry, rounds_left: int) -> None:
    """The loser of a knock-out match is out, placed by the round they lost in: 2 for the
    final's loser, 3 for a semi-final's, 5 for a quarter-final's..."""
    if entry.status in (Entry.Status.ELIMINATED, Entry.Status.FINISHED):
        return
    if entry.status != Entry.Status.WITHDRAWN:
        entry.status = Entry.Status.ELIMINATED
    entry.rank = 2 ** (rounds_left - 1) + 1 if rounds_left > 1 else 2
    entry.save(update_fields=["status", "rank"])
    step.tell([entry.player], Kind.TOURNEY_OUT)


def _finish(step: Step, winner: Entry) -> None:
    tournament = step.tournament
    tournament.status, tournament.finished_at = Tournament.Status.FINISHED, step.now
    tournament.winner_id = winner.player_id
    tournament.save(update_fields=["status", "finished_at", "winner"])
    winner.rank = 1
    winner.save(update_fields=["rank"])
    tournament.entries.filter(status=Entry.Status.PLAYING).update(status=Entry.Status.FINISHED)
    players = [e.player for e in tournament.entries.select_related("player")]
    step.tell(players, Kind.TOURNEY_RESULT, winner=winner.player.public_name)
