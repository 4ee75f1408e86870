"""A bot's decisions, each made by GNU Backgammon at a named level.

The bots of the site play as gnubg's own named players (its "Settings > Players"
presets): a level is a number of plies to look ahead and an amount of noise added to
each evaluation. Noise is gnubg's *deterministic* kind, a function of the position, so
the same position at the same level gets the same answer (tests rely on it).

A decision is asked with the engine's own types: the :class:`~gammon.Position` (the
mover's view) and the :class:`~gammon.MatchState` (length, score, cube, Crawford,
Jacoby); this module turns them into gnubg's Position ID and Match ID, runs one gnubg
process for a batch of questions, and turns the answers back:

* :func:`choose_play`: the play for the dice, one of :func:`gammon.legal_plays` (gnubg's
  move is matched by the position it reaches, never by its text);
* :func:`cube_decision`: whether the player on roll should double, and whether the
  opponent should take, from gnubg's cubeful equities (``cfevaluate``), as gnubg's own
  computer player decides: it doubles when doubling gains, and takes unless dropping
  costs less;
* :func:`should_resign`: whether the player on roll resigns now, when gnubg gives them
  no chance of doing better than the resignation the site would score at once (the
  match option ``resignation: immediate``);
* :func:`resignation_equities`: gnubg's view of a resignation offered by the player on
  roll (:class:`ResignEquities`): which one they would offer, and whether the opponent
  accepts one, as gnubg's own computer player does.

:func:`decide` answers many questions in one gnubg run (about 0.4 s to start, then a few
milliseconds a question at 0-ply); the single functions call it with one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gammon import Color, MatchKey, MatchState, Play, Position, legal_plays, match_id, position_id
from gammon.position import Variant

from . import process

__all__ = [
    "LEVELS",
    "Level",
    "PlayQuestion",
    "CubeQuestion",
    "ResignQuestion",
    "ResignEquitiesQuestion",
    "ResignEquities",
    "CubeDecision",
    "Question",
    "Answer",
    "SUPPORTED_VARIANTS",
    "supports",
    "decide",
    "choose_play",
    "cube_decision",
    "should_resign",
    "resignation_equities",
    "play_from_gnubg",
]


@dataclass(frozen=True, slots=True)
class Level:
    """One of gnubg's named players: its ply and noise (gnubg's ``aecSettings``)."""

    name: str
    title: str
    plies: int
    noise: float
    prune: bool = False

    def context(self) -> dict[str, Any]:
        """gnubg's eval-context dictionary for this level (cubeful, deterministic noise)."""
        return {
            "cubeful": 1,
            "plies": self.plies,
            "deterministic": 1,
            "prune": int(self.prune),
            "noise": self.noise,
        }


#: gnubg's predefined players, weakest first, as its "Settings > Players" names them.
#: The figures are gnubg 1.07's ``aecSettings`` (read from Debian's binary): 0-ply with
#: deterministic noise up to expert, 2-ply with pruning for world class. gnubg's stronger
#: presets (supremo, grandmaster: wider move filters, 3-ply) take seconds a move.
LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        Level("beginner", "Beginner", 0, 0.060),
        Level("casual", "Casual play", 0, 0.050),
        Level("intermediate", "Intermediate", 0, 0.040),
        Level("advanced", "Advanced", 0, 0.015),
        Level("expert", "Expert", 0, 0.0),
        Level("world_class", "World class", 2, 0.0, prune=True),
    )
}

#: gnubg's neural nets play 15-checker backgammon; Hypergammon needs other nets.
SUPPORTED_VARIANTS = frozenset({Variant.STANDARD, Variant.NACKGAMMON})

#: Below this gnubg's chance counts as none (its nets never say exactly 0 in contact).
NO_CHANCE = 1e-3

#: Each gnubg run gets this long (a 2-ply question takes well under a second).
TIMEOUT = 60.0


def supports(variant: Variant, length: int) -> bool:
    """Whether gnubg can play this match: a 15-checker variant and a Match ID's length."""
    return variant in SUPPORTED_VARIANTS and length <= 64


@dataclass(frozen=True, slots=True)
class PlayQuestion:
    """Which play for ``dice``? ``position`` has the bot on roll (the mover's view)."""

    position: Position
    dice: tuple[int, int]
    state: MatchState


@dataclass(frozen=True, slots=True)
class CubeQuestion:
    """Double, and take? ``position`` has the (would-be) doubler on roll, before rolling;
    ``state`` holds the cube as it is before the double."""

    position: Position
    state: MatchState


@dataclass(frozen=True, slots=True)
class ResignQuestion:
    """Resign now? ``position`` has the bot on roll, before rolling."""

    position: Position
    state: MatchState


@dataclass(frozen=True, slots=True)
class ResignEquitiesQuestion:
    """What would a resignation by ``position``'s player on roll give up? (Theirs, before
    rolling: an offer made after the roll is weighed as gnubg weighs it, on the board.)"""

    position: Position
    state: MatchState


