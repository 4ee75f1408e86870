"""Signals that ``matches`` sends and other apps (``stats``) receive.

They are sent inside the transaction that changed the game, so a receiver's
writes commit or roll back with the game itself.
"""

from django.dispatch import Signal

#: Sent when a game ends. kwargs: ``game`` (the finished Game), ``now``.
game_finished = Signal()

#: Sent when a match ends (won, drawn, or adjudicated). kwargs: ``match``, ``now``.
match_finished = Signal()

#: Sent when a moderator cancels a match in play, as if it had never been played
#: (``Match.result == "cancelled"``; no ``match_finished`` follows). Games of it that
#: had already finished were counted when they ended; receivers take them back.
#: kwargs: ``match``, ``now``.
match_cancelled = Signal()

#: Sent whenever the server throws dice for a game, inside the same transaction.
#: kwargs: ``game``, ``now``, ``die1``, ``die2``, ``opening`` and ``color``.
#: For a turn's roll (``opening=False``) ``color`` (0 white, 1 black) is the player on
#: roll. For the opening roll (``opening=True``) each side throws one die: ``die1`` is
#: White's, ``die2`` Black's, and ``color`` is the side that won it. Tied opening
#: throws are re-thrown by the engine and are not reported.
dice_rolled = Signal()
