"""The backgammon rules engine: pure Python, no Django, fully typed.

Modules, each importing only those below it: ``errors``; ``position``;
``moves`` (generation) and ``dice``; ``play`` (``Play``, notation,
``legal_plays``); ``match`` and ``gnubg_ids``; ``mat`` and ``jsonio``.

>>> from gammon import Play, Position, Roll, legal_plays
>>> start = Position.start()
>>> play = Play.from_text(start, Roll(6, 5), "24/13")
>>> str(play)
'24/13'
>>> play in legal_plays(start, Roll(6, 5))
True
"""

from .dice import Dice, FixedDice, Roll, SeededDice, SystemDice, opening_roll
from .errors import (
    AmbiguousPlayError,
    BearOffHigherError,
    BlockedPointError,
    CannotDoubleError,
    CrawfordDoubleError,
    CubeError,
    CubeLimitError,
    DeadCubeError,
    DiceExhaustedError,
    GameNotOverError,
    IllegalPlayError,
    InvalidDieError,
    InvalidIdError,
    InvalidNotationError,
    MatchLengthError,
    MatchOptionError,
    MatchOverError,
    MustEnterError,
    MustMoveError,
    MustPassError,
    MustPlayLargerDieError,
    MustUseBothDiceError,
    NoSuchCheckerError,
    NotAllHomeError,
    NotCubeOwnerError,
    RulesError,
    WrongDiceError,
)
from .gnubg_ids import (
    MatchKey,
    match_id,
    match_key_from_id,
    position_from_id,
    position_id,
)
from .match import (
    DEFAULT_CUBE_LIMIT,
    MAX_MATCH_LENGTH,
    OFFERED_LENGTHS,
    Cube,
    MatchState,
    Outcome,
    Termination,
    classify_win,
)
from .play import PASS, Play, Step, format_steps, legal_plays, parse_play
from .position import CHECKERS, BoardView, Color, Position, Variant

__all__ = [
    "AmbiguousPlayError",
    "BearOffHigherError",
    "BlockedPointError",
    "BoardView",
    "CHECKERS",
    "CannotDoubleError",
    "Color",
    "CrawfordDoubleError",
    "Cube",
    "CubeError",
    "CubeLimitError",
    "DEFAULT_CUBE_LIMIT",
    "DeadCubeError",
    "Dice",
    "DiceExhaustedError",
    "FixedDice",
    "GameNotOverError",
    "IllegalPlayError",
    "InvalidDieError",
    "InvalidIdError",
    "InvalidNotationError",
    "MAX_MATCH_LENGTH",
    "MatchKey",
    "MatchLengthError",
    "MatchOptionError",
    "MatchOverError",
    "MatchState",
    "MustEnterError",
    "MustMoveError",
    "MustPassError",
    "MustPlayLargerDieError",
    "MustUseBothDiceError",
    "NoSuchCheckerError",
    "NotAllHomeError",
    "NotCubeOwnerError",
    "OFFERED_LENGTHS",
    "Outcome",
    "PASS",
    "Play",
    "Position",
    "Roll",
    "RulesError",
    "Step",
    "SeededDice",
    "SystemDice",
    "Termination",
    "Variant",
    "WrongDiceError",
    "classify_win",
    "format_steps",
    "legal_plays",
    "match_id",
    "match_key_from_id",
    "opening_roll",
    "parse_play",
    "position_from_id",
    "position_id",
]
