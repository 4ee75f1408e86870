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