@dataclass(frozen=True, slots=True)
class ResignEquities:
    """gnubg's evaluation for the player on roll (its five cubeless chances: win, win a
    gammon, a backgammon, lose a gammon, a backgammon) and its gammon prices (gnubg's
    ``arGammonPrice``: a gammon for player 0 and 1, a backgammon for 0 and 1; 1 or 0 in
    money play), gnubg's player ``mover`` on roll.

    The equities are gnubg's ``Utility``, as its ``getResignEquities`` weighs an offer.
    """

    probabilities: tuple[float, float, float, float, float]
    gammon_prices: tuple[float, float, float, float]
    mover: int

    def playing_on(self) -> float:
        """The resigner's equity if the game goes on (normalised to the cube)."""
        win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = self.probabilities
        prices, me, them = self.gammon_prices, self.mover, 1 - self.mover
        return (
            2 * win
            - 1
            + win_gammon * prices[me]
            - lose_gammon * prices[them]
            + win_backgammon * prices[2 + me]
            - lose_backgammon * prices[2 + them]
        )

    def resigning(self, level: int) -> float:
        """The resigner's equity after giving up ``level`` (1, 2, 3) times the cube."""
        them = 1 - self.mover
        return (
            -1
            - (self.gammon_prices[them] if level > 1 else 0.0)
            - (self.gammon_prices[2 + them] if level > 2 else 0.0)
        )

    def accepts(self, level: int) -> bool:
        """Whether the opponent accepts an offer of ``level``: as gnubg's computer player
        does, when the resigner gives up at least what they expect (their equity after
        the resignation is no more than playing on). Within :data:`NO_CHANCE`, as the
        offers :meth:`offer` makes: gnubg's nets never say a loss is exactly certain, and
        its own rule (within 1e-6) declines a single game it wins but for a 1-in-2500
        gammon."""
        return self.resigning(level) - NO_CHANCE < self.playing_on()

    def offer(self) -> int:
        """The resignation the player on roll offers (0: none): as the site's first rule
        (:func:`_resigns`), only when gnubg sees no win for them, and then the kind of loss
        it sees as certain: a single game when no gammon is possible, a gammon when one is
        certain and no backgammon possible, a backgammon when one is certain."""
        win, _win_gammon, _win_backgammon, lose_gammon, lose_backgammon = self.probabilities
        if win > NO_CHANCE:
            return 0
        if lose_backgammon >= 1 - NO_CHANCE:
            return 3
        if lose_gammon >= 1 - NO_CHANCE and lose_backgammon <= NO_CHANCE:
            return 2
        if lose_gammon <= NO_CHANCE:
            return 1
        return 0


@dataclass(frozen=True, slots=True)
class CubeDecision:
    """gnubg's cubeful equities for the doubler (normalised: a drop is +1 in money play)
    and what follows from them."""

    no_double: float
    double_take: float
    double_drop: float
    advice: str

    @property
    def double(self) -> bool:
        """Doubling gains: the opponent's best answer leaves more than not doubling."""
        return min(self.double_take, self.double_drop) > self.no_double

    @property
    def take(self) -> bool:
        """Taking costs the taker no more than dropping (ties take, as gnubg does)."""
        return self.double_take <= self.double_drop


Question = PlayQuestion | CubeQuestion | ResignQuestion | ResignEquitiesQuestion
Answer = Play | CubeDecision | ResignEquities | bool


def _ids(position: Position, state: MatchState, dice: tuple[int, int]) -> tuple[str, str]:
    """gnubg's Position ID and Match ID for ``position`` with its player on roll."""
    mover = position.turn
    key = MatchKey(
        cube_value=state.cube.value,
        cube_owner=state.cube.owner,
        on_roll=mover,
        crawford=state.crawford,
        turn=mover,
        dice=dice,
        match_length=state.length,
        score=(state.score[Color.WHITE], state.score[Color.BLACK]) if state.length else (0, 0),
        jacoby=state.jacoby,
    )
    return position_id(position), match_id(key)


_SCRIPT = """
gnubg.command("set player 0 human")
gnubg.command("set player 1 human")
gnubg.command("new session")
answers = []
for item in bridge_input():
    gnubg.command("set matchid " + item["match_id"])
    gnubg.command("set board " + item["position_id"])
    if item["dice"]:
        gnubg.command("set dice %d %d" % tuple(item["dice"]))
    board = gnubg.board()
    if gnubg.positionid(board) != item["position_id"]:
        raise RuntimeError("gnubg set another board: " + gnubg.positionid(board))
    cube = gnubg.cubeinfo()
    context = item["context"]
    if item["kind"] == "play":
        answers.append(list(gnubg.findbestmove(board, cube, context)))
    elif item["kind"] == "cube":
        answers.append(list(gnubg.cfevaluate(board, cube, context)))
    else:
        prices = cube["gammonprice"]
        answers.append(
            list(gnubg.evaluate(board, cube, context))
            + list(prices[0]) + list(prices[1]) + [cube["move"]]
        )
bridge_answer(answers)
"""


