"""A season of play on the cluster, through its load balancer only, with faults, then the
invariants checked (``deploy/cluster/verify.py``) and the figures printed (run as root):

    .venv/bin/python -m deploy.cluster.season [--minutes 10] [--players 200] [--clients 8]
        [--faults web1,work1,redis,db,mail] [--bench-seconds 30] [--keep DIR]

1. Builds the cluster (``deploy/cluster/cluster.py``) and seeds the cast on ``work2``
   (``seed.py``: players with tokens and mixed e-mail preferences, a knock-out and a Swiss).
2. Two chouettes are made, invited, joined and started through the API; the tournaments'
   players enter through the API; a few players sign in through the log-in form and take a
   vacation on its page.
3. Bench: ``--bench-seconds`` of play with one web host (web2 disabled in HAProxy), then
   as long with both: moves per second and p99 latency of the moves through ``lb``.
4. The season: the clients (``players.py``) play matches of every length and variant,
   money sessions, bot matches, the tournaments' matches and the chouettes, chat, offer
   draws and resignations, for ``--minutes``, while the faults strike in turn: ``web1``
   SIGKILLed and started again, ``work1``'s workers killed while an analysis runs (its
   bots' turns with it), ``redis``'s link down 20 s, ``db`` fast-restarted, ``mail``
   refusing connections for a minute. Each fault's heal time is measured.
5. The queues drain (e-mails, analyses), then the invariants are checked on ``work2``.

Exit status 0 when every invariant holds. ``--keep DIR`` keeps the logs, journals and
the report (``report.json``).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import threading
import time
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import requests

from .cluster import DEFAULT_WORKDIR, SITE, Cluster
from .hosts import HOSTS, capable
from .players import Api, Client, Table, Traffic
from .services import wait_for

BASE = f"http://{SITE}"
FAULTS = ("web1", "work1", "redis", "db", "mail")
#: How long the drain waits: notifications.delivery.SENDING_TIMEOUT (5 min, a row a lost
#: worker left in ``sending``), then the minute's sweep and its SWEEP_GRACE (2 min).
DRAIN_LIMIT = timedelta(minutes=8)
#: What the drain waits on, by kind and status: e-mails owed, analyses not done.
DRAIN_LEFT = """
    select 'e-mail', kind || ' ' || status, count(*) from notifications_notification
     where delivery = 'email' and status in ('pending', 'sending') group by 2
    union all
    select 'analysis', status, count(*) from analysis_matchanalysis
     where status in ('queued', 'running') group by 2
"""
#: The bots' record entries since an instant (a bot is White when colour 0 is White).
BOT_EVENTS_SINCE = (
    "select count(*) from matches_gameevent e join matches_game g on g.id = e.game_id"
    " join matches_match m on m.id = g.match_id join accounts_user u"
    " on u.id = (case when e.color = 0 then m.white_id else m.black_id end)"
    " where u.is_bot and e.created_at > to_timestamp({since})"
)


def percentile(values: list[float], share: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def moves_between(traffic: Traffic, start: float, end: float) -> dict[str, float]:
    """Moves acknowledged through lb between two instants: per second, p50 and p99 (ms)."""
    with traffic.lock:
        rows = [r for r in traffic.requests if start <= r[0] < end]
    moves = [r[3] for r in rows if r[1] == "POST /api/games/{id}/move" and 200 <= r[2] < 300]
    seconds = max(end - start, 1e-9)
    return {
        "moves_per_s": round(len(moves) / seconds, 1),
        "requests_per_s": round(len(rows) / seconds, 1),
        "p50_ms": round(percentile(moves, 0.5) * 1000, 1),
        "p99_ms": round(percentile(moves, 0.99) * 1000, 1),
    }


class Database:
    """Read-only questions to the cluster's PostgreSQL, for the faults and the drain."""

    def __init__(self) -> None:
        self.url = f"postgres://postgres@{HOSTS['db'].address}:5432/backgammon"

    def value(self, sql: str) -> int:
        import psycopg

        try:
            with psycopg.connect(self.url, connect_timeout=3) as conn:
                row = conn.execute(sql).fetchone()
        except psycopg.Error:
            return -1
        return int(row[0]) if row else 0

    def rows(self, sql: str) -> list[tuple[Any, ...]]:
        """The rows of ``sql``; one row naming the error while the database is away."""
        import psycopg

        try:
            with psycopg.connect(self.url, connect_timeout=3) as conn:
                return [tuple(row) for row in conn.execute(sql).fetchall()]
        except psycopg.Error as error:
            return [("database unreachable", repr(error))]


