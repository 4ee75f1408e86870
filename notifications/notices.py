"""What each change owes the players: the notices written when a turn starts, a draw
is offered, a game or match ends, a message arrives, or a challenge changes.

:mod:`notifications.receivers` calls these from the signals of ``matches`` and
``challenges``, inside the transaction that made the change, so a committed change
always has its rows (and a rolled-back one none).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from accounts.models import User
from challenges.models import Challenge
from chouettes.models import Chouette, ChouetteGame, Seat
from gammon import Color, Termination
from matches.models import Game, GameMessage, Match

from .inbox import notifications_challenge_answered, notifications_turn_over
from .models import Notification
from .outbox import notify, notify_many

Kind = Notification.Kind


def notice_turn(game: Game, now: datetime) -> Notification:
    """The player on turn must act: roll or move, or answer an offer to resign
    (``your_turn``), or answer a double.

    The other player has just acted: what they were told of their turn is over."""
    notifications_turn_over(games=[game], user=game.match.player(game.turn_color.other), now=now)
    return notify(now=now, **turn_notice(game))


def turn_notice(game: Game) -> dict[str, Any]:
    """The notice of :func:`notice_turn`, as an item of
    :func:`~notifications.outbox.notify_many`: for the first turn of a game started in
    the same change, which has no notice to refresh or to read yet, and writes it with
    the change's other notices in one ``INSERT`` (a tournament's new match)."""
    match = game.match
    color = game.turn_color
    doubled = game.state == Game.State.DOUBLED
    return {
        "recipient": match.player(color),
        "kind": Kind.DOUBLE_OFFERED if doubled else Kind.YOUR_TURN,
        "game": game,
        "payload": {
            "opponent": match.player(color.other).public_name,
            "cube": game.cube_value * 2,
            **({"chouette": True} if match.chouette else {}),
            **_resign_offer(game),
        },
    }


def _resign_offer(game: Game) -> dict[str, int]:
    """An offer to resign the player on turn must answer: its level and points (the turn
    notice says what is offered)."""
    if game.state != Game.State.RESIGNING:
        return {}
    return {"resign_offer": game.resign_offer, "points": game.resign_offer * game.cube_value}


def notice_draw_offer(game: Game, color: Color, now: datetime) -> Notification:
    match = game.match
    return notify(
        recipient=match.player(color.other),
        kind=Kind.DRAW_OFFERED,
        now=now,
        game=game,
        payload={"opponent": match.player(color).public_name},
    )


def notices_game_ended(games: Sequence[Game], now: datetime) -> list[Notification]:
    """Both players of each finished game are told how it (and maybe the match) ended:
    ``time_out`` for a time-out, else ``match_over`` when it ended the match, else
    ``game_over``. A cancelled match owes nothing here (the moderators tell them).
    Nobody's turn in them is news any more."""
    notifications_turn_over(games=games, now=now)
    items = []
    for game in games:
        match = game.match
        if match.chouette:  # the chouette tells all its players how the game settled
            continue
        match_over = match.status == Match.Status.FINISHED
        if game.termination == Termination.TIMEOUT:
            kind = Kind.TIME_OUT
        else:
            kind = Kind.MATCH_OVER if match_over else Kind.GAME_OVER
        for color in (Color.WHITE, Color.BLACK):
            items.append(
                {
                    "recipient": match.player(color),
                    "kind": kind,
                    "game": game,
                    "payload": {
                        "opponent": match.player(color.other).public_name,
                        "won": None if game.winner is None else game.winner == int(color),
                        "points": game.points,
                        "match_over": match_over,
                    },
                }
            )
    return notify_many(items, now=now)


