"""The pure formulas: percentages, FIBS ratings, and the chi-square p-value."""

import math
from decimal import Decimal

import pytest

from stats.maths import (
    chi_square_sf,
    chi_square_test,
    experience_factor,
    fibs_rating_change,
    percentage,
    regularized_upper_gamma,
)

# --------------------------------------------------------------------------- percentages


def test_the_issues_example_reads_exactly_as_in_the_issue() -> None:
    total = 1046272 + 1047196 + 1063
    assert percentage(1046272, total) == Decimal("49.95")
    assert percentage(1047196, total) == Decimal("49.99")  # 49.9966…: truncated, not 50.00
    assert percentage(1063, total) == Decimal("0.05")


def test_percentages_are_truncated_to_two_decimals() -> None:
    assert percentage(2, 3) == Decimal("66.66")
    assert percentage(1, 3) == Decimal("33.33")
    assert percentage(1, 8) == Decimal("12.50")
    assert percentage(9999, 10000) == Decimal("99.99")
    assert percentage(99999, 100000) == Decimal("99.99")  # never 100.00 with a loss left


def test_a_whole_share_is_one_hundred() -> None:
    assert percentage(7, 7) == Decimal("100.00")


def test_zero_finished_games_give_zero_percent() -> None:
    assert percentage(0, 0) == Decimal("0.00")


# --------------------------------------------------------------------------- ratings


def test_experience_factor_falls_from_five_to_one_at_400() -> None:
    assert experience_factor(0) == 5.0
    assert experience_factor(250) == 2.5
    assert experience_factor(400) == 1.0
    assert experience_factor(5000) == 1.0


def test_experienced_equal_players_in_a_one_point_match_move_two_points() -> None:
    change = fibs_rating_change(
        winner_rating=1500, loser_rating=1500, winner_experience=400, loser_experience=900, length=1
    )
    assert change.upset_probability == 0.5
    assert (change.gain, change.loss) == (2.0, 2.0)


def test_newcomers_move_five_times_as_fast() -> None:
    change = fibs_rating_change(
        winner_rating=1500, loser_rating=1500, winner_experience=0, loser_experience=0, length=1
    )
    assert (change.gain, change.loss) == (10.0, 10.0)


def test_each_player_uses_their_own_experience() -> None:
    change = fibs_rating_change(
        winner_rating=1500, loser_rating=1500, winner_experience=0, loser_experience=400, length=1
    )
    assert (change.gain, change.loss) == (10.0, 2.0)


def test_the_change_grows_with_the_square_root_of_the_length() -> None:
    change = fibs_rating_change(
        winner_rating=1500, loser_rating=1500, winner_experience=400, loser_experience=400, length=5
    )
    assert change.gain == pytest.approx(2 * math.sqrt(5))  # 4 * sqrt(5) * 0.5 = 4.4721…


def test_a_favourite_gains_less_than_an_underdog() -> None:
    # D = 200, n = 1: P_upset = 1 / (10 ** 0.1 + 1) = 0.4426884…
    favourite = fibs_rating_change(
        winner_rating=1600, loser_rating=1400, winner_experience=400, loser_experience=400, length=1
    )
    underdog = fibs_rating_change(
        winner_rating=1400, loser_rating=1600, winner_experience=400, loser_experience=400, length=1
    )
    assert favourite.upset_probability == pytest.approx(0.4426884)
    assert favourite.gain == pytest.approx(1.7707538)
    assert underdog.gain == pytest.approx(2.2292462)
    assert favourite.gain + underdog.gain == pytest.approx(4.0)


def test_a_money_session_has_no_rating_change() -> None:
    with pytest.raises(ValueError):
        fibs_rating_change(
            winner_rating=1500,
            loser_rating=1500,
            winner_experience=0,
            loser_experience=0,
            length=0,
        )


# --------------------------------------------------------------------------- chi-square

#: (statistic, degrees of freedom, p-value) from the standard chi-square table
#: (upper critical values; e.g. Abramowitz & Stegun, table 26.8).
TABLE = [
    (3.841458820694124, 1, 0.05),
    (6.634896601021214, 1, 0.01),
    (11.070497693516351, 5, 0.05),
    (15.08627246938899, 5, 0.01),
    (31.410432844230918, 20, 0.05),
    (37.56623478662507, 20, 0.01),
    (19.337429229428258, 20, 0.5),
    (12.442609210450023, 20, 0.9),
    (45.31474661812586, 20, 0.001),
]


@pytest.mark.parametrize(("statistic", "freedom", "p"), TABLE)
def test_chi_square_matches_the_table(statistic: float, freedom: int, p: float) -> None:
    assert chi_square_sf(statistic, freedom) == pytest.approx(p, rel=1e-9)


@pytest.mark.parametrize("x", [0.01, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 30.0, 80.0])
def test_chi_square_matches_closed_forms(x: float) -> None:
    assert chi_square_sf(x, 1) == pytest.approx(math.erfc(math.sqrt(x / 2)), rel=1e-9)
    assert chi_square_sf(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-9)
    assert chi_square_sf(x, 4) == pytest.approx(math.exp(-x / 2) * (1 + x / 2), rel=1e-9)


def test_chi_square_matches_scipy_when_installed() -> None:
    stats = pytest.importorskip("scipy.stats")
    for freedom in (1, 2, 3, 5, 10, 20, 35):
        for x in (0.001, 0.3, 1.7, 4.0, 9.5, 20.0, 31.4, 60.0, 150.0):
            assert chi_square_sf(x, freedom) == pytest.approx(
                stats.chi2.sf(x, freedom), rel=1e-8, abs=1e-300
            )


def test_the_upper_gamma_is_one_at_zero_and_rejects_bad_arguments() -> None:
    assert regularized_upper_gamma(3.0, 0.0) == 1.0
    with pytest.raises(ValueError):
        regularized_upper_gamma(0.0, 1.0)
    with pytest.raises(ValueError):
        regularized_upper_gamma(1.0, -1.0)


def test_perfectly_fair_counts_give_a_p_value_of_one() -> None:
    result = chi_square_test([36] * 6, [1 / 6] * 6)
    assert result.statistic == 0.0
    assert result.degrees_of_freedom == 5
    assert result.p_value == pytest.approx(1.0)


def test_loaded_dice_give_a_tiny_p_value() -> None:
    result = chi_square_test([100, 100, 100, 100, 100, 400], [1 / 6] * 6)
    assert result.p_value is not None and result.p_value < 1e-50


def test_no_rolls_give_no_p_value() -> None:
    assert chi_square_test([0] * 21, [1 / 21] * 21).p_value is None
