"""Catalan formats: Django's, with the day's month in the genitive, "6 de desembre de 2026"
and "6 d'abril de 2026" (issue 26: the site wrote "6 desembre de 2026").

Django's Catalan date formats write the month with ``E``, its "alt. month" name, which
Django's Catalan catalogue gives bare ("desembre"). This project's catalogue gives each
name with its "de", elided before a vowel ("d'abril"): the elision depends on the month,
so it belongs to the name, not to the format. The names are marked here so that
makemessages keeps them in the catalogue.
"""

from django.conf.locale.ca.formats import *  # type: ignore[import-untyped]  # noqa: F403
from django.utils.translation import pgettext_lazy

DATE_FORMAT = r"j E \d\e Y"  # 6 de desembre de 2026
DATETIME_FORMAT = r"j E \d\e Y \a \l\e\s G:i"  # 6 de desembre de 2026 a les 16:10
MONTH_DAY_FORMAT = r"j E"  # 6 de desembre

GENITIVE_MONTHS = (
    pgettext_lazy("alt. month", "January"),
    pgettext_lazy("alt. month", "February"),
    pgettext_lazy("alt. month", "March"),
    pgettext_lazy("alt. month", "April"),
    pgettext_lazy("alt. month", "May"),
    pgettext_lazy("alt. month", "June"),
    pgettext_lazy("alt. month", "July"),
    pgettext_lazy("alt. month", "August"),
    pgettext_lazy("alt. month", "September"),
    pgettext_lazy("alt. month", "October"),
    pgettext_lazy("alt. month", "November"),
    pgettext_lazy("alt. month", "December"),
)
