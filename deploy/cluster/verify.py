"""What must hold after a season, checked on a cluster host against the database:

- every action a client journaled as acknowledged is stored exactly once, and nothing it
  journaled as refused is stored (an ``unknown`` one, unanswered then stale, at most once);
- ``replay_games``, ``replay_chouettes`` and ``recount_stats`` find no difference;
- every e-mail row sent (the notifications table) arrived at the sink exactly once, and
  none is left owed;
- every finished match that is analysable was analysed, once, with no decision twice;
- every tournament advanced: no pairing missing or duplicated, none finished unrecorded.

    python3 -m deploy.cluster.verify JOURNALS_DIR MAIL_FILE OUT.json

Writes ``{"checks": [{"name", "ok", "detail"}], "counts": {...}}``.
"""

from __future__ import annotations

import io
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

#: The record entry each game action adds at the ply after the one sent.
EVENT_OF_ACTION = {
    "move": "move",
    "roll": "roll",
    "double": "double",
    "take": "take",
    "drop": "drop",
    "resign": "resign",
    "offer-resign": "resign_offer",
    "accept-resign": "resign_accept",
    "decline-resign": "resign_decline",
    "offer-draw": "draw_offer",
    "accept-draw": "draw",
    "decline-draw": "draw_decline",
}


def once_as_journaled(outcome: str, stored: int) -> bool:
    """An action without a ply: acknowledged, stored once; refused, never; unknown (an
    attempt unanswered), at most once."""
    return stored == {"ack": 1, "refused": 0}.get(outcome, min(stored, 1))