class Faults(threading.Thread):
    """The faults, in turn, spread over the season; each with its heal time."""

    def __init__(
        self,
        cluster: Cluster,
        faults: list[str],
        start: float,
        seconds: float,
        say: Callable[[str], None],
    ) -> None:
        super().__init__(name="faults", daemon=True)
        self.cluster = cluster
        self.faults = faults
        self.start_at = start
        self.seconds = seconds
        self.say = say
        self.db = Database()
        self.windows: list[dict[str, Any]] = []
        self.errors: list[str] = []

    def run(self) -> None:
        slots = len(self.faults) + 1
        for index, name in enumerate(self.faults, start=1):
            at = self.start_at + self.seconds * index / slots
            while time.time() < at:
                time.sleep(0.2)
            try:
                getattr(self, f"fault_{name}")()
            except Exception as error:  # noqa: BLE001 - reported with the invariants
                self.errors.append(f"{name}: {error!r}")

    def window(
        self, name: str, started: float, restored: float, healed: float, **more: Any
    ) -> None:
        entry = {
            "fault": name,
            "start": started,
            "restored": restored,
            "healed": healed,
            "down_s": round(restored - started, 1),
            "heal_s": round(healed - restored, 1),
            **more,
        }
        self.windows.append(entry)
        self.say(f"fault {name}: down {entry['down_s']} s, healed {entry['heal_s']} s after")

    def fault_web1(self) -> None:
        started = time.time()
        self.cluster.kill("web1")
        time.sleep(5)
        self.cluster.start("web1")
        self.cluster.wait_web("web1")
        restored = time.time()
        wait_for(lambda: "web1" in self.cluster.servers_up(), 60, "web1 back in HAProxy")
        self.window("web1 SIGKILL", started, restored, time.time())

    def fault_work1(self) -> None:
        # Kill the workers while an analysis runs (and the bots' turns queued with it).
        try:
            wait_for(
                lambda: (
                    self.db.value(
                        "select count(*) from analysis_matchanalysis where status = 'running'"
                    )
                    > 0
                ),
                max(10.0, self.seconds / 10),
                "an analysis running",
            )
            mid = "analysis"
        except TimeoutError:
            mid = "no analysis was running"
        started = time.time()
        self.cluster.kill("analysis@work1")
        self.cluster.kill("bots@work1")
        time.sleep(3)
        self.cluster.start("analysis@work1")
        self.cluster.start("bots@work1")
        restored = time.time()
        wait_for(
            lambda: self.db.value(BOT_EVENTS_SINCE.format(since=restored)) > 0,
            120,
            "a bot's move after work1 came back",
        )
        self.window("work1 killed", started, restored, time.time(), during=mid)

    def fault_redis(self) -> None:
        started = time.time()
        self.cluster.set_link("redis", False)
        time.sleep(20)
        self.cluster.set_link("redis", True)
        restored = time.time()
        sent = self.db.value(
            "select count(*) from notifications_notification where sent_at is not null"
        )
        wait_for(
            lambda: (
                self.db.value(
                    "select count(*) from notifications_notification where sent_at is not null"
                )
                > sent
            ),
            120,
            "an e-mail sent after Redis came back",
        )
        self.window("redis link down 20 s", started, restored, time.time())

    def fault_db(self) -> None:
        started = time.time()
        self.cluster.restart_db()
        restored = time.time()
        moves = self.db.value("select count(*) from matches_gameevent")
        wait_for(
            lambda: self.db.value("select count(*) from matches_gameevent") > moves,
            60,
            "a move stored after the restart",
        )
        self.window("db fast restart", started, restored, time.time())

    def fault_mail(self) -> None:
        started = time.time()
        self.cluster.services["mail"].stop()
        time.sleep(60 if self.seconds >= 300 else 20)
        self.cluster.start("mail")
        restored = time.time()
        before = self.cluster.mail_file.stat().st_size if self.cluster.mail_file.exists() else 0
        wait_for(
            lambda: (
                self.cluster.mail_file.exists() and self.cluster.mail_file.stat().st_size > before
            ),
            180,
            "an e-mail at the sink after it came back",
        )
        self.window("mail refusing", started, restored, time.time())


