"""Signals the outbox sends.

Sent inside the transaction that wrote the rows; ``notifications.tasks`` receives
:data:`notifications_written` and queues each e-mail row's delivery after the commit.
"""

from django.dispatch import Signal

#: Outbox rows were written (or a refreshed row owes its e-mail again) that are due now:
#: not the rows held while their recipient is on the site, which the sweeper hands on
#: when they are due. kwargs: ``rows`` (the Notification rows, saved).
notifications_written = Signal()
