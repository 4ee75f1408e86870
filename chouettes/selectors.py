"""What the pages and the API read of a chouette: the line-up, whose decision is awaited,
what a viewer may do now, and the chat and suggestions they may read.

Privacy: the team's chat and suggestions of a game are read by that game's team
(never its box); the table chat by the players, and by a player who left or was
removed only as far as it went while they sat. A moderator reads both in a chouette
they hold no seat at (:func:`moderates`): one who sits there, in any seat and whatever
became of it, reads as the player they are. Everything else (line-up, points, the
decisions, the board) is public, as a match is.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Count, F, Min, Q, QuerySet, Sum
from django.urls import reverse

from accounts.models import User
from gammon import Color
from gammon import chouette as rules
from matches.models import Game, Match
from matches.questions import Belonging
from matches.selectors import Awaiting, game_awaiting
from matches.selectors import Decision as Answer

from .models import Chouette, ChouetteGame, Decision, Message, Result, Seat, Suggestion
from .state import apply as apply_decision
from .state import cube_side
from .state import start as start_side

BOX, TEAM = Color.WHITE, Color.BLACK


class Role(enum.StrEnum):
    BOX = "box"
    CAPTAIN = "captain"
    MEMBER = "member"
    #: Seated, not in the game in play (a chouette not started yet, or between games).
    WAITING = "waiting"


class Action(enum.StrEnum):
    """What one player is awaited for (or may do) in the game in play."""

    MOVE = "move"  # the board's roll or move (the captain, or the box)
    BOX_ANSWER = "box_answer"  # the box takes or drops the team's double
    VOTE = "vote"  # a member votes on the team's double
    ANSWER = "answer"  # a member takes or drops the box's double
    PROPOSE = "propose"  # a member may propose the team's double (team on roll)
    BOX_DOUBLE = "box_double"  # the box may double (box on roll)
    SUGGEST = "suggest"  # a team mate may suggest the captain's play


@dataclass(frozen=True)
class Line:
    """One row of the line-up."""

    seat: Seat
    role: Role
    #: The place when the game began: 0 the box, 1 its first captain, 2 the next in line...
    place: int
    stake: int | None
    dropped: bool
    awaited: tuple[Action, ...]


@dataclass(frozen=True)
class Panel:
    """A game as a viewer sees it: the cube side, the line-up, and their own options."""

    chouette: Chouette
    game: ChouetteGame | None
    board: Game | None
    side: rules.ChouetteGame[int] | None
    lines: tuple[Line, ...]
    #: What the viewer may do now (empty for a spectator).
    actions: tuple[Action, ...]
    viewer_role: Role | None

    @property
    def awaited(self) -> tuple[Line, ...]:
        """The players whose decision the game waits for."""
        return tuple(line for line in self.lines if line.awaited)

    def actions_for(self, player_id: int) -> tuple[Action, ...]:
        """What ``player_id`` may do now in the game in play (what ``actions`` holds for
        the viewer), read off this panel with no other query but the one-vote-a-turn check."""
        game, board, side = self.game, self.board, self.side
        if game is None or board is None or side is None:
            return ()
        if game.settled_at is not None or board.is_finished:
            return ()
        return _actions(side, board, player_id, game)


def chouettes_open() -> QuerySet[Chouette]:
    """Chouettes still taking players, newest first."""
    return Chouette.objects.filter(status=Chouette.Status.OPEN).select_related("creator")


def chouettes_of(user: User) -> QuerySet[Chouette]:
    """The chouettes ``user`` sits (or sat) in, or is invited to."""
    return (
        Chouette.objects.filter(seats__player=user)
        .select_related("creator")
        .distinct()
        .order_by("-created_at")
    )


def current_game(chouette: Chouette) -> ChouetteGame | None:
    """The game in play, or the last one when the chouette is over."""
    return chouette.games.select_related("match").order_by("-number").first()


def board_of(game: ChouetteGame) -> Game:
    return Game.objects.select_related("match__white", "match__black").get(match_id=game.match_id)


def board_stamp(game: ChouetteGame, board: Game) -> str:
    """What an open board page compares with the server's to know it is behind: the
    board's ply and the number of cube-side decisions, because a member's vote or answer
    changes the panel while the board waits at its ply."""
    return f"{board.ply}.{game.decisions.count()}"


def panel(chouette: Chouette, viewer: object, game: ChouetteGame | None = None) -> Panel:
    """The chouette as ``viewer`` sees it, at its game in play (or ``game``)."""
    game = current_game(chouette) if game is None else game
    seats = list(
        chouette.seats.select_related("player").order_by(F("joined_at").asc(nulls_last=True), "pk")
    )
    viewer_id = getattr(viewer, "pk", None) if getattr(viewer, "is_authenticated", False) else None
    if game is None:
        waiting = tuple(
            Line(s, Role.WAITING, 0, None, False, ())
            for s in seats
            if s.status in (Seat.Status.SEATED, Seat.Status.INVITED)
        )
        viewer_role = Role.WAITING if any(s.player_id == viewer_id for s in seats) else None
        return Panel(chouette, None, None, None, waiting, (), viewer_role)
    board = board_of(game)
    side = cube_side(game)
    live = game.settled_at is None and not board.is_finished
    awaited = _awaited(side, board) if live else {}
    by_player = {s.player_id: s for s in seats}
    order = [side.box, *(m.player for m in side.members)]
    lines: list[Line] = []
    for place, player in enumerate(order):
        seat = by_player[player]
        if player == side.box:
            role, stake, dropped = Role.BOX, None, False
        else:
            member = side.member(player)
            role = Role.CAPTAIN if player == side.captain else Role.MEMBER
            stake, dropped = member.stake, member.dropped
        lines.append(Line(seat, role, place, stake, dropped, awaited.get(player, ())))
    others = [s for s in seats if s.player_id not in order and s.status == Seat.Status.SEATED]
    lines += [Line(s, Role.WAITING, 0, None, False, ()) for s in others]
    viewer_line = next((line for line in lines if line.seat.player_id == viewer_id), None)
    actions: tuple[Action, ...] = ()
    if viewer_line is not None and live:
        actions = _actions(side, board, viewer_id, game)
    viewer_role = None if viewer_line is None else viewer_line.role
    return Panel(chouette, game, board, side, tuple(lines), actions, viewer_role)


def _awaited(side: rules.ChouetteGame[int], board: Game) -> dict[int, tuple[Action, ...]]:
    """Whose decision the game waits for: the cube side's, else the board's player on turn."""
    if side.stage is rules.Stage.TEAM_VOTE:
        return {p: (Action.VOTE,) for p in side.awaiting}
    if side.stage is rules.Stage.TEAM_ANSWER:
        return {p: (Action.ANSWER,) for p in side.awaiting}
    if side.stage is rules.Stage.BOX_ANSWER:
        return {side.box: (Action.BOX_ANSWER,)}
    on_turn = board.match.white_id if board.turn == 0 else board.match.black_id
    return {on_turn: (Action.MOVE,)}


def _actions(
    side: rules.ChouetteGame[int], board: Game, viewer_id: int | None, game: ChouetteGame
) -> tuple[Action, ...]:
    actions = list(_awaited(side, board).get(viewer_id or 0, ()))
    rolling = board.state == Game.State.ROLLING and not board.held
    if viewer_id == side.box:
        if rolling and board.turn == 0 and side.can_box_double():
            actions.append(Action.BOX_DOUBLE)
    elif viewer_id in side.active_players:
        if (
            rolling
            and board.turn == 1
            and side.can_team_double()
            and not game.decisions.filter(kind=Decision.Kind.PROPOSE, ply=board.ply).exists()
        ):
            actions.append(Action.PROPOSE)
        if board.state == Game.State.MOVING and board.turn == 1 and viewer_id != side.captain:
            actions.append(Action.SUGGEST)
    return tuple(actions)


@dataclass(frozen=True)
class Stake:
    """A team member's stake in the cube decision awaited: what it is now (what a drop
    pays: the member's to the box, the box's to each member still in the game) and what
    a take makes it. A member who dropped earlier stays at what they pay the box."""

    player_id: int
    now: int
    doubled: int
    dropped: bool = False


def stakes_at_issue(panel: Panel) -> tuple[Stake, ...]:
    """Each member of the game, in line order, with their stake now and once the double
    awaited is taken: what the confirmation of a vote, a take or a drop states (nothing
    while no double is proposed or offered). Stakes differ once a member dropped the
    box's double: they pay the stake they had, the takers play on at twice it."""
    side = panel.side
    if side is None or side.stage not in (
        rules.Stage.TEAM_VOTE,
        rules.Stage.BOX_ANSWER,
        rules.Stage.TEAM_ANSWER,
    ):
        return ()
    doubler = side.box_side if side.stage is rules.Stage.TEAM_ANSWER else side.team_side
    return tuple(
        Stake(m.player, m.stake, m.stake, dropped=True)
        if m.dropped
        else Stake(m.player, m.stake, m.cube.doubled(doubler).value)
        for m in side.members
    )