def decide(questions: Sequence[Question], level: Level) -> list[Answer]:
    """Answer ``questions`` at ``level`` in one gnubg run, in order.

    A play question with one legal play (or none: the pass) is answered without gnubg.
    Raises :class:`~gnubg_bridge.process.GnubgError` when gnubg is missing or fails.
    """
    answers: list[Answer | None] = [None] * len(questions)
    asked: list[tuple[int, dict[str, Any]]] = []
    for index, question in enumerate(questions):
        dice: tuple[int, int] = (0, 0)
        if isinstance(question, PlayQuestion):
            plays = legal_plays(question.position, question.dice)
            if len(plays) <= 1:
                answers[index] = plays[0] if plays else Play.passing(question.position)
                continue
            dice = question.dice
            kind = "play"
        else:
            kind = "cube" if isinstance(question, CubeQuestion) else "resign"
        pid, mid = _ids(question.position, question.state, dice)
        asked.append(
            (
                index,
                {
                    "kind": kind,
                    "position_id": pid,
                    "match_id": mid,
                    "dice": list(dice) if kind == "play" else None,
                    "context": level.context(),
                },
            )
        )
    if asked:
        raw = process.run_script(
            process.PRELUDE + _SCRIPT, [item for _, item in asked], timeout=TIMEOUT
        )
        for (index, _item), value in zip(asked, raw, strict=True):
            answers[index] = _read(questions[index], value)
    return [answer for answer in answers if answer is not None]


def _read(question: Question, value: list[Any]) -> Answer:
    if isinstance(question, PlayQuestion):
        return play_from_gnubg(question.position, question.dice, [int(n) for n in value])
    if isinstance(question, CubeQuestion):
        return CubeDecision(
            no_double=float(value[1]),
            double_take=float(value[2]),
            double_drop=float(value[3]),
            advice=str(value[5]),
        )
    if isinstance(question, ResignEquitiesQuestion):
        p = [float(x) for x in value[:5]]
        g = [float(x) for x in value[6:10]]
        return ResignEquities(
            (p[0], p[1], p[2], p[3], p[4]), (g[0], g[1], g[2], g[3]), int(value[10])
        )
    return _resigns(question, [float(p) for p in value[:5]])


def _resigns(question: ResignQuestion, probabilities: list[float]) -> bool:
    """Resign when gnubg sees no win, and no escape from what a resignation scores here.

    The site scores a resignation as a gammon while the resigner has borne off nothing,
    else a single game (``MatchState.outcome_for_resignation``); with Jacoby and the cube
    centred a gammon counts single, so there a sure loss is enough.
    """
    win, _win_gammon, _win_backgammon, lose_gammon, _lose_backgammon = probabilities
    if win > NO_CHANCE:
        return False
    state, position = question.state, question.position
    costs_gammon = position.borne_off(position.turn) == 0
    gammons_count = not (state.money and state.jacoby and state.cube.owner is None)
    if costs_gammon and gammons_count:
        return lose_gammon >= 1 - NO_CHANCE
    return True


def play_from_gnubg(position: Position, dice: Sequence[int], move: Sequence[int]) -> Play:
    """The legal play that gnubg's move tuple (from, to pairs; 25 the bar, 0 off) makes.

    The move is applied to the board and matched by the position it reaches, so gnubg's
    notation and ours need not agree on how to write it.
    """
    points = list(position.points)
    bar = list(position.bar)
    off = list(position.off)
    for i in range(0, len(move) - 1, 2):
        source, dest = move[i], move[i + 1]
        if source <= 0:
            break
        if source == 25:
            bar[0] -= 1
        else:
            points[source - 1] -= 1
        if dest <= 0:
            off[0] += 1
        elif points[dest - 1] == -1:
            points[dest - 1] = 1
            bar[1] += 1
        else:
            points[dest - 1] += 1
    reached = Position(tuple(points), (bar[0], bar[1]), (off[0], off[1]), position.turn)
    for play in legal_plays(position, dice):
        if play.position == reached:
            return play
    raise process.GnubgError(f"gnubg chose {list(move)}, which is no legal play for {dice}")


def choose_play(position: Position, dice: tuple[int, int], state: MatchState, level: Level) -> Play:
    """gnubg's play at ``level`` for ``dice``; ``position`` has the bot on roll."""
    answer = decide([PlayQuestion(position, dice, state)], level)[0]
    assert isinstance(answer, Play)
    return answer


def cube_decision(position: Position, state: MatchState, level: Level) -> CubeDecision:
    """gnubg's cube decision at ``level``, with ``position``'s player on roll doubling."""
    answer = decide([CubeQuestion(position, state)], level)[0]
    assert isinstance(answer, CubeDecision)
    return answer


def should_resign(position: Position, state: MatchState, level: Level) -> bool:
    """Whether ``position``'s player on roll should resign now (see :func:`_resigns`)."""
    answer = decide([ResignQuestion(position, state)], level)[0]
    assert isinstance(answer, bool)
    return answer


def resignation_equities(position: Position, state: MatchState, level: Level) -> ResignEquities:
    """gnubg's view of a resignation by ``position``'s player on roll (:class:`ResignEquities`)."""
    answer = decide([ResignEquitiesQuestion(position, state)], level)[0]
    assert isinstance(answer, ResignEquities)
    return answer
