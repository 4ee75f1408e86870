"""Tournament pairings: knock-out seeding and byes, round-robin schedules and groups, Swiss."""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Sequence
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gammon.errors import (
    BracketError,
    NoPairingError,
    RulesError,
    TournamentError,
    TournamentPlayersError,
    TournamentResultError,
)
from gammon.tournament import (
    Bracket,
    MatchResult,
    Pairing,
    Slot,
    SwissRound,
    knockout_seeding,
    rank_group,
    round_robin_pairs,
    seeding_order,
    split_groups,
    swiss_pair,
    swiss_standings,
)

# Knock-out ----------------------------------------------------------------------


def test_the_seeding_order_of_sixteen_is_the_standard_one() -> None:
    assert seeding_order(16) == (1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11)
    assert seeding_order(2) == (1, 2)


@pytest.mark.parametrize("size", [0, 1, 3, 12])
def test_a_bracket_is_a_power_of_two_wide(size: int) -> None:
    with pytest.raises(TournamentPlayersError):
        seeding_order(size)


@given(st.integers(min_value=1, max_value=10))
def test_the_top_seeds_of_each_power_of_two_sit_in_separate_sections(power: int) -> None:
    size = 2**power
    order = seeding_order(size)
    assert sorted(order) == list(range(1, size + 1))
    assert all(order[i] + order[i + 1] == size + 1 for i in range(0, size, 2))
    for sections in (2**k for k in range(power + 1)):
        width = size // sections
        best = [min(order[s * width : (s + 1) * width]) for s in range(sections)]
        assert sorted(best) == list(range(1, sections + 1))


def test_thirteen_players_leave_byes_to_the_top_three_seeds() -> None:
    bracket = knockout_seeding([f"p{seed}" for seed in range(1, 14)])
    assert (bracket.size, bracket.rounds, bracket.final) == (16, 4, Slot(4, 0))
    byes = [slot for slot in bracket.slots(1) if bracket.is_bye(slot)]
    assert [bracket.players(slot, {})[0] for slot in byes] == ["p1", "p2", "p3"]
    first = [(m.top, m.bottom) for m in bracket.ready({}) if m.slot.round == 1]
    assert first == [
        ("p8", "p9"),
        ("p4", "p13"),
        ("p5", "p12"),
        ("p7", "p10"),
        ("p6", "p11"),
    ]
    assert [m for m in bracket.ready({}) if m.slot.round > 1] == []


def test_byes_that_meet_in_the_second_round_start_at_once() -> None:
    bracket = knockout_seeding(["ann", "bob", "cy", "di", "ed"])
    assert bracket.entrants == ("ann", None, "di", "ed", "bob", None, "cy", None)
    assert [(m.slot, m.top, m.bottom) for m in bracket.ready({})] == [
        (Slot(1, 1), "di", "ed"),
        (Slot(2, 1), "bob", "cy"),
    ]


def test_a_match_starts_as_soon_as_both_players_are_known() -> None:
    bracket = knockout_seeding(list(range(1, 9)))
    winners = {Slot(1, 0): 1}
    assert Slot(2, 0) not in {m.slot for m in bracket.ready(winners)}
    winners[Slot(1, 1)] = 5
    ready = {m.slot: (m.top, m.bottom) for m in bracket.ready(winners)}
    assert ready == {Slot(2, 0): (1, 5), Slot(1, 2): (2, 7), Slot(1, 3): (3, 6)}


def test_the_winner_goes_on_to_the_side_the_slot_names() -> None:
    bracket = knockout_seeding(list(range(1, 9)))
    assert bracket.next_slot(Slot(1, 3)) == Slot(2, 1) and Slot(1, 3).side == 1
    assert bracket.next_slot(Slot(1, 2)) == Slot(2, 1) and Slot(1, 2).side == 0
    assert bracket.next_slot(bracket.final) is None
    winners = {Slot(1, 2): 7, Slot(1, 3): 3}
    assert bracket.players(Slot(2, 1), winners) == (7, 3)
    assert bracket.seed(7) == 7


def test_with_the_better_seed_always_winning_the_final_is_one_against_two() -> None:
    bracket = knockout_seeding(list(range(1, 12)))
    winners: dict[Slot, int] = {}
    while ready := bracket.ready(winners):
        for match in ready:
            winners[match.slot] = min(match.top, match.bottom)
    assert bracket.players(bracket.final, winners) == (1, 2)
    assert (bracket.players(Slot(3, 0), winners), bracket.players(Slot(3, 1), winners)) == (
        (1, 4),
        (2, 3),
    )
    assert bracket.champion(winners) == 1