def journal_entries(folder: Path) -> list[dict[str, Any]]:
    entries = []
    for path in sorted(folder.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                entries.append(json.loads(line))
    return entries


class Checks:
    def __init__(self) -> None:
        self.results: list[dict[str, Any]] = []

    def add(self, name: str, problems: list[str], checked: int) -> None:
        self.results.append(
            {
                "name": name,
                "ok": not problems,
                "detail": f"{checked} checked, {len(problems)} wrong"
                + "".join(f"\n  {p}" for p in problems[:10]),
            }
        )


def check_actions(entries: list[dict[str, Any]], checks: Checks) -> Counter[str]:
    from accounts.models import User
    from challenges.models import Challenge
    from matches.models import GameEvent, GameMessage, Match, Vacation
    from tournaments.models import Entry

    users = {u.username: u for u in User.objects.all()}
    colors: dict[tuple[int, int], Any] = {}
    problems: list[str] = []
    counts: Counter[str] = Counter()
    for entry in entries:
        kind, outcome = entry["kind"], entry["outcome"]
        counts[f"{kind} {outcome}"] += 1
        if kind in EVENT_OF_ACTION:
            game, ply = entry["game"], entry["body"]["ply"]
            found = GameEvent.objects.filter(game_id=game, ply=ply + 1, kind=EVENT_OF_ACTION[kind])
            if kind == "move":
                found = found.filter(notation=entry["body"]["play"])
            user = users[entry["user"]]
            key = (game, user.pk)
            if key not in colors:
                match = Match.objects.get(games__id=game)
                colors[key] = match.color_of(user)
            if colors[key] is not None:
                found = found.filter(color=int(colors[key]))
            stored = found.count()
            if outcome == "ack" and stored != 1:
                problems.append(f"acknowledged {kind} stored {stored} times: {entry}")
            elif outcome == "refused" and stored:
                problems.append(f"refused {kind} stored: {entry}")
            elif outcome == "unknown" and stored > 1:
                problems.append(f"{kind} stored {stored} times: {entry}")
        elif kind == "message":
            stored = GameMessage.objects.filter(game_id=entry["game"], text=entry["text"]).count()
            if not once_as_journaled(outcome, stored):
                problems.append(f"{outcome} message stored {stored} times: {entry}")
        elif kind == "challenge":
            stored = Challenge.objects.filter(message=entry["message"]).count()
            if not once_as_journaled(outcome, stored):
                problems.append(f"{outcome} challenge stored {stored} times: {entry}")
        elif kind == "accept" and outcome == "ack":
            if not Match.objects.filter(pk=entry["match"]).exists():
                problems.append(f"accepted challenge without its match: {entry}")
        elif kind == "vacation":
            stored = Vacation.objects.filter(
                user__username=entry["user"], start=entry["start"], end=entry["end"]
            ).count()
            if stored != (1 if outcome == "ack" else 0):
                problems.append(f"{outcome} vacation stored {stored} times: {entry}")
        elif kind == "enter":
            stored = Entry.objects.filter(
                tournament_id=entry["tournament"], player__username=entry["user"]
            ).count()
            if outcome == "ack" and stored != 1:
                problems.append(f"acknowledged entry stored {stored} times: {entry}")
    checks.add("acknowledged actions stored once, refused ones not at all", problems, len(entries))
    return counts


def check_records(checks: Checks) -> None:
    from django.core.management import call_command
    from django.core.management.base import CommandError

    for command in ("replay_games", "replay_chouettes", "recount_stats"):
        out = io.StringIO()
        try:
            call_command(command, stdout=out)
            problems = []
        except CommandError as error:
            problems = [str(error), out.getvalue()[-2000:]]
        checks.add(f"{command}: no difference", problems, 1)


def check_mail(mail_file: Path, checks: Checks) -> dict[str, int]:
    """A row of the outbox is one e-mail at a time: a turn notice still unread is
    refreshed for the next turn and owes a new e-mail (its board differs), so the sink
    may hold one row's several e-mails. What must hold: no e-mail twice (a row with the
    same content), every row marked sent arrived, and none is left owed."""
    from notifications.models import Notification

    arrived: Counter[int] = Counter()
    copies: Counter[tuple[int, str]] = Counter()
    lines = mail_file.read_text(encoding="utf-8").splitlines() if mail_file.exists() else []
    for line in lines:
        record = json.loads(line)
        if record.get("notification"):
            pk = int(record["notification"])
            arrived[pk] += 1
            copies[(pk, record.get("content", ""))] += 1
    rows = Notification.objects.filter(delivery=Notification.Delivery.EMAIL)
    sent = set(rows.filter(status=Notification.Status.SENT).values_list("pk", flat=True))
    owed = list(
        rows.filter(
            status__in=[
                Notification.Status.PENDING,
                Notification.Status.SENDING,
                Notification.Status.FAILED,
            ]
        ).values_list("pk", "status")
    )
    problems = [f"e-mail {pk} sent but never arrived" for pk in sent if not arrived[pk]]
    problems += [f"e-mail {pk} arrived {n} times alike" for (pk, _), n in copies.items() if n > 1]
    problems += [f"e-mail {pk} still {status}" for pk, status in owed]
    checks.add("every e-mail owed arrived exactly once", problems, len(sent) + len(owed))
    return {
        "emails_rows_sent": len(sent),
        "emails_at_sink": len(lines),
        "emails_refreshed_rows": sum(1 for n in arrived.values() if n > 1),
        "emails_owed": len(owed),
    }


def check_analyses(checks: Checks) -> dict[str, int]:
    from django.db.models import Count

    from analysis.models import Decision, MatchAnalysis
    from analysis.services import is_analysable
    from matches.models import Match

    problems = []
    finished = Match.objects.filter(status=Match.Status.FINISHED)
    analysable = [m for m in finished if is_analysable(m)]
    done = {
        a.match_id: a for a in MatchAnalysis.objects.filter(match__in=[m.pk for m in analysable])
    }
    for match in analysable:
        analysis = done.get(match.pk)
        if analysis is None or analysis.status != MatchAnalysis.Status.DONE:
            state = analysis.status if analysis else "missing"
            problems.append(f"match {match.pk} finished, analysis {state}")
    twice = (
        Decision.objects.values("analysis_id", "game_id", "ply", "kind")
        .annotate(n=Count("id"))
        .filter(n__gt=1)
    )
    problems += [f"decision stored twice: {row}" for row in twice[:10]]
    checks.add("every finished match analysed exactly once", problems, len(analysable))
    return {"matches_finished": finished.count(), "matches_analysed": len(done)}


def check_tournaments(checks: Checks) -> dict[str, Any]:
    """No pairing missing or doubled: each entry once a round; a decided match recorded;
    a knock-out round's winners, and only they, in the next round's slot (index // 2);
    a Swiss round decided to the last match followed by the next, pairing every entry
    still in; a running tournament with a match to play."""
    from matches.models import Match
    from tournaments.models import Entry, Pairing, Tournament

    problems: list[str] = []
    pairings = 0
    rounds: dict[str, int] = {}
    for tournament in Tournament.objects.all():
        rows = list(tournament.pairings.select_related("match"))
        pairings += len(rows)
        rounds[tournament.name] = max((row.round for row in rows), default=0)
        seen: Counter[tuple[str, int, int]] = Counter()
        by_round: dict[tuple[str, int], list[Pairing]] = {}
        for row in rows:
            by_round.setdefault((row.stage, row.round), []).append(row)
            for entry_id in (row.white_id, row.black_id):
                if entry_id is not None:
                    seen[(row.stage, row.round, entry_id)] += 1
            if row.black_id is not None and row.match_id is None:
                problems.append(f"{tournament.name}: pairing {row.pk} without its match")
            if (
                row.match is not None
                and row.match.status == Match.Status.FINISHED
                and row.winner_id is None
            ):
                problems.append(f"{tournament.name}: pairing {row.pk} finished, not recorded")
        problems += [
            f"{tournament.name}: entry {key[2]} paired {n} times in {key[0]} round {key[1]}"
            for key, n in seen.items()
            if n > 1
        ]
        for (stage, number), played in by_round.items():
            decided = all(row.winner_id is not None for row in played)
            following = by_round.get((stage, number + 1), [])
            if stage == Pairing.Stage.KNOCKOUT:
                problems += _knockout_next(tournament.name, number, played, following)
            elif stage == Pairing.Stage.SWISS and decided and number < tournament.rounds:
                still_in = Entry.objects.filter(tournament=tournament).exclude(
                    status=Entry.Status.WITHDRAWN
                )
                paired = {e for row in following for e in (row.white_id, row.black_id) if e}
                missing = set(still_in.values_list("pk", flat=True)) - paired
                if missing:
                    problems.append(
                        f"{tournament.name}: Swiss round {number} decided, entries "
                        f"{sorted(missing)} not paired in round {number + 1}"
                    )
        if tournament.status == Tournament.Status.RUNNING and rows:
            if not Pairing.objects.filter(tournament=tournament, winner__isnull=True).exists():
                problems.append(f"{tournament.name}: running with every pairing decided")
    checks.add("every tournament advanced", problems, pairings)
    return {"tournament_pairings": pairings, "tournament_rounds": rounds}


def _knockout_next(name: str, number: int, played: list[Any], following: list[Any]) -> list[str]:
    """A knock-out round's winners against the next round's slots: slot j holds the
    winners of slots 2j and 2j + 1, paired as soon as both are decided."""
    problems: list[str] = []
    if len(played) < 2:
        return problems  # the final
    winners = {row.index: row.winner_id for row in played}
    slots = {row.index: {row.white_id, row.black_id} - {None} for row in following}
    for slot in range(len(played) // 2 + len(played) % 2):
        feeders = [winners.get(2 * slot), winners.get(2 * slot + 1)]
        expected = {w for w in feeders if w is not None}
        if slot in slots and slots[slot] - expected:
            problems.append(f"{name}: round {number + 1} slot {slot} holds a player not through")
        if None not in feeders and slots.get(slot) != expected:
            problems.append(f"{name}: round {number + 1} slot {slot} missing after both won")
    return problems


def main(argv: list[str]) -> int:
    import django

    django.setup()
    journals, mail_file, out = Path(argv[0]), Path(argv[1]), Path(argv[2])
    checks = Checks()
    counts = dict(check_actions(journal_entries(journals), checks))
    check_records(checks)
    counts |= check_mail(mail_file, checks)
    counts |= check_analyses(checks)
    counts |= check_tournaments(checks)
    out.write_text(json.dumps({"checks": checks.results, "counts": counts}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
