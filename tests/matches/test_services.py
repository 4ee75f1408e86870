"""Every action and every refusal of the game services (``matches.turns``, ``endings``,
``chat``) and of ``challenges.services``.

Dice are scripted with ``FixedDice`` and colours are fixed (the challenger
plays White) unless a test is about the draw itself, so each test reads as a
game record. After every refusal the game row and its record are unchanged.
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
from backgammon.errors import Conflict, Forbidden, InvalidAction, NotFound, ServiceError
from challenges import services as challenge_services
from challenges.models import Challenge
from gammon import Color, FixedDice, Position
from matches import chat, endings, record, turns
from matches.models import Game, Match
from matches.signals import game_finished, match_finished
from tests import records

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
LATER = NOW + timedelta(hours=1)


def board(white: dict[int, int], black: dict[int, int]) -> dict[str, list[int]]:
    """A stored board (White's side) from each side's own point numbers; 25 is the bar."""
    position = Position.from_sides(white, black)
    return {"points": list(position.points), "bar": list(position.bar), "off": list(position.off)}


@pytest.fixture
def ended() -> Iterator[dict[str, list[int]]]:
    """The ids of the games and matches for which an end signal was sent, in order."""
    received: dict[str, list[int]] = {"games": [], "matches": []}

    def on_game(sender: object, game: Game, **kwargs: object) -> None:
        received["games"].append(game.pk)

    def on_match(sender: object, match: Match, **kwargs: object) -> None:
        received["matches"].append(match.pk)

    game_finished.connect(on_game)
    match_finished.connect(on_match)
    yield received
    game_finished.disconnect(on_game)
    match_finished.disconnect(on_match)


@pytest.fixture
def roll(monkeypatch: pytest.MonkeyPatch) -> Callable[..., None]:
    """Script the dice the services throw next (single dice or pairs)."""

    def script(*dice: int | tuple[int, int]) -> None:
        monkeypatch.setattr(record, "dice", FixedDice(dice))

    return script


@pytest.fixture
def challenger_is_white(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(challenge_services, "secrets", SimpleNamespace(randbelow=lambda n: 0))


@pytest.fixture
def start(
    player: User, opponent: User, roll: Callable[..., None], challenger_is_white: None
) -> Callable[..., Game]:
    """Start a match, alice (White) against bob (Black), with a scripted opening roll."""

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


def act(game: Game, action: str, user: User, **kwargs: Any) -> Game:
    """Call ``game_<action>`` (or ``match_<action>``) of the service module that has it,
    with the game's current ply."""
    function = next(getattr(m, action) for m in (turns, endings, chat) if hasattr(m, action))
    game.refresh_from_db()
    kwargs.setdefault("expected_ply", game.ply)
    kwargs.setdefault("now", LATER)
    return function(game_id=game.pk, player=user, **kwargs)


def kinds(game: Game) -> list[str]:
    return list(game.events.values_list("kind", flat=True))


@contextmanager
def refused(
    game: Game, error: type[ServiceError], code: str | None = None
) -> Iterator[pytest.ExceptionInfo[ServiceError]]:
    """Expect ``error`` (with ``code``) and check the game and its record did not change."""
    game.refresh_from_db()
    before = model_to_dict(game)
    match_before = model_to_dict(game.match)
    events = game.events.count()
    with pytest.raises(error) as raised:
        yield raised
    if code is not None:
        assert raised.value.code == code
    game.refresh_from_db()
    game.match.refresh_from_db()
    assert model_to_dict(game) == before
    assert model_to_dict(game.match) == match_before
    assert game.events.count() == events


def set_board(game: Game, **fields: Any) -> Game:
    """Put the game in a test position (a test's setup; play never writes rows directly)."""
    records.game_made_by_hand(game.pk)
    Game.objects.filter(pk=game.pk).update(**fields)
    game.refresh_from_db()
    return game


# --------------------------------------------------------------------------- game start


def test_black_moves_its_own_checkers(
    start: Callable[..., Game], roll: Callable[..., None], player: User, opponent: User
) -> None:
    game = start(3, 1)
    game = act(game, "game_play_move", player, play_text="8/5 6/5")
    assert (game.turn, game.state) == (1, Game.State.ROLLING)
    roll(6, 5)
    game = act(game, "game_roll", opponent)
    assert game.position().checkers_of(Color.BLACK) == {24: 2, 13: 5, 8: 3, 6: 5}
    game = act(game, "game_play_move", opponent, play_text="24/13")
    # Black's 24 and 13 points are White's 1 and 12.
    assert game.board["points"][0] == -1 and game.board["points"][11] == -6
    assert game.position().checkers_of(Color.WHITE) == {24: 2, 13: 5, 8: 2, 6: 4, 5: 2}


def test_resigning_with_none_borne_off_is_a_gammon_whoever_is_on_turn(
    start: Callable[..., Game], roll: Callable[..., None], opponent: User
) -> None:
    game = start(3, 1, resignation="immediate")
    set_board(
        game,
        board=board({6: 5, 5: 5}, {6: 15}),
        turn=1,
        state=Game.State.ROLLING,
        die1=None,
        die2=None,
    )
    roll(5, 2)
    game = act(game, "game_resign", opponent)
    assert (game.winner, game.termination, game.points) == (0, "resign", 2)


# --------------------------------------------------------------------------- challenges


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"variant": "chouette"}, "variant"),
        ({"length": 26}, "length"),
        ({"days_per_move": 0}, "days_per_move"),
        ({"days_per_move": 31}, "days_per_move"),
        ({"time_bank_days": 366}, "time_bank"),
        ({"cube_limit": 3}, "cube_limit"),
        ({"cube_limit": 0}, "cube_limit"),
        ({"cube_limit": 32768}, "cube_limit"),  # PostgreSQL's small integer ends at 32767
        ({"cube_limit": None, "length": 5}, "cube"),
        ({"jacoby": True, "length": 5}, "money_only"),
        ({"automatic_doubles": True, "length": 7}, "money_only"),
        ({"message": "hello\x00"}, "message"),  # a DataError (500) on PostgreSQL before
    ],
)
def test_a_challenge_with_bad_options_is_refused(
    player: User, opponent: User, options: dict[str, Any], code: str
) -> None:
    with pytest.raises(InvalidAction) as raised:
        challenge_services.challenge_create(
            challenger=player, opponent=opponent, now=NOW, **options
        )
    assert raised.value.code == code
    assert not Challenge.objects.exists()


