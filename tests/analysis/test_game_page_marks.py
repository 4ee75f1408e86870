"""gnubg's marks on the game page (issue 15): the record of a finished, analysed game
marked ?!, ? and ?? with a word for screen readers, and a marked ply's detail (the play
made and gnubg's best as arrows on the board, the top plays with their equities); and
nothing of it on a game still in play."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from datetime import UTC, datetime

import pytest
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext

from accounts.models import User
from analysis.models import Decision, MatchAnalysis
from analysis.templatetags.analysis_marks import LUCK, SYMBOLS
from tests.bot_games import BotGames

from .helpers import SEVEN_POINTS, analysed_match, match_in_play

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
SVG = "{http://www.w3.org/2000/svg}"


def game_page(game_id: int, query: str = "") -> str:
    response = Client().get(f"/games/{game_id}/{query}")
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.gnubg
def test_an_analysed_games_record_is_marked_and_a_marked_ply_shows_both_plays(
    bot_games: BotGames, player: User, opponent: User
) -> None:
    match = analysed_match(bot_games, player, opponent)
    marked = Decision.objects.exclude(mark="").exclude(ply=None)
    game = next(g for g in match.games.all() if marked.filter(game=g).exists())

    html = game_page(game.pk)
    shown = re.findall(r'class="analysis-mark mark-([\w-]+)" href="\?ply=(\d+)#analysis"', html)
    expected = {(d.mark.replace(" ", "-"), str(d.ply)) for d in marked.filter(game=game)}
    assert set(shown) == expected and len(shown) == len(expected)
    for mark, symbol in SYMBOLS.items():
        if mark.replace(" ", "-") in {m for m, _ in shown}:
            # The symbol, and the word beside it for those who do not see the colour.
            label = dict(Decision.Mark.choices)[mark]
            assert f'<span aria-hidden="true">{symbol}</span>' in html
            assert f'<span class="visually-hidden">{label}</span>' in html
    assert 'id="analysis"' not in html  # no ply asked for: no detail

    play = marked.filter(game=game, kind=Decision.Kind.PLAY).order_by("-equity_lost").first()
    assert play is not None, "the match has a marked play (its dice are seeded)"
    detail = game_page(game.pk, f"?ply={play.ply}")
    section = detail[detail.index('id="analysis"') :]
    assert play.made in section and play.best in section
    assert f"{play.made_equity:.3f}" in section and f"{play.best_equity:.3f}" in section
    assert f"{play.equity_lost:.3f} lost" in section
    for candidate in play.candidates:
        assert candidate["play"] in section
    board = section[section.index("<svg") : section.index("</svg>") + 6]
    root = ET.fromstring(board)
    made = root.findall(f".//{SVG}line[@class='last-move-arrow']")
    best = root.findall(f".//{SVG}line[@class='best-move-arrow']")
    assert len(made) == len(play.made_steps) and len(best) == len(play.best_steps)
    assert f"Best play: {play.best}." in root.get("aria-label")


@pytest.mark.usefixtures("gnubg_here")
def test_a_game_in_play_shows_no_mark_and_no_analysis_of_any_ply(
    player: User, opponent: User
) -> None:
    match = match_in_play(player, opponent, NOW)
    game = match.games.get()
    html = game_page(game.pk, "?ply=1")
    assert "analysis-mark" not in html and 'id="analysis"' not in html


@pytest.mark.gnubg
def test_a_roll_with_no_legal_play_shows_its_luck_and_no_equity(
    bot_games: BotGames, player: User, opponent: User
) -> None:
    """gnubg marks the luck of a roll that cannot be played too (its record says "cannot
    move"): the pass's ply shows that luck, and no play nor equity to compare."""
    match = analysed_match(bot_games, player, opponent)
    passed = Decision.objects.filter(game__match=match, kind=Decision.Kind.PLAY, made="")
    decision = passed.exclude(luck_mark="").first()
    assert decision is not None, "the match has a roll with no legal play (its dice are seeded)"
    assert decision.made_equity is None and decision.best_equity is None
    assert decision.game.events.get(ply=decision.ply).kind == "pass"
    section = game_page(decision.game_id, f"?ply={decision.ply}")
    section = section[section.index('id="analysis"') :]
    assert "No legal play: nothing to choose." in section
    assert f"{LUCK[decision.luck_mark]} ({decision.luck:.3f})" in section
    assert "no error" not in section and "ply-plays" not in section


#: gnubg's marks from the least to the worst.
SEVERITY = {"": 0, "doubtful": 1, "bad": 2, "very bad": 3}
#: A record line's link to its position, and the mark after it (``None``: unmarked).
LINE = re.compile(
    r'<a class="what" href="\?ply=(\d+)#board"[^>]*>[^<]*</a>'
    r'(?: <a class="analysis-mark mark-([\w-]+)" href="\?ply=(\d+)#analysis")?'
)


def turns_worst(decisions: list[Decision]) -> dict[int, Decision]:
    """The worst decision of each line of the record, by the ply the line leads to: a turn
    is its play and the missed double before its roll (one record of gnubg's), a cube
    action its own line."""
    turns: dict[int, list[Decision]] = {}
    for decision in decisions:
        turns.setdefault(decision.record, []).append(decision)
    worst = {}
    for turn in turns.values():
        line = next(d for d in turn if d.kind != Decision.Kind.NO_DOUBLE)
        worst[line.ply] = max(turn, key=lambda d: (SEVERITY[d.mark], d.equity_lost))
    return worst


def steps(html: str) -> tuple[str | None, str | None]:
    found = [
        re.search(rf'id="record-{way}" rel="{way}" href="([^"#]*)#board"', html)
        for way in ("prev", "next")
    ]
    return found[0] and found[0].group(1), found[1] and found[1].group(1)


@pytest.mark.gnubg
def test_a_turns_line_shows_its_worst_mark_and_the_steps_stop_at_its_cube_decision(
    bot_games: BotGames, player: User, opponent: User
) -> None:
    """A missed double is judged at the roll's ply, before the play: the turn's line shows
    the worse of the two marks (linking to its analysis), and ◀ ▶ stop at the roll, where
    the missed double's analysis is shown."""
    match = analysed_match(bot_games, player, opponent, SEVEN_POINTS)
    missed = Decision.objects.filter(game__match=match, kind=Decision.Kind.NO_DOUBLE)
    assert missed.exclude(mark="").exists(), "the match has a marked missed double"
    for game in match.games.all():
        worst = turns_worst(list(Decision.objects.filter(game=game)))
        shown = {int(line): (mark, ply) for line, mark, ply in LINE.findall(game_page(game.pk))}
        assert shown == {
            line: (d.mark.replace(" ", "-"), str(d.ply)) if d.mark else ("", "")
            for line, d in worst.items()
        } | {line: ("", "") for line in shown.keys() - worst.keys()}, game.number

    decision = missed.exclude(mark="").first()
    play = Decision.objects.get(game=decision.game, record=decision.record, kind="play")
    roll, move = decision.ply, play.ply
    assert roll < move
    at_move = game_page(decision.game_id, f"?ply={move}")
    assert steps(at_move)[0] == f"?ply={roll}"
    at_roll = game_page(decision.game_id, f"?ply={roll}")
    assert steps(at_roll)[1] == f"?ply={move}"
    # The turn's line is the one shown; the analysis is the missed double's.
    assert f'href="?ply={move}#board" aria-current="true"' in at_roll
    section = at_roll[at_roll.index('id="analysis"') :]
    assert "missed double" in section and "No double" in section
    assert f"{decision.equity_lost:.3f} lost" in section

    # Without the analysis, the steps go from line to line as before.
    MatchAnalysis.objects.filter(match=match).delete()
    assert steps(game_page(decision.game_id, f"?ply={move}"))[0] != f"?ply={roll}"


@pytest.mark.gnubg
@pytest.mark.parametrize("language", ["es", "ca"])
def test_a_cube_decisions_analysis_names_the_actions_in_the_readers_language(
    bot_games: BotGames, player: User, opponent: User, language: str
) -> None:
    """The cube actions ("Double", "No double", "Take", "Drop") are words in the reader's
    language, not notation."""
    match = analysed_match(bot_games, player, opponent)
    for decision in Decision.objects.filter(game__match=match).exclude(kind="play"):
        response = Client(HTTP_ACCEPT_LANGUAGE=language).get(
            f"/games/{decision.game_id}/?ply={decision.ply}"
        )
        html = response.content.decode()
        section = html[html.index('id="analysis"') :]
        with translation.override(language):
            made, best = gettext(decision.made), gettext(decision.best)
        assert made != decision.made and best != decision.best
        assert f'<span class="notation">{made}</span>' in section
        assert f'<span class="notation">{best}</span>' in section