class Season:
    def __init__(self, cluster: Cluster, args: argparse.Namespace, say: Callable[[str], None]):
        self.cluster = cluster
        self.args = args
        self.say = say
        self.traffic = Traffic()
        self.stop = threading.Event()
        self.out = cluster.workdir / "season"
        self.journals = self.out / "journals"
        self.journals.mkdir(parents=True)
        self.clients: list[Client] = []
        self.report: dict[str, Any] = {}
        self.sockets = {"pushes": 0, "reconnections": 0}

    # ------------------------------------------------------------------ the cast

    def seed(self) -> dict[str, Any]:
        cast_file = self.out / "cast.json"
        start_in = int(min(60, 10 + self.args.bench_seconds * 2 + 20))
        self.cluster.run_site(
            ["-m", "deploy.cluster.seed", str(cast_file), "--players", str(self.args.players)]
            + ["--start-in", str(start_in)]
        )
        cast: dict[str, Any] = json.loads(cast_file.read_text())
        return cast

    def setup(self, cast: dict[str, Any]) -> None:
        names = sorted(cast["players"])
        chouette_players = [names[-8:-4], names[-4:]]
        pool = [n for n in names if n not in sum(chouette_players, [])]
        size = max(2, len(pool) // self.args.clients)
        for number in range(self.args.clients):
            mine = pool[number * size : (number + 1) * size]
            self.clients.append(
                Client(
                    number,
                    base=BASE,
                    cast=cast,
                    players=mine,
                    journal=self.journals / f"client-{number}.jsonl",
                    traffic=self.traffic,
                    stop=self.stop,
                    seed=29 + number,
                )
            )
        setup = self.clients[0]
        for index, four in enumerate(chouette_players):
            status, chouette = setup.post_retrying(
                "/api/chouettes/", four[0], {"invite": four[1:], "open_to_all": False}
            )
            if status != 201:
                raise RuntimeError(f"chouette not created: {status} {chouette}")
            for player in four[1:]:
                setup.post_retrying(f"/api/chouettes/{chouette['id']}/join", player, {})
            status, started = setup.post_retrying(
                f"/api/chouettes/{chouette['id']}/start", four[0], {}
            )
            if status != 200:
                raise RuntimeError(f"chouette not started: {status} {started}")
            table = Table("chouette", list(four), chouette=chouette["id"])
            self.clients[index % len(self.clients)].add_table(table)
        for kind, entrants in (("knockout", pool[:16]), ("swiss", pool[16:28])):
            tournament = cast["tournaments"][kind]
            for player in entrants:
                status, _ = setup.post_retrying(f"/api/tournaments/{tournament}/enter", player, {})
                outcome = "ack" if 200 <= status < 300 else "refused"
                setup.journal.write("enter", outcome, user=player, tournament=tournament)
        self.vacations(cast, setup)

    def vacations(self, cast: dict[str, Any], client: Client) -> None:
        """A few players sign in through the log-in form and book a vacation on its page."""
        import re

        for number, username in enumerate(cast["with_password"][:6]):
            browser = requests.Session()
            page = browser.get(f"{BASE}/accounts/login/", timeout=30)
            token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
            assert token, "no CSRF token on the log-in page"
            signed_in = browser.post(
                f"{BASE}/accounts/login/",
                data={
                    "csrfmiddlewaretoken": token.group(1),
                    "login": username,
                    "password": cast["password"],
                },
                allow_redirects=False,
                timeout=30,
            )
            if signed_in.status_code != 302:
                raise RuntimeError(f"{username} could not sign in: {signed_in.status_code}")
            page = browser.get(f"{BASE}/vacations/", timeout=30)
            token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
            start = date.today() + timedelta(days=7 + number)
            end = start + timedelta(days=2)
            answer = browser.post(
                f"{BASE}/vacations/",
                data={
                    "csrfmiddlewaretoken": token.group(1) if token else "",
                    "start": start.isoformat(),
                    "end": end.isoformat(),
                },
                allow_redirects=False,
                timeout=30,
            )
            booked = answer.headers.get("Location", "").endswith("/vacations/")
            outcome = "ack" if answer.status_code == 302 and booked else "refused"
            client.journal.write(
                "vacation",
                outcome,
                user=username,
                start=start.isoformat(),
                end=end.isoformat(),
                status=answer.status_code,
            )

    # ------------------------------------------------------------------ tournaments

    def watch_tournaments(self, cast: dict[str, Any]) -> None:
        """Each new pairing of the tournaments becomes a table of one client."""
        api = Api(BASE, self.traffic)
        token = cast["director"]["token"]
        seen: set[int] = set()
        turn = 0
        while not self.stop.wait(3):
            for tournament in cast["tournaments"].values():
                status, data = api.call("GET", f"/api/tournaments/{tournament}/", token)
                if status != 200:
                    continue
                for pairing in data.get("pairings", []):
                    match = pairing.get("match")
                    if not match or match in seen or pairing.get("winner"):
                        continue
                    status, detail = api.call("GET", f"/api/matches/{match}/", token)
                    if status != 200:
                        continue
                    seen.add(match)
                    players = [detail["white"]["username"], detail["black"]["username"]]
                    table = Table(
                        "tournament", players, match=match, game=detail["games"][-1]["id"]
                    )
                    self.clients[turn % len(self.clients)].add_table(table)
                    turn += 1

    # ------------------------------------------------------------------ a spectator's socket

    def watch_sockets(self) -> None:
        """A spectator's socket through ``lb`` (``/ws/live/``) follows games in play; the
        moves sent through either web host reach it through Channels' Redis layer. The
        pushes heard and the reconnections (a host killed, Redis cut) are reported."""
        from websockets.sync.client import connect

        while not self.stop.is_set():
            try:
                with connect(
                    f"ws://{SITE}/ws/live/",
                    additional_headers={"Origin": BASE},
                    open_timeout=5,
                    close_timeout=1,
                ) as socket:
                    followed: set[int] = set()
                    while not self.stop.is_set():
                        if len(followed) < 8:
                            games = {t.game for c in self.clients for t in list(c.tables) if t.game}
                            new = sorted(games - followed)[: 8 - len(followed)]
                            if new:
                                socket.send(json.dumps({"follow": [f"game.{g}" for g in new]}))
                                followed |= set(new)
                        try:
                            message = json.loads(socket.recv(timeout=2))
                        except TimeoutError:
                            continue
                        if message.get("kind") != "following":
                            self.sockets["pushes"] += 1
            except Exception:  # noqa: BLE001 - a dropped socket opens again, and is counted
                self.sockets["reconnections"] += 1
                self.stop.wait(1)

    # ------------------------------------------------------------------ the run

    def run(self) -> dict[str, Any]:
        args = self.args
        began = time.time()
        cast = self.seed()
        self.setup(cast)
        self.say(f"cast seeded and seated in {time.time() - began:.1f} s")
        for client in self.clients:
            client.start()
        watcher = threading.Thread(target=self.watch_tournaments, args=(cast,), daemon=True)
        watcher.start()
        threading.Thread(target=self.watch_sockets, name="socket", daemon=True).start()
        bench: dict[str, Any] = {}
        if args.bench_seconds:
            # Warm-up (the first challenges, accepts and games), then two web hosts, one,
            # and two again: the tables change as they play, so both orders are seen.
            time.sleep(args.bench_seconds)
            for phase, hosts_up in enumerate((2, 1, 2)):
                self.cluster.haproxy(f"{'enable' if hosts_up == 2 else 'disable'} server web/web2")
                time.sleep(2)
                start = time.time()
                time.sleep(args.bench_seconds)
                bench[f"{phase + 1}: {hosts_up} web host{'s' if hosts_up > 1 else ''}"] = (
                    moves_between(self.traffic, start, time.time())
                )
            self.say(f"bench: {bench}")
        season_start = time.time()
        seconds = args.minutes * 60
        faults = Faults(self.cluster, args.faults, season_start, seconds, self.say)
        faults.start()
        while time.time() < season_start + seconds:
            time.sleep(1)
        faults.join(timeout=300)
        self.stop.set()
        for client in self.clients:
            client.join(timeout=60)
        season_end = time.time()
        self.say("season over; draining the queues")
        drained = self.drain()
        self.say(f"queues drained in {drained:.1f} s; checking the invariants")
        began = time.time()
        self.cluster.run_site(
            ["-m", "deploy.cluster.verify", str(self.journals), str(self.cluster.mail_file)]
            + [str(self.out / "verify.json")],
            timeout=900,
        )
        verified = json.loads((self.out / "verify.json").read_text())
        self.say(f"invariants checked in {time.time() - began:.1f} s")
        errors_5xx = self.server_errors(faults.windows)
        actions: dict[str, int] = {}
        for client in self.clients:
            for key, value in client.journal.counts.items():
                actions[key] = actions.get(key, 0) + value
        self.report = {
            "minutes": args.minutes,
            "players": args.players,
            "bench": bench,
            "season": moves_between(self.traffic, season_start, season_end),
            "faults": faults.windows,
            "fault_errors": faults.errors,
            "server_errors": errors_5xx,
            "drained_s": round(drained, 1),
            "websocket": dict(self.sockets),
            "actions": actions,
            "client_errors": sum((c.errors for c in self.clients), [])[:20],
            **verified,
        }
        return self.report

    def drain(self) -> float:
        """Wait until no e-mail is owed and no analysis is queued or running.

        The limit is the outbox's own recovery bound: a row a worker left in
        ``sending`` (its task lost with Redis's link, or killed) is freed after
        ``SENDING_TIMEOUT`` and sent by the next minute's sweep; a wait shorter than
        that fails on a cluster that recovers as designed. While it waits it says
        what is left every 30 s, and a time-out names it."""
        db = Database()
        limit = DRAIN_LIMIT.total_seconds()
        started = time.monotonic()
        said = started
        while True:
            left = db.rows(DRAIN_LEFT)
            if not left:
                return time.monotonic() - started
            waited = time.monotonic() - started
            if waited > limit:
                raise TimeoutError(f"the queues not drained after {limit:.0f} s: {left}")
            if time.monotonic() - said >= 30:
                self.say(f"draining, {waited:.0f} s: {left}")
                said = time.monotonic()
            time.sleep(1)

    def server_errors(self, windows: list[dict[str, Any]]) -> dict[str, Any]:
        """5xx and unanswered requests, inside a fault's window (start to healed + 5 s)
        and outside any."""
        inside: dict[str, dict[str, int]] = {}
        outside = 0
        with self.traffic.lock:
            bad = [r for r in self.traffic.requests if r[2] == 0 or r[2] >= 500]
        for at, _kind, status, _ in bad:
            for window in windows:
                if window["start"] <= at <= window["healed"] + 5:
                    seen = inside.setdefault(window["fault"], {})
                    name = str(status) if status else "no answer"
                    seen[name] = seen.get(name, 0) + 1
                    break
            else:
                outside += 1
        total = len(self.traffic.requests)
        return {"requests": total, "during_faults": inside, "outside_faults": outside}


def ok(report: dict[str, Any]) -> bool:
    return (
        all(check["ok"] for check in report.get("checks", []))
        and report["server_errors"]["outside_faults"] == 0
        and not report["fault_errors"]
        and report["websocket"]["pushes"] > 0
    )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--faults", default=",".join(FAULTS))
    parser.add_argument("--bench-seconds", type=float, default=30)
    parser.add_argument("--workdir", type=Path, default=DEFAULT_WORKDIR)
    parser.add_argument("--keep", type=Path, help="keep logs, journals and report.json here")
    args = parser.parse_args(argv)
    args.faults = [f for f in args.faults.split(",") if f]
    unknown = set(args.faults) - set(FAULTS)
    if unknown:
        parser.error(f"unknown faults: {sorted(unknown)}")
    problem = capable()
    if problem:
        print(problem, file=sys.stderr)
        return 2
    report = run(args, say=print)
    print(json.dumps(report, indent=1))
    return 0 if ok(report) else 1


def run(args: argparse.Namespace, say: Callable[[str], None] = print) -> dict[str, Any]:
    """Build the cluster, run the season, check it; the cluster is torn down after."""
    cluster = Cluster(args.workdir, say=say)
    with cluster:
        season = Season(cluster, args, say)
        try:
            report = season.run()
        finally:
            season.stop.set()
            if args.keep:
                cluster.keep_logs(args.keep / "logs")
                if season.out.exists():
                    shutil.copytree(season.out, args.keep / "season", dirs_exist_ok=True)
        if args.keep:
            (args.keep / "report.json").write_text(json.dumps(report, indent=1))
    return report


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
