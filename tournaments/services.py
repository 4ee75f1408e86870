"""Everything that changes a tournament: creating it, registration, the start, each
match's end advancing it, withdrawal, and the moderators' rulings.

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

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from backgammon.errors import Conflict, Forbidden, InvalidAction, NotFound
from gammon import Color
from gammon import tournament as pairings
from matches import moderator_actions, record, timecontrol
from matches.models import Game, Match, Vacation
from notifications.models import Notification
from notifications.outbox import notify_many
from stats.selectors import ratings_of

from .models import Entry, Format, Invitation, Pairing, Schedule, Tournament

Kind = Notification.Kind

#: Who may create a tournament: moderators with this permission, and players too when
#: ``settings.TOURNAMENTS_BY_PLAYERS`` is on. Only moderators set up repeating ones.
MANAGE_PERMISSION = "tournaments.manage_tournament"

#: The longest gap between two editions of a repeating tournament.
MAX_REPEAT_DAYS = 365

#: What a schedule's editions take from it (besides the format).
SCHEDULED_OPTIONS = (
    "description",
    "length",
    "variant",
    "days_per_move",
    "time_bank_days",
    "rated",
    "min_players",
    "max_players",
    "rating_min",
    "rating_max",
    "invitation_only",
    "rounds",
    "group_size",
    "knockout_after",
)


# Creating -----------------------------------------------------------------------


def may_create(user: User) -> bool:
    return bool(
        user.is_authenticated
        and (user.has_perm(MANAGE_PERMISSION) or getattr(settings, "TOURNAMENTS_BY_PLAYERS", False))
    )


#: The options :func:`check_options` checks, by name.
CHECKED_OPTIONS = (
    "format",
    "length",
    "min_players",
    "max_players",
    "rounds",
    "group_size",
    "knockout_after",
    "rating_min",
    "rating_max",
)


def check_options(
    *,
    format: str,
    length: int,
    min_players: int,
    max_players: int,
    rounds: int,
    group_size: int,
    knockout_after: bool,
    rating_min: float | None,
    rating_max: float | None,
) -> None:
    """Refuse options no tournament can be played with (a 400 that says which)."""
    if format not in Format.values:
        raise InvalidAction(_("Choose knock-out, round-robin or Swiss."), code="format")
    if not (1 <= length <= 21 and length % 2 == 1):
        raise InvalidAction(_("Matches are to an odd number of points, 1 to 21."), code="length")
    if not 2 <= min_players <= max_players <= 4096:
        raise InvalidAction(
            _("Set at least 2 players, and a maximum no lower than the minimum."),
            code="players",
        )
    if format == Format.SWISS and not 1 <= rounds <= 20:
        raise InvalidAction(_("A Swiss has 1 to 20 rounds."), code="rounds")
    if format == Format.SWISS and min_players <= rounds:
        raise InvalidAction(
            _("A Swiss needs more players than rounds, so nobody meets twice."), code="rounds"
        )
    if format == Format.ROUND_ROBIN and group_size and (group_size < 2 or not knockout_after):
        raise InvalidAction(
            _("Groups have at least 2 players, and their winners then play a knock-out."),
            code="groups",
        )
    if rating_min is not None and rating_max is not None and rating_min > rating_max:
        raise InvalidAction(_("The lowest rating is above the highest."), code="rating_limits")


@transaction.atomic
def tournament_create(
    *,
    creator: User,
    now: datetime,
    name: str,
    format: str,
    starts_at: datetime,
    registration_opens_at: datetime | None = None,
    invite: Sequence[User] = (),
    schedule: Schedule | None = None,
    repeat_days: int = 0,
    **options: object,
) -> Tournament:
    """A new tournament, open for registration from ``registration_opens_at`` (now by
    default) until it starts at ``starts_at``.

    ``repeat_days``: a moderator's repeating tournament. This is its first edition, and
    a :class:`~tournaments.models.Schedule` with the same options opens the next one
    ``repeat_days`` later, with the same registration time before its start, and so on
    until a moderator stops it (:func:`schedule_stop`). Each edition's name ends with
    its start date."""
    if not may_create(creator):
        raise Forbidden(_("Only the moderators create tournaments."))
    name = name.strip()
    if not name:
        raise InvalidAction(_("Give the tournament a name."), code="name")
    opens = now if registration_opens_at is None else registration_opens_at
    if not opens < starts_at or starts_at <= now:
        raise InvalidAction(
            _("The tournament starts in the future, after its registration opens."),
            code="dates",
        )
    if repeat_days:
        _check_repeat(creator, repeat_days, bool(options.get("invitation_only")))
    tournament = Tournament(
        name=f"{name} {starts_at:%Y-%m-%d}" if repeat_days else name,
        format=format,
        created_by=creator,
        schedule=schedule,
        registration_opens_at=opens,
        starts_at=starts_at,
        created_at=now,
        **options,
    )
    check_options(**{option: getattr(tournament, option) for option in CHECKED_OPTIONS})
    if repeat_days:
        tournament.schedule = Schedule.objects.create(
            name=name,
            format=tournament.format,
            created_by=creator,
            every_days=repeat_days,
            registration_days=max(1, math.ceil((starts_at - opens) / timedelta(days=1))),
            next_start_at=starts_at + timedelta(days=repeat_days),
            **{option: getattr(tournament, option) for option in SCHEDULED_OPTIONS},
        )
    tournament.save()
    Invitation.objects.bulk_create(
        [Invitation(tournament=tournament, player=p) for p in invite], ignore_conflicts=True
    )
    return tournament


def _check_repeat(creator: User, repeat_days: int, invitation_only: bool) -> None:
    if not creator.has_perm(MANAGE_PERMISSION):
        raise Forbidden(_("Only the moderators set up repeating tournaments."), code="repeat")
    check_repeat(repeat_days=repeat_days, invitation_only=invitation_only)


def check_repeat(*, repeat_days: int, invitation_only: bool) -> None:
    """Refuse a repeat no schedule can run (a 400 that says why); the admin's schedule
    form asks it too."""
    if not 1 <= repeat_days <= MAX_REPEAT_DAYS:
        raise InvalidAction(
            _("A tournament repeats every 1 to %(days)s days."), code="repeat", days=MAX_REPEAT_DAYS
        )
    if invitation_only:
        raise InvalidAction(
            _("A repeating tournament is open to all: its editions have no invitations."),
            code="repeat",
        )


@transaction.atomic
def schedule_stop(*, tournament_id: int, user: User) -> Schedule:
    """A moderator stops the repeating tournament that ``tournament_id`` is an edition
    of: no edition opens any more (those opened already go on)."""
    if not user.has_perm(MANAGE_PERMISSION):
        raise Forbidden(_("Only the moderators stop a repeating tournament."))
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        raise NotFound(_("No such tournament."))
    schedule = (
        Schedule.objects.select_for_update().filter(pk=tournament.schedule_id).first()
        if tournament.schedule_id
        else None
    )
    if schedule is None or not schedule.active:
        raise Conflict(_("This tournament does not repeat."), code="not_repeating")
    schedule.active = False
    schedule.save(update_fields=["active"])
    return schedule


# Registration --------------------------------------------------------------------


def _locked(tournament_id: int) -> Tournament:
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise NotFound(_("No such tournament."))
    return tournament


def _locked_registering(tournament_id: int, now: datetime) -> Tournament:
    tournament = _locked(tournament_id)
    if tournament.status != Tournament.Status.REGISTERING:
        raise Conflict(_("Registration for this tournament is closed."), code="closed")
    if now < tournament.registration_opens_at:
        raise Conflict(_("Registration for this tournament has not opened yet."), code="not_open")
    return tournament


@transaction.atomic
def tournament_register(*, tournament_id: int, user: User, now: datetime) -> Entry:
    """Enter the tournament (within its window, its rating limits and its invitations)."""
    tournament = _locked_registering(tournament_id, now)
    if tournament.entries.filter(player=user).exists():
        raise Conflict(_("You are already registered."), code="registered")
    if tournament.invitation_only and not tournament.invitations.filter(player=user).exists():
        raise Forbidden(_("This tournament is by invitation only."))
    if tournament.entries.count() >= tournament.max_players:
        raise Conflict(_("This tournament is full."), code="full")
    rating = ratings_of([user.pk])[user.pk]
    low, high = tournament.rating_min, tournament.rating_max
    if (low is not None and rating < low) or (high is not None and rating > high):
        raise Forbidden(
            _("Your rating (%(rating)s) is outside this tournament's limits."),
            code="rating_limits",
            rating=round(rating),
        )
    entry = Entry.objects.create(
        tournament=tournament, player=user, rating=rating, registered_at=now
    )
    _Step(tournament, now).tell([user], Kind.TOURNEY_REGISTERED).send()
    return entry


@transaction.atomic
def tournament_withdraw(*, tournament_id: int, user: User, now: datetime) -> Entry:
    """Withdraw: before the start the entry goes; after it, the player's matches in play
    are forfeited to their opponents and they are paired no more (results stand)."""
    entry = Entry.objects.filter(tournament_id=tournament_id, player=user).first()
    if entry is None or entry.status == Entry.Status.WITHDRAWN:
        raise NotFound(_("You are not in this tournament."))
    live = _live_matches_of(entry)
    _lock_boards(live)
    tournament = _locked(tournament_id)
    if tournament.status == Tournament.Status.REGISTERING:
        entry.delete()
        return entry
    if tournament.status != Tournament.Status.RUNNING:
        raise Conflict(_("This tournament is over."), code="over")
    if entry.status != Entry.Status.PLAYING:
        raise Conflict(_("You are out of this tournament already."), code="out")
    entry.status, entry.withdrawn_at = Entry.Status.WITHDRAWN, now
    entry.save(update_fields=["status", "withdrawn_at"])
    for match in live:
        color = Color.WHITE if match.white_id == user.pk else Color.BLACK
        moderator_actions.match_adjudicate(match_id=match.pk, winner=color.other, now=now)
    # A withdrawn player still waiting for their next opponent is walked over when it is known.
    return entry


def _live_matches_of(entry: Entry) -> list[Match]:
    return list(
        Match.objects.filter(
            tournament_pairing__tournament_id=entry.tournament_id,
            status=Match.Status.PLAYING,
        ).filter(Q(white_id=entry.player_id) | Q(black_id=entry.player_id))
    )


def _lock_boards(matches: Iterable[Match]) -> None:
    """Lock the games in play of ``matches`` before the tournament (the lock order)."""
    ids = [m.pk for m in matches]
    if ids:
        list(
            Game.objects.select_for_update(of=("self", "match"))
            .select_related("match")
            .filter(match_id__in=ids)
            .exclude(state=Game.State.FINISHED)
        )


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
    tournament = _locked(tournament_id)
    if tournament.status != Tournament.Status.REGISTERING or tournament.starts_at > now:
        return False  # another run took it
    entries = list(tournament.entries.select_related("player"))
    step = _Step(tournament, now)
    if len(entries) < tournament.min_players:
        tournament.status, tournament.finished_at = Tournament.Status.CANCELLED, now
        tournament.cancel_reason = "too_few"
        tournament.save(update_fields=["status", "finished_at", "cancel_reason"])
        step.tell([e.player for e in entries], Kind.TOURNEY_CANCELLED)
    else:
        _start(step, entries)
    step.send()
    return True


def _start(step: _Step, entries: list[Entry]) -> None:
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
        groups = (
            pairings.split_groups(entries, group_size=tournament.group_size)
            if tournament.group_size
            else (tuple(entries),)
        )
        for number, group in enumerate(groups, start=1):
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
    step = _Step(tournament, now)
    if match.result in (Match.Result.WHITE, Match.Result.BLACK):
        _record(step, pairing, match)
        _advance(step, pairing)
    else:  # drawn or cancelled by a moderator: the pairing is played again
        _replay(step, pairing)
    step.send()
    return pairing


def _record(step: _Step, pairing: Pairing, match: Match) -> None:
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


def _advance(step: _Step, finished: Pairing | None = None) -> None:
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


def _knockout_start(step: _Step, field: list[Entry]) -> None:
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


def _knockout_next(step: _Step, finished: Pairing) -> None:
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


def _knockout_pair(step: _Step, slot: pairings.Slot, top: Entry, bottom: Entry) -> Pairing:
    """The match of ``slot``: the colours alternate down the bracket and by round."""
    white, black = (top, bottom) if (slot.round + slot.index) % 2 == 0 else (bottom, top)
    return _pair(step, Pairing.Stage.KNOCKOUT, slot.round, slot.index, white, black)


def _walkover(
    step: _Step,
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


def _groups_done(step: _Step) -> bool:
    """Whether every group match has a winner; if so and there is no knock-out, the
    tournament ends with the (single) group's table."""
    tournament = step.tournament
    if tournament.pairings.filter(stage=Pairing.Stage.GROUP, winner__isnull=True).exists():
        return False
    if tournament.knockout_after:
        return True
    entries = _entries(tournament)
    table = _group_tables(tournament, entries)[1]
    for row in table:
        entries[row.player].rank = row.rank
    Entry.objects.bulk_update(list(entries.values()), ["rank"])
    _finish(step, entries[table[0].player])
    return False


