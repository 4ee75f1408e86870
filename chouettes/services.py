"""Everything that changes a chouette: joining, starting, the team's and the box's
cube decisions, suggestions, chat, leaving, the end of each game and the deadlines.

Each public function is one transaction. One that touches a game in play locks the
board first (:func:`matches.record.lock_game`), then the chouette row, the order in
which a board's ending (a move, a time-out, a moderator) reaches :func:`game_settle`,
so the two never wait on each other. The rules are :mod:`gammon.chouette`'s: a
service reads the cube side (:func:`chouettes.state.cube_side`), asks the engine
for the next state (a refusal is a 4xx that changes nothing), appends the
:class:`~chouettes.models.Decision` and puts the board where the engine says:

- a team vote, and the members' answers to the box's double, *hold* the board
  (:func:`matches.record.hold`: no one acts on it and its clock stops) while each
  member has a deadline of their own (:attr:`Seat.deadline_at`, their days per move,
  bank and vacations); past it a vote is a refusal and an answer a drop
  (:func:`decisions_expire`);
- the team's double goes on the board as the captain's double, once unanimous, and
  the box takes or drops it there; the box's double goes on the board at once, and
  when every member has answered the board's captain (the first taker in line, who
  takes the captain's seat when the captain dropped) takes, or, when all dropped,
  drops.

The board's own end (borne off, resigned, timed out, adjudicated, or ended on the cube)
sends ``match_finished``; :func:`game_settle` then settles every member with the box,
rotates the places and starts the next game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from backgammon.errors import Conflict, Forbidden, InvalidAction, NotFound
from backgammon.limits import rate_check
from gammon import Color, RulesError, Termination, parse_play
from gammon import chouette as rules
from matches import clock, record, timecontrol, turns
from matches.errors import from_rules_error
from matches.models import Game, Match, Resignation

from . import limits
from . import state as cube
from .models import Chouette, ChouetteGame, Decision, Message, Result, Seat, Suggestion
from .signals import (
    chouette_finished,
    chouette_game_settled,
    chouette_invited,
    decision_awaited,
)

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

BOX, TEAM = Color.WHITE, Color.BLACK


# Setting up ----------------------------------------------------------------------


@transaction.atomic
def chouette_create(
    *,
    creator: User,
    now: datetime,
    invite: Sequence[User] = (),
    open_to_all: bool = True,
    max_players: int = rules.MAX_PLAYERS,
    days_per_move: int = 3,
    time_bank_days: int = 0,
    cube_limit: int | None = 64,
    jacoby: bool = False,
    automatic_doubles: bool = False,
    places_from_dice: bool = True,
) -> Chouette:
    """A new chouette, with its creator seated and the invited players asked to join."""
    try:
        rules.ChouetteOptions(
            max_players=max_players,
            cube_limit=cube_limit,
            automatic_doubles=automatic_doubles,
            jacoby=jacoby,
            places_from_dice=places_from_dice,
        )
    except RulesError:
        raise InvalidAction(
            _("A chouette has 3 to 8 players, and a cube limit that is a power of two."),
            code="chouette_options",
        ) from None
    if not 1 <= days_per_move <= 30 or not 0 <= time_bank_days <= 365:
        raise InvalidAction(
            _("Choose 1 to 30 days per move and a time bank of at most 365 days."),
            code="chouette_options",
        )
    invitees = _distinct(invite, creator)
    if len(invitees) + 1 > max_players:
        raise InvalidAction(
            _("You invited more players than this chouette seats."), code="chouette_full"
        )
    chouette = Chouette.objects.create(
        creator=creator,
        open_to_all=open_to_all,
        max_players=max_players,
        days_per_move=days_per_move,
        time_bank_days=time_bank_days,
        cube_limit=cube_limit,
        jacoby=jacoby,
        automatic_doubles=automatic_doubles,
        places_from_dice=places_from_dice,
        created_at=now,
    )
    Seat.objects.create(chouette=chouette, player=creator, joined_at=now)
    _invite(chouette, invitees, now)
    return chouette


def _distinct(players: Sequence[User], creator: User) -> list[User]:
    seen: dict[int, User] = {}
    for player in players:
        if player.pk == creator.pk:
            raise InvalidAction(_("You are in your own chouette already."), code="chouette_self")
        if player.is_bot or not player.is_active:
            raise InvalidAction(
                _("%(name)s cannot be invited to a chouette."),
                code="chouette_invitee",
                name=player.username,
            )
        seen[player.pk] = player
    return list(seen.values())


def _invite(chouette: Chouette, players: Sequence[User], now: datetime) -> None:
    """Invite ``players`` who have no seat in ``chouette`` yet (each invitation e-mails
    its player once: asking again a player already asked sends nothing), within the
    creator's limits (:func:`chouettes.limits.invitations_check`)."""
    asked = set(chouette.seats.filter(player__in=players).values_list("player_id", flat=True))
    players = [p for p in players if p.pk not in asked]
    if not players:
        return
    limits.invitations_check(chouette, players)
    Seat.objects.bulk_create(
        [Seat(chouette=chouette, player=p, status=Seat.Status.INVITED) for p in players],
        ignore_conflicts=True,
    )
    chouette_invited.send(sender=Chouette, chouette=chouette, players=list(players), now=now)


