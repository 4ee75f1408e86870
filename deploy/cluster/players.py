"""The season's clients: players who play through the load balancer only, with their API
tokens, as people and their scripts would. Each client thread owns some players and the
tables (matches, money sessions, bot matches, tournament matches, a chouette) they play,
and keeps a journal, one JSON line per request that changed something or was refused:
the move with its ply, the message, the challenge, the vacation.

A request whose answer never came (the connection dropped, or a 5xx from the balancer
while a host died) is sent again with the same ply: a second answer of 409 ``stale`` then
means the first one may have been stored, and the journal says ``unknown`` instead of
refused. The end of the season checks the journals against the database
(``deploy/cluster/verify.py``).
"""

from __future__ import annotations

import json
import random
import re
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import requests

VARIANTS = ["standard"] * 6 + ["nackgammon", "hypergammon"]
#: Match lengths drawn for a challenge (0: a money session, resigned after three games).
LENGTHS = [1, 1, 1, 1, 3, 3, 5, 7, 9, 0]
#: A client's own matches in play at once (besides tournament matches and chouettes).
TABLES = 5
#: Actions in a row on a tournament's table, each pass of a client's loop.
TOURNAMENT_BURST = 4
#: From this ply on, the player on turn in a tournament's match resigns it with this
#: chance a decision: a 1-point match lasts about 30 plies, so a knock-out's four rounds
#: are played within a ten-minute season.
TOURNAMENT_RESIGN_PLY, TOURNAMENT_RESIGN_CHANCE = 20, 0.1


class Traffic:
    """Every request's time, path kind, status and latency, shared by the threads."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.requests: list[tuple[float, str, int, float]] = []

    def add(self, kind: str, status: int, seconds: float) -> None:
        with self.lock:
            self.requests.append((time.time(), kind, status, seconds))


class Api:
    """One client's HTTP session to the balancer."""

    def __init__(self, base: str, traffic: Traffic) -> None:
        self.base = base
        self.traffic = traffic
        self.session = requests.Session()

    def call(
        self, method: str, path: str, token: str | None, body: dict[str, Any] | None = None
    ) -> tuple[int, Any]:
        """Status (0: no answer) and the decoded JSON, if any."""
        headers = {"Authorization": f"Token {token}"} if token else {}
        kind = method + " " + re.sub(r"/\d+", "/{id}", path)
        started = time.monotonic()
        try:
            answer = self.session.request(
                method, self.base + path, json=body, headers=headers, timeout=30
            )
        except requests.RequestException:
            self.traffic.add(kind, 0, time.monotonic() - started)
            self.session = requests.Session()
            return 0, None
        self.traffic.add(kind, answer.status_code, time.monotonic() - started)
        try:
            return answer.status_code, answer.json()
        except ValueError:
            return answer.status_code, None


def outcome_of(status: int) -> str:
    """How an action without a ply (a message, a challenge) is journaled, by the status
    :meth:`Player.post_retrying` returns: ``ack`` for 2xx, ``refused`` for 4xx, and
    ``unknown`` when an attempt went unanswered (0, or a negated status: the answer came
    to a retry, and the lost attempt may have been stored too)."""
    if status <= 0:
        return "unknown"
    return "ack" if 200 <= status < 300 else "refused"


class Journal:
    """One client's file of acknowledged and refused actions, a JSON line each."""

    def __init__(self, path: Path) -> None:
        self.out = path.open("a", encoding="utf-8")
        self.counts: Counter[str] = Counter()

    def write(self, kind: str, outcome: str, **fields: Any) -> None:
        self.counts[f"{kind}:{outcome}"] += 1
        self.out.write(json.dumps({"t": time.time(), "kind": kind, "outcome": outcome, **fields}))
        self.out.write("\n")
        self.out.flush()

    def close(self) -> None:
        self.out.close()


@dataclass
class Table:
    """Something being played: a match (``game`` is its current game) or a chouette."""

    kind: str  # match, money, bot, tournament, chouette
    players: list[str]
    game: int | None = None
    match: int | None = None
    chouette: int | None = None
    challenge: int | None = None
    games_played: int = 0
    done: bool = False
    next_poll: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)


