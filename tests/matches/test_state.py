"""The state machine of a game (``matches.state``): one pure function from a state and a
record entry to the next state, which the services apply and the replay folds."""

from __future__ import annotations

import doctest
import random
import subprocess
import sys
from dataclasses import dataclass, replace
from datetime import UTC, datetime

import pytest

from accounts.models import User
from challenges import services as challenge_services
from gammon import BoardView, Color, Position, SeededDice, Variant, parse_play
from matches import record, state
from matches.bots import bot_act
from matches.models import Game, GameEvent, Match
from matches.replay import ReplayError
from matches.state import (
    EventKind,
    GameState,
    IllegalEventError,
    Stage,
    advance,
    opening,
)
from tests.bot_games import BotGames

W, B = Color.WHITE, Color.BLACK
NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


@dataclass(frozen=True)
class Entry:
    """A record entry without a database: what ``advance`` reads of a ``GameEvent``."""

    ply: int
    kind: str
    color: int | None = None
    die1: int | None = None
    die2: int | None = None
    notation: str = ""
    value: int | None = None


def entry(
    ply: int,
    kind: EventKind,
    color: Color | None = None,
    dice: tuple[int, int] | None = None,
    notation: str = "",
    value: int | None = None,
) -> Entry:
    die1, die2 = dice or (None, None)
    return Entry(
        ply, kind.value, None if color is None else int(color), die1, die2, notation, value
    )


def live(position: Position, stage: Stage, *, dice: tuple[int, int] | None = None) -> GameState:
    """A game at ply 10 in ``position`` (its colour on turn)."""
    return GameState(
        board=position.to_white_view(), turn=position.turn, stage=stage, dice=dice, ply=10
    )


START = live(Position.start(), Stage.ROLLING)  # White to roll


def test_the_state_module_imports_no_django() -> None:
    code = (
        "import sys, matches.state; "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in {'django', 'rest_framework'}); "
        "assert not bad, bad"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_its_examples_run() -> None:
    failures, tried = doctest.testmod(state)
    assert tried and not failures


def test_the_models_store_the_enums_values() -> None:
    assert [value for value, _ in Game.State.choices] == [stage.value for stage in Stage]
    assert [value for value, _ in GameEvent.Kind.choices] == [kind.value for kind in EventKind]


def test_the_opening_roll_gives_its_winner_the_first_move_with_both_dice() -> None:
    white = opening(entry(1, EventKind.OPENING, W, (3, 1)), Variant.STANDARD)
    assert white == GameState(
        board=Position.start().to_white_view(), turn=W, stage=Stage.MOVING, dice=(3, 1), ply=1
    )
    black = opening(entry(1, EventKind.OPENING, B, (2, 5), value=2), "nackgammon")
    assert (black.turn, black.dice, black.cube_value) == (B, (5, 2), 2)
    assert black.position() == Position.start(Variant.NACKGAMMON, B)
    assert advance(None, entry(1, EventKind.OPENING, W, (3, 1))) == white


@pytest.mark.parametrize(
    ("event", "message"),
    [
        (entry(1, EventKind.OPENING, W, (3, 3)), "first move to its winner"),
        (entry(1, EventKind.OPENING, B, (3, 1)), "first move to its winner"),
        (entry(1, EventKind.OPENING, W), "without dice"),
        (entry(1, EventKind.OPENING, None, (3, 1)), "without a colour"),
        (entry(1, EventKind.ROLL, W, (3, 1)), "does not start with the opening roll"),
        (entry(2, EventKind.OPENING, W, (3, 1)), "expected ply 1"),
    ],
)
def test_a_wrong_opening_is_refused(event: Entry, message: str) -> None:
    with pytest.raises(IllegalEventError, match=message):
        opening(event, Variant.STANDARD)


def test_a_roll_gives_the_player_on_turn_their_dice() -> None:
    after = advance(START, entry(11, EventKind.ROLL, W, (6, 4)))
    assert after == replace(START, stage=Stage.MOVING, dice=(6, 4), ply=11)


def test_a_move_plays_the_dice_and_hands_the_turn_over() -> None:
    moving = replace(START, stage=Stage.MOVING, dice=(3, 1))
    after = advance(moving, entry(11, EventKind.MOVE, W, (3, 1), "8/5 6/5"))
    played = parse_play(Position.start(), (3, 1), "8/5 6/5")
    assert after == replace(
        moving,
        board=played.next_position().to_white_view(),
        turn=B,
        stage=Stage.ROLLING,
        dice=None,
        ply=11,
    )
    # The play parsed by the caller gives the same state, without parsing again.
    given = advance(moving, entry(11, EventKind.MOVE, W, (3, 1), "8/5 6/5"), play=played)
    assert given == after