def _locked_chouette(chouette_id: int) -> Chouette:
    chouette = Chouette.objects.select_for_update().filter(pk=chouette_id).first()
    if chouette is None:
        raise NotFound(_("No such chouette."))
    return chouette


def _locked_open(chouette_id: int) -> Chouette:
    chouette = _locked_chouette(chouette_id)
    if chouette.status != Chouette.Status.OPEN:
        raise Conflict(_("This chouette has already started."), code="chouette_started")
    return chouette


@transaction.atomic
def chouette_invite(
    *, chouette_id: int, user: User, players: Sequence[User], now: datetime
) -> Chouette:
    """The creator invites more players before the start."""
    chouette = _locked_open(chouette_id)
    if chouette.creator_id != user.pk:
        raise Forbidden(_("Only the chouette's creator invites players."))
    invitees = _distinct(players, user)
    taken = chouette.seats.exclude(status=Seat.Status.LEFT).count()
    if taken + len(invitees) > chouette.max_players:
        raise InvalidAction(
            _("You invited more players than this chouette seats."), code="chouette_full"
        )
    _invite(chouette, invitees, now)
    return chouette


@transaction.atomic
def chouette_join(*, chouette_id: int, user: User, now: datetime) -> Seat:
    """Take a seat: an invited player accepts, anyone joins an open chouette."""
    chouette = _locked_open(chouette_id)
    seat = chouette.seats.filter(player=user).first()
    if seat is not None and seat.status == Seat.Status.SEATED:
        raise Conflict(_("You are already seated in this chouette."), code="chouette_seated")
    if seat is None or seat.status != Seat.Status.INVITED:
        if not chouette.open_to_all:
            raise Forbidden(_("This chouette is for invited players only."))
        if user.is_bot:
            raise Forbidden(_("The computer does not play chouettes."))
    if chouette.seats.filter(status=Seat.Status.SEATED).count() >= chouette.max_players:
        raise Conflict(_("This chouette is full."), code="chouette_full")
    if seat is None:
        seat = Seat(chouette=chouette, player=user)
    seat.status, seat.joined_at, seat.left_at = Seat.Status.SEATED, now, None
    seat.save()
    return seat


@transaction.atomic
def chouette_start(*, chouette_id: int, user: User, now: datetime) -> ChouetteGame:
    """The creator starts the chouette: the first places, and the first game's board."""
    chouette = _locked_open(chouette_id)
    if chouette.creator_id != user.pk:
        raise Forbidden(_("Only the chouette's creator starts it."))
    seated = list(chouette.seats.filter(status=Seat.Status.SEATED).order_by("joined_at", "pk"))
    if len(seated) < rules.MIN_PLAYERS:
        raise InvalidAction(
            _("A chouette starts with at least 3 players seated."), code="chouette_too_few"
        )
    placing = chouette.rules_options().first_places([s.player_id for s in seated], record.dice)
    chouette.status, chouette.started_at = Chouette.Status.PLAYING, now
    chouette.set_places(placing.places)
    chouette.opening_rounds = [[list(t) for t in round_] for round_ in placing.rounds]
    chouette.save()
    bank = timedelta(days=chouette.time_bank_days)
    chouette.seats.filter(status=Seat.Status.SEATED).update(bank=bank)
    chouette.seats.filter(status=Seat.Status.INVITED).delete()  # the invitation lapses
    return _start_game(chouette, 1, now)