def test_nobody_can_challenge_themselves(player: User) -> None:
    with pytest.raises(InvalidAction) as raised:
        challenge_services.challenge_create(challenger=player, opponent=player, now=NOW)
    assert raised.value.code == "self_challenge"
    assert not Challenge.objects.exists()


def test_a_challenge_is_open_for_two_weeks_and_money_options_need_a_money_session(
    player: User, opponent: User
) -> None:
    challenge = challenge_services.challenge_create(
        challenger=player, now=NOW, length=0, cube_limit=None, jacoby=True, automatic_doubles=True
    )
    assert challenge.status == Challenge.Status.OPEN and challenge.is_open_to_anyone
    assert challenge.expires_at == NOW + timedelta(days=14)
    assert (challenge.length, challenge.cube_limit, challenge.jacoby) == (0, None, True)


def test_accepting_draws_colours_and_starts_the_first_game(
    player: User, opponent: User, roll: Callable[..., None]
) -> None:
    roll(2, 5)
    challenge = challenge_services.challenge_create(challenger=player, now=NOW, length=7)
    match = challenge_services.challenge_accept(challenge_id=challenge.pk, user=opponent, now=NOW)
    assert {match.white, match.black} == {player, opponent}
    challenge.refresh_from_db()
    assert (challenge.status, challenge.opponent, challenge.match) == ("accepted", opponent, match)
    game = match.current_game
    assert game is not None and game.number == 1
    opening = game.events.get()
    # White threw 2 and Black 5: Black moves first, with both dice.
    assert (opening.kind, opening.color, opening.dice) == ("opening", 1, (2, 5))
    assert (game.state, game.turn, game.dice, game.ply) == ("moving", 1, (5, 2), 1)
    assert game.position() == Position.start(turn=Color.BLACK)


def test_the_white_opening_winner_moves_with_both_dice(start: Callable[..., Game]) -> None:
    game = start(6, 6, 4, 1)
    assert (game.turn, game.state, game.dice, game.cube_value) == (0, "moving", (4, 1), 1)
    assert game.events.get().dice == (4, 1)


def test_opening_ties_turn_the_cube_in_a_money_session_with_automatic_doubles(
    start: Callable[..., Game],
) -> None:
    game = start(3, 3, 5, 1, length=0, automatic_doubles=True)
    assert (game.cube_value, game.cube_owner, game.automatic_doubles) == (2, None, 1)
    assert game.events.get().value == 2


