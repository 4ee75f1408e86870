"""Chouette's rules: places, rotation, the team's and the box's doubles, stakes, settlement."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gammon.chouette import (
    MAX_PLAYERS,
    ChouetteGame,
    ChouetteOptions,
    GameSettlement,
    Places,
    Stage,
    leave,
    places_from_dice,
    places_from_order,
    rotate,
    session_points,
    settle_game,
)
from gammon.dice import FixedDice
from gammon.errors import (
    CannotDoubleError,
    ChouetteAnsweredError,
    ChouetteDroppedError,
    ChouetteError,
    ChouetteGameOverError,
    ChouetteOutOfTurnError,
    ChouettePlayersError,
    ChouetteStageError,
    ChouetteTooFewError,
    CubeError,
    CubeLimitError,
    DiceExhaustedError,
    MatchOptionError,
    NotChouetteMemberError,
    NotCubeOwnerError,
    RulesError,
)
from gammon.match import Cube, Termination
from gammon.position import Color, Position

WHITE, BLACK = Color.WHITE, Color.BLACK
SINGLE, GAMMON, BACKGAMMON = Termination.SINGLE, Termination.GAMMON, Termination.BACKGAMMON

#: ann is in the box against bob (captain), cy and di.
FOUR = Places("ann", "bob", ("cy", "di"))
THREE = Places("ann", "bob", ("cy",))


def start(places: Places[str] = FOUR, **options: Any) -> ChouetteGame[str]:
    return ChouetteGame.start(places, ChouetteOptions(**options))


def team_doubled(**options: Any) -> ChouetteGame[str]:
    """FOUR's team has doubled the box unanimously, bob proposing."""
    game = start(**options).propose_double("bob")
    return game.vote("cy", agree=True).vote("di", agree=True)


# Places -------------------------------------------------------------------------


def test_places_by_joining_order_put_the_first_in_the_box_and_the_second_captain() -> None:
    placing = places_from_order(["ann", "bob", "cy", "di", "ed"])
    assert placing.places == Places("ann", "bob", ("cy", "di", "ed"))
    assert placing.rounds == ()


def test_places_from_dice_follow_the_throws_highest_in_the_box() -> None:
    placing = places_from_dice(["ann", "bob", "cy", "di"], FixedDice([2, 4, 6, 1]))
    assert placing.places == Places("cy", "bob", ("ann", "di"))
    assert placing.rounds == ((("ann", 2), ("bob", 4), ("cy", 6), ("di", 1)),)


def test_only_the_tied_players_throw_again() -> None:
    # bob and cy tie on 6 for the box; di's 1 is last whatever they throw next.
    placing = places_from_dice(["ann", "bob", "cy", "di"], FixedDice([3, 6, 6, 1, 2, 5]))
    assert placing.places == Places("cy", "bob", ("ann", "di"))
    assert placing.rounds[1] == (("bob", 2), ("cy", 5))


def test_ties_are_thrown_again_as_often_as_needed() -> None:
    dice = FixedDice([4, 4, 1, 3, 3, 5, 5, 2, 6])
    placing = places_from_dice(["ann", "bob", "cy"], dice)
    assert placing.places == Places("bob", "ann", ("cy",))
    assert [len(r) for r in placing.rounds] == [3, 2, 2, 2]
    assert dice.remaining == 0


def test_each_tied_group_throws_on_its_own_the_higher_group_first() -> None:
    # ann and bob tie on 5, cy and di on 2: ann/bob rethrow first, then cy/di.
    dice = FixedDice([5, 5, 2, 2, 1, 3, 4, 6])
    placing = places_from_dice(["ann", "bob", "cy", "di"], dice)
    assert placing.places == Places("bob", "ann", ("di", "cy"))
    assert placing.rounds[1:] == ((("ann", 1), ("bob", 3)), (("cy", 4), ("di", 6)))


def test_a_three_way_tie_that_leaves_two_tied_throws_a_third_time_for_those_two() -> None:
    dice = FixedDice([6, 6, 6, 3, 3, 1, 2, 5])
    placing = places_from_dice(["ann", "bob", "cy"], dice)
    assert placing.places == Places("bob", "ann", ("cy",))
    assert placing.rounds[2] == (("ann", 2), ("bob", 5))