def _start_game(chouette: Chouette, number: int, now: datetime) -> ChouetteGame:
    """The board of game ``number``: the box White, the captain Black, their banks."""
    places = chouette.rules_places()
    banks = dict(
        chouette.seats.filter(player__in=(places.box, places.captain)).values_list(
            "player_id", "bank"
        )
    )
    match = Match.objects.create(
        white_id=places.box,
        black_id=places.captain,
        chouette=True,
        length=0,
        rated=False,
        variant=chouette.variant,
        days_per_move=chouette.days_per_move,
        time_bank_days=chouette.time_bank_days,
        cube_limit=chouette.cube_limit,
        jacoby=chouette.jacoby,
        automatic_doubles=chouette.automatic_doubles,
        # Resigned at once, each member settled at their own stake: an offer would need
        # each member's answer, as the box's double does (matches.resignations).
        resignation=Resignation.IMMEDIATE,
        bank_white=banks.get(places.box),
        bank_black=banks.get(places.captain),
        created_at=now,
    )
    board = record.start_game(match, number=1, state=record.state_of(match), now=now)
    game = ChouetteGame.objects.create(
        chouette=chouette,
        number=number,
        match=match,
        places=dict(chouette.places),
        opening_ties=board.automatic_doubles,
    )
    record.announce_turn(board, now)
    return game


# Decisions in a game -------------------------------------------------------------


def _locked_game(
    chouette_id: int, expected_ply: int | None, now: datetime
) -> tuple[Chouette, ChouetteGame, Game]:
    """The chouette's game in play, its board locked first, then the chouette row."""
    current = (
        ChouetteGame.objects.filter(chouette_id=chouette_id, settled_at__isnull=True)
        .order_by("-number")
        .values_list("match_id", flat=True)
        .first()
    )
    if current is None:
        if not Chouette.objects.filter(pk=chouette_id).exists():
            raise NotFound(_("No such chouette."))
        raise Conflict(_("No game of this chouette is in play."), code="game_over")
    board_id = Game.objects.filter(match_id=current).values_list("pk", flat=True).get()
    board = record.lock_game(board_id, now)
    record.require_live(board, expected_ply)
    chouette = _locked_chouette(chouette_id)
    game = ChouetteGame.objects.get(match_id=current)
    game.chouette = chouette
    return chouette, game, board


def _seat(chouette: Chouette, user: User) -> Seat:
    seat = chouette.seats.filter(player=user, status=Seat.Status.SEATED).first()
    if seat is None:
        raise Forbidden(_("You are not playing in this chouette."))
    return seat


def _step(change: Callable[[], rules.ChouetteGame[int]]) -> rules.ChouetteGame[int]:
    """The engine's next cube side; its refusal in the player's words (a 4xx)."""
    try:
        return change()
    except RulesError as error:
        raise from_rules_error(error) from None


def _decide(
    game: ChouetteGame,
    board: Game,
    kind: str,
    player_id: int,
    now: datetime,
    *,
    yes: bool | None = None,
    timed_out: bool = False,
) -> Decision:
    seq = game.decisions.count() + 1
    return Decision.objects.create(
        game=game,
        seq=seq,
        kind=kind,
        player_id=player_id,
        yes=yes,
        timed_out=timed_out,
        ply=board.ply,
        created_at=now,
    )


def _require_board(board: Game, side: Color, stage: str, message: StrOrPromise) -> None:
    if board.turn != int(side) or board.state != stage or board.held:
        raise InvalidAction(message, code="chouette_stage")


@transaction.atomic
def team_propose_double(
    *, chouette_id: int, user: User, expected_ply: int | None, now: datetime
) -> ChouetteGame:
    """A team member proposes doubling the box; the double goes only when all agree."""
    chouette, game, board = _locked_game(chouette_id, expected_ply, now)
    _seat(chouette, user)
    _require_board(board, TEAM, Game.State.ROLLING, _("The team may double only before its roll."))
    if game.decisions.filter(kind=Decision.Kind.PROPOSE, ply=board.ply).exists():
        raise Conflict(
            _("The team has already voted on doubling this turn."), code="chouette_voted"
        )
    before = cube.cube_side(game)
    after = _step(lambda: before.propose_double(user.pk))
    _decide(game, board, Decision.Kind.PROPOSE, user.pk, now)
    _after_vote(chouette, game, board, after, now)
    return game


