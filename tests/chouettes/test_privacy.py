"""Who reads a chouette's private talk (issue 25): the team's chat and suggestions are the
team's; the table's chat is the players'. A moderator reads both only at a chouette where
they hold no seat: one who sits there reads as the player they are, never the other side's
talk of a game they play. A player who left, or was removed, reads what was written while
they sat, and neither talks nor acts there any more.

Every read is checked where it is shown: the game page's panel, the session page, the
API's messages and the API's chouette (its suggestions).
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.test import Client

from accounts.models import User
from chouettes import chat, seating
from chouettes.models import Seat
from matches import endings
from moderation.permissions import MODERATORS_GROUP
from tests.factories import UserFactory
from tests.matches.api_helpers import token_client

from .helpers import Table, seat_table, start

pytestmark = pytest.mark.django_db


def make_moderator(user: User) -> User:
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    user.groups.add(Group.objects.get(name=MODERATORS_GROUP))
    return User.objects.get(pk=user.pk)  # without the cached permissions


def reads(table: Table, user: User) -> str:
    """Everything ``user`` is shown of the chouette's talk, pages and API together (the
    API's suggested plays marked as the pages mark them, ``play</code>``)."""
    client = Client()
    client.force_login(user)
    api = token_client(user)
    pages = [
        client.get(f"/games/{table.board.pk}/").content.decode(),
        client.get(f"/chouettes/{table.chouette.pk}/").content.decode(),
    ]
    messages = api.get(f"/api/chouettes/{table.chouette.pk}/messages")
    texts = [m["text"] for m in messages.json()] if messages.status_code == 200 else []
    detail = api.get(f"/api/chouettes/{table.chouette.pk}/").json()
    suggestions = [f"{s['play']}</code>" for s in detail["game"]["suggestions"]]
    return "\n".join([*pages, *texts, *suggestions])


def team_talks(table: Table) -> None:
    """Game 1 (ann the box, bob captain, cy in line): bob has rolled 3-1; cy writes to the
    team, suggests 8/5 6/5, and ann writes to the table."""
    start(table, 1, 3)
    table.move("bob", "8/5 6/5")
    table.roll((6, 5), (3, 1))
    table.roll_board("ann")
    table.move("ann", "24/13")
    table.roll_board("bob")
    for author, text, team in (("cy", "Team secret", True), ("ann", "Table talk", False)):
        chat.message_post(
            chouette_id=table.chouette.pk,
            author=table.users[author],
            text=text,
            team=team,
            now=table.tick(),
        )
    table.act("play_suggest", "cy", play_text="8/5 6/5")


def box_resigns(table: Table) -> None:
    """The box resigns the game in play: the team wins, and the next game begins."""
    board = table.board
    table.roll(4, 2)  # the next game's opening
    endings.game_resign(
        game_id=board.pk, player=board.match.white, expected_ply=board.ply, now=table.tick()
    )


def test_a_moderator_in_the_box_never_reads_the_teams_talk(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = seat_table(monkeypatch, 3)
    box = make_moderator(table.users["ann"])
    outside = make_moderator(UserFactory(username="mona"))
    team_talks(table)

    shown = reads(table, box)
    assert "Table talk" in shown
    assert "Team secret" not in shown and "8/5 6/5</code>" not in shown
    assert 'id="chouette-suggestions"' not in shown and 'id="team-chat"' not in shown

    # A moderator who holds no seat reads everything; so does the team.
    for reader in (outside, table.users["bob"]):
        shown = reads(table, reader)
        assert "Team secret" in shown and "Table talk" in shown and "8/5 6/5</code>" in shown


def test_the_box_of_the_next_game_reads_the_last_games_team_talk_but_not_this_ones(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = seat_table(monkeypatch, 3)
    bob = make_moderator(table.users["bob"])
    team_talks(table)
    box_resigns(table)
    assert table.places() == ("bob", "cy", ("ann",))  # game 2: bob in the box
    chat.message_post(
        chouette_id=table.chouette.pk,
        author=table.users["ann"],
        text="Game two plans",
        team=True,
        now=table.tick(),
    )
    shown = reads(table, bob)
    assert "Team secret" in shown  # game 1's, where he captained
    assert "Game two plans" not in shown  # game 2's, where he is the box
    assert "Game two plans" in reads(table, make_moderator(UserFactory(username="mona")))


@pytest.mark.parametrize("gone", ["left", "removed"])
def test_a_player_who_left_reads_what_was_written_while_they_sat_and_no_more(
    monkeypatch: pytest.MonkeyPatch, gone: str
) -> None:
    table = seat_table(monkeypatch, 4)  # ann the box, bob captain, cy and di in line
    start(table, 1, 3)
    chat.message_post(
        chouette_id=table.chouette.pk,
        author=table.users["cy"],
        text="Before di went",
        team=False,
        now=table.tick(),
    )
    chat.message_post(
        chouette_id=table.chouette.pk,
        author=table.users["di"],
        text="Team words with di",
        team=True,
        now=table.tick(),
    )
    if gone == "left":
        seating.chouette_leave(chouette_id=table.chouette.pk, user=table.users["di"], now=table.now)
    else:
        seating.player_remove(
            chouette_id=table.chouette.pk, player=table.users["di"], now=table.now
        )
    box_resigns(table)  # game 1 ends: di is gone
    assert Seat.objects.get(player=table.users["di"]).status == gone
    for text, team in (("After di went", False), ("Team words without di", True)):
        chat.message_post(
            chouette_id=table.chouette.pk,
            author=table.users["cy"],
            text=text,
            team=team,
            now=table.tick(),
        )

    shown = reads(table, table.users["di"])
    assert "Before di went" in shown and "Team words with di" in shown
    assert "After di went" not in shown and "Team words without di" not in shown
    assert "After di went" in reads(table, table.users["ann"])

    # Nor do they talk or act there any more.
    api = token_client(table.users["di"])
    refused = api.post(
        f"/api/chouettes/{table.chouette.pk}/messages", {"text": "Still here"}, format="json"
    )
    assert refused.status_code == 403
    board = table.board
    proposed = api.post(
        f"/api/chouettes/{table.chouette.pk}/propose", {"ply": board.ply}, format="json"
    )
    assert proposed.status_code == 403
    left = api.post(f"/api/chouettes/{table.chouette.pk}/leave", format="json")
    assert left.status_code == 403


def test_someone_who_never_sat_reads_no_chat(monkeypatch: pytest.MonkeyPatch) -> None:
    table = seat_table(monkeypatch, 3)
    team_talks(table)
    stranger = UserFactory(username="zed")
    response = token_client(stranger).get(f"/api/chouettes/{table.chouette.pk}/messages")
    assert response.status_code == 403
    shown = reads(table, stranger)
    assert "Team secret" not in shown and "Table talk" not in shown