def _advance_swiss(step: _Step) -> None:
    """Pair the next round once the last one is over; after the last round, finish."""
    tournament, now = step.tournament, step.now
    if tournament.pairings.filter(stage=Pairing.Stage.SWISS, winner__isnull=True).exists():
        return  # the round goes on (one query, on the index of open pairings)
    rounds = _pairings(tournament, Pairing.Stage.SWISS)
    entries = _entries(tournament)
    played = max((p.round for p in rounds), default=0)
    standings = _swiss_table(tournament, entries, rounds)
    if played >= tournament.rounds:
        for row in standings:
            entries[row.player].rank = row.rank
        Entry.objects.bulk_update(list(entries.values()), ["rank"])
        _finish(step, entries[standings[0].player])
        return
    active = [row for row in standings if entries[row.player].status != Entry.Status.WITHDRAWN]
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
    next_round = pairings.swiss_pair(active, history)
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


def _pair(step: _Step, stage: str, round_: int, index: int, white: Entry, black: Entry) -> Pairing:
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


def _new_match(step: _Step, white: User, black: User) -> Match:
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
    record.announce_turn(game, now)
    return match


def _replay(step: _Step, pairing: Pairing) -> None:
    """A drawn or cancelled tournament match is played again, at the same place."""
    white, black = pairing.white, pairing.black
    assert black is not None  # a bye has no match
    pairing.match = _new_match(step, white.player, black.player)
    pairing.save(update_fields=["match"])