@transaction.atomic
def team_vote(
    *, chouette_id: int, user: User, agree: bool, expected_ply: int | None, now: datetime
) -> ChouetteGame:
    """A member's vote on the team's double: a refusal ends the vote, the last yes doubles."""
    chouette, game, board = _locked_game(chouette_id, expected_ply, now)
    seat = _seat(chouette, user)
    before = cube.cube_side(game)
    after = _step(lambda: before.vote(user.pk, agree=agree))
    _decide(game, board, Decision.Kind.VOTE, user.pk, now, yes=agree)
    _charge(chouette, seat, now)
    _after_vote(chouette, game, board, after, now)
    return game


def _after_vote(
    chouette: Chouette,
    game: ChouetteGame,
    board: Game,
    after: rules.ChouetteGame[int],
    now: datetime,
) -> None:
    """Put the board where the vote leaves it: held while members still must vote, the
    captain's double once all agreed, the captain's turn again after a refusal."""
    if after.stage is rules.Stage.TEAM_VOTE:
        if not board.held:
            record.hold(board)
            record.save(board, now)
            _await(chouette, game, after, "vote", now)
        return
    _clear_deadlines(chouette)
    if after.stage is rules.Stage.BOX_ANSWER:
        board.held = False
        turns.double(board, TEAM, now)
    else:  # refused
        record.release(board, now)
    record.announce_turn(board, now)
    record.save(board, now)


@transaction.atomic
def box_answer(
    *, chouette_id: int, user: User, take: bool, expected_ply: int | None, now: datetime
) -> ChouetteGame:
    """The box takes or drops the team's double (on the board, as a money game)."""
    chouette, game, board = _locked_game(chouette_id, expected_ply, now)
    _seat(chouette, user)
    before = cube.cube_side(game)
    _step(lambda: before.box_take(user.pk) if take else before.box_drop(user.pk))
    _decide(game, board, Decision.Kind.BOX_ANSWER, user.pk, now, yes=take)
    if take:
        turns.take(board, BOX, now)
        record.announce_turn(board, now)
        record.save(board, now)
    else:
        turns.drop(board, BOX, now)  # the board ends: game_settle follows
    return game


@transaction.atomic
def box_double(
    *, chouette_id: int, user: User, expected_ply: int | None, now: datetime
) -> ChouetteGame:
    """The box doubles every member still in the game; each answers alone, by their
    own deadline, while the board waits."""
    chouette, game, board = _locked_game(chouette_id, expected_ply, now)
    _seat(chouette, user)
    _require_board(board, BOX, Game.State.ROLLING, _("The box may double only before its roll."))
    before = cube.cube_side(game)
    after = _step(lambda: before.box_double(user.pk))
    _decide(game, board, Decision.Kind.BOX_DOUBLE, user.pk, now)
    turns.double(board, BOX, now)
    record.hold(board)
    record.save(board, now)
    _await(chouette, game, after, "answer", now)
    return game


@transaction.atomic
def team_answer(
    *, chouette_id: int, user: User, take: bool, expected_ply: int | None, now: datetime
) -> ChouetteGame:
    """A member takes or drops the box's double."""
    chouette, game, board = _locked_game(chouette_id, expected_ply, now)
    seat = _seat(chouette, user)
    before = cube.cube_side(game)
    after = _step(lambda: before.answer(user.pk, take=take))
    _decide(game, board, Decision.Kind.ANSWER, user.pk, now, yes=take)
    _charge(chouette, seat, now)
    _after_answers(chouette, game, board, after, now)
    return game


def _after_answers(
    chouette: Chouette,
    game: ChouetteGame,
    board: Game,
    after: rules.ChouetteGame[int],
    now: datetime,
) -> None:
    """Once every member has answered the box's double, the board goes on: the captain
    (the first taker in line) takes, or, all having dropped, the game ends."""
    if after.stage is rules.Stage.TEAM_ANSWER:
        return
    _clear_deadlines(chouette)
    board.held = False
    if after.stage is rules.Stage.OVER:
        turns.drop(board, TEAM, now)  # the board ends: game_settle follows
        return
    match = board.match
    if match.black_id != after.captain:
        seats = {
            s.player_id: s
            for s in chouette.seats.filter(
                player__in=(match.black_id, after.captain)
            ).select_related("player")
        }
        Seat.objects.filter(pk=seats[match.black_id].pk).update(bank=match.bank_black)
        new = seats[after.captain]
        record.seat(match, TEAM, new.player, new.bank)
        match.save(update_fields=["black", "bank_black"])
    turns.take(board, TEAM, now)
    record.announce_turn(board, now)
    record.save(board, now)


