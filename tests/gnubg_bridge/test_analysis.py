"""The site's analysis of a match against gnubg's own ``analyse match`` and ``show statistics
match``: every per-player figure the site shows, to the digit gnubg prints.

The matches are played through the services (tests/matches/test_export.py's sets: a 1-point
match, a 5-point match with a double taken, a redouble dropped and a resignation, a 7-point
match with random cube actions and a Crawford game, and a money session), exported as
``.mat``, then analysed twice: by ``gnubg_bridge.analysis.analyse_match`` (game by game,
figures computed by us from gnubg's totals) and by a plain gnubg script that imports each
file, runs ``analyse match`` and prints ``show statistics match``. Each figure's row is
rebuilt in gnubg's layout (``%-40s %-23s %-23s``) from our texts and must appear in gnubg's
table, in its section. The plain script also exports each analysed match as gnubg's text
(``export match text``, read by ``gnubg_text``): every decision the bridge gives, its mark,
its luck and each equity, must be what gnubg's text says of that record. One gnubg run per
side for the whole set.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db import transaction

from gnubg_bridge import process
from gnubg_bridge.analysis import Decision, MatchAnalysis, analyse_match, row_labels
from matches.export import export_mat
from tests.bot_games import BotGames
from tests.factories import UserFactory
from tests.matches.test_export import ONE_POINT, SETS

from .gnubg_text import TextRecord, parse_game

# django_db: the matches are built in the test database (and rolled back).
# One worker builds the four matches and runs gnubg on them once for every test here.
pytestmark = [pytest.mark.gnubg, pytest.mark.django_db, pytest.mark.xdist_group("gnubg_analysis")]

#: The matches, by name: (set of tests/bot_games.py, what gnubg's table must show).
MATCHES = {
    "1 point": ONE_POINT,
    "5 points, cube and resignation": SETS["cube and resignation"],
    "7 points, random cube": SETS["7 points, random cube"],
    "money session": SETS["money session"],
}
#: gnubg's own analysis and table, printed between progress lines (the bridge's marker), and
#: its text export of the analysed match (one file per game: 0.txt, 0_002.txt…).
_REFERENCE = """
gnubg.command("set confirm new off")
gnubg.command("set output mwc off")
for flag in ("verybad", "bad", "doubtful", "unmarked"):
    gnubg.command("set export moves display %s on" % flag)
for flag in ("verybad", "bad", "doubtful", "unmarked", "actual", "missed", "close"):
    gnubg.command("set export cube display %s on" % flag)
for job in bridge_input():
    gnubg.command("set jacoby " + ("on" if job["jacoby"] else "off"))
    gnubg.command("set analysis chequerplay evaluation plies %d" % job["plies"])
    gnubg.command("set analysis cubedecision evaluation plies %d" % job["plies"])
    gnubg.command("import mat " + job["mat"])
    gnubg.command("analyse match")
    bridge_progress("begin " + job["name"])
    gnubg.command("show statistics match")
    bridge_progress("end")
    gnubg.command("export match text " + job["text"])