def accept_refused(
    challenge: Challenge, user: User, error: type[ServiceError], code: str | None, now: datetime
) -> None:
    before = model_to_dict(challenge)
    with pytest.raises(error) as raised:
        challenge_services.challenge_accept(challenge_id=challenge.pk, user=user, now=now)
    if code:
        assert raised.value.code == code
    challenge.refresh_from_db()
    assert model_to_dict(challenge) == before
    assert not Match.objects.exists()


def test_who_may_accept_a_challenge(player: User, opponent: User, outsider: User) -> None:
    challenge = challenge_services.challenge_create(challenger=player, opponent=opponent, now=NOW)
    accept_refused(challenge, player, InvalidAction, "own_challenge", NOW)
    accept_refused(challenge, outsider, Forbidden, None, NOW)
    expiry = challenge.expires_at
    accept_refused(challenge, opponent, Conflict, "challenge_closed", expiry)
    with pytest.raises(NotFound):
        challenge_services.challenge_accept(challenge_id=challenge.pk + 99, user=opponent, now=NOW)


def test_a_challenge_can_be_accepted_once(
    player: User, opponent: User, outsider: User, roll: Callable[..., None]
) -> None:
    roll(4, 2)
    challenge = challenge_services.challenge_create(challenger=player, now=NOW)
    challenge_services.challenge_accept(challenge_id=challenge.pk, user=outsider, now=NOW)
    with pytest.raises(Conflict) as raised:
        challenge_services.challenge_accept(challenge_id=challenge.pk, user=opponent, now=NOW)
    assert raised.value.code == "challenge_closed"
    assert Match.objects.count() == 1


def test_only_the_challenged_player_declines(player: User, opponent: User, outsider: User) -> None:
    challenge = challenge_services.challenge_create(challenger=player, opponent=opponent, now=NOW)
    for user in (player, outsider):
        with pytest.raises(Forbidden):
            challenge_services.challenge_decline(challenge_id=challenge.pk, user=user, now=NOW)
    challenge.refresh_from_db()
    assert challenge.status == Challenge.Status.OPEN
    challenge_services.challenge_decline(challenge_id=challenge.pk, user=opponent, now=LATER)
    challenge.refresh_from_db()
    assert (challenge.status, challenge.responded_at) == ("declined", LATER)
    for action in (challenge_services.challenge_decline, challenge_services.challenge_accept):
        with pytest.raises(Conflict) as raised:
            action(challenge_id=challenge.pk, user=opponent, now=LATER)
        assert raised.value.code == "challenge_closed"


def test_only_the_challenger_withdraws(player: User, opponent: User) -> None:
    challenge = challenge_services.challenge_create(challenger=player, opponent=opponent, now=NOW)
    with pytest.raises(Forbidden):
        challenge_services.challenge_withdraw(challenge_id=challenge.pk, user=opponent, now=NOW)
    challenge_services.challenge_withdraw(challenge_id=challenge.pk, user=player, now=LATER)
    challenge.refresh_from_db()
    assert challenge.status == Challenge.Status.WITHDRAWN
    with pytest.raises(Conflict):
        challenge_services.challenge_withdraw(challenge_id=challenge.pk, user=player, now=LATER)
    with pytest.raises(Conflict):
        challenge_services.challenge_decline(challenge_id=challenge.pk, user=opponent, now=LATER)


def test_an_expired_challenge_cannot_be_declined_or_withdrawn(player: User, opponent: User) -> None:
    challenge = challenge_services.challenge_create(challenger=player, opponent=opponent, now=NOW)
    late = challenge.expires_at + timedelta(seconds=1)
    with pytest.raises(Conflict):
        challenge_services.challenge_decline(challenge_id=challenge.pk, user=opponent, now=late)
    with pytest.raises(Conflict):
        challenge_services.challenge_withdraw(challenge_id=challenge.pk, user=player, now=late)


# --------------------------------------------------------------------------- moving


