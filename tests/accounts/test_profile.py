import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db

PREFERENCES = {
    "display_name": "Alice A.",
    "language": "en",
    "time_zone": "Europe/Madrid",
    "notify": "digest",
    "digest_hour": "7",
    "warning_hours": "2, 48,24",
    "board_side": "left",
    "confirm_moves": "on",
    "stay_after_move": "on",
}


def test_it_requires_login(client: Client) -> None:
    response = client.get(reverse("profile"))
    assert response.status_code == 302
    assert reverse("account_login") in response["Location"]


def test_it_shows_the_preferences(player_client: Client) -> None:
    response = player_client.get(reverse("profile"))
    assert response.status_code == 200
    assert b"Europe/Madrid" in response.content
    assert b'name="warning_hours" value="24,2"' in response.content


def test_it_saves_the_preferences(player_client: Client, player: User) -> None:
    response = player_client.post(reverse("profile"), PREFERENCES, follow=True)
    assert response.redirect_chain[-1][0] == reverse("profile")
    player.refresh_from_db()
    assert player.display_name == "Alice A."
    assert player.time_zone == "Europe/Madrid"
    assert player.notify == User.Notify.DIGEST
    assert player.digest_hour == 7
    assert player.board_side == User.BoardSide.LEFT
    assert player.confirm_moves is True
    assert player.stay_after_move is True


def test_it_normalizes_warning_hours(player_client: Client, player: User) -> None:
    player_client.post(reverse("profile"), PREFERENCES)
    player.refresh_from_db()
    assert player.warning_hours == "48,24,2"
    assert player.warning_hours_list == [48, 24, 2]


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("time_zone", "Mars/Olympus_Mons"),
        ("digest_hour", "24"),
        ("warning_hours", "soon"),
        ("warning_hours", "0"),
        ("language", "fr"),
        ("notify", "sometimes"),
        # Each of these answered 500: "²".isdigit() is true but int() refuses it, and so
        # it does more than 4,300 digits.
        ("warning_hours", "²"),
        ("warning_hours", "24, " + "9" * 5000),
        ("display_name", "Alice\x00"),
        ("digest_hour", str(2**63)),
    ],
)
def test_it_rejects_bad_values(player_client: Client, player: User, field: str, value: str) -> None:
    response = player_client.post(reverse("profile"), {**PREFERENCES, field: value})
    assert response.status_code == 400
    assert field in response.context["form"].errors
    player.refresh_from_db()
    assert player.display_name != "Alice A."


def test_it_does_not_let_players_change_their_vacation_allowance(
    player_client: Client, player: User
) -> None:
    player_client.post(reverse("profile"), {**PREFERENCES, "vacation_days_per_year": "365"})
    player.refresh_from_db()
    assert player.vacation_days_per_year == 30
