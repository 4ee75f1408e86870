"""Signals of the analysis app.

``analysis_queued`` is sent, inside the transaction, when an analysis is queued (first
requested, or requested again after a failure, or found stalled by the sweeper). The
tasks module hears it and publishes the task after the commit: the services never import
a task. kwargs: ``analysis`` (the MatchAnalysis row).
"""

from django.dispatch import Signal

analysis_queued = Signal()
