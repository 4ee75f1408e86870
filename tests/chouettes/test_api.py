"""A whole chouette game through the API alone, as three bot programs would play it:
create, invite, join, start, the board's rolls and moves through /api/games/, the team's
vote, a suggested play, the table's and the team's chat, and the settlement; and the
API's refusals, each JSON ``{code, detail}`` with a 4xx that changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from chouettes.models import Decision, Message
from matches.models import Game
from tests import records
from tests.factories import UserFactory
from tests.matches.api_helpers import scripted_dice, snapshot, token_client

from .helpers import board_of

pytestmark = pytest.mark.django_db


class Bot:
    def __init__(self, name: str) -> None:
        self.user = UserFactory(username=name)
        self.client: APIClient = token_client(self.user)

    def post(self, path: str, body: dict[str, Any] | None = None, status: int = 200) -> Any:
        response = self.client.post(f"/api/{path}", body or {}, format="json")
        assert response.status_code == status, response.content
        return response.json()

    def get(self, path: str) -> Any:
        response = self.client.get(f"/api/{path}")
        assert response.status_code == 200, response.content
        return response.json()


def test_a_chouette_game_played_through_the_api() -> None:
    ann, bob, cy = Bot("ann"), Bot("bob"), Bot("cy")
    created = ann.post(
        "chouettes/",
        {"invite": ["bob", "cy"], "open_to_all": False, "places_from_dice": False},
        status=201,
    )
    cid = created["id"]
    assert [line["player"]["username"] for line in created["lineup"]] == ["ann", "bob", "cy"]
    assert [c["id"] for c in bob.get("chouettes/")] == [cid]
    bob.post(f"chouettes/{cid}/join")
    cy.post(f"chouettes/{cid}/join")
    with scripted_dice([1, 3, 6, 5, 6, 5]):
        started = ann.post(f"chouettes/{cid}/start")
        lineup = {line["player"]["username"]: line for line in started["lineup"]}
        assert (lineup["ann"]["role"], lineup["bob"]["role"], lineup["cy"]["role"]) == (
            "box",
            "captain",
            "member",
        )
        assert lineup["bob"]["awaited"] == ["move"]
        board = started["game"]["board"]
        bob.post(f"games/{board}/move", {"ply": 1, "play": "8/5 6/5"})
        ann.post(f"games/{board}/roll", {"ply": 2})
        ann.post(f"games/{board}/move", {"ply": 3, "play": "24/13"})

        refused = bob.client.post(f"/api/games/{board}/double", {"ply": 4}, format="json")
        assert (refused.status_code, refused.json()["code"]) == (409, "chouette")

        proposed = bob.post(f"chouettes/{cid}/propose", {"ply": 4})
        assert proposed["game"]["stage"] == "team_vote"
        assert cy.get(f"chouettes/{cid}/")["your_actions"] == ["vote"]
        voted = cy.post(f"chouettes/{cid}/vote", {"ply": 4, "agree": True})
        assert {line["player"]["username"]: line["awaited"] for line in voted["lineup"]}["ann"] == [
            "box_answer"
        ]
        taken = ann.post(f"chouettes/{cid}/box-answer", {"ply": 5, "take": True})
    assert {line["player"]["username"]: line["stake"] for line in taken["lineup"]} == {
        "ann": None,
        "bob": 2,
        "cy": 2,
    }
    ply = bob.get(f"games/{board}/")["ply"]
    cy.post(f"chouettes/{cid}/suggest", {"ply": ply, "play": "24/13"})
    assert bob.get(f"chouettes/{cid}/")["game"]["suggestions"][0]["play"] == "24/13"
    assert ann.get(f"chouettes/{cid}/")["game"]["suggestions"] == []  # not for the box

    cy.post(f"chouettes/{cid}/messages", {"text": "run the back checker", "team": True}, 201)
    ann.post(f"chouettes/{cid}/messages", {"text": "good luck, all"}, status=201)
    assert [m["text"] for m in bob.get(f"chouettes/{cid}/messages")] == [
        "run the back checker",
        "good luck, all",
    ]
    assert [m["text"] for m in ann.get(f"chouettes/{cid}/messages")] == ["good luck, all"]
    team_talk = ann.client.post(
        f"/api/chouettes/{cid}/messages", {"text": "psst", "team": True}, format="json"
    )
    assert team_talk.status_code == 403 and Message.objects.count() == 2

    records.game_made_by_hand(board)
    Game.objects.filter(pk=board).update(board=board_of({13: 15}, {1: 1}))
    with scripted_dice([4, 2]):
        bob.post(f"games/{board}/move", {"ply": ply, "play": "1/off"})
    after = ann.get(f"chouettes/{cid}/")
    assert {line["player"]["username"]: line["points"] for line in after["lineup"]} == {
        "ann": -8,
        "bob": 4,
        "cy": 4,
    }
    assert [g["number"] for g in after["games"]] == [1, 2]
    assert {r["player"]: r["points"] for r in after["games"][0]["results"]} == {
        "ann": -8,
        "bob": 4,
        "cy": 4,
    }
    roles = {line["player"]["username"]: line["role"] for line in after["lineup"]}
    assert roles == {"bob": "box", "cy": "captain", "ann": "member"}
    first = Decision.objects.filter(game__number=1).order_by("seq")
    assert [(d.kind, d.player.username) for d in first] == [
        ("propose", "bob"),
        ("vote", "cy"),
        ("box_answer", "ann"),
    ]


def test_refusals_are_json_errors_that_change_nothing() -> None:
    ann, bob, cy, zed = Bot("ann"), Bot("bob"), Bot("cy"), Bot("zed")
    cid = ann.post("chouettes/", {"places_from_dice": False}, status=201)["id"]
    bob.post(f"chouettes/{cid}/join")
    cy.post(f"chouettes/{cid}/join")
    with scripted_dice([1, 3]):
        ann.post(f"chouettes/{cid}/start")
    cases = [
        (zed, "vote", {"ply": 1, "agree": True}, 403, "forbidden"),
        (cy, "vote", {"ply": 1, "agree": "yes"}, 400, "invalid"),
        (cy, "vote", {"ply": 1}, 400, "invalid"),
        (cy, "propose", {"ply": 0}, 409, "stale"),
        (cy, "propose", {"ply": 1}, 400, "chouette_stage"),
        (ann, "box-double", {"ply": 1}, 400, "chouette_stage"),
        (bob, "suggest", {"ply": 1, "play": "8/5 6/5"}, 403, "not_team"),
        (cy, "suggest", {"ply": 1, "play": "8/2"}, 400, "wrong_dice"),
        (cy, "suggest", {"ply": 1, "play": "8/5\x00"}, 400, "invalid"),
        (bob, "start", None, 409, "chouette_started"),
        (zed, "join", None, 409, "chouette_started"),
        (ann, "invite", {"players": ["nobody"]}, 400, "player"),
        (ann, "invite", {"players": ["zed"]}, 409, "chouette_started"),
    ]
    for bot, action, body, status, code in cases:
        before = snapshot()
        response = bot.client.post(f"/api/chouettes/{cid}/{action}", body or {}, format="json")
        assert (response.status_code, response.json()["code"]) == (status, code), (action, body)
        assert snapshot() == before
    missing = zed.client.post(f"/api/chouettes/{cid + 99}/join", {}, format="json")
    assert missing.status_code == 404
    assert APIClient().post(f"/api/chouettes/{cid}/join").status_code == 401
    assert APIClient().get(f"/api/chouettes/{cid}/").status_code == 200