class Client(threading.Thread):
    """One thread of players: it plays its tables in turn until ``stop`` is set."""

    def __init__(
        self,
        number: int,
        *,
        base: str,
        cast: dict[str, Any],
        players: list[str],
        journal: Path,
        traffic: Traffic,
        stop: threading.Event,
        seed: int,
    ) -> None:
        super().__init__(name=f"client-{number}", daemon=True)
        self.api = Api(base, traffic)
        self.cast = cast
        self.tokens = {name: cast["players"][name]["token"] for name in cast["players"]}
        self.mine = players
        self.journal = Journal(journal)
        self.stop = stop
        self.random = random.Random(seed)
        self.tables: list[Table] = []
        self.idle = list(players)
        self.lock = threading.Lock()
        self.errors: list[str] = []

    # ------------------------------------------------------------------ the loop

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                self._fill_tables()
                acted = False
                # The tournaments' tables first, and a few actions each: a round waits
                # for its slowest match, and the season should see the rounds advance.
                for table in sorted(self.tables, key=lambda t: t.kind != "tournament"):
                    if self.stop.is_set():
                        break
                    for _ in range(TOURNAMENT_BURST if table.kind == "tournament" else 1):
                        if table.next_poll > time.monotonic() or table.done:
                            break
                        try:
                            did = self.step(table)
                        except Exception as error:  # noqa: BLE001 - reported, the season goes on
                            self.errors.append(f"{table.kind} {table.game}: {error!r}")
                            table.next_poll = time.monotonic() + 2
                            did = False
                        acted = did or acted
                        if not did:
                            break
                    if table.done:
                        self.tables.remove(table)
                        if table.kind in {"match", "money", "bot"}:
                            self.idle.extend(table.players)
                if not acted:
                    time.sleep(0.2)
        finally:
            self.journal.close()

    def add_table(self, table: Table) -> None:
        """A table made elsewhere (a tournament's match): its players leave the idle."""
        with self.lock:
            self.tables.append(table)

    def _fill_tables(self) -> None:
        """New challenges while fewer than :data:`TABLES` of the client's own matches are in
        play: on a loaded machine a few tables at a time finish matches (analysis, the
        tournaments' next rounds) where many would all stay half-played."""
        while len(self.idle) >= 2 and not self.stop.is_set():
            own = [t for t in self.tables if t.kind in {"match", "money", "bot"}]
            if len(own) >= TABLES:
                return
            white = self.idle.pop(self.random.randrange(len(self.idle)))
            if self.random.random() < 0.15 and self.cast["bots"]:
                self._challenge(white, self.random.choice(self.cast["bots"]), bot=True)
                continue
            black = self.idle.pop(self.random.randrange(len(self.idle)))
            self._challenge(white, black, bot=False)

    # ------------------------------------------------------------------ challenges

    def _challenge(self, white: str, black: str, *, bot: bool) -> None:
        length = 3 if bot else self.random.choice(LENGTHS)
        text = f"challenge {uuid.uuid4().hex}"
        body: dict[str, Any] = {
            "opponent": black,
            "variant": "standard" if bot else self.random.choice(VARIANTS),
            "length": length,
            "message": text,
        }
        if length == 0:
            body["cube_limit"] = None
            body["jacoby"] = self.random.random() < 0.5
        if self.random.random() < 0.3:
            body["resignation"] = "immediate"
        status, data = self.post_retrying("/api/challenges/", white, body)
        players = [white] if bot else [white, black]
        if not 200 <= status < 300:
            outcome = outcome_of(status)
            self.journal.write("challenge", outcome, user=white, message=text, status=status)
            self.idle.extend(players)
            return
        self.journal.write("challenge", "ack", user=white, message=text, id=data["id"])
        table = Table("bot" if bot else ("money" if length == 0 else "match"), players)
        table.challenge = data["id"]
        if bot:
            table.next_poll = time.monotonic() + 1
            self.tables.append(table)
            return
        if self.random.random() < 0.05:
            status, _ = self.post_retrying(f"/api/challenges/{data['id']}/decline", black, {})
            self.journal.write("decline", "ack" if status < 300 else "refused", id=data["id"])
            self.idle.extend(players)
            return
        status, match = self.post_retrying(f"/api/challenges/{data['id']}/accept", black, {})
        if not 200 <= status < 300:
            self.journal.write("accept", "refused", id=data["id"], status=status)
            self.idle.extend(players)
            return
        self.journal.write("accept", "ack", id=data["id"], match=match["id"])
        table.match = match["id"]
        table.game = match["games"][-1]["id"]
        self.tables.append(table)

    def _bot_accepted(self, table: Table) -> bool:
        status, data = self.api.call("GET", "/api/challenges/", self.tokens[table.players[0]])
        if status != 200:
            return False
        listed = data["results"] if isinstance(data, dict) else data
        for challenge in listed:
            if challenge["id"] == table.challenge and challenge["match"]:
                status, match = self.api.call(
                    "GET", f"/api/matches/{challenge['match']}/", self.tokens[table.players[0]]
                )
                if status == 200:
                    table.match = match["id"]
                    table.game = match["games"][-1]["id"]
                    return True
            if challenge["id"] == table.challenge and challenge["status"] not in {"open"}:
                table.done = True
        return False

    # ------------------------------------------------------------------ a table's turn

    def step(self, table: Table) -> bool:
        if table.game is None:
            if table.kind == "bot" and not self._bot_accepted(table):
                table.next_poll = time.monotonic() + 1
                return False
            if table.kind == "chouette" and not self._chouette_board(table):
                table.next_poll = time.monotonic() + 1
                return False
        assert table.game is not None
        viewer = table.extra.get("awaited", table.players[0])
        status, game = self.api.call(
            "GET", f"/api/games/{table.game}/?events_from=999999", self.tokens[viewer]
        )
        if status != 200:
            table.next_poll = time.monotonic() + 0.5
            return False
        if game["state"] == "finished":
            return self._game_over(table, game)
        ours = [a for a in game["awaiting"] if a["player"] in self.tokens]
        if not ours:
            table.next_poll = time.monotonic() + 0.5  # a bot's turn, or a held board
            return False
        awaited = ours[0]
        if awaited["player"] != viewer:
            table.extra["awaited"] = awaited["player"]
            status, game = self.api.call(
                "GET",
                f"/api/games/{table.game}/?events_from=999999",
                self.tokens[awaited["player"]],
            )
            if status != 200:
                return False
        self._decide(table, game, awaited)
        return True

    def _game_over(self, table: Table, game: dict[str, Any]) -> bool:
        table.games_played += 1
        if game.get("next_game"):
            table.game = game["next_game"]
            return True
        if table.kind == "chouette":
            table.game = None
            return self._chouette_board(table)
        table.done = True
        return True

    def _decide(self, table: Table, game: dict[str, Any], awaited: dict[str, Any]) -> None:
        user = awaited["player"]
        decision = awaited["decision"]
        actions = game["actions"]
        ply = game["ply"]
        chance = self.random.random()
        if awaited.get("send_to"):
            key = "agree" if decision == "vote" else "take"
            self.act(table, user, awaited["send_to"], {"ply": ply, key: chance < 0.7}, decision)
            return
        if self.random.random() < 0.02 and table.kind != "chouette":
            text = f"message {uuid.uuid4().hex}"
            status, _ = self.post_retrying(
                f"/api/games/{table.game}/messages", user, {"text": text}
            )
            self.journal.write(
                "message", outcome_of(status), user=user, game=table.game, text=text, status=status
            )
        over = (table.kind == "money" and table.games_played >= 3) or (
            table.kind == "tournament"
            and ply >= TOURNAMENT_RESIGN_PLY
            and chance < TOURNAMENT_RESIGN_CHANCE
        )
        if "resign" in actions and (over or (table.kind == "match" and chance < 0.01)):
            self.act(
                table,
                user,
                f"/api/games/{table.game}/resign",
                {"ply": ply, "scope": "match"},
                "resign",
            )
            return
        if "accept_draw" in actions:
            name = "accept-draw" if chance < 0.5 else "decline-draw"
            self.act(table, user, f"/api/games/{table.game}/{name}", {"ply": ply}, name)
            return
        if "accept_resign" in actions:
            name = "accept-resign" if chance < 0.5 else "decline-resign"
            self.act(table, user, f"/api/games/{table.game}/{name}", {"ply": ply}, name)
            return
        if "take" in actions:
            name = "take" if chance < 0.8 else "drop"
            self.act(table, user, f"/api/games/{table.game}/{name}", {"ply": ply}, name)
            return
        if "offer_draw" in actions and chance < 0.01:
            self.act(table, user, f"/api/games/{table.game}/offer-draw", {"ply": ply}, "offer-draw")
            return
        if "offer_resign" in actions and chance < 0.02 and game.get("resign_offers"):
            level = game["resign_offers"][0]["level"]
            body = {"ply": ply, "level": level}
            self.act(table, user, f"/api/games/{table.game}/offer-resign", body, "offer-resign")
            return
        if "double" in actions and chance < 0.05:
            self.act(table, user, f"/api/games/{table.game}/double", {"ply": ply}, "double")
            return
        if "roll" in actions:
            self.act(table, user, f"/api/games/{table.game}/roll", {"ply": ply}, "roll")
            return
        if "move" in actions and game["plays"]:
            if chance < 0.01:
                # A play the rules refuse: it must be refused, and not be stored.
                self.act(
                    table,
                    user,
                    f"/api/games/{table.game}/move",
                    {"ply": ply, "play": "25/off"},
                    "move",
                )
                return
            play = self.random.choice(game["plays"])["notation"]
            self.act(
                table, user, f"/api/games/{table.game}/move", {"ply": ply, "play": play}, "move"
            )
            return
        if "resign" in actions and game.get("resignation") == "immediate":
            body = {"ply": ply, "scope": "game"}
            self.act(table, user, f"/api/games/{table.game}/resign", body, "resign")
            return
        table.next_poll = time.monotonic() + 0.5

    # ------------------------------------------------------------------ sending

    def post_retrying(
        self, path: str, user: str, body: dict[str, Any], attempts: int = 12
    ) -> tuple[int, Any]:
        """POST until a server answers (not 5xx, not a dropped connection); the status
        is negated when an earlier attempt went unanswered (it may have been stored)."""
        unanswered = False
        for attempt in range(attempts):
            status, data = self.api.call("POST", path, self.tokens[user], body)
            if status and status < 500:
                return (-status if unanswered else status), data
            unanswered = True
            if self.stop.is_set() and attempt >= 3:
                break
            time.sleep(min(0.5 * 2**attempt, 5))
        return 0, None

    def act(self, table: Table, user: str, path: str, body: dict[str, Any], kind: str) -> None:
        """One action with the ply seen, journaled: ``ack`` (2xx), ``refused`` (4xx),
        ``unknown`` (unanswered, then 409: perhaps stored by the first attempt)."""
        status, _ = self.post_retrying(path, user, body)
        fields = {"user": user, "game": table.game, "path": path, "body": body}
        if 200 <= abs(status) < 300:
            self.journal.write(kind, "ack", **fields)
        elif status < 0 or status == 0:
            self.journal.write(kind, "unknown", status=status, **fields)
        else:
            self.journal.write(kind, "refused", status=status, **fields)
        if status == 429:
            table.next_poll = time.monotonic() + 2

    # ------------------------------------------------------------------ chouettes

    def _chouette_board(self, table: Table) -> bool:
        status, data = self.api.call(
            "GET", f"/api/chouettes/{table.chouette}/", self.tokens[table.players[0]]
        )
        if status != 200 or not data.get("game"):
            return False
        if data["game"]["board"] == table.extra.get("last_board"):
            return False
        table.game = table.extra["last_board"] = data["game"]["board"]
        return True
