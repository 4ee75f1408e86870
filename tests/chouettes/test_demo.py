"""The demo data seats alice, bob and carol at a chouette whose team is voting on a double,
once, however often ``demo_data`` runs."""

from io import StringIO

import pytest
from django.core.management import call_command

from chouettes import selectors
from chouettes.models import Chouette
from gammon import chouette as rules

pytestmark = pytest.mark.django_db


def test_the_demo_has_one_chouette_with_a_team_vote_awaited() -> None:
    call_command("demo_data", stdout=StringIO())
    call_command("demo_data", stdout=StringIO())
    chouette = Chouette.objects.get()
    view = selectors.panel(chouette, None)
    assert view.side is not None and view.side.stage is rules.Stage.TEAM_VOTE
    assert [line.seat.player.username for line in view.awaited] != []
    assert {s.player.username for s in chouette.seats.all()} == {"alice", "bob", "carol"}
