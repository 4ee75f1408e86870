#!/usr/bin/env python3
"""The site's analysis pipeline against GNU Backgammon alone, on the same matches.

    .venv/bin/python bench/analysis.py [--matches 6] [--length 5] [--plies 0 1 2]
        [--matches-2ply 2]

Plays ``--matches`` matches to their end through the services (the random bot of
``matches.bots`` with seeded dice, in a throw-away SQLite database; the analysis reads and
writes through the ORM, not SQL of one database), then, at each level of ``--plies``,
analyses each match twice, alternately, so that both meet the same machine load:

- **the pipeline**: ``analysis.services.analysis_request`` as a player's request, whose
  commit runs the ``analysis_run`` task in-process (Celery eager): the match exported as
  ``.mat``, gnubg analysing it game by game through ``gnubg_bridge.analysis`` (in the
  gnubg process the worker keeps between matches, started by the level's first match),
  the figures and every decision parsed, checked and stored in one transaction;
- **gnubg alone**: one gnubg process per match file, at the same settings, doing what a
  player would do by hand: ``import mat``, ``analyse match``, ``show statistics match``.

Both run one match at a time. It prints matches per hour for each, by the clock and by
CPU time (this process's and its gnubg processes'; on a loaded machine the clock
measures the load more than the work), and the ratios (floors: the pipeline at 0.9 of
gnubg alone at 1-ply and 2-ply, 0.7 at 0-ply). 2-ply is slow, so it analyses only
``--matches-2ply`` of the matches there.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

THROWS = 40_000


def children_cpu() -> float:
    """CPU seconds of this process's ended children (the gnubg processes waited for)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def setup(folder: Path) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{folder / 'bench.sqlite3'}"
    os.environ.pop("REDIS_URL", None)  # tasks run in-process, as on the first command's site
    os.environ["ANALYSIS_AUTOMATIC"] = "false"  # the bench asks for each analysis itself
    os.environ["EMAIL_URL"] = "dummy:"  # the matches' notices are not the measure
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backgammon.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def play_matches(count: int, length: int) -> list[int]:
    from django.utils import timezone

    from accounts.models import User
    from challenges import services as challenge_services
    from gammon import FixedDice
    from matches import record
    from matches.bots import bot_play_match

    alice = User.objects.create_user("alice", "alice@example.com", "x")
    bob = User.objects.create_user("bob", "bob@example.com", "x")
    ids = []
    for seed in range(1, count + 1):
        rng = random.Random(seed)
        record.dice = FixedDice([rng.randint(1, 6) for _ in range(THROWS)])
        now = timezone.now()
        challenge = challenge_services.challenge_create(
            challenger=alice, opponent=bob, now=now, length=length
        )
        match = challenge_services.challenge_accept(challenge_id=challenge.pk, user=bob, now=now)
        bot_play_match(match, random.Random(seed), now, double_rate=0.1)
        ids.append(match.pk)
    return ids


def pipeline(match_id: int, plies: int) -> tuple[float, float]:
    """The request's time by the clock, and the CPU time of this process and of any gnubg
    process that ended meanwhile (the kept one is counted when the level closes it)."""
    from django.conf import settings
    from django.utils import timezone

    from analysis import services
    from analysis.models import MatchAnalysis
    from matches.models import Match

    MatchAnalysis.objects.filter(match_id=match_id).delete()
    settings.ANALYSIS_PLIES = plies
    player = Match.objects.get(pk=match_id).white
    start, cpu = time.perf_counter(), time.process_time() + children_cpu()
    services.analysis_request(match_id=match_id, user=player, now=timezone.now())
    took = time.perf_counter() - start
    cpu = time.process_time() + children_cpu() - cpu
    analysis = MatchAnalysis.objects.get(match_id=match_id)
    assert analysis.status == MatchAnalysis.Status.DONE, (analysis.status, analysis.error)
    assert analysis.plies == plies and analysis.decisions.exists()
    return took, cpu