bridge_progress("done")
"""


def gnubg_statistics(
    gnubg: str, files: dict[str, tuple[str, bool]], plies: int, tmp_path: Path
) -> tuple[dict[str, str], dict[str, list[str]]]:
    """gnubg's ``show statistics match`` for each file (name: (text, jacoby)), and its
    text export of each game.

    Run by hand rather than by ``process.run_script``, which keeps no printed output.
    """
    jobs = []
    for number, (name, (text, jacoby)) in enumerate(files.items()):
        path = tmp_path / f"{number}.mat"
        path.write_text(text)
        export = str(tmp_path / f"{number}.txt")
        jobs.append(
            {"name": name, "mat": str(path), "jacoby": jacoby, "plies": plies, "text": export}
        )
    (tmp_path / "jobs.json").write_text(json.dumps(jobs))
    script = tmp_path / "reference.py"
    script.write_text(process.PRELUDE + _REFERENCE)
    run = subprocess.run(
        [gnubg, "-t", "-q", "-p", str(script)],
        capture_output=True,
        text=True,
        timeout=300,
        env={
            **os.environ,
            "HOME": str(tmp_path),
            "LANG": "C",
            "LC_ALL": "C",
            "GNUBG_BRIDGE_IN": str(tmp_path / "jobs.json"),
            "GNUBG_BRIDGE_OUT": str(tmp_path / "unused.json"),
        },
        stdin=subprocess.DEVNULL,
        check=False,
    )
    mark = process.PROGRESS_MARK + " "
    assert f"{mark}done" in run.stdout, run.stdout[-3000:] + run.stderr[-3000:]
    tables: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in run.stdout.splitlines():
        if line.startswith(f"{mark}begin "):
            current = tables.setdefault(line.removeprefix(f"{mark}begin "), [])
        elif line.startswith(mark):
            current = None
        elif current is not None:
            current.append(line)
    exports = {
        job["name"]: [
            path.read_text()
            for path in sorted(
                [tmp_path / f"{number}.txt", *tmp_path.glob(f"{number}_*.txt")],
                key=lambda p: (len(p.name), p.name),
            )
        ]
        for number, job in enumerate(jobs)
    }
    return {name: "\n".join(lines) for name, lines in tables.items()}, exports


def sections(table: str) -> dict[str, list[str]]:
    """gnubg's table cut at its section titles."""
    found: dict[str, list[str]] = {}
    current: list[str] = []
    for line in table.splitlines():
        if line.endswith(" statistics") and not line.startswith(" "):
            current = found.setdefault(line.strip(), [])
        else:
            current.append(line)
    return found


class Analysed:
    def __init__(self, texts: dict[str, tuple[str, bool]], tmp_path: Path, gnubg: str) -> None:
        self.texts = texts
        self.progress: dict[str, list[tuple[int, int]]] = {name: [] for name in texts}
        self.ours: dict[str, MatchAnalysis] = {
            name: analyse_match(
                text,
                plies=0,
                jacoby=jacoby,
                on_game=lambda n, c, name=name: self.progress[name].append((n, c)),
                timeout=120,
            )
            for name, (text, jacoby) in texts.items()
        }
        self.gnubg, self.exports = gnubg_statistics(gnubg, texts, 0, tmp_path)


@pytest.fixture(scope="session")  # xdist may interleave modules: built once all the same
def analysed(
    django_db_setup: None,
    django_db_blocker: object,
    bot_games: BotGames,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Analysed]:
    """The four matches exported (in transactions rolled back), then analysed both ways."""
    from tests.conftest import gnubg_executable

    gnubg = gnubg_executable()
    if gnubg is None:
        pytest.skip("gnubg is not installed")
    texts: dict[str, tuple[str, bool]] = {}
    with django_db_blocker.unblock(), transaction.atomic():  # type: ignore[attr-defined]
        alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
        for name, recipe in MATCHES.items():
            # Each set on its own: a set is recorded against a database without the others.
            with transaction.atomic():
                (match,) = bot_games.load(recipe, alice=alice, bob=bob)
                texts[name] = (export_mat(match), match.jacoby)
                transaction.set_rollback(True)
        transaction.set_rollback(True)
    yield Analysed(texts, tmp_path_factory.mktemp("analysis"), gnubg)


@pytest.mark.parametrize("name", list(MATCHES))
def test_every_figure_shown_is_gnubgs_to_the_digit(name: str, analysed: Analysed) -> None:
    ours = analysed.ours[name]
    theirs = sections(analysed.gnubg[name])
    compared = 0
    for section, labels in row_labels(ours.match_length).items():
        for label in labels:
            cells = [player.texts[section].get(label) for player in ours.players]
            if cells == [None, None]:
                # Only the result rows may be absent, and then gnubg prints none either.
                assert label in ("Actual result", "Luck adjusted result")
                assert not any(line.startswith(label) for line in theirs[section])
                continue
            assert None not in cells
            row = f"{label:<40} {cells[0]:<23} {cells[1]:<23}"
            assert row in theirs[section], (section, row, theirs[section])
            compared += 1
    assert compared >= 25


