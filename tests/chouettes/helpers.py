"""A chouette table for the service tests: seated players, scripted dice, and short
calls for each decision at the board's current ply."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from accounts.models import User
from chouettes import decisions, seating
from chouettes.models import Chouette, ChouetteGame, Seat
from chouettes.state import cube_side
from gammon import FixedDice, Position
from gammon import chouette as rules
from matches import record, turns
from matches.models import Game
from tests import records

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
NAMES = ("ann", "bob", "cy", "di", "ed", "flo", "gus", "hal")


def board_of(white: dict[int, int], black: dict[int, int]) -> dict[str, list[int]]:
    """A stored board (White's side) from each side's own point numbers; 25 is the bar."""
    position = Position.from_sides(white, black)
    return {"points": list(position.points), "bar": list(position.bar), "off": list(position.off)}


@dataclass
class Table:
    """One chouette and its players by name, with the clock it is played at."""

    chouette: Chouette
    users: dict[str, User]
    monkeypatch: Any
    now: datetime = NOW
    names: dict[int, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.names = {u.pk: name for name, u in self.users.items()}

    def tick(self, minutes: int = 10) -> datetime:
        self.now += timedelta(minutes=minutes)
        return self.now

    def roll(self, *dice: int | tuple[int, int]) -> None:
        """Script the dice the server throws next."""
        self.monkeypatch.setattr(record, "dice", FixedDice(dice))

    @property
    def game(self) -> ChouetteGame:
        game = self.chouette.games.order_by("-number").first()
        assert game is not None
        return game

    @property
    def board(self) -> Game:
        return self.game.match.games.get()

    def side(self) -> rules.ChouetteGame[int]:
        return cube_side(self.game)

    def places(self) -> tuple[str, str, tuple[str, ...]]:
        """(box, captain, line) by name, as the chouette stands."""
        self.chouette.refresh_from_db()
        p = self.chouette.places
        return (
            self.names[p["box"]],
            self.names[p["captain"]],
            tuple(self.names[i] for i in p["line"]),
        )

    def points(self) -> dict[str, int]:
        seats = Seat.objects.filter(chouette=self.chouette)
        return {self.names[s.player_id]: s.points for s in seats}

    def stakes(self) -> dict[str, int]:
        side = self.side()
        return {self.names[m.player]: m.stake for m in side.members}

    def act(self, action: str, name: str, **kwargs: Any) -> Any:
        """A chouette decision (``decisions.<action>``) by ``name`` at the current ply."""
        kwargs.setdefault("expected_ply", self.board.ply)
        return getattr(decisions, action)(
            chouette_id=self.chouette.pk, user=self.users[name], now=self.tick(), **kwargs
        )

    def move(self, name: str, play: str) -> Game:
        board = self.board
        return turns.game_play_move(
            game_id=board.pk,
            player=self.users[name],
            play_text=play,
            expected_ply=board.ply,
            now=self.tick(),
        )

    def roll_board(self, name: str) -> Game:
        board = self.board
        return turns.game_roll(
            game_id=board.pk, player=self.users[name], expected_ply=board.ply, now=self.tick()
        )

    def set_board(self, white: dict[int, int], black: dict[int, int]) -> None:
        """Put the board in a chosen position (the same turn and dice)."""
        records.game_made_by_hand(self.board.pk)
        Game.objects.filter(pk=self.board.pk).update(board=board_of(white, black))


def seat_table(monkeypatch: Any, players: int, **options: Any) -> Table:
    """A chouette of ``players`` (ann creates; the others join in name order), started with
    the first places by joining order unless ``places_from_dice`` is given."""
    users = {name: _user(name) for name in NAMES[:players]}
    options.setdefault("places_from_dice", False)
    chouette = seating.chouette_create(creator=users["ann"], now=NOW, **options)
    for name in NAMES[1:players]:
        seating.chouette_join(chouette_id=chouette.pk, user=users[name], now=NOW)
    return Table(chouette, users, monkeypatch)


def start(table: Table, *opening: int | tuple[int, int]) -> ChouetteGame:
    table.roll(*opening)
    return seating.chouette_start(
        chouette_id=table.chouette.pk, user=table.users["ann"], now=table.tick()
    )


def box_doubles(table: Table) -> None:
    """Three players' first game: ann (the box) opens, bob (captain) plays, ann doubles:
    each member's answer is awaited."""
    start(table, 3, 1)
    table.move("ann", "8/5 6/5")
    table.roll((6, 5))
    table.roll_board("bob")
    table.move("bob", "24/13")
    table.act("box_double", "ann")


def _user(name: str) -> User:
    from tests.factories import UserFactory

    return UserFactory(username=name)
