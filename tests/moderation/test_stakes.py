"""A moderator who is also a player: every moderator action on a case in which they have
a stake is refused with a 403 and its reason, and changes nothing.

The moderator here holds two roles at once: they play a match, sit in a chouette's box,
or entered a tournament. The same actions by a second moderator, who plays in nothing,
go through (the control that shows the refusal is about the stake, not the action).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from backgammon.errors import Forbidden
from chouettes import chat as chouette_chat
from chouettes.models import Chouette, Seat
from chouettes.models import Message as ChouetteMessage
from matches import chat, clock
from matches.models import GameMessage, Match
from moderation import players, reports, rulings
from moderation.models import AuditEntry, Report, Warning
from moderation.permissions import MODERATORS_GROUP
from tests.chouettes.helpers import seat_table, start
from tests.factories import UserFactory
from tests.stats.helpers import match_start
from tests.tournaments import helpers as cup

pytestmark = pytest.mark.django_db


def moderator(name: str) -> User:
    user = UserFactory(username=name, is_staff=True)
    user.groups.add(Group.objects.get(name=MODERATORS_GROUP))
    return User.objects.get(pk=user.pk)


def refused(action: Callable[[], Any]) -> Forbidden:
    audits = AuditEntry.objects.count()
    with pytest.raises(Forbidden) as caught:
        action()
    assert caught.value.code == "stake"
    assert "another moderator" in str(caught.value)
    assert AuditEntry.objects.count() == audits
    return caught.value


@pytest.fixture
def mona() -> User:
    return moderator("mona")


@pytest.fixture
def nils() -> User:
    """A second moderator, with no stake anywhere."""
    return moderator("nils")


def test_a_moderator_cannot_rule_on_a_match_they_play(mona: User, nils: User) -> None:
    bob = UserFactory(username="bob")
    match = match_start(mona, bob)
    game = match.current_game
    assert game is not None
    now = timezone.now()
    message = chat.game_message_post(game_id=game.pk, author=bob, text="gg", now=now)
    deadline = game.deadline_at

    refused(
        lambda: rulings.match_adjudicate(
            moderator=mona, match=match, decision="white", reason="Mine.", now=now
        )
    )
    refused(
        lambda: rulings.game_extend_deadline(
            moderator=mona, game=game, extra=timedelta(days=3), reason="Me.", now=now
        )
    )
    refused(
        lambda: rulings.game_message_hide(moderator=mona, message=message, reason="Rude.", now=now)
    )
    refused(lambda: players.user_warn(moderator=mona, user=bob, reason="Slow.", now=now))
    refused(lambda: players.user_suspend(moderator=mona, user=bob, reason="Slow.", now=now))
    match.refresh_from_db()
    game.refresh_from_db()
    assert match.status == Match.Status.PLAYING and game.deadline_at == deadline
    assert not GameMessage.objects.get(pk=message.pk).hidden
    assert not Warning.objects.exists()

    # Another moderator may: the refusal is about the stake.
    rulings.game_message_hide(moderator=nils, message=message, reason="Rude.", now=now)
    players.user_warn(moderator=nils, user=bob, reason="Slow.", now=now)
    rulings.match_adjudicate(moderator=nils, match=match, decision="draw", reason="Both.", now=now)
    # Once the match is over, mona no longer plays bob.
    players.user_warn(moderator=mona, user=bob, reason="Rude after the game.", now=now)


def test_the_admin_answers_a_stake_with_403_and_the_reason(mona: User) -> None:
    match = match_start(mona, UserFactory(username="bob"))
    client = Client()
    client.force_login(mona)
    url = reverse("admin:matches_match_adjudicate", args=[match.pk])
    response = client.post(url, {"decision": "white", "reason": "Mine."})
    assert response.status_code == 403
    assert "another moderator must deal with it" in response.content.decode()
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING
    with_spanish = Client(HTTP_ACCEPT_LANGUAGE="es")
    with_spanish.force_login(mona)
    mona.language = "es"
    mona.save(update_fields=["language"])
    response = with_spanish.post(url, {"decision": "white", "reason": "Mío."})
    assert response.status_code == 403
    assert "debe ocuparse otro moderador" in response.content.decode()


def test_a_moderator_in_the_box_cannot_moderate_their_chouette(
    monkeypatch: pytest.MonkeyPatch, nils: User
) -> None:
    table = seat_table(monkeypatch, 3)
    box = table.users["ann"]
    box.is_staff = True
    box.save(update_fields=["is_staff"])
    box.groups.add(Group.objects.get(name=MODERATORS_GROUP))
    start(table, 3, 1)  # ann in the box
    board_match = table.game.match
    now = table.tick()
    message = chouette_chat.message_post(
        chouette_id=table.chouette.pk,
        author=table.users["bob"],
        text="Let us double next turn",
        team=True,
        now=now,
    )

    refused(
        lambda: rulings.chouette_remove_player(
            moderator=box, chouette=table.chouette, player=table.users["cy"], reason="x", now=now
        )
    )
    refused(
        lambda: rulings.chouette_message_hide(moderator=box, message=message, reason="x", now=now)
    )
    refused(
        lambda: rulings.match_adjudicate(
            moderator=box, match=board_match, decision="white", reason="x", now=now
        )
    )
    assert Seat.objects.filter(chouette=table.chouette, status=Seat.Status.SEATED).count() == 3
    assert not ChouetteMessage.objects.get(pk=message.pk).hidden
    assert Chouette.objects.get(pk=table.chouette.pk).status == Chouette.Status.PLAYING

    # The admin lists none of that chouette's messages to the box: no team talk read there.
    client = Client()
    client.force_login(box)
    listing = client.get(reverse("admin:chouettes_message_changelist"))
    assert listing.status_code == 200 and "double next turn" not in listing.content.decode()
    one = client.get(reverse("admin:chouettes_message_change", args=[message.pk]))
    assert one.status_code == 302 or "double next turn" not in one.content.decode()
    # A moderator who sits nowhere reads it, and may hide it.
    client.force_login(nils)
    listing = client.get(reverse("admin:chouettes_message_changelist"))
    assert "double next turn" in listing.content.decode()
    rulings.chouette_message_hide(moderator=nils, message=message, reason="x", now=now)


def test_a_moderator_who_entered_a_tournament_cannot_run_it(
    monkeypatch: pytest.MonkeyPatch, nils: User
) -> None:
    tournament, field = cup.run(monkeypatch, "knockout", 4)
    entrant = field[0]
    entrant.is_staff = True
    entrant.save(update_fields=["is_staff"])
    entrant.groups.add(Group.objects.get(name=MODERATORS_GROUP))
    entrant = User.objects.get(pk=entrant.pk)
    now = cup.START + timedelta(hours=1)
    others = [
        p.match
        for p in cup.live(tournament)
        if entrant.pk not in (p.match.white_id, p.match.black_id)
    ]
    assert others, "a match of the tournament that the moderator does not play"
    outsider = UserFactory(username="sub")

    refused(
        lambda: rulings.tournament_cancel(
            moderator=entrant, tournament=tournament, reason="x", now=now
        )
    )
    refused(
        lambda: rulings.match_adjudicate(
            moderator=entrant, match=others[0], decision="white", reason="x", now=now
        )
    )
    refused(
        lambda: rulings.tournament_replace_player(
            moderator=entrant,
            tournament=tournament,
            player=field[3],
            replacement=outsider,
            reason="x",
            now=now,
        )
    )
    tournament.refresh_from_db()
    others[0].refresh_from_db()
    assert tournament.status == tournament.Status.RUNNING
    assert others[0].status == Match.Status.PLAYING
    rulings.match_adjudicate(
        moderator=nils, match=others[0], decision="white", reason="No show.", now=now
    )


def test_a_moderator_does_not_close_a_report_about_themselves(mona: User, nils: User) -> None:
    bob = UserFactory(username="bob")
    now = timezone.now()
    report = Report.objects.create(
        reporter=bob, reported=mona, category=Report.Category.OTHER, text="Rude.", created_at=now
    )
    refused(lambda: reports.report_close(moderator=mona, report=report, note="No.", now=now))
    assert Report.objects.get(pk=report.pk).status == Report.Status.OPEN
    reports.report_close(moderator=nils, report=report, note="Looked.", now=now)


def test_a_superuser_does_not_move_their_own_vacation() -> None:
    root = UserFactory(username="root", is_staff=True, is_superuser=True)
    today = timezone.localdate()
    now = timezone.now()
    vacation = clock.vacation_take(
        user=root, start=today + timedelta(days=5), end=today + timedelta(days=6), now=now
    )
    refused(
        lambda: rulings.vacation_change(
            moderator=root,
            vacation_id=vacation.pk,
            start=today + timedelta(days=5),
            end=today + timedelta(days=9),
            reason="More rest.",
            now=now,
        )
    )
    refused(lambda: rulings.vacation_delete(moderator=root, vacation_id=vacation.pk, now=now))