def test_a_legal_move_is_recorded_and_passes_the_turn(
    start: Callable[..., Game], player: User
) -> None:
    game = start(3, 1)
    game = act(game, "game_play_move", player, play_text="6/5, 8/5")
    move = game.events.get(ply=2)
    assert (move.kind, move.color, move.dice, move.notation) == ("move", 0, (3, 1), "8/5 6/5")
    # Black may double, so Black is asked to roll or double.
    assert (game.turn, game.state, game.dice, game.ply) == (1, "rolling", None, 2)
    assert game.position().checkers_of(Color.WHITE) == {24: 2, 13: 5, 8: 2, 6: 4, 5: 2}
    assert game.updated_at == LATER


def test_rolling_stores_the_dice(
    start: Callable[..., Game], roll: Callable[..., None], player: User, opponent: User
) -> None:
    game = start(3, 1)
    game = act(game, "game_play_move", player, play_text="8/5 6/5")
    roll(5, 5)
    game = act(game, "game_roll", opponent)
    assert (game.state, game.dice, kinds(game)[-1]) == ("moving", (5, 5), "roll")
    with refused(game, InvalidAction, "state"):
        act(game, "game_roll", opponent)
    with refused(game, Forbidden, "not_your_turn"):
        act(game, "game_play_move", player, play_text="13/8 13/3")


WHITE_TO_MOVE = {"turn": 0, "state": Game.State.MOVING}


@pytest.mark.parametrize(
    ("white", "black", "dice", "text", "code"),
    [
        ({13: 1, 6: 14}, {18: 2, 1: 13}, (6, 1), "13/7 7/6", "blocked_point"),
        ({25: 1, 13: 14}, {1: 15}, (6, 5), "13/7 13/8", "must_enter"),
        (None, None, (6, 5), "13/8", "must_use_both_dice"),
        ({13: 1}, {23: 2, 1: 13}, (6, 5), "13/8", "must_play_larger_die"),
        ({7: 1, 6: 2, 1: 12}, {1: 15}, (6, 1), "6/off 6/5", "not_all_home"),
        (None, None, (3, 1), "7/4 6/5", "no_such_checker"),
        (None, None, (6, 5), "24/18 13/11", "wrong_dice"),
        ({5: 1, 2: 1}, {1: 15}, (6, 1), "2/off 5/4", "bear_off_higher"),
        (None, None, (3, 1), "pass", "must_move"),
        (None, None, (3, 1), "hello", "invalid_notation"),
        (
            {25: 1, 13: 14},
            {6: 3, 5: 2, 4: 2, 3: 2, 2: 2, 1: 2, 24: 2},
            (6, 5),
            "13/7 13/8",
            "must_pass",
        ),
        ({24: 1, 6: 14}, {5: 1, 3: 1, 24: 13}, (4, 2), "24/18*", "ambiguous_play"),
    ],
)
def test_an_illegal_move_is_refused_with_the_rule_it_breaks(
    start: Callable[..., Game],
    player: User,
    white: dict[int, int] | None,
    black: dict[int, int] | None,
    dice: tuple[int, int],
    text: str,
    code: str,
) -> None:
    game = start(3, 1)
    fields: dict[str, Any] = {"die1": dice[0], "die2": dice[1], **WHITE_TO_MOVE}
    if white is not None and black is not None:
        fields["board"] = board(white, black)
    set_board(game, **fields)
    with refused(game, InvalidAction, code) as raised:
        act(game, "game_play_move", player, play_text=text)
    assert str(raised.value)


def test_a_turn_without_a_legal_play_passes_by_itself(
    start: Callable[..., Game], roll: Callable[..., None], player: User, opponent: User
) -> None:
    game = start(3, 1)
    closed = board({6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 1: 2}, {25: 1, 1: 14})
    set_board(game, board=closed, die1=1, die2=1, **WHITE_TO_MOVE)
    game = act(game, "game_play_move", player, play_text="6/2")
    assert (game.turn, game.state) == (1, "rolling")
    roll(6, 5)
    game = act(game, "game_roll", opponent)
    assert kinds(game)[-2:] == ["roll", "pass"]
    passed = game.events.last()
    assert passed is not None and (passed.color, passed.dice, passed.notation) == (
        1,
        (6, 5),
        "pass",
    )
    assert (game.turn, game.state, game.dice) == (0, "rolling", None)
    assert game.board["bar"] == [0, 1]


# --------------------------------------------------------------------------- the cube