def test_dice_that_run_out_mid_tie_say_so() -> None:
    with pytest.raises(DiceExhaustedError):
        places_from_dice(["ann", "bob", "cy"], FixedDice([4, 4, 4]))


@pytest.mark.parametrize("players", [["ann", "bob"], [str(n) for n in range(MAX_PLAYERS + 1)]])
def test_a_chouette_has_three_to_eight_players(players: list[str]) -> None:
    with pytest.raises(ChouettePlayersError) as caught:
        places_from_order(players)
    assert caught.value.code == "chouette_players"
    with pytest.raises(ChouettePlayersError):
        places_from_dice(players, FixedDice([]))


def test_a_player_cannot_sit_twice() -> None:
    with pytest.raises(ChouettePlayersError):
        places_from_order(["ann", "bob", "ann"])
    with pytest.raises(ChouettePlayersError):
        Places("ann", "bob", ("ann",))


def test_the_options_choose_how_the_first_places_are_set() -> None:
    players = ["ann", "bob", "cy"]
    by_dice = ChouetteOptions().first_places(players, FixedDice([1, 2, 3]))
    assert by_dice.places == Places("cy", "bob", ("ann",))
    by_order = ChouetteOptions(places_from_dice=False).first_places(players, FixedDice([]))
    assert by_order.places == Places("ann", "bob", ("cy",))


def test_the_first_places_take_no_more_players_than_the_options_allow() -> None:
    options = ChouetteOptions(max_players=4)
    assert len(options.first_places([1, 2, 3, 4], FixedDice([1, 2, 3, 4])).places.players) == 4
    with pytest.raises(ChouettePlayersError):
        options.first_places([1, 2, 3, 4, 5], FixedDice([1, 2, 3, 4, 5]))


def test_places_work_for_any_hashable_player() -> None:
    assert places_from_order([(1, "a"), (2, "b"), (3, "c")]).places.box == (1, "a")


# Rotation after a game -------------------------------------------------------------


def test_when_the_team_loses_the_next_member_captains_and_the_captain_goes_last() -> None:
    assert rotate(FOUR, team_won=False) == Places("ann", "cy", ("di", "bob"))


def test_when_the_team_wins_the_captain_takes_the_box_and_the_box_goes_last() -> None:
    assert rotate(FOUR, team_won=True) == Places("bob", "cy", ("di", "ann"))


def test_three_players_take_turns_in_the_box_as_the_team_keeps_winning() -> None:
    places = THREE
    boxes = []
    for _ in range(3):
        places = rotate(places, team_won=True)
        boxes.append(places.box)
    assert boxes == ["bob", "cy", "ann"]
    assert places == THREE


def test_after_the_captain_drops_the_next_taker_captains_and_is_the_one_who_rotates() -> None:
    game = start().box_double("ann")
    game = game.answer("bob", take=False).answer("cy", take=True).answer("di", take=True)
    assert game.captain == "cy"
    # Team won: cy into the box; the deposed bob goes to the end, ahead of the old box.
    assert rotate(FOUR, team_won=True, captain=game.captain) == Places("cy", "di", ("bob", "ann"))
    # Team lost: di captains; bob (deposed) then cy (the last captain) go to the end.
    assert rotate(FOUR, team_won=False, captain=game.captain) == Places("ann", "di", ("bob", "cy"))


def test_a_dropped_member_behind_the_captain_keeps_their_place() -> None:
    game = start().box_double("ann")
    game = game.answer("bob", take=True).answer("cy", take=False).answer("di", take=True)
    assert game.captain == "bob"
    assert rotate(FOUR, team_won=False, captain=game.captain) == Places("ann", "cy", ("di", "bob"))


def test_two_captains_deposed_in_one_game_go_to_the_end_in_that_order() -> None:
    game = start().box_double("ann").answer("bob", take=False)
    game = game.answer("cy", take=True).answer("di", take=True)
    game = game.propose_double("di").vote("cy", agree=True).box_take("ann")  # the box owns
    game = game.box_double("ann").answer("cy", take=False).answer("di", take=True)
    assert game.captain == "di"
    assert [m.stake for m in game.members] == [1, 4, 8]
    assert rotate(FOUR, team_won=True, captain=game.captain) == Places("di", "bob", ("cy", "ann"))


