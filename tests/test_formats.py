"""Dates as each language writes them (issue 26): Catalan puts "de" before the month,
elided before a vowel ("6 de desembre de 2026", "6 d'abril de 2026"), as its style
guides do; Django's own Catalan catalogue wrote "6 desembre de 2026"."""

from __future__ import annotations

from datetime import datetime

import pytest
from django.template.defaultfilters import date
from django.utils import translation


@pytest.mark.parametrize(
    ("month", "expected"),
    [
        (1, "6 de gener de 2026"),
        (4, "6 d'abril de 2026"),
        (5, "6 de maig de 2026"),
        (8, "6 d'agost de 2026"),
        (10, "6 d'octubre de 2026"),
        (12, "6 de desembre de 2026"),
    ],
)
def test_a_catalan_date_puts_de_before_the_month(month: int, expected: str) -> None:
    day = datetime(2026, month, 6, 16, 10)
    with translation.override("ca"):
        assert date(day, "DATE_FORMAT") == expected
        assert date(day, "DATETIME_FORMAT") == f"{expected} a les 16:10"
        assert date(day, "MONTH_DAY_FORMAT") == expected.removesuffix(" de 2026")


def test_spanish_and_english_dates_are_djangos() -> None:
    day = datetime(2026, 12, 6, 16, 10)
    with translation.override("es"):
        assert date(day, "DATE_FORMAT") == "6 de diciembre de 2026"
    with translation.override("en"):
        assert date(day, "DATE_FORMAT") == "Dec. 6, 2026"
