"""Signals ``challenges`` sends, inside the transaction that made the change.

``notifications`` receives them to tell the players; kwargs as listed.
"""

from django.dispatch import Signal

#: A challenge was offered. kwargs: ``challenge``, ``now``.
challenge_created = Signal()

#: A challenge was accepted and its match started. kwargs: ``challenge`` (its ``match``
#: and ``opponent`` set), ``game`` (the first game), ``now``.
challenge_accepted = Signal()

#: The challenged player declined. kwargs: ``challenge``, ``now``.
challenge_declined = Signal()