def test_when_every_member_drops_the_captain_of_the_moment_rotates_as_a_loss() -> None:
    game = start().box_double("ann").answer("bob", take=False).answer("cy", take=True)
    game = game.answer("di", take=True)
    game = game.propose_double("cy").vote("di", agree=True).box_take("ann").box_double("ann")
    game = game.answer("cy", take=False).answer("di", take=False)
    assert game.stage is Stage.OVER and game.captain == "cy"
    settlement = settle_game(game)
    assert settlement.team_won is False
    assert rotate(FOUR, team_won=settlement.team_won, captain=game.captain) == Places(
        "ann", "di", ("bob", "cy")
    )


def test_a_draw_leaves_the_places_as_they_were() -> None:
    settlement = settle_game(start(), None, Termination.DRAW)
    assert settlement.team_won is None
    assert rotate(FOUR, team_won=settlement.team_won) == FOUR


def test_only_a_team_member_can_be_the_captain_who_rotates() -> None:
    with pytest.raises(NotChouetteMemberError):
        rotate(FOUR, team_won=True, captain="ann")
    with pytest.raises(NotChouetteMemberError):
        rotate(FOUR, team_won=True, captain="zed")


# Leaving between games ----------------------------------------------------------------


def test_a_member_who_leaves_lets_the_line_close_up() -> None:
    assert leave(FOUR, "cy") == Places("ann", "bob", ("di",))


def test_a_captain_who_leaves_is_replaced_by_the_first_in_line() -> None:
    assert leave(FOUR, "bob") == Places("ann", "cy", ("di",))


def test_when_the_box_leaves_the_captain_takes_the_box() -> None:
    assert leave(FOUR, "ann") == Places("bob", "cy", ("di",))


def test_a_session_cannot_go_on_with_fewer_than_three() -> None:
    with pytest.raises(ChouetteTooFewError) as caught:
        leave(THREE, "cy")
    assert caught.value.code == "chouette_too_few"
    assert isinstance(caught.value, ChouettePlayersError)


def test_only_a_player_of_the_chouette_can_leave_it() -> None:
    with pytest.raises(NotChouetteMemberError) as caught:
        leave(FOUR, "zed")
    assert caught.value.code == "chouette_not_member"


def test_the_points_of_a_player_who_left_stand() -> None:
    first = settle_game(start(), WHITE, GAMMON)  # ann in the box wins 2 from each
    places = leave(rotate(FOUR, team_won=False), "bob")
    second = settle_game(ChouetteGame.start(places), BLACK, SINGLE)
    totals = session_points([first, second])
    assert totals == {"ann": 6 - 2, "bob": -2, "cy": -2 + 1, "di": -2 + 1}
    assert sum(totals.values()) == 0


# Options and the first stakes --------------------------------------------------------------


def test_options_are_checked_when_a_chouette_is_created() -> None:
    with pytest.raises(MatchOptionError):
        ChouetteOptions(max_players=2)
    with pytest.raises(CubeError):
        ChouetteOptions(cube_limit=48)
    with pytest.raises(MatchOptionError):
        ChouetteOptions(max_automatic_doubles=-1)


def test_every_member_starts_at_the_same_centred_stake() -> None:
    game = start()
    assert [m.cube for m in game.members] == [Cube(), Cube(), Cube()]
    assert game.captain == "bob" and game.board_cube == Cube()
    assert game.stage is Stage.PLAYING and game.awaiting == ()


def test_opening_ties_turn_every_members_cube_with_automatic_doubles() -> None:
    options = ChouetteOptions(automatic_doubles=True, max_automatic_doubles=2)
    game = ChouetteGame.start(FOUR, options, opening_ties=3)
    assert {m.cube for m in game.members} == {Cube(4, None)}
    assert ChouetteGame.start(FOUR, opening_ties=3).stake("cy") == 1


def test_automatic_doubles_stop_at_the_cube_limit() -> None:
    options = ChouetteOptions(automatic_doubles=True, max_automatic_doubles=5, cube_limit=4)
    assert ChouetteGame.start(FOUR, options, opening_ties=5).stake("bob") == 4


