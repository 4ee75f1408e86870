"""Every chouette a test leaves behind must follow from its record (``replay_chouettes``)
and its points must sum to zero, and the statistics must agree with a recount
(``recount_stats``: a chouette's boards count in its own points, not in the players'
record): checked after each test of this package that used the database, whatever the
test itself asserted."""

from __future__ import annotations

from collections.abc import Iterator
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db.models import Sum


@pytest.fixture
def drifted() -> None:
    """Asked for by a test that corrupts a chouette on purpose: no check after it."""


@pytest.fixture(autouse=True)
def _chouettes_replay(request: pytest.FixtureRequest) -> Iterator[None]:
    if request.node.get_closest_marker("django_db") is None or "drifted" in request.fixturenames:
        yield
        return
    request.getfixturevalue("db")  # so that this runs before the database rolls back
    yield
    from chouettes.models import Chouette
    from chouettes.replay import chouette_differences

    for chouette in Chouette.objects.all():
        assert chouette_differences(chouette) == [], f"chouette {chouette.pk}"
        total = chouette.seats.aggregate(total=Sum("points"))["total"] or 0
        assert total == 0, f"chouette {chouette.pk}'s points sum to {total}"
    out = StringIO()
    try:
        call_command("recount_stats", stdout=out)  # the check, not --repair
    except CommandError as error:
        pytest.fail(f"recount_stats: {error}\n{out.getvalue()}")
