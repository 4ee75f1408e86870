"""Signals that ``chouettes`` sends and ``notifications`` receives.

Sent inside the transaction that changed the chouette, so the notices commit or
roll back with it.
"""

from django.dispatch import Signal

#: Players were invited to a chouette. kwargs: ``chouette``, ``players`` (Users), ``now``.
chouette_invited = Signal()

#: Decisions off the board are awaited: a team vote (``kind="vote"``) or each member's
#: answer to the box's double (``kind="answer"``). kwargs: ``game`` (ChouetteGame),
#: ``kind``, ``players`` (the Users who must decide), ``now``. The moves, and the box's
#: answer to the team's double, are the board's ``matches.signals.turn_started``.
decision_awaited = Signal()

#: A game was settled. kwargs: ``game`` (ChouetteGame, with its results written), ``now``.
chouette_game_settled = Signal()

#: A chouette ended (too few players left). kwargs: ``chouette``, ``now``.
chouette_finished = Signal()

#: Anything a viewer of the chouette's page or of its board's panel would see changed: a
#: seat taken or left, the start, a decision (a vote, an answer), a game settled and the
#: next begun. kwargs: ``chouette_id``. (The board's own moves are the board game's
#: ``matches.signals.game_changed``.)
chouette_changed = Signal()

#: Something was said that only some may read: a message to the table (its members) or to
#: the team (its members but the box), a play suggested to the captain. kwargs:
#: ``chouette_id``, ``readers`` (the ids of the Users who may read it).
chouette_told = Signal()
