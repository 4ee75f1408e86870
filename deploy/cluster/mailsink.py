"""The cluster's ``mail`` host: an SMTP server (aiosmtpd) that accepts every message and
records it, one JSON line each (to, subject, the ``X-Notification`` row it delivers, a
hash of its content), in
a file that survives the sink's restarts, so the season can count what arrived.

    python3 -m deploy.cluster.mailsink ADDRESS PORT FILE
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import sys
import threading
from email import message_from_bytes
from email.policy import default as default_policy
from typing import Any

from aiosmtpd.controller import Controller


class Recorder:
    """aiosmtpd's handler: each message appended, flushed and synced before the 250."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.lock = threading.Lock()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        message = message_from_bytes(envelope.content, policy=default_policy)
        # What the message says (its parts, not Date or Message-ID): the same row sent
        # twice says the same; a turn notice refreshed for a later turn shows another board.
        content = hashlib.sha256()
        for part in message.walk():
            payload = part.get_payload(decode=True)
            if isinstance(payload, bytes):
                content.update(payload)
        line = json.dumps(
            {
                "to": list(envelope.rcpt_tos),
                "subject": str(message.get("Subject", "")),
                "notification": message.get("X-Notification"),
                "content": content.hexdigest(),
            }
        )
        with self.lock, open(self.path, "a", encoding="utf-8") as out:
            out.write(line + "\n")
            out.flush()
            os.fsync(out.fileno())
        return "250 Message accepted for delivery"


def main(argv: list[str]) -> int:
    address, port, path = argv[0], int(argv[1]), argv[2]
    controller = Controller(Recorder(path), hostname=address, port=port)
    controller.start()
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    print(f"mail sink listening on {address}:{port}, recording to {path}", flush=True)
    stop.wait()
    controller.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
