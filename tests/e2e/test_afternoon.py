"""A new player's afternoon on the site, in Spanish, in the default set-up (issue 26's
story test): Dora signs up, confirms her address and lands signed in on a dashboard that
offers a first game; she plays a 1-point match against GNU Backgammon by clicking
checkers, reads its analysis from the game page, and asks for a rematch; she joins a
chouette, takes the box's double and agrees to the team's, each asked in a dialog that
states the cost; and she accepts Carol's open challenge and offers to resign, a single
game that Carol declines, then a gammon that Carol accepts.

Nothing is set for her but what the sign-up form asks: her e-mail preference is the
default one (an e-mail for every move). She is on the site all afternoon, so the notices
of her games wait; once she has been away a while she gets at most one e-mail per game.

The live server runs in this process and Celery's tasks run eagerly, so the bot's turns
and gnubg's analysis are played inside the request that owes them, as the e-mails are;
the dice are seeded. States are saved at 1280x800 and 390x844 in
``test-output/e2e/afternoon-*.png``, the clicks of her turns in ``afternoon-summary.txt``.
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.utils import timezone, translation

from accounts.models import User
from analysis.models import MatchAnalysis
from bots.services import bots_create
from challenges import services as challenge_services
from chouettes import decisions, seating
from chouettes.models import Seat
from gammon import Color, FixedDice, SeededDice
from matches import record, turns
from matches.models import Game, Match
from notifications import delivery
from notifications.models import Notification
from tests.factories import UserFactory

from .conftest import OUTPUT
from .helpers import click_a_move, game_url

pytestmark = [pytest.mark.browser, pytest.mark.gnubg, pytest.mark.django_db(transaction=True)]

MAX_TURNS = 80  # seed 14, as White, against the beginner: a short game is about 15 turns
PASSWORD = "a long enough pass phrase 7"


SIZES = ((1280, 800), (390, 844))


def shot(page: Any, state: str) -> None:
    """The window as the player sees it on a laptop and on a phone, in
    test-output/e2e/afternoon-<state>-<width>.png; the page's size is put back."""
    OUTPUT.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=str(OUTPUT / f"afternoon-{state}-{width}.png"))
    page.set_viewport_size(size)


def press(page: Any, locator: Any) -> None:
    """Click a button that posts a form, and wait for the page it leads to."""
    with page.expect_navigation():
        locator.click()


def confirm(page: Any, button: str, question: str, state: str) -> None:
    """Click ``button``: the page's dialog asks ``question`` (saved as ``state``), and
    its Confirm sends the form."""
    from playwright.sync_api import expect

    page.locator(button).click()
    expect(page.locator("#confirm-dialog")).to_be_visible()
    expect(page.locator("#confirm-dialog-text")).to_have_text(question)
    shot(page, state)
    with page.expect_navigation():
        page.locator("#confirm-dialog-yes").click()


def sign_up(page: Any) -> User:
    """The sign-up form, then the link of the confirmation e-mail, in the same browser."""
    from playwright.sync_api import expect

    page.goto("/accounts/signup/")
    page.fill("[name=email]", "dora@example.com")
    page.fill("[name=username]", "dora")
    page.fill("[name=password1]", PASSWORD)
    page.fill("[name=password2]", PASSWORD)
    press(page, page.locator("main form button[type=submit]"))
    [confirmation] = mail.outbox
    link = re.search(r"https?://[^/\s]+(/accounts/confirm-email/\S+/)", confirmation.body)
    assert link, confirmation.body
    page.goto(link.group(1))
    press(page, page.locator("main form button[type=submit]"))
    expect(page.locator("h1")).to_have_text("Tus partidas")  # signed in by the confirmation
    dora = User.objects.get(username="dora")
    assert dora.language == "es"
    assert dora.notify == User.Notify.EVERY  # the default: an e-mail for every move
    return dora


