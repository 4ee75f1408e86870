"""The bots' decisions against gnubg itself: legal plays, gnubg's best at no noise, and
cube decisions that say what gnubg's own recommendation says.

gnubg is run a few times per module (one batch per level, one for the reference hints):
each run costs a fraction of a second to start.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from gammon import Color, Cube, MatchState, Play, Position, legal_plays
from gnubg_bridge import decisions, process
from gnubg_bridge.decisions import CubeDecision, CubeQuestion, PlayQuestion, ResignQuestion

EXPERT = decisions.LEVELS["expert"]


def sample_positions(count: int, seed: int) -> list[tuple[Position, tuple[int, int]]]:
    """Positions from random games, both colours on roll, each with its next roll."""
    rng = random.Random(seed)
    found: list[tuple[Position, tuple[int, int]]] = []
    while len(found) < count:
        position = Position.start(turn=Color(rng.randrange(2)))
        for _ in range(rng.randrange(2, 40)):
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            plays = legal_plays(position, dice)
            if not plays:
                position = position.mirror()
                continue
            after = rng.choice(plays)
            if after.position.off[0] == 15:
                break
            position = after.next_position()
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        if len(legal_plays(position, dice)) > 1:
            found.append((position, dice))
    return found


POSITIONS = sample_positions(12, seed=15)
STATE = MatchState(length=7, score=(2, 4))

#: The reference: gnubg's own ``hint`` list at 0-ply, no noise, for each position.
HINT_SCRIPT = """
gnubg.command("set player 0 human")
gnubg.command("set player 1 human")
gnubg.command("set evaluation chequerplay evaluation plies 0")
gnubg.command("set evaluation chequerplay evaluation noise 0")
gnubg.command("new session")
out = []
for item in bridge_input():
    gnubg.command("set matchid " + item["match_id"])
    gnubg.command("set board " + item["position_id"])
    gnubg.command("set dice %d %d" % tuple(item["dice"]))
    out.append(gnubg.hint(1)["hint"][0]["move"])