def white_doubles_black_takes(
    start: Callable[..., Game], roll: Callable[..., None], white: User, black: User, **options: Any
) -> Game:
    """Opening 3-1 for White, Black rolls 6-5, White doubles, Black takes; White rolls 4-2."""
    game = start(3, 1, **options)
    game = act(game, "game_play_move", white, play_text="8/5 6/5")
    roll(6, 5, 4, 2)
    game = act(game, "game_roll", black)
    game = act(game, "game_play_move", black, play_text="24/13")
    assert (game.turn, game.state) == (0, "rolling")
    game = act(game, "game_double", white)
    assert (game.turn, game.state, game.cube_value) == (1, "doubled", 1)
    assert game.events.last().value == 2  # type: ignore[union-attr]
    return act(game, "game_take", black)


def test_a_take_doubles_the_cube_gives_it_to_the_taker_and_the_doubler_rolls(
    start: Callable[..., Game], roll: Callable[..., None], player: User, opponent: User
) -> None:
    game = white_doubles_black_takes(start, roll, player, opponent)
    assert (game.cube_value, game.cube_owner) == (2, 1)
    assert kinds(game)[-3:] == ["double", "take", "roll"]
    assert (game.turn, game.state, game.dice) == (0, "moving", (4, 2))


def test_the_cube_owner_may_redouble_and_the_other_side_rolls_at_once(
    start: Callable[..., Game], roll: Callable[..., None], player: User, opponent: User
) -> None:
    game = white_doubles_black_takes(start, roll, player, opponent)
    game = act(game, "game_play_move", player, play_text="8/4 6/4")
    assert (game.turn, game.state) == (1, "rolling")  # Black owns the cube
    roll(2, 1, 5, 3)
    game = act(game, "game_roll", opponent)
    game = act(game, "game_play_move", opponent, play_text="13/11 6/5")
    # White does not own the cube, so the server rolled for White.
    assert (game.turn, game.state, game.dice) == (0, "moving", (5, 3))
    assert kinds(game)[-2:] == ["move", "roll"]
    set_board(game, state=Game.State.ROLLING, die1=None, die2=None)
    with refused(game, InvalidAction, "not_cube_owner"):
        act(game, "game_double", player)


def test_a_double_past_the_cube_limit_is_refused(
    start: Callable[..., Game], roll: Callable[..., None], player: User, opponent: User
) -> None:
    game = white_doubles_black_takes(start, roll, player, opponent, cube_limit=2)
    set_board(game, turn=1, state=Game.State.ROLLING, die1=None, die2=None)
    with refused(game, InvalidAction, "cube_limit"):
        act(game, "game_double", opponent)


def test_doubling_needs_the_turn_and_no_dice_rolled(
    start: Callable[..., Game], roll: Callable[..., None], player: User, opponent: User
) -> None:
    game = start(3, 1)
    with refused(game, InvalidAction):
        act(game, "game_double", player)
    with refused(game, Forbidden, "not_your_turn"):
        act(game, "game_double", opponent)
    for action in ("game_take", "game_drop"):
        with refused(game, InvalidAction, "state"):
            act(game, action, player)


def test_a_drop_ends_the_game_at_the_cube_before_the_double(
    start: Callable[..., Game],
    roll: Callable[..., None],
    player: User,
    opponent: User,
    ended: dict[str, list[int]],
) -> None:
    game = white_doubles_black_takes(start, roll, player, opponent)
    game = act(game, "game_play_move", player, play_text="8/4 6/4")
    game = act(game, "game_double", opponent)  # Black redoubles to 4
    assert (game.turn, game.state) == (0, "doubled")
    roll(1, 2)
    game = act(game, "game_drop", player)
    assert (game.state, game.winner, game.termination, game.points) == ("finished", 1, "drop", 2)
    assert (game.dice, game.deadline_at) == (None, None)
    assert kinds(game)[-2:] == ["drop", "win"]
    match = game.match
    match.refresh_from_db()
    assert (match.score, match.status) == ((0, 2), Match.Status.PLAYING)
    second = match.current_game
    assert second is not None and second.number == 2
    assert (second.cube_value, second.cube_owner, second.turn, second.dice) == (1, None, 1, (2, 1))
    assert kinds(second) == ["opening"]
    assert ended == {"games": [game.pk], "matches": []}


# --------------------------------------------------------------------------- resigning


def test_resigning_scores_a_gammon_when_none_borne_off_times_the_cube(
    start: Callable[..., Game], roll: Callable[..., None], player: User, opponent: User
) -> None:
    game = white_doubles_black_takes(start, roll, player, opponent, resignation="immediate")
    roll(5, 6)
    game = act(game, "game_resign", opponent)
    assert (game.winner, game.termination, game.points) == (0, "resign", 4)
    assert kinds(game)[-2:] == ["resign", "win"]
    game.match.refresh_from_db()
    assert game.match.score == (4, 0)