#: How the API takes each decision the cube side waits for: the game's ``awaiting``
#: decision, and the chouettes API's URL that takes it (the board's roll and move are
#: the board's own).
_SENT_TO: dict[Action, tuple[Answer, str]] = {
    Action.VOTE: (Answer.VOTE, "api_chouette_vote"),
    Action.ANSWER: (Answer.TAKE_OR_DROP, "api_chouette_answer"),
    Action.BOX_ANSWER: (Answer.TAKE_OR_DROP, "api_chouette_box-answer"),
}


def board_awaiting(board: Game) -> list[Awaiting] | None:
    """What a chouette's board waits for, for ``GET /api/games/{id}/``
    (``matches.questions.game_awaiting``): each vote or answer the cube side awaits, with
    the chouettes API's path that takes it, else the board's own roll or move; nothing
    once over. None for a board that is no chouette's. ``board`` comes with its match
    and players loaded."""
    game = ChouetteGame.objects.filter(match_id=board.match_id).first()
    if game is None:
        return None
    own = game_awaiting(board)  # the board's roll or move; empty once it is over
    if not own and not board.held:
        return []
    awaited = _awaited(cube_side(game), board)
    off_board = {
        player: [_SENT_TO[a] for a in actions if a in _SENT_TO]
        for player, actions in awaited.items()
    }
    users = {u.pk: u for u in User.objects.filter(pk__in=[p for p, s in off_board.items() if s])}
    waiting: list[Awaiting] = []
    for player, sent in off_board.items():
        if not sent:
            waiting += [w for w in own if w.player.pk == player]
            continue
        color = BOX if player == board.match.white_id else TEAM
        waiting += [
            Awaiting(users[player], color, decision, reverse(url, args=[game.chouette_id]))
            for decision, url in sent
        ]
    return waiting


