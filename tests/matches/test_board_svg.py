"""The server-side board: well-formed, and true to the position it draws."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterator

import pytest
from django.utils import translation

from challenges import services as challenge_services
from gammon import Color, Position, Step, position_id
from matches import record
from matches.board_svg import LastMove, board_svg, last_move_text

NS = {"svg": "http://www.w3.org/2000/svg"}


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    with translation.override("en"):
        yield


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def stacks(root: ET.Element) -> dict[str, tuple[str, int]]:
    """``{point: (colour, count)}`` for every stack of checkers drawn (``bar`` included)."""
    return {
        g.get("data-point"): (g.get("data-color"), int(g.get("data-count")))
        for g in root.iterfind(".//svg:g[@class='checkers']", NS)
    }


def point_number_x(root: ET.Element, point: int) -> float:
    for text in root.iterfind(".//svg:text[@class='point-number']", NS):
        if text.get("data-point") == str(point):
            return float(text.get("x"))
    raise AssertionError(f"no number for point {point}")


def test_it_is_a_standalone_scalable_svg_with_a_description() -> None:
    svg = board_svg(Position.start(), viewer_color=Color.WHITE)
    root = parse(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert root.get("viewBox", "").startswith("0 0 ")
    assert root.get("role") == "img"
    label = root.get("aria-label")
    assert position_id(Position.start()) in label
    assert "2 on 24, 5 on 13, 3 on 8, 5 on 6" in label
    assert root.find("svg:title", NS).text == label


def test_the_checkers_drawn_match_the_position_from_the_viewers_side() -> None:
    root = parse(board_svg(Position.start(), viewer_color=Color.WHITE))
    drawn = stacks(root)
    assert drawn["24"] == ("white", 2)
    assert drawn["13"] == ("white", 5)
    assert drawn["6"] == ("white", 5)
    assert drawn["1"] == ("black", 2)
    assert drawn["19"] == ("black", 5)
    assert sum(count for _, count in drawn.values()) == 30
    # Seen by Black, Black's checkers are on its own 24, 13, 8 and 6.
    drawn = stacks(parse(board_svg(Position.start(), viewer_color=Color.BLACK)))
    assert drawn["24"] == ("black", 2)
    assert drawn["1"] == ("white", 2)


def test_a_tall_stack_shows_its_count_and_bar_and_tray_are_drawn() -> None:
    position = Position.from_sides({6: 9, 25: 1}, {1: 2, 25: 2}, turn=Color.WHITE)
    root = parse(board_svg(position, viewer_color=Color.WHITE))
    six = next(
        g for g in root.iterfind(".//svg:g[@class='checkers']", NS) if g.get("data-point") == "6"
    )
    assert six.get("data-count") == "9"
    assert len(six.findall("svg:circle", NS)) == 5
    assert six.find("svg:text", NS).text == "9"
    bars = [
        g for g in root.iterfind(".//svg:g[@class='checkers']", NS) if g.get("data-point") == "bar"
    ]
    assert sorted((g.get("data-color"), g.get("data-count")) for g in bars) == [
        ("black", "2"),
        ("white", "1"),
    ]
    off = {
        g.get("data-color"): g.get("data-count")
        for g in root.iterfind(".//svg:g[@class='off']", NS)
    }
    assert off == {"white": "5", "black": "11"}


def test_the_dice_are_drawn_in_the_chosen_order() -> None:
    root = parse(board_svg(Position.start(), viewer_color=Color.WHITE, dice=(5, 2)))
    assert [g.get("data-value") for g in root.iterfind(".//svg:g[@class='die']", NS)] == ["5", "2"]
    root = parse(board_svg(Position.start(), viewer_color=Color.WHITE, dice=(5, 2), swap_dice=True))
    assert [g.get("data-value") for g in root.iterfind(".//svg:g[@class='die']", NS)] == ["2", "5"]
    root = parse(board_svg(Position.start(), viewer_color=Color.WHITE))
    assert root.find(".//svg:g[@class='die']", NS) is None


def test_the_higher_die_comes_first_whichever_order_they_were_thrown_in() -> None:
    """Issue 26: the caption said "46" where the record said "64"."""
    root = parse(board_svg(Position.start(), viewer_color=Color.WHITE, dice=(2, 5)))
    assert [g.get("data-value") for g in root.iterfind(".//svg:g[@class='die']", NS)] == ["5", "2"]
    assert "rolled 5 and 2." in root.get("aria-label")
    thrown = LastMove(Color.BLACK, (2, 5), "13/8 13/11", (Step(13, 8), Step(13, 11)))
    assert last_move_text(thrown) == "Last move: Black 52: 13/8 13/11"


@pytest.mark.parametrize(
    ("owner", "value", "where", "shown"),
    [(None, 1, "centre", "64"), (Color.WHITE, 2, "white", "2"), (Color.BLACK, 8, "black", "8")],
)
def test_the_cube_shows_its_value_on_its_owners_side(
    owner: Color | None, value: int, where: str, shown: str
) -> None:
    svg = board_svg(Position.start(), viewer_color=Color.WHITE, cube_value=value, cube_owner=owner)
    cube = parse(svg).find(".//svg:g[@class='cube']", NS)
    assert cube.get("data-value") == str(value)
    assert cube.get("data-owner") == where
    assert cube.find("svg:text", NS).text == shown
    y = float(cube.find("svg:rect", NS).get("y"))
    if owner == Color.WHITE:  # the viewer: bottom
        assert y > 300
    elif owner == Color.BLACK:
        assert y < 100


def test_point_numbers_are_from_the_viewers_side_and_home_side_flips_them() -> None:
    right = parse(board_svg(Position.start(), viewer_color=Color.WHITE, home_side="right"))
    assert point_number_x(right, 1) > point_number_x(right, 12)  # home board bottom right
    assert point_number_x(right, 24) > point_number_x(right, 13)
    left = parse(board_svg(Position.start(), viewer_color=Color.WHITE, home_side="left"))
    assert left.get("data-home-side") == "left"
    assert point_number_x(left, 1) < point_number_x(left, 12)  # home board bottom left
    assert point_number_x(left, 1) == pytest.approx(
        float(left.get("viewBox").split()[2]) - point_number_x(right, 1)
    )


def test_the_score_and_pip_counts_are_written() -> None:
    svg = board_svg(
        Position.start(),
        viewer_color=Color.BLACK,
        names=("Alice", "Bob"),
        score=(3, 1),
        length=7,
    )
    root = parse(svg)
    pips = {
        t.get("data-color"): t.get("data-pips")
        for t in root.iterfind(".//svg:text[@class='pips']", NS)
    }
    assert pips == {"white": "167", "black": "167"}
    assert "score 3" in svg and "score 1" in svg
    assert "Alice (White)" in svg and "Bob (Black)" in svg
    assert "7-point match" in root.get("aria-label")


def test_names_are_escaped() -> None:
    svg = board_svg(Position.start(), names=("<b>&", 'x"y'))
    parse(svg)  # still well-formed
    assert "<b>" not in svg


def test_a_game_is_drawn_with_its_dice_cube_and_players(player, opponent, monkeypatch) -> None:
    from django.utils import timezone

    from gammon import FixedDice

    monkeypatch.setattr(record, "dice", FixedDice([3, 1]))
    now = timezone.now()
    challenge = challenge_services.challenge_create(challenger=player, opponent=opponent, now=now)
    game = challenge_services.challenge_accept(
        challenge_id=challenge.pk, user=opponent, now=now
    ).current_game
    root = parse(board_svg(game, viewer_color=Color.WHITE))
    assert [g.get("data-value") for g in root.iterfind(".//svg:g[@class='die']", NS)] == ["3", "1"]
    assert root.find(".//svg:g[@class='cube']", NS).get("data-owner") == "centre"
    assert game.match.white.public_name in root.get("aria-label")
    assert position_id(game.position()) in root.get("aria-label")


# --------------------------------------------------------------------------- the last move


def marks(root: ET.Element) -> dict[str, str]:
    """``{point: role}`` for every point outlined as part of the last move."""
    return {
        rect.get("data-point"): rect.get("data-role")
        for rect in root.iterfind(".//svg:rect[@class='last-move-mark']", NS)
    }


BLACK_52 = LastMove(Color.BLACK, (5, 2), "13/8 13/11", (Step(13, 8), Step(13, 11)))


@pytest.mark.parametrize("home_side", ["right", "left"])
def test_the_last_move_marks_its_points_from_each_viewers_side(home_side: str) -> None:
    position = Position.start(turn=Color.WHITE)
    for viewer, expected in (
        (Color.BLACK, {"13": "from", "8": "to", "11": "to"}),
        (Color.WHITE, {"12": "from", "17": "to", "14": "to"}),
    ):
        root = parse(
            board_svg(position, viewer_color=viewer, home_side=home_side, last_move=BLACK_52)
        )
        assert marks(root) == expected
        for rect in root.iterfind(".//svg:rect[@class='last-move-mark']", NS):
            centre = float(rect.get("x")) + float(rect.get("width")) / 2
            assert centre == point_number_x(root, int(rect.get("data-point")))
        group = root.find(".//svg:g[@class='last-move']", NS)
        assert group.get("data-color") == "black"
        assert group.get("pointer-events") == "none"


def test_a_point_passed_through_is_both_left_and_reached_and_bar_and_tray_are_marked() -> None:
    steps = (Step(25, 22, True), Step(22, 19), Step(3, 0))
    move = LastMove(Color.WHITE, (3, 3), "bar/22*/19 3/off", steps)
    mine = parse(board_svg(Position.start(), viewer_color=Color.WHITE, last_move=move))
    assert marks(mine) == {"bar": "from", "22": "from to", "19": "to", "3": "from", "off": "to"}
    theirs = parse(board_svg(Position.start(), viewer_color=Color.BLACK, last_move=move))
    assert marks(theirs) == {"bar": "from", "3": "from to", "6": "to", "22": "from", "off": "to"}

    def y_of(root: ET.Element, point: str) -> float:
        rect = root.find(f".//svg:rect[@class='last-move-mark'][@data-point='{point}']", NS)
        return float(rect.get("y"))

    # The mover's half of the bar and their tray: at the bottom for the mover, on top
    # for the opponent (whose checkers on the bar sit below the middle).
    assert y_of(mine, "off") > y_of(theirs, "off")
    assert y_of(mine, "bar") < y_of(theirs, "bar")


def test_the_last_move_is_told_in_the_description() -> None:
    root = parse(board_svg(Position.start(), viewer_color=Color.WHITE, last_move=BLACK_52))
    assert root.get("aria-label").endswith(" Last move: Black 52: 13/8 13/11.")
    assert root.find("svg:title", NS).text == root.get("aria-label")
    assert last_move_text(BLACK_52) == "Last move: Black 52: 13/8 13/11"
    with translation.override("es"):
        assert last_move_text(BLACK_52) == "Última jugada: Negras 52: 13/8 13/11"
    with translation.override("ca"):
        assert last_move_text(BLACK_52).startswith("Última jugada: ")


def test_a_pass_is_told_but_marks_nothing_and_no_move_marks_nothing() -> None:
    passed = LastMove(Color.BLACK, (6, 6), "pass")
    root = parse(board_svg(Position.start(), viewer_color=Color.WHITE, last_move=passed))
    assert marks(root) == {}
    assert "Last move: Black 66: pass." in root.get("aria-label")
    plain = parse(board_svg(Position.start(), viewer_color=Color.WHITE))
    assert plain.find(".//svg:g[@class='last-move']", NS) is None
    assert "Last move" not in plain.get("aria-label")


def test_a_best_play_is_drawn_beside_the_play_made_in_its_own_dashed_colour() -> None:
    """The analysis of a play: the play made (amber, solid) and gnubg's best (blue, dashed),
    each an arrow per step from where the checker was to where it went."""
    best = LastMove(Color.BLACK, (5, 2), "6/1* 13/11", (Step(6, 1, True), Step(13, 11)))
    root = parse(
        board_svg(
            Position.start(turn=Color.BLACK),
            viewer_color=Color.WHITE,
            last_move=BLACK_52,
            best_move=best,
        )
    )
    made = root.findall(".//svg:line[@class='last-move-arrow']", NS)
    shown = root.findall(".//svg:line[@class='best-move-arrow']", NS)
    assert len(made) == len(shown) == 2
    assert {line.get("stroke") for line in shown} != {line.get("stroke") for line in made}
    assert all(line.get("stroke-dasharray") for line in shown)
    assert not any(line.get("stroke-dasharray") for line in made)
    # Black's 13 and 6 are White's 12 and 19: both plays leave the same 13-point.
    starts = sorted(float(line.get("x1")) for line in shown)
    assert float(made[0].get("x1")) in starts or float(made[1].get("x1")) in starts
    assert "Best play: 6/1* 13/11." in root.get("aria-label")
    plain = parse(board_svg(Position.start(), viewer_color=Color.WHITE, last_move=BLACK_52))
    assert plain.find(".//svg:g[@class='best-move']", NS) is None