def test_two_players_play_the_final_at_once() -> None:
    bracket = knockout_seeding(["ann", "bob"])
    assert [(m.slot, m.top, m.bottom) for m in bracket.ready({})] == [(Slot(1, 0), "ann", "bob")]
    assert bracket.champion({}) is None
    assert bracket.champion({Slot(1, 0): "bob"}) == "bob"


@settings(max_examples=60)
@given(st.integers(min_value=2, max_value=40), st.integers(min_value=0))
def test_any_field_plays_out_to_one_champion_in_n_minus_one_matches(n: int, seed: int) -> None:
    rng = random.Random(seed)
    bracket = knockout_seeding(list(range(n)))
    size = bracket.size
    assert size // 2 < n <= size
    assert all(
        not (bracket.entrants[2 * i] is None and bracket.entrants[2 * i + 1] is None)
        for i in range(size // 2)
    )
    byes = {bracket.players(slot, {})[0] for slot in bracket.slots(1) if bracket.is_bye(slot)}
    assert byes == set(range(size - n))  # the top seeds, by rating
    winners: dict[Slot, int] = {}
    started: list[Slot] = []
    rounds_played: Counter[tuple[int, int]] = Counter()
    while ready := bracket.ready(winners):
        match = rng.choice(ready)  # matches finish in any order
        if match.slot not in started:
            started.append(match.slot)
        assert bracket.players(match.slot, winners) == (match.top, match.bottom)
        for player in (match.top, match.bottom):
            rounds_played[player, match.slot.round] += 1
        winners[match.slot] = rng.choice((match.top, match.bottom))
    assert len(started) == len(winners) == n - 1
    assert set(rounds_played.values()) == {1}
    champion = bracket.champion(winners)
    assert champion is not None and champion == winners[bracket.final]


def test_a_winner_must_have_played_the_match() -> None:
    bracket = knockout_seeding(list(range(1, 9)))
    with pytest.raises(BracketError, match="did not play"):
        bracket.ready({Slot(1, 0): 2})
    with pytest.raises(BracketError, match="not both known"):
        bracket.ready({Slot(2, 0): 1})
    with pytest.raises(BracketError, match="no match"):
        bracket.ready({Slot(4, 0): 1})
    with pytest.raises(BracketError, match="no match"):
        bracket.players(Slot(1, 4), {})
    with pytest.raises(BracketError):
        bracket.slots(4)
    with pytest.raises(BracketError):
        bracket.seed(9)


def test_a_bye_needs_no_winner_and_takes_only_its_own_player() -> None:
    bracket = knockout_seeding([1, 2, 3])
    assert bracket.ready({Slot(1, 0): 1}) == bracket.ready({})
    with pytest.raises(BracketError, match="has a bye"):
        bracket.ready({Slot(1, 0): 3})


def test_a_bracket_needs_two_different_players() -> None:
    with pytest.raises(TournamentPlayersError):
        knockout_seeding(["ann"])
    with pytest.raises(TournamentPlayersError):
        Bracket(("ann", "bob", "ann"))


def test_tournament_errors_are_rules_errors_with_stable_codes() -> None:
    codes = {
        TournamentError: "tournament",
        TournamentPlayersError: "tournament_players",
        TournamentResultError: "tournament_result",
        BracketError: "bracket",
        NoPairingError: "no_pairing",
    }
    for error, code in codes.items():
        assert issubclass(error, TournamentError) and issubclass(error, RulesError)
        assert error.code == code


# Round-robin --------------------------------------------------------------------


@given(st.integers(min_value=2, max_value=40))
def test_a_round_robin_pairs_everyone_once_and_shares_white_out_evenly(n: int) -> None:
    pairs = round_robin_pairs(list(range(n)))
    assert len(pairs) == n * (n - 1) // 2
    assert len({frozenset(p.players) for p in pairs}) == len(pairs)
    whites = Counter(p.white for p in pairs)
    counts = [whites[player] for player in range(n)]
    assert max(counts) - min(counts) <= 1
    assert sum(counts) == len(pairs)


def test_a_round_robin_of_three_gives_everyone_one_white() -> None:
    pairs = round_robin_pairs(["ann", "bob", "cy"])
    assert sorted(p.white for p in pairs) == ["ann", "bob", "cy"]


def test_groups_are_snake_seeded() -> None:
    assert split_groups(range(1, 13), groups=4) == (
        (1, 8, 9),
        (2, 7, 10),
        (3, 6, 11),
        (4, 5, 12),
    )
    assert split_groups(range(1, 10), group_size=4) == ((1, 6, 7), (2, 5, 8), (3, 4, 9))


@given(
    st.integers(min_value=2, max_value=60),
    st.integers(min_value=2, max_value=9),
)
def test_groups_hold_everyone_once_and_differ_by_one_at_most(n: int, size: int) -> None:
    if n < 2 * -(-n // size):
        with pytest.raises(TournamentPlayersError):
            split_groups(range(n), group_size=size)
        return
    groups = split_groups(range(n), group_size=size)
    lengths = [len(group) for group in groups]
    assert sorted(p for group in groups for p in group) == list(range(n))
    assert max(lengths) - min(lengths) <= 1 and max(lengths) <= size and min(lengths) >= 2
    assert all(list(group) == sorted(group) for group in groups)
    assert [group[0] for group in groups] == list(range(len(groups)))


def test_groups_take_either_a_size_or_a_count() -> None:
    with pytest.raises(TypeError):
        split_groups(range(8))
    with pytest.raises(TypeError):
        split_groups(range(8), groups=2, group_size=4)
    with pytest.raises(TournamentPlayersError):
        split_groups(range(8), group_size=1)
    with pytest.raises(TournamentPlayersError):
        split_groups(range(8), groups=5)
    with pytest.raises(TournamentPlayersError):
        split_groups([1, 1, 2, 3], groups=2)


def test_a_group_is_ranked_by_match_wins_first() -> None:
    results = [
        MatchResult("C", "A", 5, 4),
        MatchResult("C", "B", 5, 0),
        MatchResult("A", "B", 5, 0),
    ]
    table = rank_group(["A", "B", "C", "D"], results)
    assert [row.player for row in table] == ["C", "A", "D", "B"]
    assert [row.rank for row in table] == [1, 2, 3, 4]
    d = table[2]
    assert (d.played, d.wins, d.losses, d.points_difference) == (0, 0, 0, 0)


def test_head_to_head_decides_between_players_level_on_wins() -> None:
    results = [
        MatchResult("B", "A", 5, 4),  # B beat A, narrowly
        MatchResult("A", "C", 5, 0),
        MatchResult("A", "D", 5, 0),
        MatchResult("B", "C", 5, 4),
        MatchResult("C", "D", 5, 0),
        MatchResult("D", "B", 5, 0),
    ]
    table = rank_group("ABCD", results)
    assert [(row.player, row.wins, row.head_to_head) for row in table[:2]] == [
        ("B", 2, 1),
        ("A", 2, 0),
    ]
    assert table[1].points_difference > table[0].points_difference


def test_points_difference_breaks_a_circle_of_head_to_heads() -> None:
    results = [
        MatchResult("A", "B", 3, 2),
        MatchResult("B", "C", 3, 0),
        MatchResult("C", "A", 3, 0),
    ]
    table = rank_group("ABC", results)
    assert [(row.player, row.points_for, row.points_against) for row in table] == [
        ("B", 5, 3),
        ("C", 3, 3),
        ("A", 3, 5),
    ]


def test_the_seed_breaks_what_nothing_else_does() -> None:
    results = [
        MatchResult("A", "B", 3, 0),
        MatchResult("B", "C", 3, 0),
        MatchResult("C", "A", 3, 0),
    ]
    assert [row.player for row in rank_group("CAB", results)] == ["C", "A", "B"]
    assert [row.player for row in rank_group("ABC", results)] == ["A", "B", "C"]


def test_a_group_refuses_results_that_cannot_be() -> None:
    with pytest.raises(TournamentResultError, match="not in this group"):
        rank_group("AB", [MatchResult("A", "Z")])
    with pytest.raises(TournamentResultError, match="only once"):
        rank_group("AB", [MatchResult("A", "B"), MatchResult("B", "A")])
    with pytest.raises(TournamentResultError):
        MatchResult("A", "A")


@given(st.integers(min_value=2, max_value=9), st.integers(min_value=0))
def test_a_full_group_ranks_everyone_once_by_wins(n: int, seed: int) -> None:
    rng = random.Random(seed)
    results = []
    for pairing in round_robin_pairs(list(range(n))):
        winner, loser = rng.sample(pairing.players, 2)
        results.append(MatchResult(winner, loser, 5, rng.randrange(5)))
    table = rank_group(list(range(n)), results)
    assert sorted(row.player for row in table) == list(range(n))
    assert [row.wins for row in table] == sorted((row.wins for row in table), reverse=True)
    assert sum(row.wins for row in table) == len(results)
    assert all(row.played == n - 1 for row in table)


# Swiss --------------------------------------------------------------------------


def pair(
    players: Sequence[int], history: Sequence[SwissRound[int]], results: Sequence[MatchResult[int]]
) -> SwissRound[int]:
    byes = [past.bye for past in history if past.bye is not None]
    return swiss_pair(swiss_standings(players, results, byes), history)


def test_the_first_round_pairs_the_top_half_against_the_bottom_half() -> None:
    first = pair(range(1, 9), [], [])
    assert [p.players for p in first.pairings] == [(1, 5), (6, 2), (3, 7), (8, 4)]
    assert first.bye is None


def test_the_second_round_pairs_by_score_and_evens_the_colours() -> None:
    first = SwissRound((Pairing(1, 5), Pairing(6, 2), Pairing(3, 7), Pairing(8, 4)))
    results = [MatchResult(1, 5), MatchResult(2, 6), MatchResult(3, 7), MatchResult(4, 8)]
    second = pair(range(1, 9), [first], results)
    # 1 v 3 and 5 v 7 would give both the same colour due: the bottom halves transpose.
    assert [p.players for p in second.pairings] == [(4, 1), (2, 3), (5, 8), (7, 6)]


def test_an_odd_score_group_floats_its_lowest_player_down() -> None:
    first = pair(range(1, 7), [], [])
    assert [p.players for p in first.pairings] == [(1, 4), (5, 2), (3, 6)]
    results = [MatchResult(1, 4), MatchResult(2, 5), MatchResult(6, 3)]
    standings = swiss_standings(range(1, 7), results)
    assert [row.player for row in standings] == [1, 2, 6, 3, 4, 5]
    second = swiss_pair(standings, [first])
    # 1 v 2 in the top group; 6 floats down to meet the best of the rest it has not met.
    assert {frozenset(p.players) for p in second.pairings} == {
        frozenset((1, 2)),
        frozenset((6, 4)),
        frozenset((3, 5)),
    }


def test_a_pairing_that_would_leave_a_repeat_further_down_is_not_made() -> None:
    history = [SwissRound((Pairing(1, 3), Pairing(4, 2)), bye=5)]
    results = [MatchResult(1, 3), MatchResult(4, 2)]
    second = pair(range(1, 6), history, results)
    # 1 v 5 (the colours would suit) would leave 4 v 2 again, so 1 meets 4 and 5 floats.
    assert [p.players for p in second.pairings] == [(4, 1), (2, 5)]
    assert second.bye == 3


def test_the_bye_goes_to_the_lowest_player_who_has_not_had_one() -> None:
    first = pair([1, 2, 3], [], [])
    assert (first.pairings, first.bye) == ((Pairing(1, 2),), 3)
    second = pair([1, 2, 3], [first], [MatchResult(1, 2)])
    assert (second.pairings, second.bye) == ((Pairing(3, 1),), 2)
    third = pair([1, 2, 3], [first, second], [MatchResult(1, 2), MatchResult(3, 1)])
    assert (third.pairings, third.bye) == ((Pairing(2, 3),), 1)


def test_no_repeat_free_pairing_is_an_error() -> None:
    rounds = [
        SwissRound((Pairing(1, 2), Pairing(3, 4))),
        SwissRound((Pairing(1, 3), Pairing(2, 4))),
        SwissRound((Pairing(1, 4), Pairing(2, 3))),
    ]
    with pytest.raises(NoPairingError):
        pair([1, 2, 3, 4], rounds, [])
    odd = [SwissRound((Pairing(1, 2),), 3), SwissRound((Pairing(1, 3),), 2)]
    odd.append(SwissRound((Pairing(2, 3),), 1))
    with pytest.raises(NoPairingError):
        pair([1, 2, 3], odd, [])


def test_players_due_the_same_colour_do_not_meet_when_they_need_not() -> None:
    history = [
        SwissRound((Pairing(1, 3), Pairing(2, 4), Pairing(5, 6))),
        SwissRound((Pairing(1, 6), Pairing(2, 3), Pairing(4, 5))),
    ]
    results = [MatchResult(1, 3), MatchResult(2, 4), MatchResult(5, 6)]
    results += [MatchResult(1, 6), MatchResult(2, 3), MatchResult(4, 5)]
    third = pair(range(1, 7), history, results)
    # 1 and 2 lead, but both had white twice: they may not meet, and both have black.
    assert frozenset((1, 2)) not in {frozenset(p.players) for p in third.pairings}
    blacks = {p.black for p in third.pairings}
    whites = {p.white for p in third.pairings}
    assert {1, 2} <= blacks and {3, 6} <= whites  # 3 and 6 had black twice


def test_when_only_a_colour_clash_is_left_it_is_still_paired() -> None:
    history = [
        SwissRound((Pairing(1, 3), Pairing(2, 4))),
        SwissRound((Pairing(1, 4), Pairing(2, 3))),
    ]
    third = pair([1, 2, 3, 4], history, [])
    # 1 and 2 both had white twice, 3 and 4 black twice: the higher ranked has their due.
    assert third.pairings == (Pairing(2, 1), Pairing(3, 4))


def test_a_player_two_whites_up_gets_black() -> None:
    history = [
        SwissRound((Pairing(1, 2), Pairing(3, 4), Pairing(5, 6))),
        SwissRound((Pairing(1, 3), Pairing(5, 2), Pairing(4, 6))),
        SwissRound((Pairing(4, 1), Pairing(2, 6), Pairing(3, 5))),
        SwissRound((Pairing(1, 5), Pairing(6, 3), Pairing(2, 4))),
    ]
    fifth = pair(range(1, 7), history, [])
    # Only 1 v 6, 2 v 3 and 4 v 5 are left. 1 had W W B W (+2), 6 B B B W (-2);
    # 2 had B B W W (must have black), 3 W B W B (even, black last: white);
    # 4 had B W W B (even, black last: white), 5 W W B B (must have white).
    assert set(fifth.pairings) == {Pairing(6, 1), Pairing(3, 2), Pairing(5, 4)}


def test_swiss_standings_count_byes_as_wins_and_break_ties_by_buchholz() -> None:
    results = [MatchResult(1, 2), MatchResult(3, 4), MatchResult(1, 3), MatchResult(2, 5)]
    table = swiss_standings([1, 2, 3, 4, 5], results, byes=[5, 4])
    assert [(row.player, row.score, row.buchholz, row.sonneborn_berger) for row in table] == [
        (1, 2, 2, 2),
        (2, 1, 3, 1),
        (3, 1, 3, 1),
        (4, 1, 1, 0),
        (5, 1, 1, 0),
    ]
    assert (table[3].wins, table[3].losses, table[3].byes) == (0, 1, 1)


def test_sonneborn_berger_breaks_a_buchholz_tie_before_the_seed() -> None:
    results = [MatchResult(1, 3), MatchResult(4, 1), MatchResult(2, 4), MatchResult(3, 2)]
    results.append(MatchResult(3, 5))
    table = swiss_standings([2, 1, 3, 4, 5], results)
    # 1 and 2 both beat one of 3 and 4 and lost to the other: the same Buchholz (3),
    # but 1 beat 3, who scored 2, and 2 beat 4, who scored 1.
    assert [(row.player, row.score, row.buchholz, row.sonneborn_berger) for row in table] == [
        (3, 2, 2, 1),
        (1, 1, 3, 2),
        (2, 1, 3, 1),
        (4, 1, 2, 1),
        (5, 0, 2, 0),
    ]


def test_swiss_refuses_what_cannot_be() -> None:
    with pytest.raises(TournamentResultError):
        swiss_standings([1, 2], [MatchResult(1, 3)])
    with pytest.raises(TournamentResultError):
        swiss_standings([1, 2], [], byes=[3])
    with pytest.raises(TournamentPlayersError):
        swiss_pair(swiss_standings([1], []), [])
    with pytest.raises(TournamentResultError):
        SwissRound((Pairing(1, 2), Pairing(2, 3)))


def test_a_player_who_withdrew_is_simply_left_out_of_the_standings() -> None:
    first = pair([1, 2, 3, 4, 5], [], [])
    results = [MatchResult(p.white, p.black) for p in first.pairings]
    standings = [
        row
        for row in swiss_standings([1, 2, 3, 4, 5], results, [first.bye or 0])
        if row.player != 2
    ]
    second = swiss_pair(standings, [first])
    assert 2 not in second.players and len(second.players) == 4 and second.bye is None


def test_two_hundred_players_pair_a_late_round_well_under_a_second() -> None:
    rng = random.Random(17)
    players = list(range(201))
    history: list[SwissRound[int]] = []
    results: list[MatchResult[int]] = []
    slowest = 0.0
    for _ in range(8):
        started = time.perf_counter()
        this = pair(players, history, results)
        slowest = max(slowest, time.perf_counter() - started)
        history.append(this)
        for p in this.pairings:
            winner, loser = rng.sample(p.players, 2)
            results.append(MatchResult(winner, loser))
    assert slowest < 1.0


# Swiss, by hypothesis -----------------------------------------------------------


def _pairable(players: frozenset[int], met: frozenset[frozenset[int]]) -> bool:
    """Whether ``players`` can all be paired with no pair in ``met``: by brute force."""

    @cache
    def can(rest: frozenset[int]) -> bool:
        if not rest:
            return True
        first = min(rest)
        return any(
            frozenset((first, other)) not in met and can(rest - {first, other})
            for other in rest - {first}
        )

    return can(players)


@st.composite
def swiss_fields(draw: st.DrawFn) -> tuple[int, int, random.Random]:
    n = draw(st.integers(min_value=2, max_value=40))
    rounds = draw(st.integers(min_value=1, max_value=min(7, n - 1)))
    return n, rounds, random.Random(draw(st.integers(min_value=0)))


@settings(max_examples=120)
@given(swiss_fields())
def test_swiss_rounds_pair_everyone_without_repeats_whenever_possible(
    field: tuple[int, int, random.Random],
) -> None:
    n, rounds, rng = field
    players = list(range(n))
    history: list[SwissRound[int]] = []
    results: list[MatchResult[int]] = []
    met: set[frozenset[int]] = set()
    colours: dict[int, list[int]] = {p: [] for p in players}
    byes: Counter[int] = Counter()
    for _ in range(rounds):
        try:
            this = pair(players, history, results)
        except NoPairingError:
            # Dirac: 14 or more players who met at most 6 each can always be paired.
            assert n <= 13
            everyone = frozenset(players)
            sitters = [everyone - {p} for p in players] if n % 2 else [everyone]
            assert not any(_pairable(rest, frozenset(met)) for rest in sitters)
            return
        assert sorted(this.players) == players
        assert (this.bye is None) == (n % 2 == 0)
        pairs = [frozenset(p.players) for p in this.pairings]
        assert not set(pairs) & met and len(set(pairs)) == len(pairs)
        if this.bye is not None:
            if n <= 13:  # nobody has a second bye while someone who has had none could sit out
                could = [p for p in players if _pairable(frozenset(players) - {p}, frozenset(met))]
                assert byes[this.bye] == min(byes[p] for p in could)
            byes[this.bye] += 1
        met.update(pairs)
        for p in this.pairings:
            colours[p.white].append(1)
            colours[p.black].append(-1)
            winner, loser = rng.sample(p.players, 2)
            results.append(MatchResult(winner, loser, 3, rng.randrange(3)))
        history.append(this)
        if len(history) <= n // 2:  # a Swiss, not a near round-robin: colours stay in hand
            for player, seen in colours.items():
                assert abs(sum(seen)) <= 2, (player, seen)
                assert all(abs(sum(seen[k : k + 3])) < 3 for k in range(len(seen) - 2)), seen


@st.composite
def arbitrary_histories(draw: st.DrawFn) -> tuple[int, list[SwissRound[int]]]:
    """Rounds of any pairings at all (not Swiss ones): sparse, odd graphs of who may meet."""
    n = draw(st.integers(min_value=2, max_value=11))
    history = []
    for _ in range(draw(st.integers(min_value=1, max_value=n + 1))):
        order = draw(st.permutations(range(n)))
        count = draw(st.integers(min_value=0, max_value=n // 2))
        history.append(
            SwissRound(tuple(Pairing(order[2 * k], order[2 * k + 1]) for k in range(count)))
        )
    return n, history


@given(arbitrary_histories())
def test_a_pairing_is_found_exactly_when_one_exists(
    case: tuple[int, list[SwissRound[int]]],
) -> None:
    n, history = case
    players = list(range(n))
    met = frozenset(frozenset(p.players) for past in history for p in past.pairings)
    results = [MatchResult(p.white, p.black) for past in history for p in past.pairings]
    everyone = frozenset(players)
    sitters = [everyone - {p} for p in players] if n % 2 else [everyone]
    possible = any(_pairable(rest, met) for rest in sitters)
    if not possible:
        with pytest.raises(NoPairingError):
            pair(players, history, results)
        return
    this = pair(players, history, results)
    assert sorted(this.players) == players
    assert not {frozenset(p.players) for p in this.pairings} & met