def board_belongings(matches: Sequence[Match]) -> dict[int, Belonging]:
    """The chouette and game number of each chouette board among ``matches``, with the
    first deadline of a decision awaited off the board (a seat has one exactly then): one
    query for them all, none when there is no board among them."""
    boards = [m.pk for m in matches if m.chouette]
    if not boards:
        return {}
    rows = (
        ChouetteGame.objects.filter(match_id__in=boards)
        .annotate(deadline=Min("chouette__seats__deadline_at"))
        .values_list("match_id", "chouette_id", "number", "deadline", "settled_at")
    )
    return {
        match_id: Belonging(
            "chouette",
            chouette_id,
            reverse("api_chouette", args=[chouette_id]),
            game=number,
            page=reverse("chouette_detail", args=[chouette_id]),
            deadline=deadline if settled_at is None else None,
        )
        for match_id, chouette_id, number, deadline, settled_at in rows
    }


def in_team(game: ChouetteGame, user: object) -> bool:
    """Whether ``user`` is on ``game``'s team (a member, dropped or not; not the box)."""
    player_id = getattr(user, "pk", None)
    places = game.places
    return player_id == places["captain"] or player_id in places["line"]


#: A seat that was taken: the player sat at the table (an invitation is not one).
TAKEN = (Seat.Status.SEATED, Seat.Status.LEFT, Seat.Status.REMOVED)


def seat_of(chouette: Chouette, user: object) -> Seat | None:
    """``user``'s seat at ``chouette`` if they sat there (seated now, or gone since)."""
    if not getattr(user, "is_authenticated", False):
        return None
    return chouette.seats.filter(player_id=getattr(user, "pk", None), status__in=TAKEN).first()


def is_seated(chouette: Chouette, user: object) -> bool:
    """Whether ``user`` sits at ``chouette`` now: who acts and talks there. A player who
    left or was removed is not (what they may still read is :func:`messages_for`'s)."""
    seat = seat_of(chouette, user)
    return seat is not None and seat.status == Seat.Status.SEATED


#: Who reads every chouette's chat and suggestions: the moderators (as for games' chat).
READ_PERMISSION = "chouettes.view_message"


def may_moderate(user: object) -> bool:
    """Whether ``user`` holds the moderators' reading permission (on its own this says
    nothing of a given chouette: see :func:`moderates`)."""
    return bool(getattr(user, "is_staff", False)) and user.has_perm(READ_PERMISSION)  # type: ignore[attr-defined]


def moderates(chouette: Chouette, user: object, seat: Seat | None = None) -> bool:
    """Whether ``user`` reads ``chouette`` as a moderator: one who holds no seat there.

    No one moderates a game they play: a moderator who sits at the chouette, in any seat,
    or sat there and left or was removed, reads it as the player they are (never the
    other side's private talk of a game they played). ``seat``, when the caller has read
    it already (:func:`seat_of`), saves the query.
    """
    if not may_moderate(user):
        return False
    return (seat_of(chouette, user) if seat is None else seat) is None


def messages_for(chouette: Chouette, user: object) -> QuerySet[Message]:
    """The messages ``user`` may read: a player, the table's and the team's of each game
    they were on the team of, until they left (or were removed); a moderator who holds
    no seat, all of them; anyone else none. Hidden messages are listed with ``hidden``
    set: whoever shows them shows the mask."""
    messages = Message.objects.filter(chouette=chouette).select_related("author")
    seat = seat_of(chouette, user)
    if seat is None:
        return messages if moderates(chouette, user, seat) else messages.none()
    team_games = [g.pk for g in chouette.games.all() if in_team(g, user)]
    readable = messages.filter(Q(team=False) | Q(game_id__in=team_games))
    if seat.status != Seat.Status.SEATED:  # gone: what was written while they sat
        if seat.left_at is None:
            return messages.none()
        readable = readable.filter(created_at__lte=seat.left_at)
    return readable