def _eliminate(step: _Step, entry: Entry, rounds_left: int) -> None:
    """The loser of a knock-out match is out, placed by the round they lost in: 2 for the
    final's loser, 3 for a semi-final's, 5 for a quarter-final's..."""
    if entry.status in (Entry.Status.ELIMINATED, Entry.Status.FINISHED):
        return
    if entry.status != Entry.Status.WITHDRAWN:
        entry.status = Entry.Status.ELIMINATED
    entry.rank = 2 ** (rounds_left - 1) + 1 if rounds_left > 1 else 2
    entry.save(update_fields=["status", "rank"])
    step.tell([entry.player], Kind.TOURNEY_OUT)


def _finish(step: _Step, winner: Entry) -> None:
    tournament = step.tournament
    tournament.status, tournament.finished_at = Tournament.Status.FINISHED, step.now
    tournament.winner_id = winner.player_id
    tournament.save(update_fields=["status", "finished_at", "winner"])
    winner.rank = 1
    winner.save(update_fields=["rank"])
    tournament.entries.filter(status=Entry.Status.PLAYING).update(status=Entry.Status.FINISHED)
    players = [e.player for e in tournament.entries.select_related("player")]
    step.tell(players, Kind.TOURNEY_RESULT, winner=winner.player.public_name)


