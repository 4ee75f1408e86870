"""The cube and match scoring: lengths, doubling rights, Crawford, points, match end."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gammon.errors import RulesError
from gammon.match import (
    MAX_MATCH_LENGTH,
    OFFERED_LENGTHS,
    CannotDoubleError,
    CrawfordDoubleError,
    Cube,
    CubeError,
    CubeLimitError,
    DeadCubeError,
    GameNotOverError,
    MatchLengthError,
    MatchOptionError,
    MatchOverError,
    MatchState,
    NotCubeOwnerError,
    Outcome,
    Termination,
    can_lose_backgammon,
    classify_win,
)
from gammon.position import Color, Position

WHITE, BLACK = Color.WHITE, Color.BLACK


def win(winner: Color, termination: Termination, points: int) -> Outcome:
    return Outcome(winner, termination, points)


# Match length -------------------------------------------------------------------


def test_offered_lengths_are_the_odd_lengths_to_21() -> None:
    assert OFFERED_LENGTHS == (1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21)


@pytest.mark.parametrize("length", range(MAX_MATCH_LENGTH + 1))
def test_it_accepts_every_length_up_to_25_and_money(length: int) -> None:
    assert MatchState(length=length).money is (length == 0)


@pytest.mark.parametrize("length", [-1, 26, 100])
def test_it_refuses_other_lengths(length: int) -> None:
    with pytest.raises(MatchLengthError) as caught:
        MatchState(length=length)
    assert caught.value.code == "match_length"
    assert isinstance(caught.value, RulesError)


def test_money_options_are_refused_in_match_play() -> None:
    with pytest.raises(MatchOptionError):
        MatchState(length=7, jacoby=True)
    with pytest.raises(MatchOptionError):
        MatchState(length=7, automatic_doubles=True)
    with pytest.raises(MatchOptionError):
        MatchState(length=0, crawford=True)


# The cube -----------------------------------------------------------------------


def test_either_side_may_double_a_centred_cube() -> None:
    assert Cube().can_double(WHITE) and Cube().can_double(BLACK)


def test_only_the_owner_may_redouble() -> None:
    cube = Cube().doubled(WHITE)
    assert cube == Cube(2, BLACK)
    assert cube.can_double(BLACK)
    with pytest.raises(NotCubeOwnerError) as caught:
        cube.doubled(WHITE)
    assert caught.value.code == "not_cube_owner"
    assert cube.doubled(BLACK) == Cube(4, WHITE)


def test_the_cube_stops_at_its_limit() -> None:
    assert Cube(32, WHITE).doubled(WHITE) == Cube(64, BLACK)
    with pytest.raises(CubeLimitError) as caught:
        Cube(64, BLACK).doubled(BLACK)
    assert caught.value.code == "cube_limit"
    assert Cube(8, BLACK, limit=8).can_double(BLACK) is False


def test_a_money_cube_may_have_no_limit() -> None:
    assert Cube(1 << 20, WHITE, limit=None).doubled(WHITE).value == 1 << 21


@pytest.mark.parametrize(("value", "limit"), [(0, 64), (3, 64), (128, 64), (2, 48)])
def test_impossible_cubes_are_refused(value: int, limit: int) -> None:
    with pytest.raises(CubeError):
        Cube(value, None, limit)


# Doubling within a match ---------------------------------------------------------


def test_no_doubling_in_the_crawford_game() -> None:
    state = MatchState(length=5, score=(4, 2), crawford=True)
    with pytest.raises(CrawfordDoubleError) as caught:
        state.check_double(BLACK)
    assert caught.value.code == "crawford"
    assert not state.can_double(WHITE)


def test_doubling_is_allowed_again_after_crawford() -> None:
    state = MatchState(length=5, score=(4, 2), post_crawford=True)
    assert state.can_double(BLACK)


def test_a_dead_cube_cannot_be_turned() -> None:
    # 4-away with the cube on 4: winning at 4 already wins the match.
    state = MatchState(length=7, score=(3, 0), cube=Cube(4, WHITE))
    with pytest.raises(DeadCubeError) as caught:
        state.check_double(WHITE)
    assert caught.value.code == "cube_dead"
    # The trailer may still redouble... if they own the cube.
    assert MatchState(length=7, score=(3, 0), cube=Cube(4, BLACK)).can_double(BLACK)


def test_the_trailer_at_one_away_post_crawford_has_a_dead_cube() -> None:
    state = MatchState(length=5, score=(4, 2), post_crawford=True)
    assert not state.can_double(WHITE)
    assert state.can_double(BLACK)


def test_a_one_point_match_has_a_dead_cube() -> None:
    assert not MatchState(length=1).can_double(WHITE)


def test_money_play_has_no_dead_cube() -> None:
    assert MatchState(score=(500, 0), cube=Cube(32, WHITE)).can_double(WHITE)


def test_cube_ownership_is_checked_within_a_match() -> None:
    state = MatchState(length=11, cube=Cube(2, BLACK))
    with pytest.raises(NotCubeOwnerError):
        state.check_double(WHITE)
    assert isinstance(NotCubeOwnerError("x"), CannotDoubleError)


def test_take_turns_the_cube_to_the_taker() -> None:
    state = MatchState(length=11).take(WHITE).take(BLACK)
    assert state.cube == Cube(4, WHITE)


def test_nobody_doubles_once_the_match_is_over() -> None:
    state = MatchState(length=3, score=(3, 0), winner=WHITE)
    assert not state.can_double(BLACK)
    with pytest.raises(MatchOverError):
        state.take(BLACK)


# Automatic doubles -----------------------------------------------------------------


def test_an_opening_tie_turns_the_cube_once_per_game() -> None:
    state = MatchState(automatic_doubles=True).with_opening_ties(3)
    assert state.cube == Cube(2, None)
    assert state.with_opening_ties(1).cube == Cube(2, None)


def test_automatic_doubles_can_be_allowed_more_than_once() -> None:
    state = MatchState(automatic_doubles=True, max_automatic_doubles=3).with_opening_ties(5)
    assert state.cube.value == 8


def test_automatic_doubles_are_off_by_default() -> None:
    assert MatchState().with_opening_ties(2).cube == Cube()


def test_the_next_game_may_double_automatically_again() -> None:
    state = MatchState(automatic_doubles=True).with_opening_ties(1)
    state = state.after_game(state.outcome_for_drop(WHITE))
    assert state.with_opening_ties(1).cube.value == 2


# Classifying a finished game --------------------------------------------------------


@pytest.mark.parametrize("seen_by_winner", [True, False])
@pytest.mark.parametrize(
    ("loser", "expected"),
    [
        ({6: 14}, Termination.SINGLE),  # one checker off
        ({24: 1, 6: 13}, Termination.SINGLE),  # one off saves the backgammon too
        ({6: 15}, Termination.GAMMON),
        ({7: 15}, Termination.GAMMON),
        ({19: 1, 6: 14}, Termination.BACKGAMMON),  # the winner's home board
        ({24: 15}, Termination.BACKGAMMON),
        ({25: 1, 6: 14}, Termination.BACKGAMMON),  # on the bar
        ({18: 1, 6: 14}, Termination.GAMMON),  # the winner's 7 point is not home
    ],
)
def test_classify_win(loser: dict[int, int], expected: Termination, seen_by_winner: bool) -> None:
    position = Position.from_sides({}, loser, turn=BLACK)
    if not seen_by_winner:
        position = position.mirror()  # the loser on roll
    assert classify_win(position) == (BLACK, expected)


def test_classify_win_needs_a_finished_game() -> None:
    with pytest.raises(GameNotOverError):
        classify_win(Position.start())


# Scoring ----------------------------------------------------------------------------


GAMMON = Position.from_sides({}, {6: 15})
BACKGAMMON = Position.from_sides({}, {24: 1, 6: 14})
SINGLE = Position.from_sides({}, {6: 3})


@pytest.mark.parametrize(
    ("position", "cube", "points"),
    [
        (SINGLE, 1, 1),
        (GAMMON, 1, 2),
        (BACKGAMMON, 1, 3),
        (SINGLE, 4, 4),
        (GAMMON, 4, 8),
        (BACKGAMMON, 8, 24),
    ],
)
def test_wins_score_the_cube_times_the_kind(position: Position, cube: int, points: int) -> None:
    state = MatchState(length=25, cube=Cube(cube, BLACK))
    outcome = state.outcome_for_win(position)
    assert outcome.winner is WHITE
    assert outcome.points == points


def test_a_drop_scores_the_cube_before_the_double_and_no_gammon() -> None:
    state = MatchState(length=7, cube=Cube(2, BLACK))
    assert state.outcome_for_drop(BLACK) == win(BLACK, Termination.DROP, 2)


def test_resigning_before_bearing_off_gives_a_gammon() -> None:
    state = MatchState(length=7, cube=Cube(2, WHITE))
    assert state.outcome_for_resignation(BLACK, Position.start()) == win(
        WHITE, Termination.RESIGN, 4
    )


def test_resigning_after_bearing_off_gives_a_single_game() -> None:
    position = Position.from_sides({6: 3}, {1: 14}, turn=WHITE)
    outcome = MatchState().outcome_for_resignation(BLACK, position)
    assert outcome == win(WHITE, Termination.RESIGN, 1)


def test_a_resignation_offers_only_what_the_opponent_could_still_win() -> None:
    def offered(state: MatchState, position: Position) -> list[tuple[int, int, bool]]:
        return [
            (o.level, o.points, o.ends_match) for o in state.resignation_offers(WHITE, position)
        ]

    assert offered(MatchState(cube=Cube(2, BLACK)), Position.start()) == [
        (1, 2, False),
        (2, 4, False),
        (3, 6, False),
    ]
    borne_off = Position.from_sides({6: 14}, {1: 15})
    assert offered(MatchState(), borne_off) == [(1, 1, False)]
    race = Position.from_sides({6: 15}, {6: 15})  # no contact, none in Black's home
    assert offered(MatchState(), race) == [(1, 1, False), (2, 2, False)]
    # Black needs 2: the gammon ends the match, and a backgammon would add nothing.
    assert offered(MatchState(length=5, score=(0, 3)), Position.start()) == [
        (1, 1, False),
        (2, 2, True),
    ]
    assert offered(MatchState(length=5, score=(0, 4)), Position.start()) == [(1, 1, True)]
    assert offered(MatchState(jacoby=True), Position.start()) == [(1, 1, False)]
    assert len(offered(MatchState(jacoby=True).take(BLACK), Position.start())) == 3


def test_an_accepted_offer_scores_its_level_times_the_cube() -> None:
    state = MatchState(cube=Cube(4, WHITE))
    assert state.outcome_for_offer(BLACK, 3) == win(WHITE, Termination.RESIGN, 12)
    with pytest.raises(RulesError, match="1, 2 or 3 times the cube, not 4"):
        state.outcome_for_offer(BLACK, 4)


def test_a_backgammon_is_lost_from_the_bar_the_opponents_home_or_a_hit_to_come() -> None:
    assert can_lose_backgammon(Position.from_sides({6: 14, 25: 1}, {6: 15}), WHITE)
    assert can_lose_backgammon(Position.from_sides({6: 14, 20: 1}, {6: 15}), WHITE)
    behind = Position.from_sides({6: 14, 10: 1}, {6: 14, 20: 1})  # Black's 20 is White's 5
    assert can_lose_backgammon(behind, WHITE)
    passed = Position.from_sides({6: 14, 10: 1}, {6: 14, 14: 1})  # Black's 14 is White's 11
    assert not can_lose_backgammon(passed, WHITE)
    assert not can_lose_backgammon(Position.from_sides({6: 13, 20: 1}, {6: 15}), WHITE)  # one off


def test_jacoby_counts_gammons_single_while_the_cube_is_centred() -> None:
    state = MatchState(jacoby=True)
    assert state.outcome_for_win(BACKGAMMON).points == 1
    assert state.outcome_for_resignation(BLACK, Position.start()).points == 1
    turned = state.take(BLACK)
    assert turned.outcome_for_win(BACKGAMMON).points == 6


def test_jacoby_still_counts_an_automatically_doubled_cube() -> None:
    state = MatchState(jacoby=True, automatic_doubles=True).with_opening_ties(1)
    assert state.outcome_for_win(GAMMON).points == 2


def test_without_jacoby_money_gammons_count() -> None:
    assert MatchState().outcome_for_win(GAMMON).points == 2


def test_a_timeout_in_match_play_awards_the_match() -> None:
    state = MatchState(length=7, score=(2, 5))
    outcome = state.outcome_for_timeout(BLACK)
    assert outcome == win(WHITE, Termination.TIMEOUT, 5)
    after = state.after_game(outcome)
    assert after.winner is WHITE and after.score == (7, 5)


def test_a_timeout_in_a_money_session_loses_the_game_as_a_gammon() -> None:
    state = MatchState(cube=Cube(4, WHITE))
    after = state.after_game(state.outcome_for_timeout(WHITE))
    assert after.score == (0, 8)
    assert not after.is_over and after.winner is None and after.game_number == 2


def test_an_agreed_draw_ends_the_match_without_a_winner() -> None:
    state = MatchState(length=9, score=(3, 3))
    after = state.after_game(state.outcome_for_draw())
    assert after.is_over and after.drawn and after.winner is None and after.score == (3, 3)
    with pytest.raises(MatchOverError):
        after.after_game(win(WHITE, Termination.SINGLE, 1))


def test_outcomes_need_a_winner_unless_drawn() -> None:
    with pytest.raises(RulesError):
        Outcome(None, Termination.SINGLE, 1)
    with pytest.raises(RulesError):
        Outcome(WHITE, Termination.DRAW, 0)


# Applying results ---------------------------------------------------------------------


def test_after_a_game_the_score_grows_and_the_cube_resets() -> None:
    state = MatchState(length=7, cube=Cube(4, BLACK, limit=64))
    after = state.after_game(win(BLACK, Termination.GAMMON, 8))
    assert after.score == (0, 8) and after.winner is BLACK
    state = MatchState(length=11, cube=Cube(4, BLACK))
    after = state.after_game(win(BLACK, Termination.SINGLE, 4))
    assert after.score == (0, 4)
    assert after.cube == Cube()
    assert after.game_number == 2
    assert after.winner is None


def test_crawford_comes_exactly_once() -> None:
    state = MatchState(length=5)
    state = state.after_game(win(WHITE, Termination.GAMMON, 2))
    assert not state.crawford
    state = state.after_game(win(WHITE, Termination.GAMMON, 2))
    assert state.score == (4, 0) and state.crawford and not state.post_crawford
    state = state.after_game(win(BLACK, Termination.SINGLE, 1))
    assert not state.crawford and state.post_crawford
    state = state.after_game(win(BLACK, Termination.GAMMON, 2))
    assert state.score == (4, 3) and not state.crawford
    state = state.after_game(win(BLACK, Termination.SINGLE, 1))
    assert state.score == (4, 4) and not state.crawford and state.winner is None
    state = state.after_game(win(WHITE, Termination.SINGLE, 1))
    assert state.winner is WHITE and state.game_number == 6


def test_jumping_past_one_away_gives_no_crawford_game() -> None:
    state = MatchState(length=5, score=(2, 0)).after_game(win(WHITE, Termination.SINGLE, 4))
    assert state.winner is WHITE
    state = MatchState(length=7, score=(2, 0)).after_game(win(BLACK, Termination.GAMMON, 2))
    assert not state.crawford


def test_a_money_session_never_ends_on_points() -> None:
    state = MatchState()
    for _ in range(10):
        state = state.after_game(win(WHITE, Termination.BACKGAMMON, 3 * 64))
    assert state.score == (1920, 0) and not state.is_over and not state.crawford


def test_match_state_away() -> None:
    assert MatchState(length=7, score=(2, 5)).away(WHITE) == 5
    assert MatchState().away(WHITE) == 0


@given(
    st.integers(1, MAX_MATCH_LENGTH),
    st.lists(st.tuples(st.sampled_from(Color), st.sampled_from([1, 2, 3, 4, 6, 8])), max_size=60),
)
def test_matches_end_once_someone_reaches_the_length(
    length: int, results: list[tuple[Color, int]]
) -> None:
    state = MatchState(length=length)
    crawford_games = 0
    for winner, points in results:
        if state.is_over:
            break
        before = state
        state = state.after_game(win(winner, Termination.SINGLE, points))
        crawford_games += state.crawford
        assert sum(state.score) == sum(before.score) + points
        assert (state.winner is not None) == (max(state.score) >= length)
        if state.crawford:
            assert length - 1 in state.score and not state.post_crawford
    assert crawford_games <= 1