def test_a_turn_with_no_legal_play_passes() -> None:
    closed = Position.from_sides({25: 1, 6: 14}, {p: 2 for p in range(1, 7)})
    rolled = live(closed, Stage.MOVING, dice=(6, 5))
    after = advance(rolled, entry(11, EventKind.PASS, W, (6, 5), "pass"))
    assert (after.turn, after.stage, after.dice) == (B, Stage.ROLLING, None)
    assert after.position() == closed.mirror()
    with pytest.raises(IllegalEventError, match="recorded as 'pass'"):
        advance(rolled, entry(11, EventKind.MOVE, W, (6, 5), "pass"))


def test_bearing_off_the_last_checker_leaves_the_winner_on_turn_until_the_win() -> None:
    last = Position.from_sides({1: 1}, {19: 15})
    rolled = live(last, Stage.MOVING, dice=(6, 5))
    borne = advance(rolled, entry(11, EventKind.MOVE, W, (6, 5), "1/off"))
    assert (borne.turn, borne.stage, borne.dice) == (W, Stage.MOVING, None)
    assert borne.board.off == (15, 0)
    won = advance(borne, entry(12, EventKind.WIN, W, value=2))
    assert (won.stage, won.winner, won.points, won.ply) == (Stage.FINISHED, W, 2, 12)


def test_a_double_hands_the_cube_over_and_a_take_turns_it() -> None:
    doubled = advance(START, entry(11, EventKind.DOUBLE, W, value=2))
    assert (doubled.stage, doubled.turn, doubled.cube_value) == (Stage.DOUBLED, B, 1)
    taken = advance(doubled, entry(12, EventKind.TAKE, B, value=2))
    assert taken == replace(START, cube_value=2, cube_owner=B, turn=W, stage=Stage.ROLLING, ply=12)


def test_a_drop_waits_for_the_win_that_scores_it() -> None:
    doubled = advance(START, entry(11, EventKind.DOUBLE, W, value=2))
    dropped = advance(doubled, entry(12, EventKind.DROP, B, value=1))
    assert dropped == replace(doubled, ply=12)
    won = advance(dropped, entry(13, EventKind.WIN, W, value=1))
    assert (won.stage, won.winner, won.points, won.turn) == (Stage.FINISHED, W, 1, B)


@pytest.mark.parametrize(
    "event",
    [
        entry(11, EventKind.RESIGN, B, value=2, notation="game"),
        entry(11, EventKind.DRAW_OFFER, B),
        entry(11, EventKind.DRAW_DECLINE, W),
        entry(11, EventKind.TIMEOUT, W),
        entry(11, EventKind.ADJUDICATE, B, value=3, notation="award"),
    ],
)
def test_entries_that_leave_the_game_as_it_is(event: Entry) -> None:
    assert advance(START, event) == replace(START, ply=11)


@pytest.mark.parametrize(
    "event",
    [
        entry(11, EventKind.DRAW, B),
        entry(11, EventKind.ADJUDICATE, notation="draw"),
        entry(11, EventKind.ADJUDICATE, notation="cancel"),
    ],
)
def test_a_draw_or_a_ruling_with_no_winner_finishes_the_game(event: Entry) -> None:
    rolled = replace(START, stage=Stage.MOVING, dice=(2, 1))
    after = advance(rolled, event)
    assert after == replace(rolled, stage=Stage.FINISHED, dice=None, ply=11)
    with pytest.raises(IllegalEventError, match="after the game ended"):
        advance(after, entry(12, EventKind.WIN, W, value=1))


MOVING = replace(START, stage=Stage.MOVING, dice=(3, 1))
OFFERED = replace(START, stage=Stage.RESIGNING, turn=B, resign_offer=2)  # White offers a gammon


def test_an_offer_to_resign_passes_the_turn_and_a_decline_gives_it_back_dice_and_all() -> None:
    offered = advance(MOVING, entry(11, EventKind.RESIGN_OFFER, W, value=1))
    assert offered == replace(MOVING, stage=Stage.RESIGNING, turn=B, resign_offer=1, ply=11)
    declined = advance(offered, entry(12, EventKind.RESIGN_DECLINE, B))
    assert declined == replace(MOVING, resign_declined=1, ply=12)
    before_rolling = advance(START, entry(11, EventKind.RESIGN_OFFER, W, value=3))
    declined = advance(before_rolling, entry(12, EventKind.RESIGN_DECLINE, B))
    assert declined == replace(START, resign_declined=3, ply=12)