# Moderators --------------------------------------------------------------------


@transaction.atomic
def tournament_cancel(*, tournament_id: int, reason: str, now: datetime) -> Tournament:
    """Cancel a tournament: its matches in play are cancelled as if never played. The
    caller (the moderation app) audits it."""
    live = list(
        Match.objects.filter(tournament_pairing__tournament_id=tournament_id, status="playing")
    )
    _lock_boards(live)
    tournament = _locked(tournament_id)
    if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        raise Conflict(_("This tournament is over."), code="over")
    tournament.status, tournament.finished_at = Tournament.Status.CANCELLED, now
    tournament.cancel_reason = reason[:200]
    tournament.save(update_fields=["status", "finished_at", "cancel_reason"])
    for match in live:
        moderator_actions.match_adjudicate(match_id=match.pk, winner=None, cancel=True, now=now)
    players = [e.player for e in tournament.entries.select_related("player")]
    _Step(tournament, now).tell(players, Kind.TOURNEY_CANCELLED).send()
    return tournament


@transaction.atomic
def entry_replace(*, tournament_id: int, player: User, by: User, now: datetime) -> Entry:
    """Put ``by`` in ``player``'s place, before ``player`` has played a move of their
    first match: it is cancelled, and :func:`pairing_finished` (from ``match_cancelled``)
    starts it again with ``by``. The caller audits it."""
    entry = Entry.objects.filter(tournament_id=tournament_id, player=player).first()
    if entry is None:
        raise NotFound(_("That player is not in this tournament."))
    matches = _live_matches_of(entry)
    _lock_boards(matches)
    tournament = _locked(tournament_id)
    if tournament.entries.filter(player=by).exists():
        raise Conflict(_("The new player is in this tournament already."), code="registered")
    finished = tournament.pairings.filter(Q(white=entry) | Q(black=entry), winner__isnull=False)
    played = any(
        Game.objects.filter(match=m, ply__gt=1).exists() or m.games.count() > 1 for m in matches
    )
    if finished.exclude(forfeit=True, black__isnull=True).exists() or played:
        raise Conflict(
            _("A player is replaced only before their first match is under way."),
            code="played",
        )
    entry.player = by
    entry.save(update_fields=["player"])
    for match in matches:
        moderator_actions.match_adjudicate(match_id=match.pk, winner=None, cancel=True, now=now)
    return entry


