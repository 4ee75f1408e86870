"""A chouette's cube decisions are asked twice and say what they cost, and the player
whose decision is awaited is told so in the second person (issue 26, items 1 and 4).

The table is tests/chouettes/helpers.py's (places by joining order: ann in the box, bob
captain, cy and di behind him); the pages are fetched without JavaScript, where the
form's box, which states the question, is ticked first.
"""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.test import Client

from chouettes.models import Decision

from .helpers import Table, box_doubles, seat_table, start
from .test_views import client_of, cube, game_page, playing, state

pytestmark = pytest.mark.django_db


def question(page: str, action: str) -> str:
    """The question the panel's form for ``action`` asks (its dialog's text, and the
    label of its box without the script)."""
    found = re.search(
        rf'<form [^>]*class="cube-answer" data-confirm="([^"]*)">[^<]*<input[^>]*>'
        rf'<input type="hidden" name="action" value="{action}">',
        page,
    )
    assert found, f"no confirmed form for {action}"
    text = html.unescape(found.group(1))
    label = re.search(rf'<label for="id_chouette_confirm_{action}">([^<]*)</label>', page)
    assert label and html.unescape(label.group(1)) == text
    assert re.search(rf'name="confirm" id="id_chouette_confirm_{action}" required', page)
    return text


def banner(page: str) -> str:
    found = re.search(r'<strong id="banner">([^<]*)</strong>', page)
    assert found, "no banner"
    return html.unescape(found.group(1))


def test_a_vote_or_an_answer_not_confirmed_is_refused_and_changes_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = playing(monkeypatch)
    assert cube(table, "bob", "propose").status_code == 302  # a proposal opens a question
    before = state(table)
    for action in ("vote_yes", "vote_no"):
        refused = cube(table, "cy", action)
        assert refused.status_code == 400
        assert "Tick the box to confirm your decision." in refused.content.decode()
        assert state(table) == before
    assert cube(table, "cy", "vote_yes", confirm="on").status_code == 302
    before = state(table)
    for action in ("box_take", "box_drop"):
        assert cube(table, "ann", action).status_code == 400
        assert state(table) == before
    assert not Decision.objects.filter(kind=Decision.Kind.BOX_ANSWER).exists()


def test_a_member_answering_the_box_confirms_and_reads_what_it_costs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = seat_table(monkeypatch, 3)
    box_doubles(table)
    page = game_page(table, "cy")
    assert question(page, "take") == "Take the box's double? Your cube goes to 2."
    assert question(page, "drop") == "Drop the box's double? You lose this game and 1 point."
    assert banner(page) == "The box doubled, your cube to 2: take or drop?"
    before = state(table)
    assert cube(table, "cy", "drop").status_code == 400
    assert state(table) == before
    assert cube(table, "cy", "drop", confirm="on").status_code == 302
    assert banner(game_page(table, "cy")) == "Waiting for Bob to answer the box's double."
    assert banner(game_page(table, "ann")) == "You doubled the team: waiting for Bob to answer."


def four_at_different_stakes(monkeypatch: pytest.MonkeyPatch) -> Table:
    """ann (the box) doubles; bob and cy take (2 each), di drops (1 to pay); ann, who
    doubled, rolls at once and plays; bob, the captain, is on roll: the team may redouble
    the box, to 4 against bob and cy, while di, out of the game, owes it 1."""
    table = seat_table(monkeypatch, 4)
    box_doubles(table)
    table.act("team_answer", "bob", take=True)
    table.act("team_answer", "cy", take=True)
    table.roll((6, 5))
    table.act("team_answer", "di", take=False)  # the last answer: the box rolls 6-5 at once
    table.move("ann", "13/7 13/8")
    assert table.stakes() == {"bob": 2, "cy": 2, "di": 1}
    return table


