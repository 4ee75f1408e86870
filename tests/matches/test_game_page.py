"""The game page's interactive parts, seen from the server: the board data, the forced
play, the confirmation steps without JavaScript, and past positions from the record."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from challenges import services as challenge_services
from gammon import FixedDice, Position, SeededDice
from matches import record, turns
from matches.models import Game
from tests import records

pytestmark = pytest.mark.django_db


def client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def game(player: User, opponent: User, monkeypatch: pytest.MonkeyPatch) -> Game:
    """White opened with 3-1 and must move."""
    monkeypatch.setattr(record, "dice", FixedDice([(3, 1)]))
    now = timezone.now()
    challenge = challenge_services.challenge_create(challenger=player, opponent=opponent, now=now)
    match = challenge_services.challenge_accept(challenge_id=challenge.pk, user=opponent, now=now)
    assert match.current_game is not None
    return match.current_game


def board_data(page: str) -> dict:
    found = re.search(r'<script id="board-data" type="application/json">(.*?)</script>', page)
    assert found, "no board data on the page"
    return json.loads(found.group(1))


def test_the_mover_gets_the_board_data_with_every_legal_play(game: Game) -> None:
    mover = game.match.player(game.turn_color)
    page = client_for(mover).get(reverse("game_detail", args=[game.pk])).content.decode()
    data = board_data(page)
    assert data["dice"] == [3, 1]
    assert data["points"] == list(Position.start().points)
    notations = {play["notation"] for play in data["plays"]}
    assert "8/5 6/5" in notations and len(notations) == 16
    play = next(p for p in data["plays"] if p["notation"] == "8/5 6/5")
    assert sorted(map(tuple, play["steps"])) == [(6, 5, False), (8, 5, False)]
    assert play["key"].count("|") == 2
    assert set(data["geometry"]["points"]) == {str(n) for n in range(1, 25)}
    assert 'id="target-25"' in page and 'id="target-0"' in page
    assert 'src="/static/js/board.js"' in page


def test_spectators_and_the_waiting_player_get_no_board_data(game: Game, outsider) -> None:
    waiting = game.match.player(game.turn_color.other)
    for client in (client_for(waiting), client_for(outsider), Client()):
        page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
        assert 'id="board-data"' not in page
        assert "svg" in page


def test_a_forced_play_is_one_button(game: Game) -> None:
    position = Position.from_sides({1: 14, 25: 1}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2})
    records.game_made_by_hand(game.pk)
    game.set_position(position)
    game.save()
    mover = game.match.player(game.turn_color)
    page = client_for(mover).get(reverse("game_detail", args=[game.pk])).content.decode()
    assert 'id="forced-form"' not in page  # bar/22 or bar/24: two plays
    game.set_position(Position.from_sides({1: 14, 25: 1}, {1: 2, 2: 2, 4: 2, 5: 2, 6: 2}))
    game.save()
    page = client_for(mover).get(reverse("game_detail", args=[game.pk])).content.decode()
    assert 'id="forced-form"' in page


def test_with_confirm_moves_the_move_is_shown_before_it_is_sent(game: Game) -> None:
    mover = game.match.player(game.turn_color)
    mover.confirm_moves = True
    mover.save()
    client = client_for(mover)
    url = reverse("game_detail", args=[game.pk])
    response = client.post(url, {"action": "move", "ply": game.ply, "play": "8/5 6/5"})
    assert response.status_code == 200
    assert "Send 8/5 6/5?" in response.content.decode()
    assert not game.events.filter(notation="8/5 6/5").exists()
    illegal = client.post(url, {"action": "move", "ply": game.ply, "play": "13/2"})
    assert illegal.status_code == 400
    confirmed = client.post(
        url, {"action": "move", "ply": game.ply, "play": "8/5 6/5", "confirm": "on"}
    )
    assert confirmed.status_code == 302
    assert game.events.filter(notation="8/5 6/5").exists()


def test_each_record_line_links_to_the_position_after_it(game: Game) -> None:
    mover = game.match.player(game.turn_color)
    client = client_for(mover)
    url = reverse("game_detail", args=[game.pk])
    client.post(url, {"action": "move", "ply": game.ply, "play": "8/5 6/5"})
    page = client.get(url).content.decode()
    assert 'href="?ply=1#board"' in page  # the opening roll; the last line is the board
    past = client.get(url + "?ply=1").content.decode()
    assert "position after ply 1" in past
    assert re.search(r'data-point="6" data-color="\w+" data-count="5"', past)
    now = client.get(url).content.decode()
    assert re.search(r'data-point="6" data-color="\w+" data-count="4"', now)
    for wrong in ("0", "99", "x"):
        assert "position after ply" not in client.get(url + "?ply=" + wrong).content.decode()


# --------------------------------------------------------------------------- the banner (issue 14)


def banner_of(page: str) -> str:
    found = re.search(r'<strong id="banner">(.*?)</strong>', page, re.S)
    assert found, "no banner on the page"
    return found.group(1).strip()


def test_the_banner_speaks_to_the_mover_and_names_the_player_awaited(
    game: Game, outsider: User
) -> None:
    mover = game.match.player(game.turn_color)
    waiter = game.match.player(game.turn_color.other)
    url = reverse("game_detail", args=[game.pk])
    mine = client_for(mover).get(url).content.decode()
    assert banner_of(mine) == "Your move: you rolled 3-1"
    assert "Swap the dice" in mine
    theirs = client_for(waiter).get(url).content.decode()
    # The deadline is said once, on the banner's own line, not in the banner as well.
    assert banner_of(theirs) == f"Waiting for {mover.public_name} to move"
    assert theirs.count("Deadline") == 1 and "deadline in" not in theirs
    assert "Swap the dice" not in theirs and "Actions</h2>" not in theirs
    watched = client_for(outsider).get(url).content.decode()
    colour = "White" if game.turn_color == 0 else "Black"
    assert banner_of(watched) == f"{mover.public_name} ({colour}) to move, with 3-1"
    assert "Swap the dice" not in watched
    white, black = game.match.white.public_name, game.match.black.public_name  # drawn at random
    assert f"{white} 5-away, {black} 5-away" in mine


def test_a_pending_double_shows_its_new_value_on_the_offerers_side(game: Game) -> None:
    mover = game.match.player(game.turn_color)
    doubler = game.match.player(game.turn_color.other)
    now = timezone.now()
    turns.game_play_move(
        game_id=game.pk, player=mover, play_text="8/5 6/5", expected_ply=game.ply, now=now
    )
    game.refresh_from_db()
    turns.game_double(game_id=game.pk, player=doubler, expected_ply=game.ply, now=now)
    page = client_for(mover).get(reverse("game_detail", args=[game.pk])).content.decode()
    assert banner_of(page) == f"{doubler.public_name} doubled to 2: take or drop?"
    side = "white" if game.match.color_of(doubler) == 0 else "black"
    assert f'data-value="2" data-owner="centre" data-offered-by="{side}"' in page
    assert f"{doubler.public_name} offers the cube at 2." in page
    waiting = client_for(doubler).get(reverse("game_detail", args=[game.pk])).content.decode()
    assert banner_of(waiting).startswith(
        f"Waiting for {mover.public_name} to answer your double to 2"
    )


def test_resigning_is_asked_again_with_its_cost_without_javascript(
    player: User, opponent: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where a game is resigned at once (the match option ``resignation: immediate``)."""
    monkeypatch.setattr(record, "dice", FixedDice([(3, 1)]))
    now = timezone.now()
    challenge = challenge_services.challenge_create(
        challenger=player, opponent=opponent, now=now, resignation="immediate"
    )
    match = challenge_services.challenge_accept(challenge_id=challenge.pk, user=opponent, now=now)
    game = match.current_game
    assert game is not None
    monkeypatch.setattr(record, "dice", SeededDice(1))  # the next game's opening roll
    mover = game.match.player(game.turn_color)
    client = client_for(mover)
    url = reverse("game_detail", args=[game.pk])
    page = client.get(url).content.decode()
    assert "Resign the game (2 points)" in page
    assert (
        'data-confirm="Resign this game? You lose this game and 2 points; the match goes on."'
        in page
    )
    response = client.post(url, {"action": "resign", "ply": game.ply})
    assert response.status_code == 200
    assert 'id="resign-confirm"' in response.content.decode()
    game.refresh_from_db()
    assert not game.is_finished
    response = client.post(url, {"action": "resign", "ply": game.ply, "confirm": "on"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.is_finished and game.points == 2


def test_a_spectator_cannot_ask_to_resign(game: Game, outsider: User) -> None:
    response = client_for(outsider).post(
        reverse("game_detail", args=[game.pk]), {"action": "resign", "ply": game.ply}
    )
    assert response.status_code == 400


def test_the_ply_endpoint_tells_an_open_page_whether_the_game_moved_on(
    game: Game, outsider: User
) -> None:
    url = reverse("game_ply", args=[game.pk])
    response = Client().get(url)
    assert response.status_code == 200 and response.json() == {"ply": game.ply}
    assert response["Cache-Control"] == "no-store"
    assert Client().get(reverse("game_ply", args=[game.pk + 999])).status_code == 404
    page = client_for(outsider).get(reverse("game_detail", args=[game.pk])).content.decode()
    assert f'data-url="{url}" data-ply="{game.ply}"' in page


# --------------------------------------------------------------------------- after a move


def second_game(white: User, black: User) -> Game:
    now = timezone.now()
    challenge = challenge_services.challenge_create(challenger=white, opponent=black, now=now)
    match = challenge_services.challenge_accept(challenge_id=challenge.pk, user=black, now=now)
    assert match.current_game is not None
    return match.current_game


def test_after_a_move_the_page_goes_on_to_the_next_game_waiting(
    game: Game, outsider: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    mover = game.match.player(game.turn_color)
    monkeypatch.setattr(record, "dice", FixedDice([(4, 1)]))  # the outsider's game opens
    other = second_game(outsider, mover)
    if other.turn_color != other.match.color_of(mover):  # the colours are drawn at random
        turns.game_play_move(
            game_id=other.pk, player=outsider, play_text="13/9 24/23", expected_ply=other.ply,
            now=timezone.now(),
        )  # fmt: skip
    response = client_for(mover).post(
        reverse("game_detail", args=[game.pk]),
        {"action": "move", "ply": game.ply, "play": "8/5 6/5"},
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("game_detail", args=[other.pk])


def test_the_stay_preference_keeps_the_player_on_the_game(
    game: Game, outsider: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    mover = game.match.player(game.turn_color)
    mover.stay_after_move = True
    mover.save()
    monkeypatch.setattr(record, "dice", FixedDice([(4, 1)]))
    second_game(outsider, mover)
    response = client_for(mover).post(
        reverse("game_detail", args=[game.pk]),
        {"action": "move", "ply": game.ply, "play": "8/5 6/5"},
    )
    assert response["Location"] == reverse("game_detail", args=[game.pk])


# --------------------------------------------------------------------------- the record


def test_the_record_has_two_numbered_columns_and_the_higher_die_first(
    game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    mover = game.match.player(game.turn_color)
    other = game.match.player(game.turn_color.other)
    now = timezone.now()
    turns.game_play_move(
        game_id=game.pk, player=mover, play_text="8/5 6/5", expected_ply=game.ply, now=now
    )
    game.refresh_from_db()
    monkeypatch.setattr(record, "dice", FixedDice([(2, 5)]))
    turns.game_roll(game_id=game.pk, player=other, expected_ply=game.ply, now=now)
    game.refresh_from_db()
    turns.game_play_move(
        game_id=game.pk, player=other, play_text="13/8 13/11", expected_ply=game.ply, now=now
    )
    url = reverse("game_detail", args=[game.pk])
    page = client_for(mover).get(url).content.decode()
    body = page[page.index('<table class="record"') : page.index("</table>")]
    rows = re.findall(r"<tr>(.*?)</tr>", body, re.S)
    cells = [
        re.sub(r"<[^>]+>", "", c).strip()
        for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", rows[-1], re.S)
    ]
    first = "white" if game.match.color_of(mover) == 0 else "black"
    expected = ["1", "31: 8/5 6/5", "52: 13/11 13/8"] if first == "white" else None
    if expected is not None:
        assert cells == expected
    else:  # Black opened: row 1 holds Black's move, row 2 White's
        assert "31: 8/5 6/5" in body and "52: 13/11 13/8" in body
        assert cells[0] == "2" and cells[1] == "52: 13/11 13/8"
    # ◀ leads to the last position before the current one; ▶ from there back to it.
    prev = re.search(r'id="record-prev" rel="prev" href="\?ply=(\d+)#board"', page)
    assert prev and int(prev.group(1)) < game.ply + 2
    past = client_for(mover).get(url + f"?ply={prev.group(1)}").content.decode()
    assert f'id="record-next" rel="next" href="{url}#board"' in past


# --------------------------------------------------------------------------- issue 26's words


def test_the_roll_button_is_a_verb_in_spanish_and_catalan(game: Game) -> None:
    mover = game.match.player(game.turn_color)
    waiter = game.match.player(game.turn_color.other)
    turns.game_play_move(
        game_id=game.pk, player=mover, play_text="8/5 6/5", expected_ply=game.ply,
        now=timezone.now(),
    )  # fmt: skip
    url = reverse("game_detail", args=[game.pk])
    for language, verb in (("en", "Roll"), ("es", "Tirar"), ("ca", "Tira")):
        waiter.language = language
        waiter.save(update_fields=["language"])
        page = client_for(waiter).get(url).content.decode()
        assert re.search(rf'id="roll-button"[^>]*>{verb}</button>', page), language


@pytest.mark.parametrize(
    ("language", "bar", "off"),
    [("en", "bar", "off"), ("es", "barra", "fuera"), ("ca", "barra", "fora")],
)
def test_the_notation_help_uses_the_boards_words_and_the_box_reads_them(
    game: Game, language: str, bar: str, off: str
) -> None:
    """The help's examples say the bar and off as the board's labels do, and what the help
    shows may be typed (the engine reads the canonical words)."""
    from matches.forms import canonical_play_text

    mover = game.match.player(game.turn_color)
    mover.language = language
    mover.save(update_fields=["language"])
    page = client_for(mover).get(reverse("game_detail", args=[game.pk])).content.decode()
    assert f"{bar}/22, 6/{off}," in page
    assert board_data(page)["text"]["bar"] == bar and board_data(page)["text"]["off"] == off
    assert canonical_play_text(f"{bar.capitalize()}/22 6/{off.upper()}") == "bar/22 6/off"
    assert canonical_play_text("24/18 13/11") == "24/18 13/11"
