import pytest
from django.test import Client

from stats.models import Counter
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("model", ["counter", "playerstats", "ratinghistory"])
def test_the_admin_lists_stats_read_only(client: Client, model: str) -> None:
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    Counter.objects.create(key="roll:66", count=3)
    assert client.get(f"/admin/stats/{model}/").status_code == 200
    assert client.get(f"/admin/stats/{model}/add/").status_code == 403
