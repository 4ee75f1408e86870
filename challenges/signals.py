"""Signals ``challenges`` sends, inside the transaction that made the change.

``notifications`` receives them to tell the players; kwargs as listed. ``rating_asked``
is a question: its receiver (``stats``) answers by its return value.
"""

from django.dispatch import Signal

#: A challenge was offered. kwargs: ``challenge``, ``now``.
challenge_created = Signal()

#: A challenge was accepted and its match started. kwargs: ``challenge`` (its ``match``
#: and ``opponent`` set), ``game`` (the first game), ``now``.
challenge_accepted = Signal()

#: The challenged player declined. kwargs: ``challenge``, ``now``.
challenge_declined = Signal()

#: A question (issue 28): what is this player's rating? kwargs: ``user``. ``stats``
#: answers with a float (the starting rating for one with no rated match); a seek's
#: rating range is checked against it when the player accepts.
rating_asked = Signal()