def test_resigning_after_bearing_off_scores_a_single_game(
    start: Callable[..., Game], roll: Callable[..., None], player: User
) -> None:
    game = start(3, 1, length=7, resignation="immediate")
    set_board(game, board=board({6: 5, 5: 5}, {6: 15}))
    roll(5, 6)
    game = act(game, "game_resign", player)
    assert (game.winner, game.points) == (1, 1)


def test_resigning_the_match_gives_the_opponent_the_points_they_need(
    start: Callable[..., Game], player: User, opponent: User, ended: dict[str, list[int]]
) -> None:
    game = start(3, 1, length=7)
    game = act(game, "game_resign", player, whole_match=True)
    match = game.match
    match.refresh_from_db()
    assert (game.winner, game.termination, game.points) == (1, "resign", 7)
    assert (match.status, match.result, match.score) == ("finished", "black", (0, 7))
    assert match.games.count() == 1
    assert ended == {"games": [game.pk], "matches": [match.pk]}
    with refused(game, Conflict, "game_over"):
        act(game, "game_resign", opponent)


def test_resigning_a_money_session_ends_it_after_the_game(
    start: Callable[..., Game], player: User
) -> None:
    game = start(3, 1, length=0)
    game = act(game, "game_resign", player, whole_match=True)
    game.match.refresh_from_db()
    assert (game.points, game.match.status, game.match.score) == (2, "finished", (0, 2))


# --------------------------------------------------------------------------- draws


def test_a_draw_offer_can_be_declined_and_then_accepted(
    start: Callable[..., Game], player: User, opponent: User, ended: dict[str, list[int]]
) -> None:
    game = start(3, 1)
    with refused(game, InvalidAction, "no_draw_offer"):
        act(game, "match_answer_draw", opponent, accept=True)
    game = act(game, "match_offer_draw", opponent)  # not on turn: any time
    assert game.match.draw_offered_by == 1 and kinds(game)[-1] == "draw_offer"
    with refused(game, Conflict, "draw_pending"):
        act(game, "match_offer_draw", player)
    with refused(game, InvalidAction, "no_draw_offer"):
        act(game, "match_answer_draw", opponent, accept=True)
    game = act(game, "match_answer_draw", player, accept=False)
    assert game.match.draw_offered_by is None and kinds(game)[-1] == "draw_decline"
    assert (game.state, game.turn, game.dice) == ("moving", 0, (3, 1))

    game = act(game, "match_offer_draw", player)
    game = act(game, "match_answer_draw", opponent, accept=True)
    match = game.match
    match.refresh_from_db()
    assert (game.state, game.winner, game.termination, game.points) == (
        "finished",
        None,
        "draw",
        0,
    )
    assert (match.status, match.result, match.score) == ("finished", "draw", (0, 0))
    assert kinds(game)[-1] == "draw"
    assert ended == {"games": [game.pk], "matches": [match.pk]}


# --------------------------------------------------------------------------- Crawford


def test_crawford_then_post_crawford_and_the_match_ends_at_its_length(
    start: Callable[..., Game],
    roll: Callable[..., None],
    player: User,
    opponent: User,
    ended: dict[str, list[int]],
) -> None:
    first = white_doubles_black_takes(
        start, roll, player, opponent, length=5, resignation="immediate"
    )
    roll(1, 3)  # game 2: Black opens
    first = act(first, "game_resign", opponent)  # a gammon at 2: White leads 4-0
    match = first.match
    match.refresh_from_db()
    crawford = match.current_game
    assert crawford is not None and crawford.crawford and match.score == (4, 0)

    # The Crawford game: nobody may double, so the server rolls for both sides.
    roll(6, 4)
    crawford = act(crawford, "game_play_move", opponent, play_text="8/5 6/5")
    assert (crawford.turn, crawford.state, crawford.dice) == (0, "moving", (6, 4))
    set_board(crawford, state=Game.State.ROLLING, die1=None, die2=None)
    with refused(crawford, InvalidAction, "crawford"):
        act(crawford, "game_double", player)
    roll(2, 5)  # game 3: Black opens
    crawford = act(crawford, "game_resign", player)  # a gammon: 4-2
    match.refresh_from_db()
    assert (match.score, match.crawford_played) == ((4, 2), True)

    # Post-Crawford: the trailer may double; the leader's cube is dead, so White rolls.
    post = match.current_game
    assert post is not None and not post.crawford
    roll(6, 4)
    post = act(post, "game_play_move", opponent, play_text="13/8 13/11")
    assert (post.turn, post.state, post.dice) == (0, "moving", (6, 4))
    set_board(post, state=Game.State.ROLLING, die1=None, die2=None)
    with refused(post, InvalidAction, "cube_dead"):
        act(post, "game_double", player)
    set_board(post, state=Game.State.MOVING, die1=6, die2=4)
    post = act(post, "game_play_move", player, play_text="24/14")
    assert (post.turn, post.state) == (1, "rolling")

    post = act(post, "game_resign", opponent)
    match.refresh_from_db()
    assert (match.status, match.result, match.score) == ("finished", "white", (6, 2))
    assert match.games.count() == 3
    assert ended == {"games": [first.pk, crawford.pk, post.pk], "matches": [match.pk]}


