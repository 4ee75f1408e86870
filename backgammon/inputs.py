"""Values read straight from a request or a task's arguments.

Numbers read straight from a query string or a form list, where no form field parses them.

``str.isdigit()`` then ``int()`` is not safe: ``"²".isdigit()`` is true and ``int("²")``
raises, ``int()`` refuses more than 4,300 digits, and an id past 2^63 makes SQLite's
driver raise ``OverflowError`` (PostgreSQL: out of range). Each of those was a 500.
"""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone
from django.utils.dateparse import parse_datetime

#: One past the largest id a 64-bit signed column holds.
ID_LIMIT = 2**63


def positive_int(value: object, *, below: int = ID_LIMIT) -> int | None:
    """``value`` as a whole number from 1 to ``below - 1`` written in ASCII digits, else None.

    >>> positive_int("42"), positive_int("²"), positive_int("-1"), positive_int(str(2**63))
    (42, None, None, None)
    """
    if not isinstance(value, str) or not (value.isascii() and value.isdigit()):
        return None
    if len(value) > len(str(below)):
        return None
    number = int(value)
    return number if 0 < number < below else None


def task_moment(now: str | None) -> datetime:
    """The ``now`` a periodic Celery task was given as ISO text (by a test or an
    operator), or the current time when it was given none."""
    if now:
        parsed = parse_datetime(now)
        if parsed is None:
            raise ValueError(f"not a date-time: {now!r}")
        return parsed
    return timezone.now()