def may_read_chat(chouette: Chouette, user: object) -> bool:
    """Whether ``user`` is shown the chat at all: a player, now or once, or a moderator
    who holds no seat (what each reads is :func:`messages_for`'s)."""
    seat = seat_of(chouette, user)
    return seat is not None or moderates(chouette, user, seat)


def suggestions_for(game: ChouetteGame, board: Game, user: object) -> QuerySet[Suggestion]:
    """The team's suggestions for the roll on the board: for the game's team, and for a
    moderator who holds no seat at the chouette (never the box, whoever they are)."""
    suggestions = Suggestion.objects.filter(game=game, ply=board.ply).select_related("author")
    if in_team(game, user) or moderates(game.chouette, user):
        return suggestions
    return suggestions.none()


def team_view(game: ChouetteGame, user: object) -> bool:
    """Whether ``user`` reads ``game``'s team side (its suggestions and team chat): its
    team, or a moderator who holds no seat at the chouette."""
    return in_team(game, user) or moderates(game.chouette, user)


def decisions_of(game: ChouetteGame) -> QuerySet[Decision]:
    """The cube side's record, who decided what, in order."""
    return game.decisions.select_related("player").order_by("seq")


def results_of(game: ChouetteGame) -> QuerySet[Result]:
    return game.results.select_related("player")


@dataclass(frozen=True)
class PlayerRecord:
    chouettes: int
    games: int
    points: int


def player_record(user: User) -> PlayerRecord:
    """A player's chouette points and games, over every chouette they sat in."""
    seats = Seat.objects.filter(player=user).exclude(status=Seat.Status.INVITED)
    totals = seats.aggregate(points=Sum("points"), games=Sum("games"))
    return PlayerRecord(
        chouettes=seats.count(), games=totals["games"] or 0, points=totals["points"] or 0
    )


def standings(chouette: Chouette) -> QuerySet[Seat]:
    """Everyone who sat at ``chouette``, with their points and games: those who left or
    were removed keep theirs (the session's totals sum to zero only with them). Most
    points first."""
    return (
        chouette.seats.filter(status__in=TAKEN)
        .select_related("player")
        .order_by("-points", F("joined_at").asc(nulls_last=True), "pk")
    )


def seats_of(user: User) -> QuerySet[Seat]:
    """The chouettes ``user`` sat in (not those they were only invited to), each with
    their points and games there, newest first: the player page's list."""
    return (
        Seat.objects.filter(player=user)
        .exclude(status=Seat.Status.INVITED)
        .select_related("chouette")
        .order_by("-chouette__created_at", "-pk")
    )


def seats_awaited(user: User) -> QuerySet[Seat]:
    """The user's seats whose decision off the board (their vote on a team double, their
    answer to the box's double) is awaited, the most urgent first: the board is held for
    it, so the dashboard's games do not show it. A seat has a deadline exactly then."""
    return (
        Seat.objects.filter(player=user, deadline_at__isnull=False)
        .select_related("chouette")
        .order_by("deadline_at", "pk")
    )


def chouettes_finished(limit: int = 10) -> QuerySet[Chouette]:
    """The chouettes that ended most recently."""
    return (
        Chouette.objects.filter(status=Chouette.Status.FINISHED)
        .select_related("creator")
        .order_by("-finished_at")[:limit]
    )


def with_seated(chouettes: QuerySet[Chouette]) -> QuerySet[Chouette]:
    """``chouettes`` with ``seated``: how many players sit in each (one query for a list)."""
    return chouettes.annotate(seated=Count("seats", filter=Q(seats__status=Seat.Status.SEATED)))


@dataclass(frozen=True)
class Captaincy:
    """Who captained the team from which point of the record."""

    player_id: int
    #: The board's ply from which they captained (0: from the start of the game).
    from_ply: int
    #: The captain before them, who dropped the box's double (None for the first).
    after: int | None


def captains_of(game: ChouetteGame) -> list[Captaincy]:
    """The captains of ``game`` in order: the first, then whoever took the seat when the
    captain dropped the box's double (read off the record, as the cube side is)."""
    state = start_side(game)
    captains = [Captaincy(state.captain, 0, None)]
    for decision in decisions_of(game):
        state = apply_decision(state, decision)
        if state.members and state.active and state.captain != captains[-1].player_id:
            captains.append(Captaincy(state.captain, decision.ply, captains[-1].player_id))
    return captains