def play_the_computer(page: Any, dora: User) -> list[int]:
    """From the dashboard's offer to the last move of a 1-point match against the
    beginner, every turn by clicking checkers; the clicks of each of her turns."""
    from playwright.sync_api import expect

    press(page, page.locator("#play-computer"))
    expect(page.locator("h1")).to_have_text("Juega contra la máquina")
    row = page.locator("tr", has_text="GNU Backgammon (Principiante)")
    press(page, row.locator("a", has_text="Desafiar"))
    page.select_option("#id_length", "1")
    shot(page, "02-challenge-the-computer")
    press(page, page.locator("main form button[type=submit]").first)
    match = Match.objects.get(black__is_bot=True)
    assert match.white == dora and match.length == 1
    game = match.games.get()
    assert page.url.endswith(game_url(game)), page.url  # straight to the board

    clicks: list[int] = []
    for _turn in range(MAX_TURNS):
        game.refresh_from_db()
        if game.is_finished:
            break
        # The bot answered inside the request of her move, and the page went on to the
        # next game waiting for her: this one, her turn again.
        assert match.player(game.turn_color) == dora
        assert page.url.endswith(game_url(game)), page.url
        if page.locator("#resign-accept-form").count():  # the bot gives up a lost game
            page.locator("#resign-accept-form button").click()
            expect(page.locator("#confirm-dialog-text")).to_contain_text("¿Aceptar el abandono?")
            press(page, page.locator("#confirm-dialog-yes"))
            continue
        banner = page.locator("#banner").inner_text()
        assert banner.startswith("Te toca mover: has sacado"), banner
        if not clicks:
            shot(page, "03-first-turn")
        assert game.dice is not None
        dice = 4 if game.dice[0] == game.dice[1] else 2
        clicks.append(click_a_move(page))
        assert clicks[-1] <= dice, (game.dice, clicks[-1])  # one click a die, sent by itself
    else:
        pytest.fail(f"the match did not end in {MAX_TURNS} turns")
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return clicks


