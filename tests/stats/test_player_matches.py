"""The player page's list of matches (issue 26): each match against whom, by display name,
with its result from the page's player's side, in the reader's language; a chouette's
boards are not matches there (the page's chouettes part lists the chouettes)."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.chouettes.helpers import box_doubles, seat_table
from tests.factories import UserFactory

from .helpers import match_draw, match_resign, match_start

pytestmark = pytest.mark.django_db


def matches_part(username: str, language: str = "en") -> str:
    page = Client().get(reverse("player_detail", args=[username]), HTTP_ACCEPT_LANGUAGE=language)
    assert page.status_code == 200
    text = html.unescape(re.sub(r"\s+", " ", page.content.decode()))
    return text[text.index('id="player-matches-title"') :]


def row(part: str, match_id: int) -> str:
    start = part.index(f'id="match-{match_id}"')
    return part[start : part.index("</tr>", start)]


def test_each_match_names_the_opponent_and_the_result_from_the_players_side() -> None:
    alice = UserFactory(username="alice", display_name="Alice the Bold")
    bob = UserFactory(username="bob", display_name="Bobby Tables")
    carol = UserFactory(username="carol", display_name="Carol Kaye")
    won = match_resign(match_start(alice, bob, length=3), bob)
    lost = match_resign(match_start(carol, alice, length=1), alice)
    drawn = match_draw(match_start(alice, carol, length=5))
    playing = match_start(bob, alice, length=7)

    part = matches_part("alice")
    assert "Match #" not in part and "alice vs" not in part
    assert "vs Bobby Tables" in row(part, won.pk) and "Won 3–0" in row(part, won.pk)
    assert "3-point match" in row(part, won.pk)
    assert "vs Carol Kaye" in row(part, lost.pk) and "Lost 0–1" in row(part, lost.pk)
    assert "Drawn 0–0" in row(part, drawn.pk)
    assert "In play, 0–0" in row(part, playing.pk)
    assert f'href="{won.get_absolute_url()}"' in row(part, won.pk)
    assert part.index(f'id="match-{playing.pk}"') < part.index(f'id="match-{won.pk}"')
    # Bob's page tells the same match from his side.
    assert "vs Alice the Bold" in row(matches_part("bob"), won.pk)
    assert "Lost 0–3" in row(matches_part("bob"), won.pk)

    spanish = matches_part("alice", "es")
    assert "contra Bobby Tables" in row(spanish, won.pk)
    assert "Ganado 3–0" in row(spanish, won.pk) and "Perdido 0–1" in row(spanish, lost.pk)


def test_a_chouettes_board_is_not_listed_as_a_match(monkeypatch: pytest.MonkeyPatch) -> None:
    table = seat_table(monkeypatch, 3)
    box_doubles(table)  # ann (the box) plays the board against bob
    board = table.board.match
    part = matches_part("ann")
    assert f'id="match-{board.pk}"' not in part
    assert "No matches yet." in part
    page = Client().get(reverse("player_detail", args=["ann"])).content.decode()
    assert f"Chouette #{table.chouette.pk}" in page  # listed among the chouettes
