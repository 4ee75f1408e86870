"""Phones first (issue 14): every page but the game page fits 360 px with no sideways
scroll, with names as long as players choose; and the challenge form completes usernames.

The data is demo-like: a few matches (one waiting for each side, one finished), open
challenges, a notification and a leaderboard, between players with long names.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import User
from bots.services import bots_create
from challenges import services as challenge_services
from chouettes import seating as chouette_seating
from gammon import FixedDice
from matches import record
from notifications.models import Notification
from notifications.outbox import notify
from stats.models import LEADERBOARD_MIN_MATCHES, PlayerStats
from tests import records
from tests.factories import UserFactory
from tests.stats.helpers import match_resign

from .conftest import OUTPUT
from .helpers import running_knockout

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 780}
SHOTS = OUTPUT / "phone"
#: A display name at its longest (50) and usernames with no place to break a line.
LONG_NAME = "Maximiliana Featherstonehaugh-Cholmondeley de Vega"
LONG_USERNAMES = ("bartholomew_featherstonehaugh", "konstantinos_papadopoulos_1987")


def a_match(challenger: User, opponent: User, **options: Any) -> Any:
    now = timezone.now()
    challenge = challenge_services.challenge_create(
        challenger=challenger, opponent=opponent, now=now, **options
    )
    return challenge_services.challenge_accept(challenge_id=challenge.pk, user=opponent, now=now)


#: What sticks out, to name in a failure: elements past the right edge (the innermost
#: last), and boxes that scroll sideways inside the page (a table in a .table-wrap).
STICKING_OUT = """() => {
  const classes = (e) => typeof e.className === "string" && e.className
    ? "." + e.className.trim().split(/\\s+/).join(".") : "";
  const name = (e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + classes(e);
  const past = [...document.querySelectorAll("body *")]
    .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5).map(name);
  const scrolling = [...document.querySelectorAll("body *")]
    .filter((e) => !e.matches("input, textarea, select"))  // their text scrolls, as it should
    .filter((e) => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== "visible"
      && getComputedStyle(e).overflowX !== "hidden" && e.clientWidth > 0).map(name);
  return {width: document.scrollingElement.scrollWidth, past: past.slice(-4), scrolling};
}"""


def overflow(page: Any, path: str, language: str) -> dict[str, Any] | None:
    """What of ``path`` does not fit the phone's width, or None when it all fits (the page
    does not scroll sideways, and nothing inside it does either). Each page's screenshot
    is kept in ``test-output/e2e/phone/`` for a person to look at."""
    response = page.goto(path)
    assert response.ok, f"{path}: {response.status}"
    # goto waited for the load event: styles, scripts and the board are in place.
    found = page.evaluate(STICKING_OUT)
    SHOTS.mkdir(parents=True, exist_ok=True)
    name = re.sub(r"[^\w-]+", "_", path.strip("/")) or "home"
    page.screenshot(path=str(SHOTS / f"{language}-{name}.png"), full_page=True)
    if found["width"] <= PHONE["width"] and not found["scrolling"]:
        return None
    return dict(found)


# English and Catalan: Catalan's words are the longest of the three (its record headings
# were the ones that pushed the player page to 449 px); Spanish adds time, not cover.
@pytest.mark.parametrize("language", ["en", "ca"])
def test_every_main_page_fits_a_360_px_phone(new_page, monkeypatch, language: str) -> None:
    monkeypatch.setattr(record, "dice", FixedDice([(3, 1)] * 40))
    me = UserFactory(username="maximiliana_featherstonehaugh", display_name=LONG_NAME)
    me.language = language
    me.save(update_fields=["language"])
    others = [UserFactory(username=name, display_name="") for name in LONG_USERNAMES]
    playing = a_match(me, others[0], length=7, time_bank_days=10)
    a_match(others[1], me, length=0, cube_limit=None, jacoby=True)
    finished = match_resign(a_match(me, others[1], length=3), others[1])
    now = timezone.now()
    challenge_services.challenge_create(
        challenger=others[0], opponent=me, now=now, message="A long message " * 12
    )
    challenge_services.challenge_create(challenger=me, opponent=None, now=now, length=11)
    notify(
        recipient=me,
        kind=Notification.Kind.YOUR_TURN,
        now=now,
        game=playing.current_game,
        match=playing,
    )
    for user in (me, *others):
        records.rating_set_by_hand(user.pk)  # on the leaderboard without its matches
        PlayerStats.objects.update_or_create(
            player=user,
            defaults={"rated_matches": LEADERBOARD_MIN_MATCHES, "last_active_at": now},
        )

    chouette = chouette_seating.chouette_create(creator=me, now=now, places_from_dice=False)
    for user in others[:2]:
        chouette_seating.chouette_join(chouette_id=chouette.pk, user=user, now=now)
    chouette_seating.chouette_start(chouette_id=chouette.pk, user=me, now=now)
    cup = running_knockout([me, *others, UserFactory(username="x" * 30, display_name="")])
    bots_create()  # the computer players: on /computer/ and in the challenge form
    page = new_page(user=me, locale=language)
    page.set_viewport_size(PHONE)
    paths = [
        "/",
        "/dashboard/",
        "/challenges/",
        "/challenges/new/",
        "/chouettes/",
        "/chouettes/new",
        f"/chouettes/{chouette.pk}/",
        f"/matches/{playing.pk}/",
        f"/matches/{finished.pk}/",
        "/players/",
        f"/players/{me.username}/",
        f"/players/{others[1].username}/",
        "/computer/",
        "/notifications/",
        "/vacations/",
        "/accounts/profile/",
        "/stats/",
        "/stats/leaderboard/",
        "/stats/dice/",
        f"/stats/dice/{me.username}/",
        "/tournaments/",
        cup.get_absolute_url(),
        f"/report/{others[0].username}/",
        "/accounts/email/",
        "/accounts/password/change/",
    ]
    wide = {path: found for path in paths if (found := overflow(page, path, language))}
    visitor = new_page(locale=language)
    visitor.set_viewport_size(PHONE)
    for path in ("/", "/accounts/login/", "/accounts/signup/", f"/players/{me.username}/"):
        if found := overflow(visitor, path, language):
            wide[f"{path} (visitor)"] = found
    assert not wide, f"wider than {PHONE['width']} px: " + "".join(
        f"\n  {path}: {found}" for path, found in wide.items()
    )


def test_the_challenge_form_completes_usernames(new_page) -> None:
    me = UserFactory(username="carol")
    UserFactory(username="albert")
    UserFactory(username="alma", display_name="Alma Liddell")
    UserFactory(username="bob")
    page = new_page(user=me)
    page.goto("/challenges/new/")
    page.locator("#id_opponent").press_sequentially("al")
    options = page.locator("#opponent-options option")
    options.nth(1).wait_for(state="attached")
    assert [options.nth(i).get_attribute("value") for i in range(options.count())] == [
        "albert",
        "alma",
    ]
    assert options.nth(1).get_attribute("label") == "Alma Liddell"