def test_the_box_may_play_black() -> None:
    game = ChouetteGame.start(FOUR, box_side=BLACK)
    assert game.team_side is WHITE
    game = game.box_double("ann").answer("bob", take=True).answer("cy", take=True)
    game = game.answer("di", take=True)
    assert game.board_cube == Cube(2, WHITE)


# The team doubles -----------------------------------------------------------------------


def test_a_unanimous_team_doubles_the_box() -> None:
    game = start().propose_double("cy")
    assert game.stage is Stage.TEAM_VOTE
    assert game.awaiting == ("bob", "di")
    game = game.vote("di", agree=True)
    assert game.awaiting == ("bob",)
    game = game.vote("bob", agree=True)
    assert game.stage is Stage.BOX_ANSWER and game.awaiting == ("ann",)
    assert game.stake("bob") == 1  # not doubled before the box takes


def test_the_box_takes_and_every_members_stake_doubles_with_the_cube_in_the_box() -> None:
    game = team_doubled()
    game = game.box_take("ann")
    assert game.stage is Stage.PLAYING
    assert {m.cube for m in game.members} == {Cube(2, WHITE)}
    assert game.can_box_double() and not game.can_team_double()


def test_the_box_drops_and_each_member_wins_their_stake() -> None:
    game = team_doubled()
    game = game.box_drop("ann")
    assert game.stage is Stage.OVER and game.winner is BLACK
    settlement = settle_game(game)
    assert settlement.points == {"ann": -3, "bob": 1, "cy": 1, "di": 1}
    assert {m.outcome.termination for m in settlement.members} == {Termination.DROP}
    assert settlement.team_won is True


def test_one_refusal_closes_the_vote_and_no_double_is_offered() -> None:
    game = start().propose_double("bob").vote("cy", agree=True).vote("di", agree=False)
    assert game.stage is Stage.PLAYING and game.answers == ()
    assert game.stake("bob") == 1
    with pytest.raises(ChouetteStageError):
        game.vote("di", agree=True)


def test_a_vote_unanswered_at_its_deadline_counts_as_refusal() -> None:
    game = start().propose_double("bob").vote("cy", agree=True)
    game = game.close_vote()
    assert game.stage is Stage.PLAYING and game.awaiting == ()
    with pytest.raises(ChouetteStageError):
        game.close_vote()


def test_a_member_votes_once() -> None:
    game = start().propose_double("bob")
    with pytest.raises(ChouetteAnsweredError) as caught:
        game.vote("bob", agree=False)
    assert caught.value.code == "chouette_answered"


def test_the_box_has_no_vote_and_a_stranger_no_say() -> None:
    game = start()
    with pytest.raises(ChouetteOutOfTurnError) as caught:
        game.propose_double("ann")
    assert caught.value.code == "chouette_out_of_turn"
    with pytest.raises(NotChouetteMemberError):
        game.propose_double("zed")
    with pytest.raises(ChouetteOutOfTurnError):
        game.propose_double("bob").vote("ann", agree=True)


def test_only_the_box_answers_the_teams_double() -> None:
    game = team_doubled()
    with pytest.raises(ChouetteOutOfTurnError):
        game.box_take("bob")
    with pytest.raises(ChouetteOutOfTurnError):
        game.box_drop("cy")


def test_no_other_decision_while_one_waits() -> None:
    voting = start().propose_double("bob")
    with pytest.raises(ChouetteStageError) as caught:
        voting.propose_double("cy")
    assert caught.value.code == "chouette_stage"
    with pytest.raises(ChouetteStageError):
        voting.box_double("ann")
    with pytest.raises(ChouetteStageError):
        voting.box_take("ann")
    with pytest.raises(ChouetteStageError):
        voting.answer("cy", take=True)
    with pytest.raises(ChouetteStageError):
        start().vote("bob", agree=True)
    assert not voting.can_team_double() and not voting.can_box_double()


def test_the_team_cannot_redouble_a_cube_the_box_owns() -> None:
    game = team_doubled()
    game = game.box_take("ann")
    with pytest.raises(NotCubeOwnerError):
        game.propose_double("bob")


def test_the_team_cannot_double_past_the_cube_limit() -> None:
    game = start(cube_limit=2).box_double("ann")
    game = game.answer("bob", take=True).answer("cy", take=True).answer("di", take=True)
    assert game.stake("cy") == 2
    assert not game.can_team_double()
    with pytest.raises(CubeLimitError):
        game.propose_double("cy")