#: gnubg's text prints equities to three decimals: a figure agrees when it rounds to gnubg's
#: (with room for gnubg's single precision).
PRINTED = 0.0005 + 1e-5
#: The alert gnubg's text gives a marked cube decision of each kind (or none, with "double
#: decision marked …" when the error itself is not shown).
CUBE_ALERTS = {
    "no double": "missed double",
    "double": "wrong double",
    "take": "wrong take",
    "drop": "wrong pass",
}


def agrees(ours: float | None, theirs: float | None) -> bool:
    return ours is not None and theirs is not None and abs(ours - theirs) <= PRINTED


def gnubg_records(
    analysis: MatchAnalysis, exports: list[str]
) -> Iterator[tuple[int, int, TextRecord]]:
    """(game, index in gnubg's record, what gnubg's text says of it) for every play and
    cube action of the match, paired by their order in each game."""
    assert len(exports) == analysis.games
    for number, (text, actions) in enumerate(zip(exports, analysis.records, strict=True), start=1):
        indexes = [i for i, a in enumerate(actions) if a in ("move", "double", "take", "drop")]
        records = parse_game(text)
        assert [actions[i] for i in indexes] == [r.action for r in records], number
        for index, record in zip(indexes, records, strict=True):
            yield number, index, record


def assert_play_is_gnubgs(play: Decision, theirs: TextRecord) -> None:
    assert (play.mark, play.luck_mark) == (theirs.play_mark, theirs.luck_mark)
    assert (play.luck, theirs.luck) == (None, None) or agrees(play.luck, theirs.luck)
    if not theirs.plays:  # no legal play: nothing to choose, no equity
        assert (play.made, play.made_equity, play.best_equity) == ("", None, None)
        assert play.equity_lost == 0 and play.candidates == ()
        return
    made = next(listed for listed in theirs.plays if listed.made)
    best = theirs.plays[0]
    assert (play.made, play.best) == (made.play, best.play)
    assert agrees(play.made_equity, made.equity) and agrees(play.best_equity, best.equity)
    if theirs.play_loss is not None:
        assert agrees(play.equity_lost, theirs.play_loss)
    top = [p for p in theirs.plays if p.rank is not None and p.rank <= len(play.candidates)]
    assert [c.play for c in play.candidates] == [p.play for p in top]
    assert all(agrees(c.equity, p.equity) for c, p in zip(play.candidates, top, strict=True))


def assert_cube_is_gnubgs(cube: Decision, theirs: TextRecord) -> None:
    assert cube.mark == theirs.cube_mark
    if cube.mark:
        assert theirs.cube_alert in (CUBE_ALERTS[cube.kind], "")
    options = theirs.cube
    if cube.kind in ("no double", "double"):  # from the doubler's side
        no_double = options["No double"]
        double = min(options["Double, take"], options["Double, pass"])
        made = no_double if cube.kind == "no double" else double
        best = max(no_double, double)
    else:  # a take's or a drop's record is printed from the taker's side
        take, drop = options["Double, take"], options["Double, pass"]
        made, best = (take if cube.kind == "take" else drop), max(take, drop)
    assert agrees(cube.made_equity, made) and agrees(cube.best_equity, best)
    if theirs.cube_loss is not None:
        assert agrees(cube.equity_lost, theirs.cube_loss)


