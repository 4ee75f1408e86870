"""The development e-mail backend: one line per e-mail on the console.

Django's console backend prints each message whole, MIME parts and the base64 board
image included: a few minutes of play filled thousands of log lines (issue 26). This one
prints who it is to, the subject and the first link of the text, which is what a
developer follows. ``EMAIL_URL=console:?full=1`` brings back Django's whole messages
(``backgammon.env.parse_email_url``).
"""

from __future__ import annotations

import re
from typing import Any

from django.core.mail.backends.console import EmailBackend as ConsoleBackend
from django.core.mail.message import EmailMessage

LINK = re.compile(r"https?://[^\s<>\"']+")


def one_line(message: EmailMessage) -> str:
    """``to: subject <link>``: the e-mail as a developer reads it on the console."""
    link = LINK.search(str(message.body))
    to = ", ".join(message.recipients())
    return f"E-mail to {to}: {message.subject}" + (f" {link.group(0)}" if link else "")


class OneLineConsoleBackend(ConsoleBackend):
    """Django's console backend, writing one line per e-mail."""

    def write_message(self, message: Any) -> None:
        self.stream.write(one_line(message) + "\n")
