"""The tournaments API: the filtered list, a tournament with its standings and pairings,
registering and withdrawing, and the refusals as JSON errors that change nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from rest_framework.test import APIClient

from tests.factories import UserFactory
from tests.matches.api_helpers import snapshot, token_client
from tournaments import creation, directing

from .helpers import NOW, START, moderator, run

pytestmark = pytest.mark.django_db


def test_list_detail_register_and_withdraw(monkeypatch: pytest.MonkeyPatch) -> None:
    running, _ = run(monkeypatch, "swiss", 6, rounds=3, min_players=4)
    upcoming = creation.tournament_create(
        creator=moderator(),
        now=NOW,
        name="Next week",
        format="knockout",
        starts_at=START,
        length=7,
    )
    client = APIClient()
    listed = client.get("/api/tournaments/?status=upcoming").json()
    assert [t["name"] for t in listed] == ["Next week"]
    assert [t["id"] for t in client.get("/api/tournaments/?type=swiss").json()] == [running.pk]
    assert client.get("/api/tournaments/?length=7").json()[0]["id"] == upcoming.pk
    bad = client.get("/api/tournaments/?length=30")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid"

    detail = client.get(f"/api/tournaments/{running.pk}/").json()
    assert (detail["round"], detail["rounds"], detail["players"]) == (1, 3, 6)
    assert len(detail["pairings"]) == 3 and all(p["match"] for p in detail["pairings"])
    assert [row["rank"] for row in detail["standings"]] == [1, 2, 3, 4, 5, 6]

    newcomer = token_client(UserFactory(username="newcomer"))
    registered = newcomer.post(f"/api/tournaments/{upcoming.pk}/enter")
    assert registered.status_code == 200 and registered.json()["players"] == 1
    before = snapshot()
    again = newcomer.post(f"/api/tournaments/{upcoming.pk}/enter")
    assert (again.status_code, again.json()["code"]) == (409, "registered")
    closed = newcomer.post(f"/api/tournaments/{running.pk}/enter")
    assert (closed.status_code, closed.json()["code"]) == (409, "closed")
    assert snapshot() == before
    withdrawn = newcomer.post(f"/api/tournaments/{upcoming.pk}/withdraw")
    assert withdrawn.status_code == 200 and withdrawn.json()["players"] == 0
    assert APIClient().post(f"/api/tournaments/{upcoming.pk}/enter").status_code == 401
    assert client.get(f"/api/tournaments/{upcoming.pk + 99}/").status_code == 404


def test_an_edition_of_a_repeating_tournament_says_how_it_repeats() -> None:
    director = moderator()
    weekly = creation.tournament_create(
        creator=director,
        now=NOW,
        name="Weekly",
        format="knockout",
        registration_opens_at=NOW,
        starts_at=START,
        repeat_days=7,
    )
    once = creation.tournament_create(
        creator=director, now=NOW, name="Once", format="knockout", starts_at=START
    )
    client = APIClient()
    repeats = client.get(f"/api/tournaments/{weekly.pk}/").json()["repeats"]
    assert repeats["every_days"] == 7
    assert repeats["next_opens_at"].startswith(f"{START + timedelta(days=5):%Y-%m-%d}")
    listed = {t["id"]: t["repeats"] for t in client.get("/api/tournaments/").json()}
    assert listed[once.pk] is None and listed[weekly.pk] == repeats
    directing.schedule_stop(tournament_id=weekly.pk, user=director)
    assert client.get(f"/api/tournaments/{weekly.pk}/").json()["repeats"] is None


def test_a_bot_lists_the_tournaments_it_entered_and_reads_each_pairings_times(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    running, field = run(monkeypatch, "swiss", 6, rounds=3, min_players=4)
    other = creation.tournament_create(
        creator=moderator(), now=NOW, name="Other", format="knockout", starts_at=START
    )
    me = token_client(field[0])
    mine = me.get("/api/tournaments/?entered=me")
    assert mine.status_code == 200 and [t["id"] for t in mine.json()] == [running.pk]
    both = me.get(f"/api/tournaments/?entered=me&status={running.status}").json()
    assert [t["id"] for t in both] == [running.pk]
    nobody = token_client(UserFactory(username="nobody"))
    assert nobody.get("/api/tournaments/?entered=me").json() == []
    assert len(APIClient().get("/api/tournaments/").json()) == 2  # other stays listed
    anonymous = APIClient().get("/api/tournaments/?entered=me")
    assert (anonymous.status_code, anonymous.json()["code"]) == (401, "not_authenticated")
    assert APIClient().get("/api/tournaments/?entered=you").status_code == 400
    assert other.pk not in {t["id"] for t in mine.json()}

    detail = me.get(f"/api/tournaments/{running.pk}/").json()
    pairing = detail["pairings"][0]
    assert pairing["stage"] == "swiss"
    assert pairing["created_at"].startswith(f"{START:%Y-%m-%d}")
    assert pairing["finished_at"] is None
    assert set(detail["standings"][0]["detail"]) == {"buchholz", "sonneborn_berger"}


def test_the_schema_documents_the_stage_the_statuses_and_the_tiebreaks() -> None:
    schema = APIClient().get("/api/schema/?format=json").json()["components"]["schemas"]

    def resolve(node: dict[str, object]) -> dict[str, object]:
        ref = node.get("$ref") or next(iter(node.get("allOf", [{}])), {}).get("$ref")  # type: ignore[attr-defined]
        return schema[str(ref).rsplit("/", 1)[-1]] if ref else node

    pairing = schema["TournamentPairing"]["properties"]
    assert resolve(pairing["stage"])["enum"] == ["knockout", "group", "swiss"]
    assert {"created_at", "finished_at"} <= set(pairing)
    entry = schema["Entry"]["properties"]
    assert "withdrawn" in resolve(entry["status"])["enum"]  # type: ignore[operator]
    assert set(resolve(entry["detail"])["properties"]) == {  # type: ignore[arg-type]
        "buchholz",
        "sonneborn_berger",
        "group",
        "head_to_head",
        "points",
    }
