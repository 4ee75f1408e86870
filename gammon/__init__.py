"""The backgammon rules engine: pure Python, no Django, fully typed.

>>> from gammon import Position, legal_plays, parse_play
>>> start = Position.start()
>>> play = parse_play(start, (6, 5), "24/13")
>>> str(play)
'24/13'
>>> play in legal_plays(start, (6, 5))
True
"""

from .dice import Dice, FixedDice, SystemDice, opening_roll
from .errors import (
    AmbiguousPlayError,
    BearOffHigherError,
    BlockedPointError,
    IllegalPlayError,
    InvalidNotationError,
    MustEnterError,
    MustMoveError,
    MustPassError,
    MustPlayLargerDieError,
    MustUseBothDiceError,
    NoSuchCheckerError,
    NotAllHomeError,
    RulesError,
    WrongDiceError,
)
from .gnubg_ids import (
    InvalidIdError,
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
    CannotDoubleError,
    Cube,
    MatchState,
    Outcome,
    Termination,
    classify_win,
)
from .moves import Play, Step, legal_plays
from .notation import format_steps, parse_play
from .position import CHECKERS, Color, Position, Variant

__all__ = [
    "DEFAULT_CUBE_LIMIT",
    "MAX_MATCH_LENGTH",
    "OFFERED_LENGTHS",
    "CannotDoubleError",
    "Cube",
    "Dice",
    "FixedDice",
    "InvalidIdError",
    "MatchKey",
    "MatchState",
    "Outcome",
    "SystemDice",
    "Termination",
    "classify_win",
    "match_id",
    "match_key_from_id",
    "opening_roll",
    "position_from_id",
    "position_id",
    "AmbiguousPlayError",
    "BearOffHigherError",
    "BlockedPointError",
    "CHECKERS",
    "Color",
    "IllegalPlayError",
    "InvalidNotationError",
    "MustEnterError",
    "MustMoveError",
    "MustPassError",
    "MustPlayLargerDieError",
    "MustUseBothDiceError",
    "NoSuchCheckerError",
    "NotAllHomeError",
    "Play",
    "Position",
    "RulesError",
    "Step",
    "Variant",
    "WrongDiceError",
    "format_steps",
    "legal_plays",
    "parse_play",
]