@pytest.mark.parametrize("name", list(MATCHES))
def test_every_decision_is_marked_and_valued_as_gnubgs_own_record(
    name: str, analysed: Analysed
) -> None:
    """Every decision, not a sample: each play's mark, its roll's luck and mark, the plays
    listed and their equities; each cube decision's mark (a missed double on the play's
    record, a double, a take, a drop) and equities; and no decision gnubg does not list."""
    ours = analysed.ours[name]
    by_record = {(d.game, d.record, d.kind): d for d in ours.decisions}
    assert len(by_record) == len(ours.decisions)
    compared = set()
    for game, index, theirs in gnubg_records(ours, analysed.exports[name]):
        where = (name, game, index, theirs.action)
        if theirs.action == "move":
            key = (game, index, "play")
            assert key in by_record, where
            try:
                assert_play_is_gnubgs(by_record[key], theirs)
            except AssertionError as error:
                raise AssertionError((where, by_record[key], theirs)) from error
            compared.add(key)
            key = (game, index, "no double")
            if key not in by_record:  # no missed double: gnubg marks none either
                assert theirs.cube_mark == "", where
                continue
        else:
            key = (game, index, theirs.action)
            assert key in by_record, where
        try:
            assert_cube_is_gnubgs(by_record[key], theirs)
        except AssertionError as error:
            raise AssertionError((where, by_record[key], theirs)) from error
        compared.add(key)
    assert compared == set(by_record)


def test_the_matches_have_what_the_issue_asks_for(analysed: Analysed) -> None:
    """A 1-, a 5- and a 7-point match and a money session, with doubles, drops and a
    Crawford game among them, each figure differing from zero somewhere."""
    lengths = sorted(analysis.match_length for analysis in analysed.ours.values())
    assert lengths == [0, 1, 5, 7]
    decisions = [d for analysis in analysed.ours.values() for d in analysis.decisions]
    kinds = {d.kind for d in decisions}
    assert {"play", "double", "take", "drop", "no double"} <= kinds
    # The Crawford game: one side at 6 of 7 (the .mat file's score line of a game).
    assert re.search(r"^ \w+ : 6 ", analysed.texts["7 points, random cube"][0], re.M)
    marks = {d.mark for d in decisions}
    assert {"doubtful", "bad", "very bad"} <= marks
    # Each kind of cube decision marked somewhere, so the per-decision test sees them.
    assert {d.kind for d in decisions if d.mark} == {"play", "no double", "double", "take", "drop"}
    assert any(d.made == "" and d.luck_mark for d in decisions)  # a roll with no play, marked
    assert {d.luck_mark for d in decisions} >= {"very lucky", "lucky", "unlucky", "very unlucky"}


def test_progress_is_reported_game_by_game(analysed: Analysed) -> None:
    for name, analysis in analysed.ours.items():
        count = analysis.games
        assert analysed.progress[name] == [(n, count) for n in range(1, count + 1)]


def test_each_play_holds_what_the_game_page_draws(analysed: Analysed) -> None:
    for analysis in analysed.ours.values():
        for decision in analysis.decisions:
            assert decision.player in (0, 1)
            assert decision.equity_lost >= 0
            if decision.kind == "play" and decision.made_equity is None:  # no legal play
                assert decision.best_equity is None and decision.candidates == ()
                assert decision.made == "" and decision.made_steps == ()
                continue
            assert decision.made_equity is not None and decision.best_equity is not None
            assert decision.best_equity - decision.made_equity == pytest.approx(
                decision.equity_lost
            )
            if decision.kind != "play":
                assert decision.candidates == () and decision.luck is None
                continue
            assert decision.dice is not None
            assert 1 <= len(decision.candidates) <= 5
            assert decision.candidates[0].play == decision.best
            assert decision.candidates[0].steps == decision.best_steps
            equities = [c.equity for c in decision.candidates]
            assert equities == sorted(equities, reverse=True)
            if decision.made_steps:
                # gnubg's notation of the play made lists its steps.
                assert all(0 <= a <= 25 and 0 <= b <= 24 for a, b in decision.made_steps)


def test_pr_is_half_gnubgs_overall_error_rate(analysed: Analysed) -> None:
    """PR = 500 × mean error per unforced decision; gnubg's rate is 1000 × the same."""
    for analysis in analysed.ours.values():
        for player in analysis.players:
            if player.pr is None:
                continue
            decisions = player.unforced_moves + player.close_cube_decisions
            assert player.pr == pytest.approx(
                500 * (player.chequer_error_emg + player.cube_error_emg) / decisions, rel=1e-5
            )


def test_a_level_out_of_range_is_refused() -> None:
    with pytest.raises(ValueError, match="plies"):
        analyse_match("", plies=3, jacoby=False)
