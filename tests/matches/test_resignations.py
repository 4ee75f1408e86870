"""Offers to resign (``matches.resignations``): the standard, as in gnubg, FIBS and
DailyGammon. The player on turn offers a single game, a gammon or a backgammon; the
opponent accepts (the game ends for those points times the cube) or declines (nothing
changes but the record, and the offerer may offer only more this turn). A match made
with ``resignation: immediate`` keeps the site's first rule.

Dice are scripted and the challenger plays White, so each test reads as a game record.
After every refusal the rows are unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from django.forms.models import model_to_dict

from accounts.models import User
from backgammon.errors import Conflict, Forbidden, InvalidAction, ServiceError
from challenges import services as challenge_services
from gammon import FixedDice, Position
from matches import clock, endings, record, resignations, selectors, turns
from matches.models import Game, Match
from tests import records

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
LATER = NOW + timedelta(hours=1)


@pytest.fixture
def roll(monkeypatch: pytest.MonkeyPatch) -> Callable[..., None]:
    def script(*dice: int | tuple[int, int]) -> None:
        monkeypatch.setattr(record, "dice", FixedDice(dice))

    return script


@pytest.fixture
def start(
    player: User, opponent: User, roll: Callable[..., None], monkeypatch: pytest.MonkeyPatch
) -> Callable[..., Game]:
    """A match, alice (White) against bob (Black), opened with a scripted roll."""
    monkeypatch.setattr(challenge_services, "secrets", SimpleNamespace(randbelow=lambda n: 0))

    def start_match(*dice: int | tuple[int, int], **options: Any) -> Game:
        roll(*dice)
        challenge = challenge_services.challenge_create(
            challenger=player, opponent=opponent, now=NOW, **options
        )
        match = challenge_services.challenge_accept(
            challenge_id=challenge.pk, user=opponent, now=NOW
        )
        game = match.current_game
        assert game is not None
        return game

    return start_match


def offer(game: Game, user: User, level: int, **kwargs: Any) -> Game:
    game.refresh_from_db()
    kwargs.setdefault("expected_ply", game.ply)
    return resignations.game_offer_resignation(
        game_id=game.pk, player=user, level=level, now=kwargs.pop("now", LATER), **kwargs
    )


def answer(game: Game, user: User, accept: bool, **kwargs: Any) -> Game:
    game.refresh_from_db()
    kwargs.setdefault("expected_ply", game.ply)
    return resignations.game_answer_resignation(
        game_id=game.pk, player=user, accept=accept, now=kwargs.pop("now", LATER), **kwargs
    )


def kinds(game: Game) -> list[str]:
    return list(game.events.values_list("kind", flat=True))


@contextmanager
def refused(game: Game, error: type[ServiceError], code: str) -> Iterator[None]:
    """Expect ``error`` with ``code``, the game, its match and its record unchanged."""
    game.refresh_from_db()
    before, match_before, events = model_to_dict(game), model_to_dict(game.match), kinds(game)
    with pytest.raises(error) as raised:
        yield
    assert raised.value.code == code
    game.refresh_from_db()
    game.match.refresh_from_db()
    assert (model_to_dict(game), model_to_dict(game.match), kinds(game)) == (
        before,
        match_before,
        events,
    )


def levels(game: Game, user: User) -> list[tuple[int, int, bool]]:
    game.refresh_from_db()
    color = game.match.color_of(user)
    assert color is not None
    return [
        (o.level, o.points, o.ends_match) for o in selectors.game_resignation_offers(game, color)
    ]


def test_a_declined_offer_costs_nothing_and_a_bigger_one_accepted_ends_the_game(
    start: Callable[..., Game], roll: Callable[..., None], player: User, opponent: User
) -> None:
    game = start(3, 1, length=7)
    assert levels(game, player) == [(1, 1, False), (2, 2, False), (3, 3, False)]
    deadline = game.deadline_at
    game = offer(game, player, 1)
    assert (game.state, game.turn, game.dice, game.resign_offer) == ("resigning", 1, (3, 1), 1)
    assert game.deadline_at == LATER + timedelta(days=3)  # the answerer's turn
    assert selectors.game_actions(game, opponent)[:2] == ["accept_resign", "decline_resign"]
    assert "offer_resign" not in selectors.game_actions(game, player)
    game = answer(game, opponent, accept=False)
    assert (game.state, game.turn, game.dice, game.resign_declined) == ("moving", 0, (3, 1), 1)
    assert game.deadline_at is not None and game.deadline_at > deadline
    assert levels(game, player) == [(2, 2, False), (3, 3, False)]
    game = offer(game, player, 2)
    roll(5, 2)  # the next game's opening roll
    game = answer(game, opponent, accept=True)
    assert (game.state, game.winner, game.termination, game.points) == ("finished", 1, "resign", 2)
    assert kinds(game)[1:] == [
        "resign_offer",
        "resign_decline",
        "resign_offer",
        "resign_accept",
        "win",
    ]
    match = game.match
    match.refresh_from_db()
    assert (match.score, match.status, match.games.count()) == ((0, 2), "playing", 2)


def test_the_same_offer_again_waits_for_the_next_turn(
    start: Callable[..., Game], roll: Callable[..., None], player: User, opponent: User
) -> None:
    game = start(3, 1)
    game = offer(game, player, 2)
    game = answer(game, opponent, accept=False)
    for level in (1, 2):
        with refused(game, Conflict, "resign_declined"):
            offer(game, player, level)
    roll(6, 5, 4, 2)
    turns.game_play_move(
        game_id=game.pk, player=player, play_text="8/5 6/5", expected_ply=game.ply, now=LATER
    )
    game = offer(game, opponent, 1)  # the opponent's turn: theirs to offer
    game = answer(game, player, accept=False)
    game.refresh_from_db()
    turns.game_roll(game_id=game.pk, player=opponent, expected_ply=None, now=LATER)
    turns.game_play_move(
        game_id=game.pk, player=opponent, play_text="24/13", expected_ply=None, now=LATER
    )
    game.refresh_from_db()
    assert (game.turn, game.resign_declined) == (0, 0)
    assert levels(game, player)[0] == (1, 1, False)  # a new turn: any offer again
    offer(game, player, 2)


def test_an_offer_is_the_turns_player_before_or_after_rolling_never_during_a_double(
    start: Callable[..., Game], roll: Callable[..., None], player: User, opponent: User
) -> None:
    game = start(3, 1)
    with refused(game, Forbidden, "not_your_turn"):
        offer(game, opponent, 1)
    roll(6, 5, 4, 2)
    game = turns.game_play_move(
        game_id=game.pk, player=player, play_text="8/5 6/5", expected_ply=game.ply, now=LATER
    )
    game = turns.game_double(game_id=game.pk, player=opponent, expected_ply=game.ply, now=LATER)
    assert levels(game, player) == []
    with refused(game, InvalidAction, "state"):
        offer(game, player, 1)  # answer the double: dropping is the single game's price
    game = turns.game_take(game_id=game.pk, player=player, expected_ply=game.ply, now=LATER)
    game = offer(game, opponent, 1)  # rolled 6-5 after the take: moving
    with refused(game, InvalidAction, "state"):
        offer(game, player, 1)  # the answerer answers first
    with refused(game, Forbidden, "not_your_turn"):
        turns.game_play_move(
            game_id=game.pk, player=opponent, play_text="24/13", expected_ply=game.ply, now=LATER
        )
    with refused(game, InvalidAction, "no_resign_offer"):
        answer(game, opponent, accept=True)  # not the offerer's to answer


def test_only_the_offers_that_make_sense_are_open(
    start: Callable[..., Game], player: User, opponent: User
) -> None:
    game = start(3, 1, length=0, jacoby=True, cube_limit=None)
    assert levels(game, player) == [(1, 1, False)]  # Jacoby: a gammon counts single
    with refused(game, InvalidAction, "resign_level"):
        offer(game, player, 2)
    game = start(3, 1, length=3)
    records.game_made_by_hand(game.pk)
    Game.objects.filter(pk=game.pk).update(board=board({6: 14}, {6: 14, 24: 1}))
    assert levels(game, player) == [(1, 1, False)]  # White has borne one off
    assert levels(game, opponent) == []  # not their turn
    match = game.match
    Match.objects.filter(pk=match.pk).update(score_black=1)  # 2-away: a gammon ends it
    records.game_made_by_hand(game.pk)
    Game.objects.filter(pk=game.pk).update(board=board({6: 15}, {6: 14, 24: 1}))
    assert levels(game, player) == [(1, 1, False), (2, 2, True)]  # no backgammon past it


def board(white: dict[int, int], black: dict[int, int]) -> dict[str, list[int]]:
    position = Position.from_sides(white, black)
    return {"points": list(position.points), "bar": list(position.bar), "off": list(position.off)}


def test_an_accepted_offer_that_reaches_the_length_ends_the_match(
    start: Callable[..., Game], player: User, opponent: User
) -> None:
    game = start(3, 1, length=1)
    assert levels(game, player) == [(1, 1, True)]
    game = offer(game, player, 1)
    pending = selectors.game_resignation_pending(game)
    assert pending is not None and (pending.offerer, pending.offer.points) == (0, 1)
    assert pending.offer.ends_match
    game = answer(game, opponent, accept=True)
    match = game.match
    match.refresh_from_db()
    assert (match.status, match.result, match.score, match.termination) == (
        "finished",
        "black",
        (0, 1),
        "resign",
    )


def test_a_game_is_not_resigned_at_once_where_it_is_offered_but_the_match_is(
    start: Callable[..., Game], player: User, opponent: User
) -> None:
    game = start(3, 1, length=5)
    with refused(game, Conflict, "resign_by_offer"):
        endings.game_resign(game_id=game.pk, player=player, expected_ply=game.ply, now=LATER)
    game = offer(game, player, 1)  # the match can be resigned with an offer pending
    game = endings.game_resign(
        game_id=game.pk, player=player, expected_ply=game.ply, now=LATER, whole_match=True
    )
    assert (game.winner, game.points, kinds(game)[-3:]) == (1, 5, ["resign_offer", "resign", "win"])


def test_a_match_resigned_at_once_takes_no_offers(start: Callable[..., Game], player: User) -> None:
    game = start(3, 1, 5, 2, resignation="immediate")
    assert "offer_resign" not in selectors.game_actions(game, player)
    with refused(game, Conflict, "resign_outright"):
        offer(game, player, 1)
    game = endings.game_resign(game_id=game.pk, player=player, expected_ply=game.ply, now=LATER)
    assert (game.winner, game.points) == (1, 2)  # the first rule: a gammon, none borne off


def test_an_offer_left_unanswered_loses_on_time_as_a_double_does(
    start: Callable[..., Game], player: User, opponent: User
) -> None:
    game = start(3, 1, length=5)
    game = offer(game, player, 1)
    assert game.deadline_at is not None
    clock.games_expire_overdue(now=game.deadline_at + timedelta(seconds=1))
    game.refresh_from_db()
    assert (game.termination, game.winner) == ("timeout", 0)
