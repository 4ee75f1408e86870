"""Template filters for the statistics pages."""

from __future__ import annotations

from decimal import Decimal

from django import template
from django.utils import formats

register = template.Library()


@register.filter
def percent(value: Decimal | float | None) -> str:
    """``49.95 %`` in English, ``49,95 %`` in Spanish and Catalan: two decimals, localized."""
    if value is None:
        return ""
    return f"{formats.number_format(value, decimal_pos=2)} %"


@register.filter
def rating(value: float | None) -> str:
    """A rating with two decimals in the viewer's locale (FIBS shows them so)."""
    if value is None:
        return ""
    return formats.number_format(value, decimal_pos=2)


@register.filter
def p_value(value: float | None) -> str:
    """A p-value to four decimals, or ``< 0.0001`` rather than a misleading 0."""
    if value is None:
        return "–"
    if value < 0.0001:
        return f"< {formats.number_format(0.0001, decimal_pos=4)}"
    return formats.number_format(value, decimal_pos=4)
