"""Signals that ``matches`` sends and other apps (``stats``) receive.

They are sent inside the transaction that changed the game, so a receiver's
writes commit or roll back with the game itself.
"""

from django.dispatch import Signal

#: Sent when a game ends. kwargs: ``game`` (the finished Game), ``now``.
game_finished = Signal()

#: Sent when a match ends (won, drawn, or adjudicated). kwargs: ``match``, ``now``.
match_finished = Signal()
