import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError

from accounts.models import User
from accounts.validators import parse_warning_hours, validate_time_zone
from tests.factories import UserFactory


@pytest.mark.parametrize("name", ["UTC", "Europe/Madrid", "America/Argentina/Buenos_Aires"])
def test_it_accepts_iana_time_zones(name: str) -> None:
    validate_time_zone(name)


@pytest.mark.parametrize("name", ["", "Madrid", "Europe/Nowhere", "../etc/passwd", "CET!"])
def test_it_rejects_unknown_time_zones(name: str) -> None:
    with pytest.raises(ValidationError):
        validate_time_zone(name)


def test_it_parses_warning_hours_largest_first() -> None:
    assert parse_warning_hours(" 2,24 ,,2") == [24, 2]
    assert parse_warning_hours("") == []


@pytest.mark.parametrize("value", ["-1", "1.5", "169", "x", "1,2,3,4,5,6"])
def test_it_rejects_bad_warning_hours(value: str) -> None:
    with pytest.raises(ValidationError):
        parse_warning_hours(value)


@pytest.mark.django_db
def test_it_has_sensible_defaults() -> None:
    user = User.objects.create_user("dora", "dora@example.com", "pw")
    assert (user.language, user.time_zone, user.notify) == ("en", "UTC", "every")
    assert (user.digest_hour, user.warning_hours_list) == (8, [24, 2])
    assert (user.board_side, user.confirm_moves) == ("right", False)
    assert user.vacation_days_per_year == 30
    user.full_clean()


@pytest.mark.django_db
def test_it_shows_the_display_name_or_else_the_username() -> None:
    assert UserFactory(username="erin", display_name="Erin E.").public_name == "Erin E."
    assert UserFactory(username="fred", display_name="").public_name == "fred"


@pytest.mark.django_db
def test_the_database_rejects_an_impossible_digest_hour() -> None:
    user = UserFactory(username="gina")
    user.digest_hour = 24
    with pytest.raises(IntegrityError):
        user.save()