def test_after_a_decline_only_more_is_offered_until_the_turn_passes() -> None:
    offered = advance(MOVING, entry(11, EventKind.RESIGN_OFFER, W, value=1))
    declined = advance(offered, entry(12, EventKind.RESIGN_DECLINE, B))
    with pytest.raises(IllegalEventError, match="an offer of 1 after one of 1 declined"):
        advance(declined, entry(13, EventKind.RESIGN_OFFER, W, value=1))
    more = advance(declined, entry(13, EventKind.RESIGN_OFFER, W, value=2))
    assert (more.stage, more.resign_offer, more.resign_declined) == (Stage.RESIGNING, 2, 1)
    moved = advance(declined, entry(13, EventKind.MOVE, W, (3, 1), "8/5 6/5"))
    assert (moved.turn, moved.resign_declined) == (B, 0)


def test_an_accepted_offer_waits_for_the_win_that_scores_it() -> None:
    accepted = advance(OFFERED, entry(11, EventKind.RESIGN_ACCEPT, B, value=2))
    assert accepted == replace(OFFERED, ply=11)
    won = advance(accepted, entry(12, EventKind.WIN, B, value=2))
    assert (won.stage, won.winner, won.points, won.resign_offer) == (Stage.FINISHED, B, 2, 2)


@pytest.mark.parametrize(
    ("before", "event", "message"),
    [
        (START, entry(11, EventKind.ROLL, B, (3, 1)), "other side's turn"),
        (START, entry(11, EventKind.DOUBLE, B), "other side's turn"),
        (START, entry(11, EventKind.TIMEOUT, B), "other side's turn"),
        (MOVING, entry(11, EventKind.MOVE, B, (3, 1), "8/5 6/5"), "other side's turn"),
        (MOVING, entry(11, EventKind.ROLL, W, (3, 1)), "while the game is moving"),
        (MOVING, entry(11, EventKind.DOUBLE, W), "while the game is moving"),
        (START, entry(11, EventKind.MOVE, W, (3, 1), "8/5 6/5"), "while the game is rolling"),
        (START, entry(11, EventKind.TAKE, W), "while the game is rolling"),
        (START, entry(11, EventKind.DROP, W), "while the game is rolling"),
        (START, entry(12, EventKind.ROLL, W, (3, 1)), "expected ply 11"),
        (START, entry(10, EventKind.ROLL, W, (3, 1)), "expected ply 11"),
        (MOVING, entry(11, EventKind.MOVE, W, (6, 5), "24/13"), r"played with \(6, 5\)"),
        (MOVING, entry(11, EventKind.MOVE, W, (3, 1), "24/18"), "'24/18' is not legal"),
        (MOVING, entry(11, EventKind.PASS, W, (3, 1), "pass"), "'pass' is not legal"),
        (MOVING, entry(11, EventKind.MOVE, W), "without dice"),
        (START, entry(11, EventKind.ROLL, W), "without dice"),
        (START, entry(11, EventKind.DOUBLE, W, value=4), "a double to 4 of a 1"),
        (START, entry(11, EventKind.RESIGN), "without a colour"),
        (START, entry(11, EventKind.WIN), "without a colour"),
        (START, entry(11, EventKind.OPENING, W, (3, 1)), "opening roll comes first"),
        (START, Entry(11, "castle", int(W)), "unknown event kind 'castle'"),
        (START, entry(11, EventKind.RESIGN_OFFER, B, value=1), "other side's turn"),
        (START, entry(11, EventKind.RESIGN_OFFER, W, value=4), "a resignation offer of 4"),
        (START, entry(11, EventKind.RESIGN_OFFER, W), "a resignation offer of 0"),
        (
            replace(START, stage=Stage.DOUBLED, turn=B),
            entry(11, EventKind.RESIGN_OFFER, B, value=1),
            "a resign_offer while the game is doubled",
        ),
        (START, entry(11, EventKind.RESIGN_DECLINE, W), "while the game is rolling"),
        (START, entry(11, EventKind.RESIGN_ACCEPT, B, value=1), "other side's turn"),
        (OFFERED, entry(11, EventKind.RESIGN_ACCEPT, W, value=2), "other side's turn"),
        (OFFERED, entry(11, EventKind.RESIGN_ACCEPT, B, value=1), "accepts 1 where 2"),
        (OFFERED, entry(11, EventKind.ROLL, B, (3, 1)), "a roll while the game is resigning"),
        (OFFERED, entry(11, EventKind.RESIGN_OFFER, B, value=1), "while the game is resigning"),
    ],
)
def test_an_event_out_of_turn_order_or_rules_is_refused(
    before: GameState, event: Entry, message: str
) -> None:
    with pytest.raises(IllegalEventError, match=message):
        advance(before, event)