def gnubg_alone(gnubg: str, mat: Path, plies: int, jacoby: bool) -> tuple[float, float]:
    """gnubg's time by the clock, and its CPU time."""
    commands = mat.with_suffix(".commands")
    commands.write_text(
        "set confirm new off\n"
        f"set jacoby {'on' if jacoby else 'off'}\n"
        f"set analysis chequerplay evaluation plies {plies}\n"
        f"set analysis cubedecision evaluation plies {plies}\n"
        f"import mat {mat}\n"
        "analyse match\n"
        "show statistics match\n"
    )
    env = {**os.environ, "HOME": str(mat.parent), "LANG": "C", "LC_ALL": "C"}
    start, cpu = time.perf_counter(), children_cpu()
    run = subprocess.run(
        [gnubg, "-t", "-q", "-c", str(commands)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=env,
        check=False,
        # A session of its own, as gnubg_bridge starts gnubg: the kernel's autogroup
        # scheduling gives each session its share of a loaded machine.
        start_new_session=True,
    )
    took, cpu = time.perf_counter() - start, children_cpu() - cpu
    assert run.returncode == 0 and "Overall statistics" in run.stdout, run.stdout[-2000:]
    return took, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=6)
    parser.add_argument("--length", type=int, default=5)
    parser.add_argument("--plies", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--matches-2ply", type=int, default=2)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="bench-analysis-") as tmp:
        folder = Path(tmp)
        setup(folder)
        from analysis.models import Decision
        from gnubg_bridge import process
        from matches.export import export_mat
        from matches.models import Game, Match

        gnubg = process.executable()
        if gnubg is None:
            sys.exit("gnubg is not installed (Debian: apt-get install gnubg)")
        print(f"playing {args.matches} {args.length}-point matches through the services…")
        ids = play_matches(args.matches, args.length)
        files: dict[int, Path] = {}
        for match_id in ids:
            files[match_id] = folder / f"{match_id}.mat"
            files[match_id].write_text(export_mat(Match.objects.get(pk=match_id)))
        games = Game.objects.filter(match_id__in=ids).count()
        print(f"{len(ids)} matches, {games} games; load average {os.getloadavg()[0]:.1f}")
        print()
        print(
            "| level | matches | pipeline matches/h | gnubg alone matches/h | ratio "
            "| pipeline CPU s/match | gnubg alone CPU s/match | CPU ratio |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|---:|")
        per_match = 0.0
        for plies in args.plies:
            chosen = ids if plies < 2 else ids[: args.matches_2ply]
            ours = alone = ours_cpu = alone_cpu = 0.0
            for match_id in chosen:  # alternately, so both meet the same load
                jacoby = Match.objects.get(pk=match_id).jacoby
                took, cpu = pipeline(match_id, plies)
                ours, ours_cpu = ours + took, ours_cpu + cpu
                took, cpu = gnubg_alone(gnubg, files[match_id], plies, jacoby)
                alone, alone_cpu = alone + took, alone_cpu + cpu
            kept = children_cpu()
            process.close_kept()  # its CPU time is counted once it has ended
            ours_cpu += children_cpu() - kept
            if plies == args.plies[0]:
                decisions = Decision.objects.filter(game__match_id__in=chosen).count()
                per_match = decisions / len(chosen)
            rate_ours, rate_alone = 3600 * len(chosen) / ours, 3600 * len(chosen) / alone
            print(
                f"| {plies}-ply | {len(chosen)} | {rate_ours:,.0f} | {rate_alone:,.0f} "
                f"| {rate_ours / rate_alone:.2f} | {ours_cpu / len(chosen):.3f} "
                f"| {alone_cpu / len(chosen):.3f} | {alone_cpu / ours_cpu:.2f} |",
                flush=True,
            )
        print(f"\n{per_match:.0f} decisions analysed per match")
        print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
