"""Signals the outbox sends.

Sent inside the transaction that wrote the rows; ``notifications.tasks`` receives
:data:`notifications_written` and queues each e-mail row's delivery after the commit.
"""

from django.dispatch import Signal

#: New outbox rows were written. kwargs: ``rows`` (the Notification rows, saved).
notifications_written = Signal()