# Off-board deadlines -----------------------------------------------------------


def _await(
    chouette: Chouette,
    game: ChouetteGame,
    after: rules.ChouetteGame[int],
    kind: str,
    now: datetime,
) -> None:
    """Give each member whose answer is awaited their deadline, and tell them."""
    seats = list(chouette.seats.filter(player__in=after.awaiting).select_related("player"))
    for seat in seats:
        seat.deadline_at = timecontrol.deadline_for(
            days_per_move=chouette.days_per_move,
            bank=seat.bank or timedelta(0),
            now=now,
            away=timecontrol.away_intervals_of(seat.player, now),
        )
    Seat.objects.bulk_update(seats, ["deadline_at"])
    decision_awaited.send(
        sender=ChouetteGame, game=game, kind=kind, players=[s.player for s in seats], now=now
    )


def _charge(chouette: Chouette, seat: Seat, now: datetime) -> None:
    """The member has answered: an overrun of their days per move comes off their bank."""
    if seat.deadline_at is not None and seat.bank:
        seat.bank = timecontrol.bank_after_turn(
            bank=seat.bank,
            deadline_at=seat.deadline_at,
            now=now,
            away=timecontrol.away_intervals_of(seat.player, now),
        )
    seat.deadline_at = None
    seat.save(update_fields=["bank", "deadline_at"])


def _clear_deadlines(chouette: Chouette) -> None:
    chouette.seats.filter(deadline_at__isnull=False).update(deadline_at=None)


#: What a member's silence past their deadline counts as, by the stage awaiting them:
#: the decision recorded, the rules' step for it, and where it leaves the board.
_Silence = tuple[
    str,
    Callable[[rules.ChouetteGame[int], int], rules.ChouetteGame[int]],
    Callable[[Chouette, ChouetteGame, Game, rules.ChouetteGame[int], datetime], None],
]
_SILENCE: dict[rules.Stage, _Silence] = {
    rules.Stage.TEAM_VOTE: (
        Decision.Kind.VOTE,
        lambda state, player: state.vote(player, agree=False),  # a refusal
        _after_vote,
    ),
    rules.Stage.TEAM_ANSWER: (
        Decision.Kind.ANSWER,
        lambda state, player: state.answer(player, take=False),  # a drop
        _after_answers,
    ),
}


def decisions_expire(*, now: datetime) -> int:
    """Past a member's deadline their vote is a refusal and their answer a drop. Each
    chouette in its own transaction; the number of chouettes moved on."""
    due = Seat.objects.filter(deadline_at__lte=now).values_list("chouette_id", flat=True).distinct()
    return sum(1 for chouette_id in list(due) if _expire(chouette_id, now))


@transaction.atomic
def _expire(chouette_id: int, now: datetime) -> bool:
    try:
        chouette, game, board = _locked_game(chouette_id, None, now)
    except Conflict:  # the game ended since: its deadlines went with it
        Seat.objects.filter(chouette_id=chouette_id).update(deadline_at=None)
        return False
    late = list(chouette.seats.filter(deadline_at__lte=now).order_by("deadline_at", "pk"))
    state = cube.cube_side(game)
    moved = False
    for seat in late:
        silence = _SILENCE.get(state.stage)
        if silence is not None and seat.player_id in state.awaiting:
            kind, decide, after = silence
            state = decide(state, seat.player_id)
            _decide(game, board, kind, seat.player_id, now, yes=False, timed_out=True)
            _spend_bank(seat)
            after(chouette, game, board, state, now)
            moved = True
        if board.is_finished:
            break
    Seat.objects.filter(pk__in=[s.pk for s in late], deadline_at__lte=now).update(deadline_at=None)
    return moved


def deadlines_reschedule(user: User, before: list[timecontrol.Interval], now: datetime) -> None:
    """``user``'s vacations changed: their votes and answers awaited keep the time left."""
    after = timecontrol.away_intervals(user.pk, now)
    seats = Seat.objects.filter(player=user, deadline_at__gt=now).select_for_update()
    for seat in seats:
        assert seat.deadline_at is not None  # deadline_at__gt above
        seat.deadline_at = clock.moved_deadline(seat.deadline_at, now, before, after)
        seat.save(update_fields=["deadline_at"])


