"""The match pages, driven through their forms as a player would (no JavaScript)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext

from accounts.models import User
from challenges import services as challenge_services
from challenges.models import Challenge
from gammon import Color, FixedDice, Position
from matches import record
from matches.forms import GameActionForm
from matches.models import Game, GameEvent, Match
from tests import records

pytestmark = pytest.mark.django_db


def client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def scripted(monkeypatch: pytest.MonkeyPatch):
    """``scripted(dice...)`` makes the services roll exactly these dice."""

    def script(*dice: int | tuple[int, int]) -> None:
        monkeypatch.setattr(record, "dice", FixedDice(dice))

    return script


@pytest.fixture
def game(player: User, opponent: User, scripted) -> Game:
    """A 5-point match in play: White opened with 3-1 and must move."""
    scripted(3, 1)
    now = timezone.now()
    challenge = challenge_services.challenge_create(challenger=player, opponent=opponent, now=now)
    match = challenge_services.challenge_accept(challenge_id=challenge.pk, user=opponent, now=now)
    game = match.current_game
    assert game is not None and game.state == Game.State.MOVING
    return game


def white_and_black(game: Game) -> tuple[User, User]:
    return game.match.white, game.match.black


def post_action(client: Client, game: Game, action: str, **data: object):
    payload = {"action": action, "ply": game.ply, **data}
    return client.post(reverse("game_detail", args=[game.pk]), payload)


# --------------------------------------------------------------------------- pages render


def test_the_dashboard_needs_a_log_in(client: Client) -> None:
    response = client.get(reverse("dashboard"))
    assert response.status_code == 302
    assert reverse("account_login") in response["Location"]


def test_the_dashboard_lists_the_games_waiting_for_the_player(game: Game) -> None:
    white, black = white_and_black(game)
    response = client_for(white).get(reverse("dashboard"))
    assert response.status_code == 200
    content = response.content.decode()
    assert reverse("game_detail", args=[game.pk]) in content
    assert "Move" in content
    assert black.public_name in content
    assert reverse("next_game") in content


def test_next_goes_to_the_most_urgent_game_or_back_to_the_dashboard(game: Game) -> None:
    white, black = white_and_black(game)
    response = client_for(white).get(reverse("next_game"))
    assert response["Location"] == reverse("game_detail", args=[game.pk])
    response = client_for(black).get(reverse("next_game"), follow=True)
    assert response.redirect_chain[-1][0] == reverse("dashboard")
    assert "No game is waiting for you" in response.content.decode()


def test_logging_in_leads_to_the_dashboard(settings) -> None:
    assert settings.LOGIN_REDIRECT_URL == "dashboard"


@pytest.mark.parametrize("who", ["white", "black", "outsider", "anonymous"])
def test_anyone_may_watch_a_game_but_only_its_player_on_turn_sees_forms(
    game: Game, outsider: User, who: str
) -> None:
    white, black = white_and_black(game)
    client = {
        "white": client_for(white),
        "black": client_for(black),
        "outsider": client_for(outsider),
        "anonymous": Client(),
    }[who]
    response = client.get(reverse("game_detail", args=[game.pk]))
    assert response.status_code == 200
    content = response.content.decode()
    assert "<svg" in content and "Position ID" in content
    assert "Opening roll" in content
    assert ('name="play"' in content) == (who == "white")
    assert ('value="resign_match"' in content) == (who in ("white", "black"))


def test_the_match_page_lists_players_options_and_games(game: Game, client: Client) -> None:
    response = client.get(reverse("match_detail", args=[game.match_id]))
    assert response.status_code == 200
    content = response.content.decode()
    assert game.match.white.public_name in content
    assert "5-point match" in content
    assert reverse("game_detail", args=[game.pk]) in content


def test_the_player_page_lists_their_matches(game: Game, client: Client) -> None:
    response = client.get(reverse("player_detail", args=["alice"]))
    assert response.status_code == 200
    assert reverse("match_detail", args=[game.match_id]) in response.content.decode()


def test_the_board_is_served_alone_as_svg(game: Game, client: Client) -> None:
    response = client.get(reverse("game_board_svg", args=[game.pk]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("image/svg+xml")


def test_an_unknown_game_is_a_404(client: Client, db: None) -> None:
    assert client.get(reverse("game_detail", args=[999])).status_code == 404


# --------------------------------------------------------------------------- challenges


def test_a_challenge_is_made_through_the_form(player_client: Client, opponent: User) -> None:
    response = player_client.post(
        reverse("challenge_new"),
        {"opponent": "bob", "variant": "standard", "length": "7", "days_per_move": "2",
         "time_bank_days": "5", "cube_limit": "64", "rated": "on", "message": "Hi!"},
    )  # fmt: skip
    assert response.status_code == 302
    challenge = Challenge.objects.get()
    assert (challenge.opponent, challenge.length, challenge.days_per_move) == (opponent, 7, 2)
    assert challenge.message == "Hi!"
    listing = player_client.get(reverse("challenge_list")).content.decode()
    assert reverse("challenge_withdraw", args=[challenge.pk]) in listing


def test_an_empty_opponent_makes_an_open_money_challenge(player_client: Client) -> None:
    response = player_client.post(
        reverse("challenge_new"),
        {"opponent": "", "variant": "standard", "length": "0", "days_per_move": "3",
         "time_bank_days": "0", "cube_limit": "", "jacoby": "on"},
    )  # fmt: skip
    assert response.status_code == 302
    challenge = Challenge.objects.get()
    assert challenge.opponent is None and challenge.is_money and challenge.cube_limit is None


def test_the_form_shows_the_services_refusal(player_client: Client) -> None:
    response = player_client.post(
        reverse("challenge_new"),
        {"opponent": "", "variant": "standard", "length": "5", "days_per_move": "3",
         "time_bank_days": "0", "cube_limit": ""},
    )  # fmt: skip
    assert response.status_code == 400
    assert "Only money sessions may play without a cube limit." in response.content.decode()
    assert not Challenge.objects.exists()


def test_the_form_refuses_an_unknown_opponent(player_client: Client) -> None:
    response = player_client.post(
        reverse("challenge_new"),
        {"opponent": "nobody", "variant": "standard", "length": "5", "days_per_move": "3",
         "time_bank_days": "0", "cube_limit": "64"},
    )  # fmt: skip
    assert response.status_code == 400
    assert "There is no player called nobody." in response.content.decode()


def test_accepting_a_challenge_leads_to_the_first_game(player: User, opponent: User) -> None:
    challenge = challenge_services.challenge_create(
        challenger=player, opponent=opponent, now=timezone.now()
    )
    client = client_for(opponent)
    assert (
        reverse("challenge_accept", args=[challenge.pk])
        in client.get(reverse("challenge_list")).content.decode()
    )
    response = client.post(reverse("challenge_accept", args=[challenge.pk]))
    match = Match.objects.get()
    assert response["Location"] == reverse("game_detail", args=[match.current_game.pk])


def test_an_open_challenge_is_accepted_by_a_third_player(player: User, outsider: User) -> None:
    challenge = challenge_services.challenge_create(challenger=player, now=timezone.now())
    client = client_for(outsider)
    assert "Open challenges" in client.get(reverse("challenge_list")).content.decode()
    response = client.post(reverse("challenge_accept", args=[challenge.pk]))
    assert response.status_code == 302
    assert Match.objects.get().color_of(outsider) is not None


def test_declining_and_withdrawing(player: User, opponent: User) -> None:
    now = timezone.now()
    first = challenge_services.challenge_create(challenger=player, opponent=opponent, now=now)
    second = challenge_services.challenge_create(challenger=player, opponent=opponent, now=now)
    assert (
        client_for(opponent).post(reverse("challenge_decline", args=[first.pk])).status_code == 302
    )
    assert (
        client_for(player).post(reverse("challenge_withdraw", args=[second.pk])).status_code == 302
    )
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.status == Challenge.Status.DECLINED
    assert second.status == Challenge.Status.WITHDRAWN


def test_a_stranger_cannot_decline_and_is_told_why(
    player: User, opponent: User, outsider: User
) -> None:
    challenge = challenge_services.challenge_create(
        challenger=player, opponent=opponent, now=timezone.now()
    )
    response = client_for(outsider).post(reverse("challenge_decline", args=[challenge.pk]))
    assert response.status_code == 403
    assert "Only the challenged player can decline." in response.content.decode()
    challenge.refresh_from_db()
    assert challenge.status == Challenge.Status.OPEN


def test_challenge_actions_need_post(player_client: Client, player: User) -> None:
    challenge = challenge_services.challenge_create(challenger=player, now=timezone.now())
    response = player_client.get(reverse("challenge_withdraw", args=[challenge.pk]))
    assert response.status_code == 405


# --------------------------------------------------------------------------- playing


def test_a_move_is_played_through_the_form(game: Game, scripted) -> None:
    white, black = white_and_black(game)
    response = post_action(client_for(white), game, "move", play="8/5 6/5")
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.turn == int(Color.BLACK)
    assert game.state == Game.State.ROLLING
    # Black rolls through the form, then moves.
    scripted(6, 4)
    assert post_action(client_for(black), game, "roll").status_code == 302
    game.refresh_from_db()
    assert game.dice == (6, 4)
    page = client_for(black).get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "24/14" in page  # among the legal moves listed as a hint
    assert post_action(client_for(black), game, "move", play="24/14").status_code == 302
    record = client_for(black).get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "31: 8/5 6/5" in record
    assert "64: 24/14" in record


def test_an_illegal_move_shows_the_engines_reason_and_changes_nothing(game: Game) -> None:
    white, _ = white_and_black(game)
    ply, events = game.ply, game.events.count()
    response = post_action(client_for(white), game, "move", play="24/18")
    assert response.status_code == 400
    content = response.content.decode()
    assert 'role="alert"' in content
    assert "That move does not match your dice." in content
    assert 'value="24/18"' in content  # the typed move is kept
    game.refresh_from_db()
    assert (game.ply, game.events.count(), game.state) == (ply, events, Game.State.MOVING)


def test_a_stale_form_is_a_conflict_and_changes_nothing(game: Game) -> None:
    white, _ = white_and_black(game)
    ply = game.ply
    response = client_for(white).post(
        reverse("game_detail", args=[game.pk]),
        {"action": "move", "ply": ply - 1, "play": "8/5 6/5"},
    )
    assert response.status_code == 409
    assert "The game has changed since you loaded it." in response.content.decode()
    game.refresh_from_db()
    assert game.ply == ply and game.state == Game.State.MOVING


def test_a_spectator_cannot_act(game: Game, outsider: User) -> None:
    ply = game.ply
    response = post_action(client_for(outsider), game, "move", play="8/5 6/5")
    assert response.status_code == 403
    assert "You are not playing in this game." in response.content.decode()
    game.refresh_from_db()
    assert game.ply == ply


def test_an_anonymous_post_is_sent_to_log_in(game: Game, client: Client) -> None:
    response = post_action(client, game, "move", play="8/5 6/5")
    assert response.status_code == 302
    assert reverse("account_login") in response["Location"]


def test_the_opponent_cannot_move_out_of_turn(game: Game) -> None:
    _, black = white_and_black(game)
    response = post_action(client_for(black), game, "move", play="24/21 24/23")
    assert response.status_code == 403
    assert "It is not your turn." in response.content.decode()


def test_doubling_taking_and_the_record(game: Game, scripted) -> None:
    white, black = white_and_black(game)
    post_action(client_for(white), game, "move", play="8/5 6/5")
    game.refresh_from_db()
    assert post_action(client_for(black), game, "double").status_code == 302
    game.refresh_from_db()
    assert game.state == Game.State.DOUBLED
    page = client_for(white).get(reverse("game_detail", args=[game.pk])).content.decode()
    assert 'value="take"' in page and 'value="drop"' in page
    scripted(5, 2)
    unconfirmed = post_action(client_for(white), game, "take")
    assert unconfirmed.status_code == 400  # a cube answer is confirmed before it is sent
    assert "Tick the box" in unconfirmed.content.decode()
    assert post_action(client_for(white), game, "take", confirm="on").status_code == 302
    game.refresh_from_db()
    assert (game.cube_value, game.cube_owner) == (2, int(Color.WHITE))
    page = client_for(white).get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "Doubles =&gt; 2" in page
    assert "Takes" in page


def test_dropping_ends_the_game_and_the_record_says_who_won(game: Game, scripted) -> None:
    white, black = white_and_black(game)
    post_action(client_for(white), game, "move", play="8/5 6/5")
    game.refresh_from_db()
    post_action(client_for(black), game, "double")
    game.refresh_from_db()
    scripted(4, 2)  # the next game's opening roll
    assert post_action(client_for(white), game, "drop", confirm="on").status_code == 302
    game.refresh_from_db()
    assert game.is_finished
    page = client_for(white).get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "Drops" in page
    assert "Wins 1 point" in page
    match_page = client_for(white).get(reverse("match_detail", args=[game.match_id]))
    assert "Double dropped" in match_page.content.decode()


def test_resigning_the_match_needs_the_confirmation(game: Game) -> None:
    white, _ = white_and_black(game)
    response = post_action(client_for(white), game, "resign_match")
    assert response.status_code == 400
    assert "Tick the box" in response.content.decode()
    game.refresh_from_db()
    assert not game.is_finished
    response = post_action(client_for(white), game, "resign_match", confirm="on")
    assert response.status_code == 302
    game.match.refresh_from_db()
    assert game.match.status == Match.Status.FINISHED
    assert game.match.result == Match.Result.BLACK


def test_a_draw_is_offered_and_declined(game: Game) -> None:
    white, black = white_and_black(game)
    assert post_action(client_for(white), game, "offer_draw").status_code == 302
    game.refresh_from_db()
    page = client_for(black).get(reverse("game_detail", args=[game.pk])).content.decode()
    assert 'value="accept_draw"' in page
    assert post_action(client_for(black), game, "decline_draw").status_code == 302
    page = client_for(black).get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "Offers a draw" in page and "Declines the draw" in page


def _set_up_a_pass_for_black(game: Game) -> None:
    """White to play 3-1; Black has a checker on the bar against a closed board."""
    position = Position.from_sides(
        {6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 2, 13: 3}, {25: 1, 13: 14}, turn=Color.WHITE
    )
    records.game_made_by_hand(game.pk)
    game.set_position(position)
    game.save()


@pytest.mark.parametrize(("language", "word"), [("en", "pass"), ("es", "paso"), ("ca", "passo")])
def test_a_pass_is_shown_in_the_viewers_language(
    game: Game, scripted, language: str, word: str
) -> None:
    white, black = white_and_black(game)
    _set_up_a_pass_for_black(game)
    post_action(client_for(white), game, "move", play="13/9")
    game.refresh_from_db()
    scripted(4, 2)
    assert post_action(client_for(black), game, "roll").status_code == 302
    game.refresh_from_db()
    assert game.events.filter(kind=GameEvent.Kind.PASS).exists()
    black.language = language
    black.save()
    page = client_for(black).get(reverse("game_detail", args=[game.pk])).content.decode()
    assert f"42: {word}<" in page


def test_the_deadline_is_shown_in_the_viewers_time_zone(game: Game) -> None:
    white, _ = white_and_black(game)
    white.time_zone = "Asia/Kathmandu"  # UTC+05:45: minutes no other zone shares
    white.save()
    page = client_for(white).get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "+05:45" in page  # the machine-readable <time datetime=…>


def test_the_dice_can_be_shown_swapped(game: Game) -> None:
    white, _ = white_and_black(game)
    client = client_for(white)
    url = reverse("game_detail", args=[game.pk])

    def dice_shown() -> list[str]:
        content = client.get(url).content.decode()
        return [part.split('"')[0] for part in content.split('class="die" data-value="')[1:]]

    assert dice_shown() == ["3", "1"]
    assert client.post(reverse("game_swap_dice", args=[game.pk])).status_code == 302
    assert dice_shown() == ["1", "3"]
    game.refresh_from_db()
    assert game.dice == (3, 1)  # display only
    assert client.post(reverse("game_swap_dice", args=[game.pk])).status_code == 302
    assert dice_shown() == ["3", "1"]


def test_swapped_dice_stay_with_their_game_and_roll(game: Game, scripted) -> None:  # type: ignore[no-untyped-def]
    """The no-JS swap is for this roll of this game, not a switch for every game."""
    white, black = white_and_black(game)
    client = client_for(white)
    scripted(6, 2)
    now = timezone.now()
    challenge = challenge_services.challenge_create(challenger=white, opponent=black, now=now)
    other = challenge_services.challenge_accept(
        challenge_id=challenge.pk, user=black, now=now
    ).current_game
    assert other is not None
    assert client.post(reverse("game_swap_dice", args=[game.pk])).status_code == 302

    def dice_shown(game_id: int) -> list[str]:
        content = client.get(reverse("game_detail", args=[game_id])).content.decode()
        return [part.split('"')[0] for part in content.split('class="die" data-value="')[1:]]

    assert dice_shown(game.pk) == ["1", "3"]
    assert dice_shown(other.pk) == ["6", "2"]
    records.game_made_by_hand(game.pk)
    Game.objects.filter(pk=game.pk).update(ply=game.ply + 1)  # the game moved on
    assert dice_shown(game.pk) == ["3", "1"]


def test_the_board_follows_the_home_side_preference(game: Game) -> None:
    white, _ = white_and_black(game)
    white.board_side = "left"
    white.save()
    page = client_for(white).get(reverse("game_detail", args=[game.pk])).content.decode()
    assert 'data-home-side="left"' in page


# --------------------------------------------------------------------------- the last move


def last_move_marks(page: str) -> dict[str, str]:
    """``{point: role}`` of the last move's outlines on the page's board."""
    import re

    return dict(re.findall(r'class="last-move-mark" data-point="(\w+)" data-role="([\w ]+)"', page))


@pytest.mark.parametrize("home_side", ["right", "left"])
def test_the_last_move_is_marked_and_captioned_from_each_side(
    game: Game, scripted, home_side: str
) -> None:
    white, black = white_and_black(game)
    for user in (white, black):
        user.board_side = home_side
        user.save()
    url = reverse("game_detail", args=[game.pk])
    before = client_for(white).get(url).content.decode()
    assert last_move_marks(before) == {}
    assert 'id="last-move"' not in before and "Last move" not in before

    assert post_action(client_for(white), game, "move", play="8/5 6/5").status_code == 302
    for user, expected in (
        (white, {"8": "from", "6": "from", "5": "to"}),
        (black, {"17": "from", "19": "from", "20": "to"}),
    ):
        page = client_for(user).get(url).content.decode()
        assert last_move_marks(page) == expected
        assert f'data-home-side="{home_side}"' in page
        assert (
            '<figcaption class="last-move-caption" id="last-move">'
            "Last move: White 31: 8/5 6/5</figcaption>"
        ) in page
        assert "Last move: White 31: 8/5 6/5." in page  # in the board's aria-label

    # Black rolls and moves; the current board shows Black's move, the past ones White's.
    game.refresh_from_db()
    scripted(6, 4)
    assert post_action(client_for(black), game, "roll").status_code == 302
    game.refresh_from_db()
    assert post_action(client_for(black), game, "move", play="24/14").status_code == 302
    now = client_for(white).get(url).content.decode()
    # 24/14 is played as 24/18/14: each step's points, the one passed through included.
    assert last_move_marks(now) == {"1": "from", "7": "from to", "11": "to"}
    assert "Last move: Black 64: 24/14</figcaption>" in now
    assert last_move_marks(client_for(black).get(url).content.decode()) == {
        "24": "from",
        "18": "from to",
        "14": "to",
    }
    for ply in (2, 3):  # after White's move, and after Black's roll
        past = client_for(black).get(f"{url}?ply={ply}").content.decode()
        assert "position after ply" in past
        assert last_move_marks(past) == {"17": "from", "19": "from", "20": "to"}
        assert "Last move: White 31: 8/5 6/5</figcaption>" in past
    opening = client_for(black).get(f"{url}?ply=1").content.decode()
    assert last_move_marks(opening) == {} and 'id="last-move"' not in opening


def test_the_last_move_caption_is_translated(game: Game) -> None:
    white, black = white_and_black(game)
    assert post_action(client_for(white), game, "move", play="8/5 6/5").status_code == 302
    black.language = "es"
    black.save()
    client = client_for(black)
    page = client.get(
        reverse("game_detail", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="es"
    ).content.decode()
    assert "Última jugada: Blancas 31: 8/5 6/5</figcaption>" in page


def test_the_svg_alone_marks_the_last_move(game: Game) -> None:
    white, _ = white_and_black(game)
    assert post_action(client_for(white), game, "move", play="8/5 6/5").status_code == 302
    svg = client_for(white).get(reverse("game_board_svg", args=[game.pk])).content.decode()
    assert last_move_marks(svg) == {"8": "from", "6": "from", "5": "to"}


@pytest.mark.parametrize(("language", "word"), [("es", "paso"), ("ca", "PASSO"), ("en", "pass")])
def test_a_player_may_type_pass_in_their_language(game: Game, language: str, word: str) -> None:
    """The engine reads only "pass"; the form turns the player's own word into it.

    With a legal 3-1 to play, passing is refused for that reason (the word was read as
    pass), not as text that is not a move, and the game does not change.
    """
    white, _ = white_and_black(game)
    white.language = language
    white.save()
    ply = game.ply
    response = post_action(client_for(white), game, "move", play=word)
    page = response.content.decode()
    with translation.override(language):
        assert gettext("You have a legal move, so you cannot pass.") in page
        assert gettext("That is not a move. Write it like 24/18 13/11, or pass.") not in page
    game.refresh_from_db()
    assert game.ply == ply and game.state == Game.State.MOVING


def test_the_move_form_gives_the_engine_the_canonical_word_for_pass(db: None) -> None:
    for word, canonical in (("paso", "pass"), (" Passo ", "pass"), ("24/18 13/11", "24/18 13/11")):
        form = GameActionForm(data={"action": "move", "ply": 3, "play": word})
        assert form.is_valid(), form.errors
        assert form.cleaned_data["play"] == canonical
