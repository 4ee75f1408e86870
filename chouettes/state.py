"""A chouette game's cube side, read off its record: the fold of its decisions.

Nothing of it is stored: every read and every service starts from the game's
first places and replays its :class:`~chouettes.models.Decision` rows through
:mod:`gammon.chouette`, so the stakes, the captain and the decision awaited
always follow from who decided what.
"""

from __future__ import annotations

from collections.abc import Iterable

from gammon import chouette as rules

from .models import ChouetteGame, Decision


def apply(state: rules.ChouetteGame[int], decision: Decision) -> rules.ChouetteGame[int]:
    """The cube side after one decision (a :class:`~gammon.errors.ChouetteError` for one
    the rules refuse: the services check first, so from the record it is a bug)."""
    kind, player = decision.kind, decision.player_id
    if kind == Decision.Kind.PROPOSE:
        return state.propose_double(player)
    if kind == Decision.Kind.VOTE:
        return state.vote(player, agree=bool(decision.yes))
    if kind == Decision.Kind.BOX_ANSWER:
        return state.box_take(player) if decision.yes else state.box_drop(player)
    if kind == Decision.Kind.BOX_DOUBLE:
        return state.box_double(player)
    if kind == Decision.Kind.ANSWER:
        return state.answer(player, take=bool(decision.yes))
    raise ValueError(f"unknown decision {kind!r}")


def start(game: ChouetteGame) -> rules.ChouetteGame[int]:
    """The cube side when ``game`` began: every member at the opening stake."""
    return rules.ChouetteGame.start(
        game.rules_places(), game.chouette.rules_options(), opening_ties=game.opening_ties
    )


def cube_side(
    game: ChouetteGame, decisions: Iterable[Decision] | None = None
) -> rules.ChouetteGame[int]:
    """The cube side now: the game's decisions (read in order unless given) folded."""
    state = start(game)
    for decision in game.decisions.order_by("seq") if decisions is None else decisions:
        state = apply(state, decision)
    return state