def test_a_member_alone_in_the_game_doubles_on_their_own_say() -> None:
    game = start().box_double("ann")
    game = game.answer("bob", take=False).answer("cy", take=False).answer("di", take=True)
    game = game.propose_double("di")
    assert game.stage is Stage.BOX_ANSWER
    game = game.box_take("ann")
    assert [m.stake for m in game.members] == [1, 1, 4]


def test_a_member_who_dropped_has_no_vote() -> None:
    game = start().box_double("ann")
    game = game.answer("bob", take=True).answer("cy", take=False).answer("di", take=True)
    with pytest.raises(ChouetteDroppedError) as caught:
        game.propose_double("cy")
    assert caught.value.code == "chouette_dropped"
    game = game.propose_double("bob")
    assert game.awaiting == ("di",)
    with pytest.raises(ChouetteDroppedError):
        game.vote("cy", agree=True)
    assert game.vote("di", agree=True).stage is Stage.BOX_ANSWER


# The box doubles ----------------------------------------------------------------------


def test_each_member_takes_or_drops_the_boxs_double_alone() -> None:
    game = start().box_double("ann")
    assert game.stage is Stage.TEAM_ANSWER and game.awaiting == ("bob", "cy", "di")
    game = game.answer("cy", take=False)
    assert game.awaiting == ("bob", "di")
    assert not game.member("cy").dropped  # resolved when everyone has answered
    game = game.answer("bob", take=True).answer("di", take=True)
    assert game.stage is Stage.PLAYING
    assert game.active_players == ("bob", "di")
    assert [m.cube for m in game.members] == [Cube(2, BLACK), Cube(1), Cube(2, BLACK)]
    assert game.member("cy").dropped_at == 1
    assert game.can_team_double() and not game.can_box_double()


def test_a_double_unanswered_at_its_deadline_counts_as_a_drop() -> None:
    game = start().box_double("ann").answer("di", take=True).close_answers()
    assert game.active_players == ("di",)
    assert game.captain == "di"
    assert [m.stake for m in game.members] == [1, 1, 2]


def test_if_every_member_drops_the_game_ends_and_the_box_collects() -> None:
    game = start().box_double("ann").close_answers()
    assert game.stage is Stage.OVER and game.winner is WHITE
    assert game.captain == "bob" and game.active == ()
    assert settle_game(game).points == {"ann": 3, "bob": -1, "cy": -1, "di": -1}
    with pytest.raises(ChouetteGameOverError) as caught:
        game.box_double("ann")
    assert caught.value.code == "chouette_game_over"
    with pytest.raises(ChouetteGameOverError):
        game.close_answers()


def test_the_box_redoubles_only_members_still_in_the_game() -> None:
    game = team_doubled()
    game = game.box_take("ann").box_double("ann")  # the box owns the cube at 2
    game = game.answer("bob", take=False).answer("cy", take=True).answer("di", take=True)
    game = game.propose_double("cy").vote("di", agree=True).box_take("ann")
    game = game.box_double("ann").answer("cy", take=True).answer("di", take=False)
    assert [(m.player, m.stake, m.dropped_at) for m in game.members] == [
        ("bob", 2, 1),
        ("cy", 16, None),
        ("di", 8, 2),
    ]
    assert game.captain == "cy"
    assert settle_game(game, BLACK, SINGLE).points == {"ann": -6, "bob": -2, "cy": 16, "di": -8}


def test_only_the_box_doubles_and_only_members_answer() -> None:
    game = start()
    with pytest.raises(ChouetteOutOfTurnError):
        game.box_double("bob")
    doubled = game.box_double("ann")
    with pytest.raises(ChouetteOutOfTurnError):
        doubled.answer("ann", take=True)
    with pytest.raises(NotChouetteMemberError):
        doubled.answer("zed", take=True)
    with pytest.raises(ChouetteAnsweredError):
        doubled.answer("bob", take=True).answer("bob", take=False)


def test_the_box_cannot_redouble_a_cube_the_team_owns_or_pass_the_limit() -> None:
    game = start().box_double("ann").answer("bob", take=True).close_answers()
    with pytest.raises(NotCubeOwnerError):
        game.box_double("ann")
    limited = start(cube_limit=1)
    assert not limited.can_box_double()
    with pytest.raises(CubeLimitError):
        limited.box_double("ann")


