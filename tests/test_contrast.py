"""Colour contrast: the site's text and control colours reach WCAG 2.1 AA (4.5:1 for text,
3:1 for large text, borders and focus rings), on the pages and on the SVG board."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gammon import Color
from matches.board_svg import CHECKER_COLORS, COLORS

ROOT = Path(__file__).resolve().parent.parent
CSS = (ROOT / "static" / "css" / "site.css").read_text(encoding="utf-8")
VARIABLES = dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{6})", CSS))


def luminance(hex_colour: str) -> float:
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def colour(name: str) -> str:
    return VARIABLES[name] if not name.startswith("#") else name


TEXT_PAIRS = [  # (foreground, background, where)
    ("fg", "bg", "body text"),
    ("muted", "bg", "muted and help text"),
    ("accent", "bg", "links, secondary buttons"),
    ("accent-fg", "accent", "primary buttons"),
    ("bg", "fg", "header links, badges"),
    ("fg", "ok-bg", "messages"),
    ("fg", "error-bg", "error messages"),
    ("accent", "ok-bg", "links in messages"),
    ("muted", "#ffffff", "used dice in the move panel"),
    ("fg", "#ffffff", "inputs and cards"),
    ("#ffffff", "#9b1c0c", "danger buttons"),
    ("#9b1c0c", "bg", "form errors"),
]
GRAPHIC_PAIRS = [  # 3:1, WCAG 1.4.11 non-text contrast
    ("#1a5fb4", "bg", "focus ring on the page"),
    ("#1a5fb4", COLORS["surface"], "focus ring and selection on the board"),
    ("#14652b", COLORS["surface"], "destination outline on the board"),
    (COLORS["last_move"], COLORS["surface"], "last move outline on the board"),
    (COLORS["last_move"], COLORS["light"], "last move outline across a light point"),
    (COLORS["last_move"], COLORS["halo"], "last move outline on its halo"),
    (COLORS["halo"], COLORS["frame"], "last move halo on the bar and the trays"),
    (COLORS["halo"], COLORS["dark"], "last move halo across a dark point"),
    ("muted", "#ffffff", "input borders"),
]
BOARD_TEXT = [
    (COLORS["text"], COLORS["surface"], "point numbers, names and pips"),
    (COLORS["text"], "#fbfaf7", "the cube's value"),
    (COLORS["frame"], COLORS["surface"], "borne-off counts"),
    (CHECKER_COLORS[Color.WHITE][1], CHECKER_COLORS[Color.WHITE][0], "count on a white checker"),
    (CHECKER_COLORS[Color.BLACK][1], CHECKER_COLORS[Color.BLACK][0], "count on a black checker"),
]


@pytest.mark.parametrize(("fg", "bg", "where"), TEXT_PAIRS + BOARD_TEXT)
def test_text_reaches_aa(fg: str, bg: str, where: str) -> None:
    ratio = contrast(colour(fg), colour(bg))
    assert ratio >= 4.5, f"{where}: {fg} on {bg} is {ratio:.2f}:1, below 4.5:1"


@pytest.mark.parametrize(("fg", "bg", "where"), GRAPHIC_PAIRS)
def test_controls_and_focus_reach_3_to_1(fg: str, bg: str, where: str) -> None:
    ratio = contrast(colour(fg), colour(bg))
    assert ratio >= 3, f"{where}: {fg} on {bg} is {ratio:.2f}:1, below 3:1"


def test_the_formula_matches_known_values() -> None:
    assert contrast("#000000", "#ffffff") == pytest.approx(21)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)


RULES = re.findall(r"([^{}]+)\{([^}]*)\}", re.sub(r"/\*.*?\*/", "", CSS, flags=re.S))


def test_buttons_without_a_background_set_their_own_text_colour() -> None:
    """A button drawn on the page's background must not keep the buttons' white text.

    ``button`` sets ``color: var(--accent-fg)`` (white, for the accent background): a
    class that takes the background away and not the colour leaves white on cream, as
    the notifications page's "Mark as read" did.
    """
    clear = 0
    for selector, body in RULES:
        declarations = dict(
            (name.strip(), value.strip())
            for name, _, value in (d.partition(":") for d in body.split(";") if ":" in d)
        )
        background = declarations.get("background", declarations.get("background-color", ""))
        if "button" not in selector or background not in ("none", "transparent"):
            continue
        clear += 1
        text = declarations.get("color")
        assert text, f"{selector.strip()}: no colour of its own (inherits white)"
        name = re.fullmatch(r"var\(--([\w-]+)\)", text)
        value = colour(name.group(1) if name else text)
        ratio = contrast(value, colour("bg"))
        assert ratio >= 4.5, f"{selector.strip()}: {text} on the page is {ratio:.2f}:1"
    assert clear >= 3  # button.secondary, button.link, button.link-button


def rule(selector: str) -> dict[str, str]:
    """The declarations of the rules whose selector list names ``selector``, in order."""
    found: dict[str, str] = {}
    for selectors, body in RULES:
        if selector in (s.strip() for s in selectors.split(",")):
            for name, _, value in (d.partition(":") for d in body.split(";") if ":" in d):
                found[name.strip()] = value.strip()
    return found


def value(declared: str) -> str:
    name = re.fullmatch(r"var\(--([\w-]+)\)", declared)
    return colour(name.group(1) if name else declared)


def test_the_headers_badges_stand_out_and_read() -> None:
    """Issue 26: the unread count in the header was the page's dark badge on the dark
    header, a pill nobody could see. In the header a badge is seen against it (3:1) and
    its number reads on it (4.5:1)."""
    header = value(rule(".site-header")["background"])
    badge = rule(".badge") | rule(".site-header .badge")
    background, text = value(badge["background"]), value(badge["color"])
    assert contrast(background, header) >= 3, f"the badge on the header: {background} on {header}"
    assert contrast(text, background) >= 4.5, f"its count: {text} on {background}"