def notice_message(message: GameMessage, recipient: User, now: datetime) -> Notification | None:
    """Tell ``recipient`` that the author of ``message`` wrote to them, unless they know.

    One notice per burst, not one per message: no new row while the recipient still has
    an unread ``message_received`` row for this game written after their own last message
    in it. Ten messages in a row give one e-mail (or one digest line); once the recipient
    marks it read, is shown the game's messages (the game page or the API's ``GET``:
    :func:`notifications.inbox.notifications_mark_messages_read`) or answers in the game, the next
    message notifies again. The notice does not quote the text: a message the moderators
    hide later must not live on in an e-mail. Two messages posted at the same instant may
    both notify (no lock is taken for chat); that is harmless.
    """
    game, author = message.game, message.author
    last_reply = (
        GameMessage.objects.filter(game=game, author=recipient)
        .order_by("-created_at")
        .values_list("created_at", flat=True)
        .first()
    )
    unread = Notification.objects.filter(
        recipient=recipient, game=game, kind=Kind.MESSAGE_RECEIVED, read_at=None
    )
    if last_reply is not None:
        unread = unread.filter(created_at__gt=last_reply)
    if unread.exists():
        return None
    return notify(
        recipient=recipient,
        kind=Kind.MESSAGE_RECEIVED,
        now=now,
        game=game,
        payload={"opponent": author.public_name},
    )


def notice_challenge_received(challenge: Challenge, now: datetime) -> Notification | None:
    if challenge.opponent is None:  # an open challenge: nobody to tell
        return None
    return notify(
        recipient=challenge.opponent,
        kind=Kind.CHALLENGE_RECEIVED,
        now=now,
        challenge=challenge,
        payload={"opponent": challenge.challenger.public_name},
    )


def notice_challenge_accepted(challenge: Challenge, game: Game, now: datetime) -> Notification:
    match = game.match
    assert challenge.opponent is not None  # set by the acceptance
    notifications_challenge_answered(challenge=challenge, now=now)
    return notify(
        recipient=challenge.challenger,
        kind=Kind.CHALLENGE_ACCEPTED,
        now=now,
        game=game,
        challenge=challenge,
        payload={
            "opponent": challenge.opponent.public_name,
            "your_turn": match.player(game.turn_color).pk == challenge.challenger_id,
        },
    )


def notice_challenge_declined(challenge: Challenge, now: datetime) -> Notification:
    assert challenge.opponent is not None  # only the challenged player declines
    notifications_challenge_answered(challenge=challenge, now=now)
    return notify(
        recipient=challenge.challenger,
        kind=Kind.CHALLENGE_DECLINED,
        now=now,
        challenge=challenge,
        payload={"opponent": challenge.opponent.public_name},
    )


# Chouettes --------------------------------------------------------------------------
# A row about a whole chouette names it in its payload (``chouette``: its id), which is
# where its link goes; a row about a decision on the board points at the board's game.


def notices_chouette_invited(
    chouette: Chouette, players: Sequence[User], now: datetime
) -> list[Notification]:
    creator = chouette.creator.public_name
    return notify_many(
        (
            {
                "recipient": player,
                "kind": Kind.CHOUETTE_INVITED,
                "payload": {"chouette": chouette.pk, "opponent": creator},
            }
            for player in players
        ),
        now=now,
    )


def notices_decision_awaited(
    game: ChouetteGame, kind: str, players: Sequence[User], now: datetime
) -> list[Notification]:
    """Each member whose vote on the team's double, or answer to the box's, is awaited."""
    board = game.match.games.get()
    box = game.match.white.public_name
    row_kind = Kind.CHOUETTE_VOTE if kind == "vote" else Kind.CHOUETTE_ANSWER
    return notify_many(
        (
            {
                "recipient": player,
                "kind": row_kind,
                "game": board,
                "payload": {
                    "opponent": box,
                    "cube": board.cube_value * 2,
                },
            }
            for player in players
        ),
        now=now,
    )


def notices_chouette_settled(game: ChouetteGame, now: datetime) -> list[Notification]:
    """Every player of the game is told what they won or lost in it."""
    return notify_many(
        (
            {
                "recipient": result.player,
                "kind": Kind.CHOUETTE_SETTLED,
                "payload": {
                    "chouette": game.chouette_id,
                    "number": game.number,
                    "points": result.points,
                },
            }
            for result in game.results.select_related("player")
        ),
        now=now,
    )


def notices_chouette_over(chouette: Chouette, now: datetime) -> list[Notification]:
    seats = chouette.seats.exclude(status=Seat.Status.INVITED).select_related("player")
    return notify_many(
        (
            {
                "recipient": seat.player,
                "kind": Kind.CHOUETTE_OVER,
                "payload": {"chouette": chouette.pk, "points": seat.points},
            }
            for seat in seats
        ),
        now=now,
    )