def test_a_refused_action_leaves_the_game_as_it_was() -> None:
    game = start().box_double("ann").answer("bob", take=True)
    before = game
    with pytest.raises(ChouetteAnsweredError):
        game.answer("bob", take=False)
    assert game == before and game.answers == (("bob", True),)


# Settlement ---------------------------------------------------------------------------


@pytest.mark.parametrize(("termination", "multiple"), [(SINGLE, 1), (GAMMON, 2), (BACKGAMMON, 3)])
def test_each_member_is_settled_at_their_own_stake(termination: Termination, multiple: int) -> None:
    game = start().box_double("ann").answer("bob", take=True).answer("cy", take=False)
    game = game.answer("di", take=True)
    won = settle_game(game, BLACK, termination).points
    assert won == {"ann": 1 - 4 * multiple, "bob": 2 * multiple, "cy": -1, "di": 2 * multiple}
    lost = settle_game(game, WHITE, termination).points
    assert lost == {"ann": 1 + 4 * multiple, "bob": -2 * multiple, "cy": -1, "di": -2 * multiple}


def test_jacoby_counts_gammons_as_single_games_while_the_cube_is_centred() -> None:
    assert settle_game(start(jacoby=True), BLACK, GAMMON).points["cy"] == 1
    assert settle_game(start(jacoby=False), BLACK, GAMMON).points["cy"] == 2


def test_jacoby_counts_gammons_again_for_members_who_took_a_double() -> None:
    game = start(jacoby=True).box_double("ann").answer("bob", take=True)
    game = game.answer("cy", take=True).answer("di", take=True)
    assert settle_game(game, WHITE, BACKGAMMON).points == {
        "ann": 18,
        "bob": -6,
        "cy": -6,
        "di": -6,
    }


def test_an_automatic_double_leaves_the_cube_centred_for_jacoby() -> None:
    options = ChouetteOptions(jacoby=True, automatic_doubles=True)
    game = ChouetteGame.start(THREE, options, opening_ties=1)
    assert settle_game(game, WHITE, GAMMON).points == {"ann": 4, "bob": -2, "cy": -2}


def test_drops_are_paid_at_the_stake_before_the_double() -> None:
    game = start().box_double("ann").answer("bob", take=False).answer("cy", take=True)
    game = game.answer("di", take=True)
    settlement = settle_game(game, WHITE, GAMMON)
    bob = settlement.members[0]
    assert bob.dropped and bob.points == -1
    assert bob.outcome.termination is Termination.DROP
    assert settlement.points == {"ann": 9, "bob": -1, "cy": -4, "di": -4}


def test_a_resignation_is_scored_from_the_final_position() -> None:
    game = start()
    none_off = Position.start()
    assert settle_game(game, BLACK, Termination.RESIGN, position=none_off).points["cy"] == 2
    one_off = Position.from_sides({6: 14}, {6: 14})
    assert settle_game(game, BLACK, Termination.RESIGN, position=one_off).points["cy"] == 1
    with pytest.raises(RulesError):
        settle_game(game, BLACK, Termination.RESIGN)


def test_a_time_out_loses_a_gammon_and_an_award_a_single_game_as_in_money_play() -> None:
    game = start()
    assert settle_game(game, WHITE, Termination.TIMEOUT).points == {
        "ann": 6,
        "bob": -2,
        "cy": -2,
        "di": -2,
    }
    assert settle_game(game, BLACK, Termination.ADJUDICATED).points["ann"] == -3


def test_a_draw_settles_nothing_but_the_drops() -> None:
    game = start().box_double("ann").answer("bob", take=True)
    game = game.answer("cy", take=False).answer("di", take=True)
    assert settle_game(game, None, Termination.DRAW).points == {
        "ann": 1,
        "bob": 0,
        "cy": -1,
        "di": 0,
    }
    with pytest.raises(RulesError):
        settle_game(game, WHITE, Termination.DRAW)


