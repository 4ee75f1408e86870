"""The development e-mail backend: one line per e-mail, not the whole MIME message."""

from __future__ import annotations

import io
from email.mime.image import MIMEImage

from django.core.mail import EmailMultiAlternatives

from backgammon.mail import OneLineConsoleBackend


def test_the_console_prints_one_line_per_email_with_its_link() -> None:
    """Issue 26: the console printed whole e-mails, base64 board images included (22,958
    log lines in 20 minutes of play)."""
    message = EmailMultiAlternatives(
        "Backgammon: Your turn",
        "Hello Bob,\n\nIt is your turn against Alice.\n\nhttp://127.0.0.1:8001/games/7/\n\n"
        "Stop these e-mails: http://127.0.0.1:8001/notifications/unsubscribe/x/\n",
        to=["bob@example.com"],
    )
    message.attach_alternative('<p><img src="cid:board"></p>' * 50, "text/html")
    message.attach(MIMEImage(b"\x89PNG" + bytes(range(256)) * 40, "png"))
    stream = io.StringIO()
    backend = OneLineConsoleBackend(stream=stream)
    assert backend.send_messages([message, message]) == 2
    lines = stream.getvalue().splitlines()
    assert (
        lines
        == ["E-mail to bob@example.com: Backgammon: Your turn http://127.0.0.1:8001/games/7/"] * 2
    )


def test_an_email_without_a_link_is_one_line_too() -> None:
    stream = io.StringIO()
    message = EmailMultiAlternatives("Hi", "No link here.", to=["a@x.org", "b@x.org"])
    OneLineConsoleBackend(stream=stream).send_messages([message])
    assert stream.getvalue() == "E-mail to a@x.org, b@x.org: Hi\n"