bridge_answer(out)
"""


@pytest.fixture(scope="module")
def expert_answers() -> list[Any]:
    questions: list[decisions.Question] = [PlayQuestion(p, d, STATE) for p, d in POSITIONS]
    questions += [CubeQuestion(p, STATE) for p, _ in POSITIONS]
    questions += [CubeQuestion(p, MatchState(cube=Cube(2, p.turn))) for p, _ in POSITIONS]
    return decisions.decide(questions, EXPERT)


@pytest.mark.gnubg
def test_the_chosen_play_is_legal_and_gnubgs_best_at_no_noise(expert_answers: list[Any]) -> None:
    payload = []
    for position, dice in POSITIONS:
        pid, mid = decisions._ids(position, STATE, dice)
        payload.append({"position_id": pid, "match_id": mid, "dice": list(dice)})
    hints = process.run_script(process.PRELUDE + HINT_SCRIPT, payload, timeout=60)
    plays = expert_answers[: len(POSITIONS)]
    for (position, dice), play, hint in zip(POSITIONS, plays, hints, strict=True):
        assert isinstance(play, Play)
        assert play in legal_plays(position, dice)
        assert str(play) == hint, (position, dice)


#: gnubg's recommendation text -> (double, take) as a player acts on it.
ADVICE = {
    "No double, take": (False, True),
    "No redouble, take": (False, True),
    "No double, beaver": (False, True),
    "No redouble, beaver": (False, True),
    "Double, take": (True, True),
    "Redouble, take": (True, True),
    "Double, beaver": (True, True),
    "Double, pass": (True, False),
    "Redouble, pass": (True, False),
    "Too good to double, take": (False, True),
    "Too good to redouble, take": (False, True),
    "Too good to double, pass": (False, False),
    "Too good to redouble, pass": (False, False),
}


@pytest.mark.gnubg
def test_a_cube_decision_says_what_gnubgs_recommendation_says(expert_answers: list[Any]) -> None:
    cubes = expert_answers[len(POSITIONS) :]
    assert all(isinstance(c, CubeDecision) for c in cubes)
    for cube in cubes:
        assert cube.advice in ADVICE, cube
        assert (cube.double, cube.take) == ADVICE[cube.advice], cube


@pytest.mark.gnubg
def test_a_bot_ahead_doubles_the_opponent_takes_or_drops_and_a_lost_game_is_resigned() -> None:
    ahead = Position.from_sides({3: 3, 2: 3, 1: 3}, {6: 4, 5: 4, 4: 1})  # a race, no gammons
    close = Position.from_sides({6: 3, 5: 3, 4: 3}, {6: 4, 5: 4, 4: 1})
    gammoned = Position.from_sides({1: 3, 2: 3, 3: 3, 4: 3, 5: 3}, {13: 15}).mirror()
    beaten = Position.from_sides({6: 14}, {1: 1})  # one borne off, cannot win
    money = MatchState()
    double, double_take, resign_gammon, resign_single, hopeful = decisions.decide(
        [
            CubeQuestion(ahead, MatchState(length=7)),
            CubeQuestion(close, MatchState(length=7)),
            ResignQuestion(gammoned, money),
            ResignQuestion(beaten, money),
            ResignQuestion(Position.start(), money),
        ],
        EXPERT,
    )
    assert isinstance(double, CubeDecision)
    assert double.double and not double.take
    assert isinstance(double_take, CubeDecision)
    assert double_take.double and double_take.take
    assert resign_gammon is True
    assert resign_single is True
    assert hopeful is False


@pytest.mark.gnubg
def test_noise_is_deterministic_and_plays_stay_legal() -> None:
    """A noisy level answers the same position the same way, and only with legal plays."""
    questions = [PlayQuestion(p, d, STATE) for p, d in POSITIONS[:6]]
    level = decisions.LEVELS["beginner"]
    first = decisions.decide(questions + questions, level)
    for (position, dice), play in zip(POSITIONS[:6], first, strict=False):
        assert play in legal_plays(position, dice)
    assert first[:6] == first[6:]


def test_a_forced_play_needs_no_gnubg(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_gnubg(*args: object, **kwargs: object) -> None:
        raise AssertionError("gnubg was asked a question with one answer")

    monkeypatch.setattr(process, "run_script", no_gnubg)
    closed = Position.from_sides({25: 1, 13: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3})
    assert decisions.choose_play(closed, (6, 5), STATE, EXPERT).is_pass


@pytest.mark.gnubg
def test_an_offer_to_resign_is_weighed_as_gnubg_weighs_it() -> None:
    """Offered by the player on roll: the bot offers the loss gnubg sees as certain, and
    accepts an offer that gives it at least what it expects (gnubg's ``getResignEquities``)."""
    gammoned = Position.from_sides({1: 3, 2: 3, 3: 3, 4: 3, 5: 3}, {13: 15}).mirror()
    beaten = Position.from_sides({6: 14}, {1: 1})  # one borne off, cannot win
    likely_gammoned = Position.from_sides({1: 3, 2: 3, 3: 3, 4: 3, 5: 3}, {9: 15}).mirror()
    almost_single = Position.from_sides({1: 3, 2: 3, 3: 3, 4: 3, 5: 3}, {8: 15}).mirror()
    money, match = MatchState(), MatchState(length=5, score=(0, 3))
    answers = decisions.decide(
        [
            decisions.ResignEquitiesQuestion(gammoned, money),
            decisions.ResignEquitiesQuestion(beaten, money),
            decisions.ResignEquitiesQuestion(Position.start(), money),
            decisions.ResignEquitiesQuestion(likely_gammoned, money),
            decisions.ResignEquitiesQuestion(gammoned, match),
            decisions.ResignEquitiesQuestion(almost_single, money),
        ],
        EXPERT,
    )
    assert all(isinstance(a, decisions.ResignEquities) for a in answers)
    gammon, single, start, likely, at_two_away, almost = answers
    assert (gammon.offer(), single.offer(), start.offer()) == (2, 1, 0)
    assert not gammon.accepts(1) and gammon.accepts(2) and gammon.accepts(3)
    assert single.accepts(1)
    assert start.accepts(1)  # a sure point is more than the opening's equity
    assert likely.offer() == 0 and not likely.accepts(1) and likely.accepts(2)
    # In match play the offer is weighed at gnubg's gammon prices for the score.
    assert at_two_away.gammon_prices != (1.0, 1.0, 1.0, 1.0)
    assert not at_two_away.accepts(1) and at_two_away.accepts(2)
    # A gammon gnubg gives well under a chance in a thousand: offered, and accepted.
    assert almost.probabilities[3] < decisions.NO_CHANCE
    assert almost.offer() == 1 and almost.accepts(1)


def test_the_resignation_equities_are_gnubgs_utility() -> None:
    sure_single = decisions.ResignEquities((0.0, 0.0, 0.0, 0.0, 0.0), (1.0, 1.0, 1.0, 1.0), 0)
    assert (sure_single.playing_on(), sure_single.resigning(1)) == (-1.0, -1.0)
    assert sure_single.accepts(1) and sure_single.offer() == 1
    gammon_half = decisions.ResignEquities((0.0, 0.0, 0.0, 0.5, 0.0), (0.5, 1.5, 1.0, 0.0), 0)
    assert gammon_half.playing_on() == pytest.approx(-1.75)  # -1 - 0.5 x Black's price 1.5
    assert not gammon_half.accepts(1) and gammon_half.accepts(2)
    assert gammon_half.resigning(3) == gammon_half.resigning(2)  # Black's backgammon price 0
    assert gammon_half.offer() == 0  # neither a single game nor a gammon is certain
