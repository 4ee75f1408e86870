"""What a test made by hand, for the record checks that run after it (``tests/conftest.py``).

Some tests put a game in a chosen position (a bear-off, a closed board), write a finished
game's row directly, or give players a chosen rating, instead of playing there: such a
game cannot follow from its record, nor such a rating from the rating history, nor the
counters from games that no receiver saw. The helper or test that makes it says so here,
and the checks after the test leave out exactly that game's replay, that player's rating
fields, or (for rows written past the receivers) the recount, and check everything else.
"""

from __future__ import annotations

#: Ids of the games whose rows a test wrote or changed by hand.
GAMES: set[int] = set()
#: Ids of the players whose rating or experience a test set by hand.
RATINGS: set[int] = set()
#: Whether the test wrote finished games past the receivers (no recount then).
COUNTERS: list[bool] = []


def game_made_by_hand(game_id: int) -> None:
    GAMES.add(game_id)


def rating_set_by_hand(player_id: int) -> None:
    RATINGS.add(player_id)


def counters_made_by_hand() -> None:
    COUNTERS.append(True)


def forget() -> None:
    GAMES.clear()
    RATINGS.clear()
    COUNTERS.clear()