def test_a_new_player_spends_an_afternoon_on_the_site_in_spanish(
    new_page: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from playwright.sync_api import expect

    bots_create()
    carol = UserFactory(username="carol", display_name="Carol", language="es")
    ann = UserFactory(username="ann", display_name="Ann", language="es")
    bob = UserFactory(username="bob", display_name="Bob", language="es")
    now = timezone.now()
    open_challenge = challenge_services.challenge_create(challenger=carol, now=now, length=3)
    chouette = seating.chouette_create(creator=ann, now=now, places_from_dice=False)
    seating.chouette_join(chouette_id=chouette.pk, user=bob, now=now)
    monkeypatch.setattr(record, "dice", SeededDice(14))
    # The challenger is White: Dora, against the computer; Carol, in her open challenge.
    monkeypatch.setattr(challenge_services.secrets, "randbelow", lambda n: 0)

    # 1. She signs up and lands on a dashboard that offers a first game.
    page = new_page(locale="es", width=1280)
    page.set_viewport_size({"width": 1280, "height": 800})
    dora = sign_up(page)
    expect(page.locator("#start-game")).to_contain_text("Empieza una partida")
    expect(page.locator("#play-computer")).to_have_text("Juega contra la máquina")
    expect(page.locator("li.challenge", has_text="Carol")).to_contain_text("match a 3 puntos")
    shot(page, "01-dashboard")

    # 2. A 1-point match against the computer, by clicking: one click a die.
    clicks = play_the_computer(page, dora)
    assert clicks and all(1 <= n <= 4 for n in clicks), clicks
    match = Match.objects.get(black__is_bot=True)
    game = match.games.get()
    assert game.winner is not None

    # 3. The end of the match, on the game page: the result, the rematch, the analysis.
    page.goto(game_url(game))
    won = match.player(Color(game.winner)) == dora
    mine, theirs = match.score[match.color_of(dora)], match.score[match.color_of(match.black)]
    assert (mine > theirs) == won and max(mine, theirs) >= 1
    result = "ganado" if won else "perdido"
    expect(page.locator("#banner")).to_have_text(f"Has {result} el match {mine}–{theirs}")
    expect(page.locator("#match-end button")).to_have_text("Revancha")
    shot(page, "04-match-over")
    press(page, page.locator("#see-analysis"))
    expect(page.locator("#analysis-title")).to_be_visible()
    assert MatchAnalysis.objects.get(match=match).status == MatchAnalysis.Status.DONE
    shot(page, "05-analysis")

    # 4. The rematch: the computer accepts at once and she is on the new board.
    page.go_back()
    press(page, page.locator("#match-end button", has_text="Revancha"))
    rematch = Match.objects.exclude(pk=match.pk).get(black__is_bot=True)
    assert (rematch.white, rematch.black, rematch.length) == (dora, match.black, 1)
    assert page.url.endswith(game_url(rematch.games.get())), page.url
    shot(page, "06-rematch")

    # 5. A chouette: she joins Ann's, takes the box's double and agrees to the team's.
    session = f"/chouettes/{chouette.pk}/"
    page.goto(session)
    press(page, page.locator("#chouette-join"))
    expect(page.locator("#line-dora")).to_be_visible()
    board = chouette_until_the_box_doubles(monkeypatch, chouette.pk, ann, bob)
    page.goto(game_url(board))
    expect(page.locator("#banner")).to_have_text(
        "La caja ha doblado, tu cubo a 2: ¿aceptas o rechazas?"
    )
    confirm(
        page,
        "#chouette-take",
        "¿Aceptar el doble de la caja? Tu cubo pasa a 2.",
        "07-chouette-take",
    )
    monkeypatch.setattr(record, "dice", FixedDice([(6, 5)]))  # the box rolls once all took
    board = chouette_act(decisions.team_answer, chouette.pk, bob, take=True)
    board = turns.game_play_move(
        game_id=board.pk,
        player=ann,
        play_text="13/7 13/8",
        expected_ply=board.ply,
        now=timezone.now(),
    )
    chouette_act(decisions.team_propose_double, chouette.pk, bob)
    page.goto(game_url(board))
    expect(page.locator("#banner")).to_have_text(
        "Te toca votar: el equipo propone doblar a la caja, tu cubo a 4. "
        "¿Estás de acuerdo o te niegas?"
    )
    confirm(
        page,
        "#chouette-vote-yes",
        "¿De acuerdo con doblar a la caja? Si la caja acepta, tu cubo pasa a 4; "
        "si rechaza, ganas 2 puntos.",
        "08-chouette-vote",
    )
    monkeypatch.setattr(record, "dice", FixedDice([(4, 2)]))  # the next game's opening
    chouette_act(decisions.box_answer, chouette.pk, ann, take=False)
    points = dict(Seat.objects.filter(chouette=chouette).values_list("player__username", "points"))
    assert points == {"ann": -4, "bob": 2, "dora": 2}
    page.goto(session)
    expect(page.locator("#points-dora")).to_contain_text("2")
    shot(page, "09-chouette-settled")

    # 6. Carol's open challenge, and an offer to resign declined, then a bigger one accepted.
    monkeypatch.setattr(record, "dice", FixedDice([(1, 3)]))  # Black, Dora, opens
    page.goto("/dashboard/")
    press(
        page, page.locator("li.challenge", has_text="Carol").locator("button", has_text="Aceptar")
    )
    duel = Match.objects.get(challenge=open_challenge)
    assert (duel.white, duel.black) == (carol, dora)
    game = duel.games.get()
    assert game.turn_color == Color.BLACK
    page.goto(game_url(game))
    resign_offer(page, "single")
    offer_dialog(
        page,
        "¿Ofrecer abandonar con una partida simple? Pierdes esta partida y 1 punto; el match "
        "sigue.",
        "10-resign-offer",
    )
    expect(page.locator("#banner")).to_have_text(
        "Esperando a que Carol responda a tu oferta de abandonar con una partida simple"
    )
    opponent = new_page(user=carol, locale="es", width=1280)
    opponent.goto(game_url(game))
    confirm(
        opponent,
        "#resign-decline-form button",
        "¿Rechazar el abandono? La partida sigue donde estaba.",
        "11-resign-declined-by-carol",
    )
    game.refresh_from_db()
    assert (game.state, game.turn) == (Game.State.MOVING, int(Color.BLACK))
    page.goto(game_url(game))
    resign_offer(page, "gammon")
    offer_dialog(
        page,
        "¿Ofrecer abandonar con un gammon? Pierdes esta partida y 2 puntos; el match sigue.",
        "12-resign-offer-gammon",
    )
    monkeypatch.setattr(record, "dice", SeededDice(5))  # the next game's opening
    opponent.goto(game_url(game))
    confirm(
        opponent,
        "#resign-accept-form button",
        "¿Aceptar el abandono? Ganas esta partida y 2 puntos.",
        "13-resign-accepted-by-carol",
    )
    game.refresh_from_db()
    duel.refresh_from_db()
    assert (game.termination, game.points, game.winner) == ("resign", 2, int(Color.WHITE))
    assert duel.score == (2, 0) and duel.status == Match.Status.PLAYING
    kinds = list(game.events.values_list("kind", flat=True))
    assert kinds[-5:] == ["resign_offer", "resign_decline", "resign_offer", "resign_accept", "win"]
    page.goto(game_url(game))
    shot(page, "14-after-the-gammon")

    # 7. Her inbox: while she was on the site, the confirmation alone, whatever the
    # default preference says (an e-mail for every move); once she has been away a while,
    # at most one e-mail per game, in Spanish.
    assert [m for m in mail.outbox if dora.email in m.to] == [mail.outbox[0]]
    later = timezone.now() + timedelta(hours=1)
    delivery.notifications_sweep(
        now=later,
        send=lambda pk: bool(delivery.notification_deliver(notification_id=pk, now=later)),
    )
    received = [m for m in mail.outbox[1:] if dora.email in m.to]
    rows = Notification.objects.filter(
        pk__in=[int(m.extra_headers["X-Notification"]) for m in received]
    )
    assert len(rows) == len(received)
    per_game = Counter(row.game_id or (row.payload.get("chouette"), row.kind) for row in rows)
    assert all(n == 1 for n in per_game.values()), per_game
    with translation.override("es"):
        spanish = {
            translation.gettext("Backgammon: %(what)s") % {"what": label}
            for label in Notification.Kind.labels
        }
    assert "Backgammon: Te toca" in spanish
    assert {m.subject for m in received} <= spanish, [m.subject for m in received]
    (OUTPUT / "afternoon-summary.txt").write_text(
        f"clicks per turn: {clicks}\n"
        f"e-mails while on the site: 1 (the address's confirmation)\n"
        f"e-mails once away: {[m.subject for m in received]}\n"
    )


def chouette_act(service: Any, chouette_id: int, user: User, **kwargs: Any) -> Game:
    """A decision of another player in the chouette, at the board's ply, now."""
    board = Game.objects.get(
        match__chouette_game__chouette_id=chouette_id, match__status=Match.Status.PLAYING
    )
    service(
        chouette_id=chouette_id, user=user, expected_ply=board.ply, now=timezone.now(), **kwargs
    )
    return Game.objects.get(pk=board.pk)


def chouette_until_the_box_doubles(
    monkeypatch: pytest.MonkeyPatch, chouette_id: int, ann: User, bob: User
) -> Game:
    """Ann (the box) starts and opens with 3-1, Bob (the captain) plays 6-5, Ann doubles:
    each team member's answer is awaited (tests/chouettes/helpers.py's box_doubles)."""
    monkeypatch.setattr(record, "dice", FixedDice([3, 1, (6, 5)]))
    now = timezone.now()
    seating.chouette_start(chouette_id=chouette_id, user=ann, now=now)
    board = Game.objects.get(match__chouette_game__chouette_id=chouette_id)
    board = turns.game_play_move(
        game_id=board.pk, player=ann, play_text="8/5 6/5", expected_ply=board.ply, now=now
    )
    board = turns.game_roll(game_id=board.pk, player=bob, expected_ply=board.ply, now=now)
    board = turns.game_play_move(
        game_id=board.pk, player=bob, play_text="24/13", expected_ply=board.ply, now=now
    )
    return chouette_act(decisions.box_double, chouette_id, ann)


def resign_offer(page: Any, level: str) -> None:
    """Open the resignation menu, choose ``level`` and ask to send it."""
    page.locator("summary", has_text="Abandonar u ofrecer tablas").click()
    page.locator(f"#resign-offer-form input[value={level}]").check()
    page.locator("#resign-offer-form button[type=submit]").click()


def offer_dialog(page: Any, question: str, state: str) -> None:
    """The offer's dialog asks ``question``; Confirm sends it."""
    from playwright.sync_api import expect

    expect(page.locator("#confirm-dialog-text")).to_have_text(question)
    shot(page, state)
    with page.expect_navigation():
        page.locator("#confirm-dialog-yes").click()