def _spend_bank(seat: Seat) -> None:
    seat.bank = timedelta(0) if seat.bank is not None else None
    seat.deadline_at = None
    seat.save(update_fields=["bank", "deadline_at"])


# The team's consultation ---------------------------------------------------------


@transaction.atomic
def play_suggest(
    *, chouette_id: int, user: User, play_text: str, expected_ply: int | None, now: datetime
) -> Suggestion:
    """A team member suggests the captain's play for this roll (judged by the engine)."""
    chouette, game, board = _locked_game(chouette_id, expected_ply, now)
    _seat(chouette, user)
    state = cube.cube_side(game)
    if user.pk not in state.active_players or user.pk == state.captain:
        raise Forbidden(_("Only the captain's team mates suggest plays."), code="not_team")
    if board.turn != int(TEAM) or board.state != Game.State.MOVING:
        raise InvalidAction(_("Plays are suggested once the team has rolled."), code="state")
    try:
        play = parse_play(board.position(), board.dice or (0, 0), play_text)
    except RulesError as error:
        raise from_rules_error(error) from None
    suggestion, _created = Suggestion.objects.update_or_create(
        game=game,
        ply=board.ply,
        author=user,
        defaults={"play": str(play), "created_at": now},
    )
    return suggestion


@transaction.atomic
def message_post(
    *, chouette_id: int, author: User, text: str, team: bool, now: datetime
) -> Message:
    """A message to the table, or to the team only (refused to the box)."""
    chouette = _locked_chouette(chouette_id)
    _seat(chouette, author)
    game = chouette.games.order_by("-number").first()
    if game is None:
        raise Conflict(_("The chouette has not started yet."), code="chouette_open")
    if team and author.pk == game.match.white_id and game.settled_at is None:
        raise Forbidden(_("The box has no say in the team's talk."), code="not_team")
    text = text.strip()
    if not text:
        raise InvalidAction(_("Write a message first."), code="empty_message")
    if len(text) > Message.MAX_LENGTH:
        raise InvalidAction(
            _("A message is at most %(max)s characters long."),
            code="message_length",
            max=Message.MAX_LENGTH,
        )
    rate_check("messages", author.pk)  # LIMIT_MESSAGES_PER_MINUTE, with the games' chat
    return Message.objects.create(
        chouette=chouette, game=game, author=author, text=text, team=team, created_at=now
    )


@transaction.atomic
def message_hide(*, message_id: int, moderator: User, now: datetime) -> Message:
    """A moderator hides a message from the players (it stays stored, for the record;
    the pages and the API show the mask). The caller audits."""
    message = Message.objects.select_for_update().filter(pk=message_id).first()
    if message is None:
        raise NotFound(_("No such message."))
    if message.hidden:
        raise Conflict(_("This message is already hidden."), code="already_hidden")
    message.hidden, message.hidden_by, message.hidden_at = True, moderator, now
    message.save(update_fields=["hidden", "hidden_by", "hidden_at"])
    return message


# Leaving -------------------------------------------------------------------------


@transaction.atomic
def chouette_leave(*, chouette_id: int, user: User, now: datetime) -> Seat:
    """Leave: before the start at once (the creator's leaving cancels it), during
    play when the game in play ends (points stand; the line closes up)."""
    chouette = _locked_chouette(chouette_id)
    seat = chouette.seats.filter(player=user).exclude(status=Seat.Status.LEFT).first()
    if seat is None or seat.status == Seat.Status.REMOVED:
        raise Forbidden(_("You are not playing in this chouette."))
    if chouette.status == Chouette.Status.OPEN:
        if user.pk == chouette.creator_id:
            chouette.status, chouette.finished_at = Chouette.Status.CANCELLED, now
            chouette.save(update_fields=["status", "finished_at"])
        seat.status, seat.left_at = Seat.Status.LEFT, now
        seat.save(update_fields=["status", "left_at"])
        return seat
    if chouette.status != Chouette.Status.PLAYING:
        raise Conflict(_("This chouette is over."), code="chouette_over")
    seat.leaving = Seat.Status.LEFT
    seat.save(update_fields=["leaving"])
    return seat