def test_a_take_must_name_twice_the_cube() -> None:
    doubled = advance(START, entry(11, EventKind.DOUBLE, W, value=2))
    with pytest.raises(IllegalEventError, match="a take to 4 of a 1"):
        advance(doubled, entry(12, EventKind.TAKE, B, value=4))


def test_a_play_given_must_be_the_events_play_from_this_position() -> None:
    event = entry(11, EventKind.MOVE, W, (3, 1), "8/5 6/5")
    played = parse_play(Position.start(), (3, 1), "8/5 6/5")
    elsewhere = parse_play(Position.start(turn=B), (3, 1), "8/5 6/5")
    with pytest.raises(IllegalEventError, match="the play given"):
        advance(MOVING, event, play=elsewhere)
    other = parse_play(Position.start(), (3, 1), "24/21 24/23")
    with pytest.raises(IllegalEventError, match="the play given"):
        advance(MOVING, event, play=other)
    with pytest.raises(IllegalEventError, match="a pass recorded as"):
        advance(MOVING, entry(11, EventKind.PASS, W, (3, 1), "8/5 6/5"), play=played)


def test_nothing_follows_a_finished_game() -> None:
    won = advance(START, entry(11, EventKind.WIN, W, value=1))
    for event in (entry(12, EventKind.ROLL, W, (3, 1)), entry(12, EventKind.DRAW_OFFER, B)):
        with pytest.raises(IllegalEventError, match="after the game ended"):
            advance(won, event)


def test_replaying_is_the_fold_with_the_board_after_each_ply() -> None:
    events = [
        entry(1, EventKind.OPENING, W, (3, 1)),
        entry(2, EventKind.MOVE, W, (3, 1), "8/5 6/5"),
        entry(3, EventKind.ROLL, B, (6, 6)),
        entry(4, EventKind.MOVE, B, (6, 6), "24/18(2) 13/7(2)"),
    ]
    folded: GameState | None = None
    for event in events:
        folded = advance(folded, event)
    replayed = state.replay(events, Variant.STANDARD)
    assert replayed.state == folded
    assert [ply for ply, _ in replayed.positions] == [1, 2, 3, 4]
    assert replayed.positions[2][1] == replayed.positions[1][1]  # a roll moves no checker
    assert isinstance(replayed.positions[0][1], BoardView)
    with pytest.raises(ReplayError, match="empty"):
        state.replay([], Variant.STANDARD)


def assert_record_gives_the_row(game: Game) -> None:
    """The fold of the stored record is the state stored on the row, winner and points too."""
    events = list(game.events.order_by("ply"))
    assert state.replay(events, game.match.variant).state == game.game_state()


@pytest.mark.django_db
def test_folding_the_bot_matches_records_gives_the_stored_games(
    bot_games: BotGames, player: User, opponent: User, outsider: User
) -> None:
    matches = bot_games.load("site", alice=player, bob=opponent, charlie=outsider)
    games = Game.objects.filter(match__in=matches).select_related("match")
    assert games.count() > len(matches)
    for game in games:
        assert_record_gives_the_row(game)
    assert {0, 1} <= {g.winner for g in games}


@pytest.mark.django_db
def test_after_every_action_of_a_bot_match_the_row_is_the_fold_of_its_record(
    monkeypatch: pytest.MonkeyPatch, player: User, opponent: User
) -> None:
    monkeypatch.setattr(record, "dice", SeededDice(3))
    challenge = challenge_services.challenge_create(
        challenger=player, opponent=opponent, now=NOW, length=3
    )
    match = challenge_services.challenge_accept(challenge_id=challenge.pk, user=opponent, now=NOW)
    rng = random.Random(3)
    for _ in range(400):
        match.refresh_from_db()
        if match.status != Match.Status.PLAYING:
            break
        game = match.current_game
        assert game is not None
        assert_record_gives_the_row(bot_act(game, rng, NOW, double_rate=0.3, resign_rate=0.1))
    for game in match.games.select_related("match"):
        assert_record_gives_the_row(game)
    kinds = set(GameEvent.objects.filter(game__match=match).values_list("kind", flat=True))
    assert {"opening", "roll", "move", "double", "resign_offer", "win"} <= kinds
    assert {"resign_decline", "resign_accept"} & kinds
