"""The signal that ``tournaments`` sends, for the apps above it (``live``).

Sent inside the transaction that changed the tournament, so whatever a receiver does
commits or rolls back with it.
"""

from django.dispatch import Signal

#: Anything the tournament's page shows changed: an entry, the start, a pairing, a result,
#: the end. kwargs: ``tournament_id``. Sent once per change (``steps.Step.send``).
tournament_changed = Signal()
