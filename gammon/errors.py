"""The one base class for every error the rules engine raises.

Each error carries a short, stable ``code`` so that the service can turn it
into a translated message or an API error without parsing English text. They
are ``ValueError`` subclasses, as in python-chess: a bad request was made of
otherwise sound data.

>>> issubclass(RulesError, ValueError)
True
>>> RulesError("bad").code
'rules_error'
"""

from __future__ import annotations

__all__ = [
    "RulesError",
    "IllegalPlayError",
    "InvalidNotationError",
    "BlockedPointError",
    "MustEnterError",
    "MustUseBothDiceError",
    "MustPlayLargerDieError",
    "NotAllHomeError",
    "NoSuchCheckerError",
    "WrongDiceError",
    "BearOffHigherError",
    "MustMoveError",
    "MustPassError",
    "AmbiguousPlayError",
    "InvalidDieError",
    "DiceExhaustedError",
    "InvalidIdError",
    "MatchLengthError",
    "MatchOptionError",
    "CubeError",
    "CannotDoubleError",
    "CrawfordDoubleError",
    "DeadCubeError",
    "NotCubeOwnerError",
    "CubeLimitError",
    "GameNotOverError",
    "MatchOverError",
    "ChouetteError",
    "ChouettePlayersError",
    "ChouetteTooFewError",
    "NotChouetteMemberError",
    "ChouetteDroppedError",
    "ChouetteOutOfTurnError",
    "ChouetteStageError",
    "ChouetteAnsweredError",
    "ChouetteGameOverError",
    "TournamentError",
    "TournamentPlayersError",
    "TournamentResultError",
    "BracketError",
    "NoPairingError",
]


class RulesError(ValueError):
    """Base class of all rules errors; subclasses override ``code``."""

    code: str = "rules_error"


class IllegalPlayError(RulesError):
    """A play the rules forbid. Subclasses name the rule; ``params`` fill the message."""

    code = "illegal_play"

    def __init__(self, message: str, **params: object) -> None:
        super().__init__(message)
        self.params = params


class InvalidNotationError(IllegalPlayError):
    """Text that is not a play at all, e.g. ``24-18`` or ``13/``."""

    code = "invalid_notation"


class BlockedPointError(IllegalPlayError):
    code = "blocked_point"


class MustEnterError(IllegalPlayError):
    code = "must_enter"


class MustUseBothDiceError(IllegalPlayError):
    """Fewer dice were used than the position allows (for doubles, fewer than four if possible)."""

    code = "must_use_both_dice"


class MustPlayLargerDieError(IllegalPlayError):
    code = "must_play_larger_die"


class NotAllHomeError(IllegalPlayError):
    code = "not_all_home"


class NoSuchCheckerError(IllegalPlayError):
    code = "no_such_checker"


class WrongDiceError(IllegalPlayError):
    code = "wrong_dice"


class BearOffHigherError(IllegalPlayError):
    """A larger die bears off only from the highest point."""

    code = "bear_off_higher"


class MustMoveError(IllegalPlayError):
    """``pass`` was written while a legal play exists."""

    code = "must_move"


class MustPassError(IllegalPlayError):
    """A play was written while no legal play exists."""

    code = "must_pass"


class AmbiguousPlayError(IllegalPlayError):
    code = "ambiguous_play"


# Dice ----------------------------------------------------------------------


class InvalidDieError(RulesError):
    """A scripted die is not a whole number from 1 to 6."""

    code = "invalid_die"


class DiceExhaustedError(RulesError):
    """:class:`FixedDice` was asked for more dice than its script holds."""

    code = "dice_exhausted"


# gnubg IDs -----------------------------------------------------------------


class InvalidIdError(RulesError):
    """A Position ID or Match ID that gnubg would not print."""

    code = "invalid_id"


# Cube and match ------------------------------------------------------------


class MatchLengthError(RulesError):
    """A match is 1 to 25 points long, or 0 for a money session."""

    code = "match_length"


class MatchOptionError(RulesError):
    """An option that does not fit the match (Jacoby outside money play, say)."""

    code = "match_option"


class CubeError(RulesError):
    """A cube value, owner or limit that cannot occur."""

    code = "cube_invalid"


class CannotDoubleError(RulesError):
    """The player may not double now; the subclass (and ``code``) says why."""

    code = "cannot_double"


class CrawfordDoubleError(CannotDoubleError):
    """Nobody may double in the Crawford game."""

    code = "crawford"


class DeadCubeError(CannotDoubleError):
    """Winning at the present cube value already wins the doubler the match."""

    code = "cube_dead"


class NotCubeOwnerError(CannotDoubleError):
    """Only the cube's owner may redouble; either side may double a centred cube."""

    code = "not_cube_owner"


class CubeLimitError(CannotDoubleError):
    """Doubling would take the cube past its limit."""

    code = "cube_limit"


class GameNotOverError(RulesError):
    """A result was asked of a position in which both sides still have checkers."""

    code = "game_not_over"


class MatchOverError(RulesError):
    """The match (or session) has already ended."""

    code = "match_over"


# Chouette ------------------------------------------------------------------


class ChouetteError(RulesError):
    """A chouette rule refused an action; the subclass (and ``code``) says which."""

    code = "chouette"


class ChouettePlayersError(ChouetteError):
    """A line-up of fewer than 3 or more than 8 players, or one player twice."""

    code = "chouette_players"


class ChouetteTooFewError(ChouettePlayersError):
    """A departure would leave fewer than 3 players: the session cannot go on."""

    code = "chouette_too_few"


class NotChouetteMemberError(ChouetteError):
    """The player is not in this chouette, or not in the seat the action needs."""

    code = "chouette_not_member"


class ChouetteDroppedError(NotChouetteMemberError):
    """The member dropped the box's double and is out of this game."""

    code = "chouette_dropped"


class ChouetteOutOfTurnError(ChouetteError):
    """The decision belongs to someone else: the box's to the box, the team's to its members."""

    code = "chouette_out_of_turn"


class ChouetteStageError(ChouetteError):
    """The action does not fit the game's stage: no vote or double waits, or another does."""

    code = "chouette_stage"


class ChouetteAnsweredError(ChouetteStageError):
    """The member has already answered this vote or this double."""

    code = "chouette_answered"


class ChouetteGameOverError(ChouetteStageError):
    """The game is over (the box dropped, or every member dropped)."""

    code = "chouette_game_over"


# Tournaments ---------------------------------------------------------------


class TournamentError(RulesError):
    """A tournament's pairing rules refused the data; the subclass (and ``code``) says why."""

    code = "tournament"


class TournamentPlayersError(TournamentError):
    """Too few players, a player listed twice, or groups that would hold fewer than two."""

    code = "tournament_players"


class TournamentResultError(TournamentError):
    """A result or a round that cannot be: an unknown player, one pair twice in a group."""

    code = "tournament_result"


class BracketError(TournamentError):
    """A knock-out winner who was not in that match, or a match not (yet) in the bracket."""

    code = "bracket"


class NoPairingError(TournamentError):
    """No Swiss pairing pairs everyone (but the bye) without repeating a pairing."""

    code = "no_pairing"
