"""axe-core's accessibility rules on the main pages, in the three languages (issue 14).

Each page is loaded as the player who uses it (the game page as the player who must
move, with the board's move panel) and checked with axe-core through
axe-playwright-python. A serious or critical violation fails the test, naming the rule,
the page and the elements; minor and moderate ones are printed for a reviewer.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from bots.services import bots_create
from challenges import services as challenge_services
from chouettes import seating as chouette_seating
from gammon import FixedDice, SeededDice
from matches import record
from tests.factories import UserFactory

from .helpers import running_knockout

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BLOCKING = {"serious", "critical"}


def violations(page: Any) -> list[dict[str, Any]]:
    from axe_playwright_python.sync_playwright import Axe

    return list(Axe().run(page).response["violations"])


@pytest.mark.parametrize("locale", ["en", "es", "ca"])
def test_the_main_pages_pass_axe(new_page, monkeypatch, locale: str) -> None:
    alice = UserFactory(username="alice", language=locale)
    bob = UserFactory(username="bob", language=locale)
    bots_create()  # the computer players: on /computer/ and in the challenge form
    # The match's opening, then the chouette board's (its captain, alice, moves first).
    monkeypatch.setattr(record, "dice", FixedDice([(3, 1), 1, 3]))
    monkeypatch.setattr(challenge_services.secrets, "randbelow", lambda n: 0)
    now = timezone.now()
    challenge = challenge_services.challenge_create(
        challenger=alice, opponent=bob, now=now, length=3
    )
    match = challenge_services.challenge_accept(challenge_id=challenge.pk, user=bob, now=now)
    game = match.current_game
    assert game is not None and game.turn_color.name == "WHITE"  # alice must move
    # A chouette: bob in the box, alice his first captain, carol next in line.
    chouette = chouette_seating.chouette_create(creator=bob, now=now, places_from_dice=False)
    for user in (alice, UserFactory(username="carol", language=locale)):
        chouette_seating.chouette_join(chouette_id=chouette.pk, user=user, now=now)
    board = chouette_seating.chouette_start(chouette_id=chouette.pk, user=bob, now=now)
    monkeypatch.setattr(record, "dice", SeededDice(5))  # the tournament's two openings
    cup = running_knockout([alice, bob, UserFactory(username="dave"), UserFactory(username="eve")])

    pages = {
        None: ["/"],
        alice: [
            "/dashboard/",
            f"/games/{game.pk}/",
            f"/matches/{match.pk}/",
            "/challenges/new/",
            "/accounts/profile/",
            "/players/",
            "/players/bob/",
            "/computer/",
            "/chouettes/new",
            f"/chouettes/{chouette.pk}/",
            f"/games/{board.match.games.get().pk}/",  # the captain's, with the chouette panel
            "/tournaments/",
            cup.get_absolute_url(),
        ],
    }
    blocking: list[str] = []
    for user, paths in pages.items():
        page = new_page(user=user, locale=locale)
        for path in paths:
            response = page.goto(path)
            assert response.ok, f"{path}: {response.status}"
            # goto waited for the load event: styles, scripts and the board are in place.
            assert page.evaluate("document.documentElement.lang") == locale, path
            for found in violations(page):
                where = ", ".join(node["target"][0] for node in found["nodes"][:5])
                line = f"{locale} {path}: {found['id']} ({found['impact']}): {where}"
                if found["impact"] in BLOCKING:
                    blocking.append(line)
                else:
                    print(line)
    assert not blocking, "axe-core found serious or critical violations:\n" + "\n".join(blocking)
