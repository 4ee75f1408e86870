from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

MAX_WARNING_HOURS = 7 * 24


def validate_time_zone(value: str) -> None:
    """Accept IANA time zone names such as ``Europe/Madrid`` or ``UTC``."""
    try:
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValidationError(
            _("%(value)s is not a known time zone."), code="time_zone", params={"value": value}
        ) from None


def parse_warning_hours(value: str) -> list[int]:
    """Parse ``"24, 2"`` into ``[24, 2]``: distinct hours, largest first.

    Raises ``ValidationError`` for anything that is not a list of whole hours
    between 1 and a week.
    """
    hours: set[int] = set()
    for item in value.split(","):
        item = item.strip()
        if not item:
            continue
        # ASCII digits only: "²".isdigit() is true, and int() refuses it (a 500).
        if not (item.isascii() and item.isdigit() and len(item) <= 3) or not (
            1 <= int(item) <= MAX_WARNING_HOURS
        ):
            raise ValidationError(
                _("Use whole hours between 1 and %(max)d, separated by commas."),
                code="warning_hours",
                params={"max": MAX_WARNING_HOURS},
            )
        hours.add(int(item))
    if len(hours) > 5:
        raise ValidationError(_("At most five warnings."), code="warning_hours")
    return sorted(hours, reverse=True)


def validate_warning_hours(value: str) -> None:
    parse_warning_hours(value)
