"""A chouette's board through ``/api/games/{id}/`` agrees with who may act (issue 25): its
``awaiting`` names each decision the chouette waits for and where to send it (``send_to``),
a held board says so (``held``), and a bot that answers every ``awaiting`` entry naming
it, as the schema tells it to, is never refused. The match says it is a chouette's board
(``belongs_to``); the chouette's answers carry the board's ``ply``, keep each finished
game's decisions, and keep the points of a player who left."""

from __future__ import annotations

import random
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.factories import UserFactory
from tests.matches.api_helpers import SeededDice, scripted_dice, token_client

pytestmark = pytest.mark.django_db


class Bot:
    def __init__(self, name: str) -> None:
        self.user = UserFactory(username=name)
        self.client: APIClient = token_client(self.user)

    def post(self, path: str, body: dict[str, Any] | None = None) -> Any:
        response = self.client.post(path, body or {}, format="json")
        assert response.status_code == 200, (path, body, response.content)
        return response.json()

    def get(self, path: str) -> Any:
        response = self.client.get(path)
        assert response.status_code == 200, response.content
        return response.json()


def seated(*names: str) -> tuple[dict[str, Bot], int]:
    """A chouette of ``names`` (the first creates it), places in that order: not started."""
    bots = {name: Bot(name) for name in names}
    first = bots[names[0]]
    created = first.client.post(
        "/api/chouettes/", {"places_from_dice": False, "open_to_all": True}, format="json"
    ).json()
    for name in names[1:]:
        bots[name].post(f"/api/chouettes/{created['id']}/join")
    return bots, created["id"]


def board(bots: dict[str, Bot], cid: int) -> dict[str, Any]:
    """The board in play, as a spectator sees it."""
    number = APIClient().get(f"/api/chouettes/{cid}/").json()["game"]["board"]
    return APIClient().get(f"/api/games/{number}/").json()


def test_a_held_board_names_each_vote_and_answer_and_where_to_send_it() -> None:
    bots, cid = seated("ann", "bob", "cy")  # ann the box, bob captain, cy in line
    with scripted_dice([3, 1, 6, 5]):
        started = bots["ann"].post(f"/api/chouettes/{cid}/start")
        game = started["game"]
        assert game["ply"] == 1
        bots["ann"].post(f"/api/games/{game['board']}/move", {"ply": 1, "play": "8/5 6/5"})
        shown = board(bots, cid)
        assert (shown["held"], shown["awaiting"]) == (
            False,
            [{"player": "bob", "color": "black", "decision": "roll", "send_to": None}],
        )
        assert shown["belongs_to"] == {
            "kind": "chouette",
            "id": cid,
            "url": f"/api/chouettes/{cid}/",
            "name": None,
            "pairing": None,
            "game": 1,
        }

        # bob proposes the team's double: the board is held while cy votes.
        proposed = bots["bob"].post(f"/api/chouettes/{cid}/propose", {"ply": shown["ply"]})
        assert proposed["game"]["ply"] == shown["ply"]  # the board waits at its ply
        held = board(bots, cid)
        assert held["held"] is True
        assert held["awaiting"] == [
            {
                "player": "cy",
                "color": "black",
                "decision": "vote",
                "send_to": f"/api/chouettes/{cid}/vote",
            }
        ]
        captain = bots["bob"].get(f"/api/games/{held['id']}/")
        assert captain["actions"] == []  # nothing on the board, and awaiting names him not
        entry = held["awaiting"][0]
        voted = bots["cy"].post(entry["send_to"], {"ply": held["ply"], "agree": True})

        # The team's double is on the board: the box answers it at the chouette.
        doubled = board(bots, cid)
        assert doubled["held"] is False and doubled["state"] == "doubled"
        assert doubled["awaiting"] == [
            {
                "player": "ann",
                "color": "white",
                "decision": "take_or_drop",
                "send_to": f"/api/chouettes/{cid}/box-answer",
            }
        ]
        assert "take" not in bots["ann"].get(f"/api/games/{doubled['id']}/")["actions"]
        taken = bots["ann"].post(
            doubled["awaiting"][0]["send_to"], {"ply": voted["game"]["ply"], "take": True}
        )
        after = board(bots, cid)
        assert after["ply"] == taken["game"]["ply"]
        assert after["awaiting"] == [  # the doubler rolls at once
            {"player": "bob", "color": "black", "decision": "move", "send_to": None}
        ]