def test_a_game_is_settled_only_by_a_result_that_fits_it() -> None:
    game = start()
    with pytest.raises(ChouetteError):
        settle_game(game)
    with pytest.raises(ChouetteError):
        settle_game(game, WHITE, Termination.CANCELLED)
    with pytest.raises(ChouetteStageError):
        settle_game(game, WHITE, Termination.DROP)  # drops happen on the cube side
    with pytest.raises(RulesError):
        settle_game(game, None, SINGLE)
    over = start().box_double("ann").close_answers()
    with pytest.raises(ChouetteStageError):
        settle_game(over, BLACK, Termination.DROP)
    with pytest.raises(ChouetteStageError):
        settle_game(over, WHITE, GAMMON)
    assert settle_game(over, WHITE, Termination.DROP) == settle_game(over)


def test_a_game_ended_on_the_board_while_a_double_waits_is_settled_at_the_stakes_now() -> None:
    game = start().box_double("ann").answer("bob", take=False)
    assert settle_game(game, WHITE, Termination.ADJUDICATED).points == {
        "ann": 3,
        "bob": -1,
        "cy": -1,
        "di": -1,
    }


def test_the_box_and_team_match_on_every_game() -> None:
    settlement = settle_game(start(), BLACK, GAMMON)
    assert isinstance(settlement, GameSettlement)
    assert settlement.points == {"ann": -6, "bob": 2, "cy": 2, "di": 2}
    assert sum(settlement.points.values()) == 0


# Errors ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("error", "code"),
    [
        (ChouetteError, "chouette"),
        (ChouettePlayersError, "chouette_players"),
        (ChouetteTooFewError, "chouette_too_few"),
        (NotChouetteMemberError, "chouette_not_member"),
        (ChouetteDroppedError, "chouette_dropped"),
        (ChouetteOutOfTurnError, "chouette_out_of_turn"),
        (ChouetteStageError, "chouette_stage"),
        (ChouetteAnsweredError, "chouette_answered"),
        (ChouetteGameOverError, "chouette_game_over"),
    ],
)
def test_every_chouette_error_is_a_rules_error_with_a_stable_code(
    error: type[ChouetteError], code: str
) -> None:
    assert error.code == code
    assert issubclass(error, RulesError) and issubclass(error, ChouetteError)


# Properties ---------------------------------------------------------------------------

players_lists = st.lists(st.integers(0, 99), min_size=3, max_size=MAX_PLAYERS, unique=True)
limits = st.sampled_from([None, 1, 2, 4, 8, 64])
terminations = st.sampled_from(
    [SINGLE, GAMMON, BACKGAMMON, Termination.TIMEOUT, Termination.ADJUDICATED, Termination.RESIGN]
)


