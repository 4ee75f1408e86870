"""Kombu's Redis transport, with an acknowledgement that cannot stop a worker.

Kombu's Redis ``QoS.ack`` first removes the message from Redis's unacked index and only
then forgets its delivery tag. When Redis times out in between (its link cut for a few
seconds, as the cluster's season does), the worker logs "Couldn't ack" and goes on, but
the tag stays counted as in flight: a worker whose prefetch is one (``-c 1`` with
``worker_prefetch_multiplier = 1``, the analysis worker) then never takes another task,
while its queue grows. Measured in the cluster: ten analyses waited until the drain
gave up.

Here the tag is forgotten whatever Redis answered. The message itself stays in Redis's
unacked hash, so it is delivered again after the visibility timeout: at least once, as
``acks_late`` already means. Every task of this site judges again when it runs (an
analysis claims its row, an e-mail its outbox row, a bot's turn its ply), so the second
delivery does nothing twice.
"""

from __future__ import annotations

from kombu.transport import redis, virtual


class QoS(redis.QoS):
    def ack(self, delivery_tag: str) -> None:
        try:
            super().ack(delivery_tag)
        except Exception:
            virtual.QoS.ack(self, delivery_tag)  # free the prefetch slot; Redis keeps the copy
            raise

    def reject(self, delivery_tag: str, requeue: bool = False) -> None:
        try:
            super().reject(delivery_tag, requeue=requeue)
        except Exception:
            virtual.QoS.ack(self, delivery_tag)
            raise


class Channel(redis.Channel):
    QoS = QoS


class Transport(redis.Transport):
    Channel = Channel