# Schedules -------------------------------------------------------------------------


def schedules_run(*, now: datetime) -> int:
    """Open the next edition of every active schedule whose registration is due; the beat
    runs this. Each schedule in its own transaction; the number of editions created."""
    due = Schedule.objects.filter(active=True).values_list("pk", flat=True)
    return sum(_schedule_run(pk, now) for pk in list(due))


@transaction.atomic
def _schedule_run(schedule_id: int, now: datetime) -> int:
    schedule = Schedule.objects.select_for_update().get(pk=schedule_id)
    made = 0
    while schedule.next_opens_at <= now:
        start = schedule.next_start_at
        if start > now:
            options = {option: getattr(schedule, option) for option in SCHEDULED_OPTIONS}
            Tournament.objects.create(
                name=f"{schedule.name} {start:%Y-%m-%d}",
                format=schedule.format,
                created_by=schedule.created_by,
                schedule=schedule,
                registration_opens_at=now,
                starts_at=start,
                created_at=now,
                **options,
            )
            made += 1
        schedule.next_start_at = start + timedelta(days=schedule.every_days)
    schedule.save(update_fields=["next_start_at"])
    return made


# Notices ---------------------------------------------------------------------------


@dataclass
class _Step:
    """One change to a tournament, made at ``now`` under its lock. The notices it owes
    are gathered and written together when it is done (:meth:`send`): one ``INSERT``
    for a match's end, however much it pairs (a Swiss round is a hundred matches)."""

    tournament: Tournament
    now: datetime
    notices: list[dict[str, Any]] = field(default_factory=list)

    def tell(self, players: Iterable[User], kind: str, **payload: object) -> _Step:
        """One notice per player, in their language when it is e-mailed."""
        about = {"tournament": self.tournament.pk, "name": self.tournament.name}
        self.notices.extend(
            {"recipient": player, "kind": kind, "payload": {**about, **payload}}
            for player in players
        )
        return self

    def send(self) -> None:
        if self.notices:
            notify_many(self.notices, now=self.now)
            self.notices = []
