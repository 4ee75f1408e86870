"""The cube decisions of a chouette game, and the team's suggestions.

Each public function is one transaction on the game in play, locked by
:func:`chouettes.locks.locked_game`. The rules are :mod:`gammon.chouette`'s: a service
reads the cube side (:func:`chouettes.state.cube_side`), asks the engine for the next
state (a refusal is a 4xx that changes nothing), appends the
:class:`~chouettes.models.Decision` and puts the board where the engine says:

- a team vote, and the members' answers to the box's double, *hold* the board
  (:func:`matches.record.hold`: no one acts on it and its clock stops) while each
  member has a deadline of their own (:mod:`chouettes.deadlines`); past it a vote is a
  refusal and an answer a drop (:func:`decisions_expire`);
- the team's double goes on the board as the captain's double, once unanimous, and
  the box takes or drops it there; the box's double goes on the board at once, and
  when every member has answered the board's captain (the first taker in line, who
  takes the captain's seat when the captain dropped) takes, or, when all dropped,
  drops.

A drop that ends the board ends the game: :mod:`chouettes.endings` follows.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from backgammon.errors import Conflict, Forbidden, InvalidAction
from gammon import Color, RulesError, parse_play
from gammon import chouette as rules
from matches import record, turns
from matches.errors import from_rules_error
from matches.models import Game

from . import deadlines
from . import state as cube
from .locks import locked_game, member_seat
from .models import Chouette, ChouetteGame, Decision, Seat, Suggestion
from .signals import chouette_changed, chouette_told

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

BOX, TEAM = Color.WHITE, Color.BLACK


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
    chouette_changed.send(sender=Chouette, chouette_id=game.chouette_id)
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
    chouette, game, board = locked_game(chouette_id, expected_ply, now)
    member_seat(chouette, user)
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
    chouette, game, board = locked_game(chouette_id, expected_ply, now)
    seat = member_seat(chouette, user)
    before = cube.cube_side(game)
    after = _step(lambda: before.vote(user.pk, agree=agree))
    _decide(game, board, Decision.Kind.VOTE, user.pk, now, yes=agree)
    deadlines.charge(chouette, seat, now)
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
            deadlines.await_members(chouette, game, after, "vote", now)
        return
    deadlines.clear(chouette)
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
    chouette, game, board = locked_game(chouette_id, expected_ply, now)
    member_seat(chouette, user)
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
    chouette, game, board = locked_game(chouette_id, expected_ply, now)
    member_seat(chouette, user)
    _require_board(board, BOX, Game.State.ROLLING, _("The box may double only before its roll."))
    before = cube.cube_side(game)
    after = _step(lambda: before.box_double(user.pk))
    _decide(game, board, Decision.Kind.BOX_DOUBLE, user.pk, now)
    turns.double(board, BOX, now)
    record.hold(board)
    record.save(board, now)
    deadlines.await_members(chouette, game, after, "answer", now)
    return game


@transaction.atomic
def team_answer(
    *, chouette_id: int, user: User, take: bool, expected_ply: int | None, now: datetime
) -> ChouetteGame:
    """A member takes or drops the box's double."""
    chouette, game, board = locked_game(chouette_id, expected_ply, now)
    seat = member_seat(chouette, user)
    before = cube.cube_side(game)
    after = _step(lambda: before.answer(user.pk, take=take))
    _decide(game, board, Decision.Kind.ANSWER, user.pk, now, yes=take)
    deadlines.charge(chouette, seat, now)
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
    deadlines.clear(chouette)
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
        chouette, game, board = locked_game(chouette_id, None, now)
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
            deadlines.spend_bank(seat)
            after(chouette, game, board, state, now)
            moved = True
        if board.is_finished:
            break
    Seat.objects.filter(pk__in=[s.pk for s in late], deadline_at__lte=now).update(deadline_at=None)
    return moved


# The team's consultation ---------------------------------------------------------


@transaction.atomic
def play_suggest(
    *, chouette_id: int, user: User, play_text: str, expected_ply: int | None, now: datetime
) -> Suggestion:
    """A team member suggests the captain's play for this roll (judged by the engine)."""
    chouette, game, board = locked_game(chouette_id, expected_ply, now)
    member_seat(chouette, user)
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
    chouette_told.send(sender=Chouette, chouette_id=chouette_id, readers=state.active_players)
    return suggestion