@transaction.atomic
def player_remove(*, chouette_id: int, player: User, now: datetime) -> Seat:
    """A moderator removes ``player``: at once before the start, else when the game in
    play ends (a moderator adjudicates the board to remove them now). The caller audits."""
    chouette = _locked_chouette(chouette_id)
    seat = chouette.seats.filter(player=player, status=Seat.Status.SEATED).first()
    if seat is None:
        raise NotFound(_("That player is not seated in this chouette."))
    if chouette.status == Chouette.Status.OPEN:
        seat.status, seat.left_at = Seat.Status.REMOVED, now
        seat.save(update_fields=["status", "left_at"])
    else:
        seat.leaving = Seat.Status.REMOVED
        seat.save(update_fields=["leaving"])
    return seat


# The end of a game ---------------------------------------------------------------


def game_settle(match: Match, now: datetime) -> ChouetteGame | None:
    """A chouette's board has ended (inside its transaction): settle every member with
    the box, rotate the places, let the leavers go, and start the next game."""
    game = ChouetteGame.objects.filter(match=match).first()
    if game is None or game.settled_at is not None:
        return None
    chouette = _locked_chouette(game.chouette_id)
    game.chouette = chouette
    board = match.games.get()
    state = cube.cube_side(game)
    settlement = settlement_of(state, board)
    _write_results(chouette, game, state, settlement, match)
    game.settled_at = now
    game.save(update_fields=["settled_at"])
    _clear_deadlines(chouette)
    places = rules.rotate(
        chouette.rules_places(),
        team_won=None if settlement is None else settlement.team_won,
        captain=state.captain,
    )
    chouette_game_settled.send(sender=ChouetteGame, game=game, now=now)
    _next_game(chouette, places, game.number + 1, now)
    return game


def game_void(match: Match, now: datetime) -> ChouetteGame | None:
    """A moderator cancelled a chouette's board: the game settles nothing, the places
    stay, and the next game starts."""
    game = ChouetteGame.objects.filter(match=match).first()
    if game is None or game.settled_at is not None:
        return None
    chouette = _locked_chouette(game.chouette_id)
    game.settled_at = now
    game.save(update_fields=["settled_at"])
    _clear_deadlines(chouette)
    _next_game(chouette, chouette.rules_places(), game.number + 1, now)
    return game


def settlement_of(state: rules.ChouetteGame[int], board: Game) -> rules.GameSettlement[int] | None:
    """How the board's end settles each member (None: a cancelled board settles nothing)."""
    if state.stage is rules.Stage.OVER:
        return rules.settle_game(state)
    termination = Termination(board.termination)
    if termination is Termination.CANCELLED:
        return None
    winner = None if board.winner is None else Color(board.winner)
    return rules.settle_game(state, winner, termination, position=board.position())


def _write_results(
    chouette: Chouette,
    game: ChouetteGame,
    state: rules.ChouetteGame[int],
    settlement: rules.GameSettlement[int] | None,
    match: Match,
) -> None:
    points = {} if settlement is None else settlement.points
    members = {m.player: m for m in state.members}
    rows = [
        Result(
            game=game,
            player_id=player,
            role=Result.Role.BOX
            if player == state.box
            else Result.Role.CAPTAIN
            if player == state.captain
            else Result.Role.MEMBER,
            stake=members[player].stake if player in members else 0,
            dropped=members[player].dropped if player in members else False,
            points=points.get(player, 0),
        )
        for player in (state.box, *(m.player for m in state.members))
    ]
    Result.objects.bulk_create(rows)
    for row in rows:
        Seat.objects.filter(chouette=chouette, player_id=row.player_id).update(
            points=F("points") + row.points, games=F("games") + 1
        )
    Seat.objects.filter(chouette=chouette, player_id=match.white_id).update(bank=match.bank_white)
    Seat.objects.filter(chouette=chouette, player_id=match.black_id).update(bank=match.bank_black)


def _next_game(chouette: Chouette, places: rules.Places[int], number: int, now: datetime) -> None:
    """Let the players who asked go, then start the next game, or end the chouette."""
    leavers = chouette.seats.filter(status=Seat.Status.SEATED).exclude(leaving="")
    over = False
    for player_id in leavers.values_list("player_id", flat=True):
        try:
            places = rules.leave(places, player_id)
        except rules.ChouetteTooFewError:
            over = True
    leavers.update(status=F("leaving"), left_at=now, leaving="")
    if over:
        chouette.status, chouette.finished_at = Chouette.Status.FINISHED, now
        chouette.save(update_fields=["status", "finished_at"])
        chouette_finished.send(sender=Chouette, chouette=chouette, now=now)
        return
    chouette.set_places(places)
    chouette.save(update_fields=["places"])
    _start_game(chouette, number, now)