def test_the_box_reads_what_a_drop_costs_each_member_at_their_own_stake(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = four_at_different_stakes(monkeypatch)
    assert cube(table, "bob", "propose").status_code == 302

    voter = game_page(table, "cy")
    assert banner(voter) == (
        "Your vote: the team proposes to double the box, your cube to 4. Agree or refuse?"
    )
    assert "Your vote on the team&#x27;s double is awaited" in voter
    assert "Cy to vote" not in voter  # never in the third person to Cy
    assert question(voter, "vote_yes") == (
        "Agree to double the box? If the box takes, your cube goes to 4; "
        "if it drops, you win 2 points."
    )
    assert question(voter, "vote_no") == (
        "Refuse the double? The team does not double the box this turn."
    )
    assert banner(game_page(table, "ann")) == ("The team votes on doubling you: waiting for Cy.")
    assert banner(game_page(table, "bob")) == (
        "Your team votes on doubling the box: waiting for Cy."
    )
    assert cube(table, "cy", "vote_yes", confirm="on").status_code == 302

    box = game_page(table, "ann")
    assert banner(box) == "The team doubled to 4: take or drop?"
    assert "Bob doubled" not in box
    assert question(box, "box_take") == (
        "Take the team's double? The cube goes to 4 against each member."
    )
    assert question(box, "box_drop") == (
        "Drop the team's double? You lose this game and 4 points (2 to Bob, 2 to Cy). "
        "Di, who dropped, still pays you 1 point."
    )
    assert banner(game_page(table, "di")) == (
        "You dropped the box's double: you are out of this game."
    )
    assert banner(game_page(table, "cy")) == (
        "Waiting for Ann, in the box, to answer the team's double."
    )
    table.roll(4, 2)  # the next game's opening
    assert cube(table, "ann", "box_drop", confirm="on").status_code == 302
    assert table.points() == {"ann": -3, "bob": 2, "cy": 2, "di": -1}


def test_the_questions_are_in_the_players_language(monkeypatch: pytest.MonkeyPatch) -> None:
    table = four_at_different_stakes(monkeypatch)
    assert cube(table, "bob", "propose").status_code == 302
    assert cube(table, "cy", "vote_yes", confirm="on").status_code == 302
    ann = table.users["ann"]
    ann.language = "es"
    ann.save(update_fields=["language"])
    client = client_of(table, "ann")
    page = client.get(f"/games/{table.board.pk}/").content.decode()
    assert banner(page) == "El equipo ha doblado a 4: ¿aceptas o rechazas?"
    assert question(page, "box_drop") == (
        "¿Rechazar el doble del equipo? Pierdes esta partida y 4 puntos "
        "(2 para Bob, 2 para Cy). Di, que rechazó, te paga igualmente 1 punto."
    )
    refused = client.post(
        f"/chouettes/{table.chouette.pk}/cube",
        {"action": "box_drop", "ply": table.board.ply},
    )
    assert refused.status_code == 400
    assert "Marca la casilla para confirmar tu decisión." in refused.content.decode()


def test_the_session_page_tells_the_voter_in_the_second_person(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = playing(monkeypatch, players=4)
    assert cube(table, "bob", "propose").status_code == 302
    session = f"/chouettes/{table.chouette.pk}/"
    mine = client_of(table, "cy").get(session).content.decode()
    assert "Your vote on the team&#x27;s double is awaited" in mine
    assert "Also waiting for: Di to vote on the team&#x27;s double" in mine
    assert "Cy to vote" not in mine
    theirs = Client().get(session).content.decode()
    assert "Waiting for: Cy to vote on the team&#x27;s double; Di to vote" in theirs


def test_a_proposal_is_one_click_like_a_double(monkeypatch: Any) -> None:
    """The team's proposal opens the vote and settles nothing, as a double is offered in
    an ordinary game: no confirmation."""
    table = seat_table(monkeypatch, 3)
    start(table, 1, 3)
    table.move("bob", "8/5 6/5")
    table.roll((6, 5))
    table.roll_board("ann")
    table.move("ann", "24/13")
    page = game_page(table, "bob")
    assert banner(page) == "Your turn: roll, or propose the team's double"
    assert 'id="chouette-propose"' in page and "id_chouette_confirm_propose" not in page