class RandomDice:
    """Fair dice from a seed hypothesis picks: ties are common among 3 to 8 throwers."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def roll(self) -> tuple[int, int]:
        return self.roll_one(), self.roll_one()

    def roll_one(self) -> int:
        return self.rng.randint(1, 6)


def check_stakes(game: ChouetteGame[int], limit: int | None) -> None:
    for m in game.members:
        assert limit is None or m.stake <= limit
        assert m.cube.limit == limit


def play_game(
    data: st.DataObject, places: Places[int], options: ChouetteOptions
) -> tuple[ChouetteGame[int], GameSettlement[int]]:
    """A game of random cube decisions, then a random end on the board (or on the cube)."""
    ties = data.draw(st.integers(0, 3))
    game = ChouetteGame.start(places, options, opening_ties=ties)
    check_stakes(game, options.cube_limit)
    for _ in range(data.draw(st.integers(0, 10))):
        if game.stage is Stage.OVER:
            break
        if game.stage is Stage.PLAYING:
            if data.draw(st.booleans()):
                if game.can_box_double():
                    game = game.box_double(game.box)
                else:
                    with pytest.raises(CannotDoubleError):
                        game.box_double(game.box)
            else:
                by = data.draw(st.sampled_from(game.active_players))
                if game.can_team_double():
                    game = game.propose_double(by)
                else:
                    with pytest.raises(CannotDoubleError):
                        game.propose_double(by)
        elif game.stage is Stage.BOX_ANSWER:
            game = game.box_take(game.box) if data.draw(st.booleans()) else game.box_drop(game.box)
        elif data.draw(st.integers(0, 4)) == 0:
            game = game.close_vote() if game.stage is Stage.TEAM_VOTE else game.close_answers()
        else:
            by = data.draw(st.sampled_from(game.awaiting))
            yes = data.draw(st.booleans())
            game = (
                game.vote(by, agree=yes)
                if game.stage is Stage.TEAM_VOTE
                else game.answer(by, take=yes)
            )
        check_stakes(game, options.cube_limit)
    if game.stage is Stage.OVER:
        return game, settle_game(game)
    termination = data.draw(terminations)
    winner = data.draw(st.sampled_from([WHITE, BLACK]))
    return game, settle_game(game, winner, termination, position=Position.start())


options_strategy = st.builds(
    ChouetteOptions,
    cube_limit=limits,
    automatic_doubles=st.booleans(),
    max_automatic_doubles=st.integers(0, 3),
    jacoby=st.booleans(),
)


@given(players_lists, st.integers(0, 2**32))
def test_places_from_dice_are_a_permutation_that_honours_the_rolls(
    players: list[int], seed: int
) -> None:
    placing = places_from_dice(players, RandomDice(random.Random(seed)))
    order = placing.places.players
    assert sorted(order) == sorted(players)
    assert [p for p, _ in placing.rounds[0]] == players
    for earlier, a in enumerate(order):
        for b in order[earlier + 1 :]:
            common = [dict(r) for r in placing.rounds if a in dict(r) and b in dict(r)]
            *ties, decisive = common
            assert decisive[a] > decisive[b]
            assert all(r[a] == r[b] for r in ties)
    # Whoever throws again tied with every other thrower in their last round.
    for at, round_ in enumerate(placing.rounds[1:], start=1):
        before = [dict(r) for r in placing.rounds[:at]]
        last = [next(r for r in reversed(before) if p in r) for p, _ in round_]
        assert len({r[p] for r, (p, _) in zip(last, round_, strict=True)}) == 1


@given(players_lists, options_strategy, st.data())
def test_stakes_stay_within_the_limit_and_every_game_sums_to_zero(
    players: list[int], options: ChouetteOptions, data: st.DataObject
) -> None:
    game, settlement = play_game(data, places_from_order(players).places, options)
    points = settlement.points
    assert sum(points.values()) == 0
    assert sorted(points) == sorted(players)
    for m in settlement.members:
        assert abs(m.points) <= 3 * game.stake(m.player)
        if m.dropped:
            assert m.points == -game.stake(m.player)


@given(players_lists, options_strategy, st.data())
def test_a_session_keeps_every_player_once_and_its_points_sum_to_zero(
    players: list[int], options: ChouetteOptions, data: st.DataObject
) -> None:
    places = places_from_order(players).places
    present = set(players)
    settlements = []
    for _ in range(data.draw(st.integers(1, 6))):
        game, settlement = play_game(data, places, options)
        settlements.append(settlement)
        places = rotate(places, team_won=settlement.team_won, captain=game.captain)
        assert sorted(places.players) == sorted(present)
        assert len(set(places.players)) == len(places.players)
        while data.draw(st.booleans()):
            player = data.draw(st.sampled_from(places.players))
            if len(present) == 3:
                with pytest.raises(ChouetteTooFewError):
                    leave(places, player)
                break
            places = leave(places, player)
            present.discard(player)
            assert sorted(places.players) == sorted(present)
    totals = session_points(settlements)
    assert sum(totals.values()) == 0
    assert set(totals) == set(players)  # those who left keep their points
    for player, total in totals.items():
        assert total == sum(s.points.get(player, 0) for s in settlements)


@given(players_lists, st.lists(st.tuples(st.sampled_from([True, False, None]), st.integers(0, 7))))
def test_rotation_keeps_every_player_exactly_once_whatever_the_results(
    players: list[int], results: list[tuple[bool | None, int]]
) -> None:
    places = places_from_order(players).places
    for team_won, at in results:
        captain = places.team[at % len(places.team)]
        rotated = rotate(places, team_won=team_won, captain=captain)
        assert sorted(rotated.players) == sorted(players)
        if team_won:
            assert rotated.box == captain and rotated.team[-1] == places.box
        elif team_won is False:
            assert rotated.box == places.box and rotated.team[-1] == captain
        else:
            assert rotated == places
        places = rotated
