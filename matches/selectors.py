"""Reads: what a player may do now, and the lists the pages and the API show."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from django.db.models import BooleanField, ExpressionWrapper, Q, QuerySet
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from gammon import Color, Play, ResignationOffer, RulesError, legal_plays, parse_play

from .errors import InvalidAction, from_rules_error
from .models import Game, GameMessage, Match, Resignation, Vacation
from .record import match_state


class Decision(StrEnum):
    """What a game can wait for someone to decide (the API's ``awaiting[].decision``).

    Clients are told to ignore values they do not know, so that later ones can be added.
    """

    ROLL = "roll"  # roll, or double first where the cube allows
    MOVE = "move"
    TAKE_OR_DROP = "take_or_drop"
    ACCEPT_RESIGN = "accept_resign"  # accept or decline the opponent's offer to resign
    ACCEPT_DRAW = "accept_draw"  # accept or decline the opponent's offer
    VOTE = "vote"  # a chouette member agrees to the team's double, or refuses it


@dataclass(frozen=True)
class Awaiting:
    """One answer a game waits for: whose, to what, and where it is sent: None for an
    action on the game itself, else the API path of the app that takes it (a chouette's
    vote or answer, for its board: ``matches.questions.game_awaiting``)."""

    player: User
    color: Color
    decision: Decision
    send_to: str | None = None


_TURN_DECISIONS = {
    Game.State.ROLLING: Decision.ROLL,
    Game.State.MOVING: Decision.MOVE,
    Game.State.DOUBLED: Decision.TAKE_OR_DROP,
    Game.State.RESIGNING: Decision.ACCEPT_RESIGN,
}


def game_awaiting(game: Game) -> list[Awaiting]:
    """Every answer ``game`` waits for, the turn's first; empty once it is over.

    The one place that says who the game is waiting for: ``turn`` alone misses the draw
    offer, which the offerer's opponent answers while the offerer may still be on turn.
    Reads only ``game`` and its match with both players loaded (no query), so the API and
    the pages can call it for every game they show.
    """
    match = game.match
    if game.is_finished or match.status != Match.Status.PLAYING:
        return []
    turn = game.turn_color
    waiting = [Awaiting(match.player(turn), turn, _TURN_DECISIONS[Game.State(game.state)])]
    if match.draw_offered_by is not None:
        answerer = Color(match.draw_offered_by).other
        waiting.append(Awaiting(match.player(answerer), answerer, Decision.ACCEPT_DRAW))
    return waiting


def game_actions(game: Game, user: object) -> list[str]:
    """The actions ``user`` may take in ``game`` now, by the names the API uses.

    ``roll``, ``double``, ``move``, ``take``, ``drop``, ``offer_resign``,
    ``accept_resign``, ``decline_resign``, ``resign``, ``offer_draw``, ``accept_draw``,
    ``decline_draw``.

    ``resign`` ends the game at once where the match resigns that way (its option
    ``resignation: immediate``), and the whole match in any match; where games are
    resigned by offer, ``offer_resign`` is the player's on turn while they have an offer
    left to make (:func:`game_resignation_offers`), and the opponent answers it.

    A chouette's board offers its two players the roll, the move and resigning: its cube
    and draws go through the chouette (the services here refuse them, code
    ``chouette``), and nothing is played on it while it is held for the team.
    """
    match = game.match
    color = match.color_of(user)
    if color is None or game.is_finished or match.status != Match.Status.PLAYING:
        return []
    if match.chouette:
        if game.held:
            return []
        on_turn = game.turn == int(color)
        if on_turn and game.state == Game.State.ROLLING:
            return ["roll", "resign"]
        if on_turn and game.state == Game.State.MOVING:
            return ["move", "resign"]
        return ["resign"]
    actions: list[str] = []
    if game.turn == int(color):
        if game.state == Game.State.ROLLING:
            actions.append("roll")
            if match_state(match, game).can_double(color):
                actions.append("double")
        elif game.state == Game.State.MOVING:
            actions.append("move")
        elif game.state == Game.State.DOUBLED:
            actions += ["take", "drop"]
        elif game.state == Game.State.RESIGNING:
            actions += ["accept_resign", "decline_resign"]
        if game_resignation_offers(game, color):
            actions.append("offer_resign")
    actions.append("resign")
    if match.draw_offered_by is None:
        if not game.has_offered_draw(color):  # once a turn
            actions.append("offer_draw")
    elif match.draw_offered_by != int(color):
        actions += ["accept_draw", "decline_draw"]
    return actions


def resigns_by_offer(match: Match) -> bool:
    """Whether a game of ``match`` is resigned by an offer the opponent answers (the
    standard), rather than at once. A chouette's board resigns at once: an offer there
    would need each member's answer at their own stake, as the box's double does."""
    return match.resignation == Resignation.OFFER and not match.chouette


def game_resignation_offers(game: Game, color: Color) -> tuple[ResignationOffer, ...]:
    """The resignations ``color`` may offer in ``game`` now, the smallest first.

    Their turn, before or after rolling (not while a double waits), in a match that
    resigns by offer; the engine says which make sense
    (``MatchState.resignation_offers``), and after a declined one only bigger ones are
    left this turn.
    """
    match = game.match
    if (
        not resigns_by_offer(match)
        or game.turn != int(color)
        or game.state not in (Game.State.ROLLING, Game.State.MOVING)
        or game.held
        or match.status != Match.Status.PLAYING
    ):
        return ()
    offers = match_state(match, game).resignation_offers(color, game.position())
    return tuple(offer for offer in offers if offer.level > game.resign_declined)


@dataclass(frozen=True)
class PendingResignation:
    """The offer to resign ``game`` waits on: who offered it and what it gives away."""

    offerer: Color
    offer: ResignationOffer


def game_resignation_pending(game: Game) -> PendingResignation | None:
    """The offer to resign the opponent of the player on turn has made, if one waits."""
    if game.state != Game.State.RESIGNING or not game.resign_offer:
        return None
    answerer = game.turn_color
    state = match_state(game.match, game)
    points = game.resign_offer * game.cube_value
    ends_match = not state.money and points >= state.away(answerer)
    return PendingResignation(
        answerer.other, ResignationOffer(game.resign_offer, points, ends_match)
    )


@dataclass(frozen=True)
class ResignationCost:
    """What resigning at once gives away: ``points``, and whether they end the match."""

    points: int
    ends_match: bool


def game_resignation_cost(game: Game, user: object) -> ResignationCost:
    """What ``user`` would give away by resigning ``game`` at once, where a game is
    resigned that way: the points, and whether they lose the match with them.

    The engine's rule (``MatchState.outcome_for_resignation``): a gammon while none of
    their checkers is borne off, else a single game, times the cube (Jacoby applies). The
    page tells it before asking to confirm; the service scores the resignation the same way.
    """
    if "resign" not in game_actions(game, user) or resigns_by_offer(game.match):
        raise InvalidAction(_("You cannot resign this game now."), code="cannot_resign")
    color = game.match.color_of(user)
    assert color is not None
    state = match_state(game.match, game)
    outcome = state.outcome_for_resignation(color, game.position())
    return ResignationCost(
        outcome.points, not state.money and outcome.points >= state.away(color.other)
    )


def game_plays(game: Game) -> list[Play]:
    """The legal plays for the stored dice (empty unless the player on turn is moving)."""
    if game.state != Game.State.MOVING or game.dice is None:
        return []
    return legal_plays(game.position(), game.dice)


def game_messages(game: Game, user: object) -> list[GameMessage] | None:
    """The messages of ``game`` in order, for one of its two players (one query).

    None for anyone else: spectators and visitors never see them (the game page leaves
    the section out, the API refuses). Hidden messages are listed with ``hidden`` set;
    whoever shows them shows the mask, not the text.
    """
    if not getattr(user, "is_authenticated", False) or game.match.color_of(user) is None:
        return None
    return list(
        GameMessage.objects.filter(game=game).select_related("author").order_by("created_at", "pk")
    )


def _awaits(user: User) -> Q:
    """The games ``user`` must act in, of their live games: theirs to act, and not held
    (a held board waits for others' decisions, not its player's)."""
    return Q(held=False) & (Q(match__white=user, turn=0) | Q(match__black=user, turn=1))


def games_awaiting(user: User) -> QuerySet[Game]:
    """Live games where ``user`` must act, the most urgent first."""
    return games_of(user).filter(_awaits(user))


def games_awaiting_count(user: User) -> int:
    """How many of :func:`games_awaiting` there are, by the leanest query that says it:
    the header's badge on every page, where building the listing's query (its ordering,
    annotation and joined players, all dropped by a count) cost more CPU than the count
    (2.9 ms against 1.1 ms a request, by bench/pages.py's machine)."""
    live = Game.objects.exclude(state=Game.State.FINISHED)
    return live.filter(_awaits(user), match__status=Match.Status.PLAYING).count()


def games_of(user: User) -> QuerySet[Game]:
    """Every live game of ``user``, sorted by time left; each annotated ``awaiting``,
    whether it waits for them (what :func:`games_awaiting` keeps): the dashboard's two
    lists from one query."""
    return (
        Game.objects.exclude(state=Game.State.FINISHED)
        .filter(Q(match__white=user) | Q(match__black=user), match__status=Match.Status.PLAYING)
        .annotate(awaiting=ExpressionWrapper(_awaits(user), output_field=BooleanField()))
        .select_related("match", "match__white", "match__black")
        .order_by("deadline_at", "pk")
    )


@dataclass(frozen=True, slots=True)
class GameStamp:
    """What a row of the dashboard's tables is drawn from, as far as its cache key goes:
    the game's id, ply and last change, whether it awaits the player, and who is on turn
    (whose vacation the row may name)."""

    pk: int
    ply: int
    updated_at: datetime
    awaiting: bool
    on_turn_id: int


def games_of_stamps(user: User) -> list[GameStamp]:
    """:func:`games_of` as stamps, in its order: a few columns a game instead of a game,
    its match and both players as models, which is most of the dashboard's CPU when its
    tables come from the cache (100 games: 400 model instances)."""
    rows = games_of(user).values_list(  # type: ignore[misc] # "awaiting" is games_of's annotation
        "pk", "ply", "updated_at", "awaiting", "turn", "match__white_id", "match__black_id"
    )
    return [
        GameStamp(pk, ply, updated_at, bool(awaiting), white if turn == Color.WHITE else black)
        for pk, ply, updated_at, awaiting, turn, white, black in rows
    ]


def game_awaits(game: Game, user: object) -> bool:
    """Whether ``game`` (its match and players loaded) is one of :func:`games_awaiting`
    of ``user``, read off the row without a query."""
    match = game.match
    color = match.color_of(user)
    return (
        color is not None
        and not game.is_finished
        and not game.held
        and game.turn == int(color)
        and match.status == Match.Status.PLAYING
    )


def matches_of(user: User) -> QuerySet[Match]:
    return (
        Match.objects.filter(Q(white=user) | Q(black=user))
        .select_related("white", "black")
        .order_by("status", "-created_at")
    )


def game_preview_play(game: Game, play_text: str) -> Play:
    """The legal play ``play_text`` names with the stored dice, without playing it.

    Raises the same :class:`~backgammon.errors.ServiceError` the move itself would for an
    illegal play; used to ask the player to confirm before the move is sent.
    """
    try:
        return parse_play(game.position(), game.dice or (0, 0), play_text)
    except RulesError as error:
        raise from_rules_error(error) from None


def vacations_current(user_ids: Iterable[int], now: datetime) -> dict[int, Vacation]:
    """The vacation each of ``user_ids`` is on at ``now`` (players away only), one query."""
    rows = Vacation.objects.filter(
        user_id__in=set(user_ids), starts_at__lte=now, ends_at__gt=now
    ).order_by("ends_at")
    return {v.user_id: v for v in rows}  # the latest end wins


def live_game_played_by(game_id: int, user_id: int) -> bool:
    """Whether the user is one of the two players of the game, in play on a live clock:
    whose socket on the game's page makes them "at the board" (``matches.presence``). A
    correspondence game's page shows no such mark, so its sockets count nothing."""
    return (
        Game.objects.filter(pk=game_id, match__live_delay__isnull=False)
        .exclude(state=Game.State.FINISHED)
        .filter(Q(match__white_id=user_id) | Q(match__black_id=user_id))
        .exists()
    )
