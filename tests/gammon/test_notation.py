"""Reading and writing plays: the issue's examples, lenient forms, and every refusal."""

from __future__ import annotations

import pytest

from gammon import (
    AmbiguousPlayError,
    BlockedPointError,
    InvalidNotationError,
    MustEnterError,
    MustMoveError,
    MustPassError,
    MustPlayLargerDieError,
    MustUseBothDiceError,
    NoSuchCheckerError,
    NotAllHomeError,
    Position,
    WrongDiceError,
    parse_play,
)

from .test_moves import board

START = Position.start()


@pytest.mark.parametrize(
    ("position", "dice", "text", "canonical"),
    [
        (START, (6, 2), "24/18 13/11", "24/18 13/11"),
        (board({25: 1, 13: 14}, {22: 1, 1: 14}), (3, 1), "bar/22* 13/12", "bar/22* 13/12"),
        (board({6: 1, 5: 1}, {24: 15}), (6, 5), "6/off 5/off", "6/off 5/off"),
        (START, (6, 6), "8/2(2) 13/7(2)", "13/7(2) 8/2(2)"),
        (board({13: 1, 6: 14}, {7: 1, 24: 14}), (6, 6), "13/7*/1 6/off(2)", "13/7*/1 6/off(2)"),
        (START, (6, 5), "24/13", "24/13"),
    ],
)
def test_it_reads_the_standard_forms(position, dice, text, canonical) -> None:
    assert str(parse_play(position, dice, text)) == canonical


@pytest.mark.parametrize(
    "text",
    [
        "24/18 13/11",
        "13/11 24/18",
        "24/18, 13/11",
        "24/18,13/11",
        "  24 / 18   13/11 ",
        "24/18* 13/11",
    ],
)
def test_it_is_lenient_about_spacing_commas_order_and_stars(text: str) -> None:
    assert str(parse_play(START, (6, 2), text)) == "24/18 13/11"


@pytest.mark.parametrize("text", ["bar/22", "b/22", "25/22", "BAR/22*", "Bar/22"])
def test_it_accepts_every_name_of_the_bar(text: str) -> None:
    position = board({25: 1, 13: 14}, {1: 15})
    assert str(parse_play(position, (3, 3), text + " 13/10(3)")) == "bar/22 13/10(3)"


@pytest.mark.parametrize("text", ["6/off 5/off", "6/0 5/0", "6/o 5/OFF"])
def test_it_accepts_every_name_of_off(text: str) -> None:
    position = board({6: 1, 5: 1}, {24: 15})
    assert str(parse_play(position, (6, 5), text)) == "6/off 5/off"


def test_a_split_combined_move_is_the_same_play() -> None:
    assert parse_play(START, (6, 5), "24/18 18/13") == parse_play(START, (6, 5), "24/13")


def test_naming_the_point_decides_whether_a_checker_hits_on_the_way() -> None:
    position = board({24: 1, 13: 5, 6: 9}, {18: 1, 1: 14})
    quiet = parse_play(position, (6, 5), "24/13")
    hit = parse_play(position, (6, 5), "24/18/13")
    assert quiet.hits == 0 and hit.hits == 1
    assert str(hit) == "24/18*/13"


def test_pass_is_read_in_any_case_when_nothing_can_move() -> None:
    closed = board({25: 1, 13: 14}, {19: 3, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2, 1: 2})
    for word in ("pass", "PASS", " Pass "):
        play = parse_play(closed, (6, 5), word)
        assert play.is_pass and str(play) == "pass"


def test_the_engine_reads_only_the_english_word_for_pass() -> None:
    """Localising "pass" is the web layer's job (matches.forms.canonical_play_text)."""
    closed = board({25: 1, 13: 14}, {19: 3, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2, 1: 2})
    for word in ("paso", "passo"):
        with pytest.raises(InvalidNotationError):
            parse_play(closed, (6, 5), word)


@pytest.mark.parametrize(
    ("position", "dice", "text", "error"),
    [
        (board({13: 1, 6: 14}, {7: 2, 24: 13}), (6, 1), "13/7 7/6", BlockedPointError),
        (board({25: 1, 13: 14}, {24: 15}), (6, 5), "13/7 13/8", MustEnterError),
        (board({13: 1, 6: 14}, {7: 2, 24: 13}), (6, 1), "6/5", MustUseBothDiceError),
        (START, (6, 5), "13/8", MustUseBothDiceError),
        (board({13: 1}, {2: 2, 24: 13}), (6, 5), "13/8", MustPlayLargerDieError),
        (board({7: 1, 6: 2, 1: 12}, {24: 15}), (6, 1), "6/off 6/5", NotAllHomeError),
        (START, (3, 1), "7/4 6/5", NoSuchCheckerError),
        (START, (6, 5), "24/18 13/11", WrongDiceError),
        (START, (3, 1), "pass", MustMoveError),
        (START, (3, 1), "24-21 24/23", InvalidNotationError),
        (START, (3, 1), "hello", InvalidNotationError),
        (START, (3, 1), "13/", InvalidNotationError),
        (START, (3, 1), "", InvalidNotationError),
        (START, (3, 1), "8/11 6/5", InvalidNotationError),
        (
            board({25: 1, 13: 14}, {19: 3, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2, 1: 2}),
            (6, 5),
            "13/7 13/8",
            MustPassError,
        ),
    ],
)
def test_each_refusal_names_the_rule(position, dice, text, error) -> None:
    with pytest.raises(error) as raised:
        parse_play(position, dice, text)
    assert raised.value.code
    assert str(raised.value)


def test_an_ambiguous_text_is_refused_not_guessed() -> None:
    # 6/1(2) after different routes: 13/1 could pass through 7 (a blot) or not; with
    # 6-6 the route is fixed, so build a true ambiguity with 4-2 from 24 past two blots.
    position = board({24: 1, 6: 14}, {20: 1, 22: 1, 1: 13})
    with pytest.raises(AmbiguousPlayError):
        parse_play(position, (4, 2), "24/18*")