def test_a_one_point_match_has_a_dead_cube_and_ends_with_its_first_game(
    start: Callable[..., Game], roll: Callable[..., None], player: User, opponent: User
) -> None:
    game = start(3, 1, length=1, resignation="immediate")
    roll(6, 5)
    game = act(game, "game_play_move", player, play_text="8/5 6/5")
    assert (game.turn, game.state, game.dice) == (1, "moving", (6, 5))
    game = act(game, "game_resign", opponent)
    game.match.refresh_from_db()
    assert (game.match.status, game.match.score) == ("finished", (2, 0))


# --------------------------------------------------------------------------- who and when


def test_acting_out_of_turn_is_forbidden(start: Callable[..., Game], opponent: User) -> None:
    game = start(3, 1)
    for action, extra in (
        ("game_play_move", {"play_text": "24/21 24/23"}),
        ("game_roll", {}),
        ("game_take", {}),
    ):
        with refused(game, Forbidden, "not_your_turn"):
            act(game, action, opponent, **extra)


def test_someone_elses_game_is_forbidden(start: Callable[..., Game], outsider: User) -> None:
    game = start(3, 1)
    for action in ("game_roll", "game_resign", "match_offer_draw"):
        with refused(game, Forbidden, "forbidden"):
            act(game, action, outsider)
    with refused(game, Forbidden):
        act(game, "game_play_move", outsider, play_text="8/5 6/5")


def test_a_stale_ply_or_a_second_submission_is_a_conflict(
    start: Callable[..., Game], player: User
) -> None:
    game = start(3, 1)
    with refused(game, Conflict, "stale"):
        act(game, "game_play_move", player, play_text="8/5 6/5", expected_ply=0)
    seen = game.ply
    act(game, "game_play_move", player, play_text="8/5 6/5", expected_ply=seen)
    with refused(game, Conflict, "stale"):
        act(game, "game_play_move", player, play_text="8/5 6/5", expected_ply=seen)


def test_a_finished_game_takes_no_more_actions(
    start: Callable[..., Game], roll: Callable[..., None], player: User, opponent: User
) -> None:
    game = start(3, 1, resignation="immediate")
    roll(2, 4)
    game = act(game, "game_resign", opponent)
    for action, user in (("game_roll", player), ("match_offer_draw", opponent)):
        with refused(game, Conflict, "game_over"):
            act(game, action, user)


def test_an_unknown_game_is_not_found(player: User) -> None:
    with pytest.raises(NotFound):
        turns.game_roll(game_id=12345, player=player, expected_ply=None, now=NOW)


def test_bearing_off_the_last_checker_wins_and_scores_the_game(
    start: Callable[..., Game],
    roll: Callable[..., None],
    player: User,
    ended: dict[str, list[int]],
) -> None:
    game = start(3, 1, length=7)
    set_board(game, board=board({2: 1, 1: 1}, {6: 14, 25: 1}), die1=3, die2=1)
    roll(5, 2)
    game = act(game, "game_play_move", player, play_text="2/off 1/off")
    assert (game.state, game.winner, game.termination, game.points) == (
        "finished",
        0,
        "backgammon",
        3,
    )
    assert kinds(game)[-2:] == ["move", "win"]
    game.match.refresh_from_db()
    assert game.match.score == (3, 0)
    assert ended["games"] == [game.pk]