def test_each_member_answers_the_box_double_where_awaiting_says() -> None:
    bots, cid = seated("ann", "bob", "cy", "di")  # ann the box, bob captain, cy and di
    with scripted_dice([1, 3, 2, 1]):
        started = bots["ann"].post(f"/api/chouettes/{cid}/start")
        board_id = started["game"]["board"]
        bots["bob"].post(f"/api/games/{board_id}/move", {"ply": 1, "play": "8/5 6/5"})
        doubled = bots["ann"].post(f"/api/chouettes/{cid}/box-double", {"ply": 2})
        shown = board(bots, cid)
        assert shown["held"] is True and shown["ply"] == doubled["game"]["ply"]
        assert [(w["player"], w["decision"], w["send_to"]) for w in shown["awaiting"]] == [
            (name, "take_or_drop", f"/api/chouettes/{cid}/answer") for name in ("bob", "cy", "di")
        ]
        for entry, take in zip(shown["awaiting"], (False, True, True), strict=True):
            bots[entry["player"]].post(entry["send_to"], {"ply": shown["ply"], "take": take})
        after = board(bots, cid)
        assert after["held"] is False
        assert after["black"]["username"] == "cy"  # bob dropped: the first taker captains
        assert after["awaiting"][0]["player"] == "ann"


def test_a_bot_that_answers_what_awaiting_names_it_for_is_never_refused() -> None:
    """Bots that know nothing of chouettes but the schema: each answers every ``awaiting``
    entry naming it (on the board, or at its ``send_to``), and now and then offers the
    cube through the chouette or resigns the board. Every request succeeds, and the
    games are settled one after the other."""
    rng = random.Random(5)
    spectator = APIClient()
    bots, cid = seated("ann", "bob", "cy", "di")
    kinds: set[tuple[str, bool]] = set()
    with scripted_dice(SeededDice(5)):
        bots["ann"].post(f"/api/chouettes/{cid}/start")
        for _ in range(1500):
            chouette = spectator.get(f"/api/chouettes/{cid}/").json()
            if chouette["game"]["number"] > 3:
                break
            shown = spectator.get(f"/api/games/{chouette['game']['board']}/").json()
            assert shown["awaiting"], shown
            if shown["held"]:
                assert all(w["send_to"] for w in shown["awaiting"])
            entry = rng.choice(shown["awaiting"])
            kinds.add((entry["decision"], entry["send_to"] is not None))
            bot, ply = bots[entry["player"]], shown["ply"]
            if entry["send_to"] is not None:
                key = "agree" if entry["decision"] == "vote" else "take"
                answered = bot.post(entry["send_to"], {"ply": ply, key: rng.random() < 0.5})
                assert answered["game"]["number"] > chouette["game"]["number"] or (
                    answered["game"]["ply"] >= ply
                )
                continue
            # The board's own turn: roll or move, or first offer the cube, or resign.
            mine = bot.get(f"/api/games/{shown['id']}/")
            assert entry["decision"] in mine["actions"], (entry, mine["actions"])
            game_url = f"/api/games/{shown['id']}"
            if entry["decision"] == "roll":
                offers = bot.get(f"/api/chouettes/{cid}/")["your_actions"]
                cube = [a for a in ("propose", "box_double") if a in offers]
                if cube and rng.random() < 0.5:
                    bot.post(f"/api/chouettes/{cid}/{cube[0].replace('_', '-')}", {"ply": ply})
                else:
                    bot.post(f"{game_url}/roll", {"ply": ply})
            elif rng.random() < 0.03:
                bot.post(f"{game_url}/resign", {"ply": ply, "scope": "game"})
            else:
                play = rng.choice(mine["plays"])["notation"] if mine["plays"] else "pass"
                bot.post(f"{game_url}/move", {"ply": ply, "play": play})
        else:
            raise AssertionError("the session did not get through three games")
    games = spectator.get(f"/api/chouettes/{cid}/").json()["games"]
    assert [g["settled"] for g in games[:3]] == [True] * 3
    assert {("vote", True), ("take_or_drop", True), ("roll", False)} <= kinds


def test_a_finished_game_keeps_its_record_and_a_leaver_their_points() -> None:
    bots, cid = seated("ann", "bob", "cy", "di")
    with scripted_dice([1, 3, 2, 1, 4, 2]):
        started = bots["ann"].post(f"/api/chouettes/{cid}/start")
        board_id = started["game"]["board"]
        bots["bob"].post(f"/api/games/{board_id}/move", {"ply": 1, "play": "8/5 6/5"})
        bots["di"].post(f"/api/chouettes/{cid}/leave")
        ply = bots["ann"].post(f"/api/chouettes/{cid}/box-double", {"ply": 2})["game"]["ply"]
        for name in ("bob", "cy", "di"):
            bots[name].post(f"/api/chouettes/{cid}/answer", {"ply": ply, "take": False})
    chouette = APIClient().get(f"/api/chouettes/{cid}/").json()
    first, second = chouette["games"]
    assert first["settled"] and not second["settled"]
    assert [(d["kind"], d["player"]) for d in first["decisions"]] == [
        ("box_double", "ann"),
        ("answer", "bob"),
        ("answer", "cy"),
        ("answer", "di"),
    ]
    assert chouette["game"]["number"] == 2 and chouette["game"]["decisions"] == []
    standings = {s["player"]["username"]: s for s in chouette["standings"]}
    assert (standings["di"]["status"], standings["di"]["points"]) == ("left", -1)
    assert "di" not in {line["player"]["username"] for line in chouette["lineup"]}
    assert sum(s["points"] for s in chouette["standings"]) == 0
