#!/usr/bin/env python3
"""Generate the GNU Backgammon oracle corpus used by the move-generation tests.

Run from the repository root with any Python 3 (it needs only the standard library):

    .venv/bin/python tests/data/make_oracle.py

The script re-launches itself inside Debian's GNU Backgammon (``gnubg -t -q -p <this file>``,
environment variable ``MAKE_ORACLE_INNER=1``) because only gnubg's embedded Python has the
``gnubg`` module.  Everything is seeded (``SEED``), so re-running gives identical files for the
same gnubg version.  Do not use the ``gnubg`` package from PyPI: it truncates move lists.

Outputs (next to this file):

oracle.jsonl (or oracle.jsonl.gz when larger than ``MAX_PLAIN_BYTES``), one JSON object a line::

    {"id": str, "category": str, "points": [24 ints], "bar": [mine, theirs],
     "off": [mine, theirs], "dice": [d1, d2],
     "plays": [{"notation": str, "result": {"points": [...], "bar": [...], "off": [...]}}, ...]}

  * ``points[i]`` is point i+1 as seen by the player on roll, who moves from 24 towards 1 and
    bears off past 1.  Positive = player on roll's checkers, negative = opponent's.
  * ``bar``/``off`` are [player on roll, opponent].  15 checkers per side.
  * ``dice`` are in the order they were given to gnubg (``set dice d1 d2``); order is random.
  * ``plays`` is every distinct legal resulting position in the order of gnubg's 0-ply ``hint``
    list, with gnubg's notation string verbatim.  Results are in the same orientation as the
    input (player on roll still positive, turn not passed): a hit adds 1 to ``bar[1]``, a
    checker borne off adds 1 to ``off[0]``.  No legal play -> ``"plays": []``.
  * ``category`` is one of opening, contact, hit, bar, closed, bearoff, onedie, doubles,
    noplay, race, random; assigned by the first matching rule:
      opening  start position (standard or Nackgammon) with any of the 21 rolls;
      random   random checker placement, not from a game (ids "random-...");
      closed   on-roll player has checkers on the bar and the opponent holds all six entry
               points (points 19-24), so nothing can enter;
      noplay   no legal play;
      bar      on-roll player has checkers on the bar;
      onedie   non-double where at most one die can be played (incl. must-play-larger cases);
      bearoff  all on-roll checkers in the home board (points 1-6), none on the bar;
      doubles  a double was rolled;
      hit      at least one legal play hits;
      race     no contact (every on-roll checker is below every opponent checker);
      contact  everything else.
    Ids starting "nack-" come from Nackgammon-start games.
  * Every gnubg result set is cross-checked against an independent move generator in this
    script (``my_plays``); the script aborts on any disagreement.

gnubg_ids.jsonl: two kinds of lines.
  * {"points", "bar", "off", "position_id"}: same orientation as above, ``position_id`` is
    gnubg.positionid() of that board (round-tripped through gnubg.positionfromid()).
  * {"match_id", ...}: a Match ID as gnubg prints it, with the state gnubg reports for it
    (read back with gnubg.cubeinfo()/gnubg.posinfo() after ``set matchid <id>`` or after
    setting the state with commands; gnubg 1.07's ``set matchid`` silently drops a pending
    double or resignation, so those states come from the ``double``/``resign`` commands).
    Every recorded ID is also decoded with the documented layout below and must agree.
    Fields:
      match_id        12-character Match ID string;
      cube_value      1, 2, 4, ... (stored as log2 in bits 0-3);
      cube_owner      -1 = centred, 0 = player 0, 1 = player 1 (bits 4-5: 0, 1, or 3 = centred);
      player_on_roll  gnubg's fMove, the player whose turn it is (bit 6);
      crawford        1 if this is the Crawford game (bit 7);
      game_state      0 none, 1 playing, 2 over, 3 resigned, 4 dropped (bits 8-10);
      turn            gnubg's fTurn, the player who must act next (roll/move or respond to a
                      double/resignation) (bit 11);
      double_offered  1 if a double is pending (bit 12);
      resigned        0 none, 1 single, 2 gammon, 3 backgammon offered (bits 13-14);
      dice            [larger, smaller], [0, 0] if not rolled (bits 15-17 and 18-20; the
                      ID always stores the larger die first, whatever order gnubg rolled);
      match_length    0 = money session (bits 21-35);
      score           [player 0, player 1] (bits 36-50 and 51-65); for money sessions
                      gnubg.cubeinfo() reports 0-0, so the recorded value is the one in the
                      ID, which gnubg round-trips unchanged through ``set matchid``;
      jacoby          1 if the Jacoby rule is on (bit 66 stores NOT jacoby; only set in money
                      sessions).
    Bits are numbered from the least significant bit of the first byte of the 9-byte key,
    which is written as 12 base64 characters (A-Z a-z 0-9 + /), 3 bytes per 4 characters.
    Player 0 is gnubg's "O" player, player 1 is "X".
"""

from __future__ import annotations

import gzip
import json
import os
import random
import shutil
import subprocess
import sys
import time

SEED = 20240607
HERE = os.path.dirname(os.path.abspath(__file__)) if "__file__" in globals() else ""
MAX_PLAIN_BYTES = 15_000_000

START = [-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2]
NACK = [-2, -2, 0, 0, 0, 4, 0, 3, 0, 0, 0, -4, 4, 0, 0, 0, -3, 0, -4, 0, 0, 0, 2, 2]
ALL_ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]

# Target numbers of positions per category (standard start / Nackgammon games come on top).
QUOTA = {
    "contact": 1200,
    "hit": 1000,
    "bar": 800,
    "closed": 250,
    "bearoff": 1000,
    "onedie": 450,
    "doubles": 900,
    "noplay": 350,
    "race": 700,
    "random": 400,
}
NACK_QUOTA = 300


# --------------------------------------------------------------------------------------------
# Position helpers (pure Python, independent of gnubg).  A position is (points, bar, off) with
# points a 24-tuple, bar and off 2-tuples, player on roll positive.


def pos_key(points, bar, off):
    return (tuple(points), tuple(bar), tuple(off))


def validate(points, bar, off, result=False):
    assert len(points) == 24 and len(bar) == 2 and len(off) == 2
    mine = sum(c for c in points if c > 0) + bar[0] + off[0]
    theirs = -sum(c for c in points if c < 0) + bar[1] + off[1]
    assert mine == 15 and theirs == 15, (points, bar, off)
    assert min(bar) >= 0 and min(off) >= 0
    assert off[1] < 15 and (result or off[0] < 15), "game already over"


def flip(points, bar, off):
    """The same position seen by the other player."""
    return [-points[23 - i] for i in range(24)], [bar[1], bar[0]], [off[1], off[0]]


def single_moves(state, die):
    """All states reachable by moving one checker of the player on roll by `die`."""
    points, bar, off = state
    out = []
    if bar[0]:
        t = 24 - die
        if points[t] >= -1:
            p = list(points)
            b = [bar[0] - 1, bar[1]]
            if p[t] == -1:
                p[t] = 0
                b[1] += 1
            p[t] += 1
            out.append((tuple(p), tuple(b), off))
        return out
    all_home = all(c <= 0 for c in points[6:])
    highest = max((i for i in range(24) if points[i] > 0), default=-1)
    for i in range(24):
        if points[i] <= 0:
            continue
        t = i - die
        if t < 0:
            if not all_home or (t < -1 and i != highest):
                continue
            p = list(points)
            p[i] -= 1
            out.append((tuple(p), bar, (off[0] + 1, off[1])))
        elif points[t] >= -1:
            p = list(points)
            b = bar
            p[i] -= 1
            if p[t] == -1:
                p[t] = 0
                b = (bar[0], bar[1] + 1)
            p[t] += 1
            out.append((tuple(p), b, off))
    return out


def my_plays(points, bar, off, dice):
    """Independent legal-play generator: returns (set of result keys, max dice usable)."""
    d1, d2 = dice
    start = pos_key(points, bar, off)
    orders = [(d1,) * 4] if d1 == d2 else [(d1, d2), (d2, d1)]
    terminals = {}  # key -> (dice used, first die used)
    for order in orders:
        frontier = {start}
        for level, die in enumerate(order):
            nxt = set()
            for s in frontier:
                moves = single_moves(s, die)
                if not moves:
                    _note(terminals, s, level, order[0])
                nxt.update(moves)
            frontier = nxt
        for s in frontier:
            _note(terminals, s, len(order), order[0])
    best = max(u for u, _ in terminals.values())
    keep = {k for k, (u, _) in terminals.items() if u == best}
    if d1 != d2 and best == 1:
        larger = {k for k in keep if terminals[k][1] == max(dice)}
        if larger:
            keep = larger
    if best == 0:
        keep = set()
    return keep, best


def _note(terminals, s, used, first):
    old = terminals.get(s)
    if old is None or used > old[0]:
        terminals[s] = (used, first)


def apply_move(points, bar, off, pairs):
    """Apply gnubg.parsemove() pairs (1-based points, 25 = bar, 0 = off)."""
    p = list(points)
    b = list(bar)
    o = list(off)
    for f, t in pairs:
        if f == 25:
            assert b[0] > 0
            b[0] -= 1
        else:
            assert p[f - 1] > 0, (points, pairs)
            p[f - 1] -= 1
        if t <= 0:
            o[0] += 1
        else:
            assert p[t - 1] >= -1, (points, pairs)
            if p[t - 1] == -1:
                p[t - 1] = 0
                b[1] += 1
            p[t - 1] += 1
    return p, b, o


def to_gnubg(points, bar, off):
    """gnubg board: (opponent, player on roll), each 25 ints from its owner's side, [24]=bar."""
    me = [0] * 25
    op = [0] * 25
    for i, c in enumerate(points):
        if c > 0:
            me[i] = c
        elif c < 0:
            op[23 - i] = -c
    me[24] = bar[0]
    op[24] = bar[1]
    return (tuple(op), tuple(me))


def from_gnubg(board):
    op, me = board
    points = [0] * 24
    for i in range(24):
        assert not (me[i] and op[23 - i])
        points[i] = me[i] - op[23 - i]
    bar = [me[24], op[24]]
    off = [15 - sum(me), 15 - sum(op)]
    return points, bar, off


def has_contact(points):
    mine = [i for i in range(24) if points[i] > 0]
    theirs = [i for i in range(24) if points[i] < 0]
    return bool(mine and theirs and max(mine) > min(theirs))


def random_placement(rng, n_bar=None, n_off=None, side_points=None):
    """A random legal-looking position (not from a game)."""
    free = list(range(24))
    rng.shuffle(free)
    points = [0] * 24
    bar = [0, 0]
    off = [0, 0]
    for side, sign in ((0, 1), (1, -1)):
        nb = n_bar[side] if n_bar else rng.choice([0] * 6 + [1, 1, 2, 3])
        no = n_off[side] if n_off else rng.choice([0] * 6 + [rng.randint(1, 12)])
        no = min(no, 14 - nb)
        n = 15 - nb - no
        bar[side] = nb
        off[side] = no
        if n == 0:
            continue
        k = rng.randint(1, min(n, 8, len(free)))
        if side_points and side_points[side] is not None:
            cand = [i for i in free if i in side_points[side]]
            k = min(k, len(cand))
            if k == 0:
                off[side] += n
                continue
            chosen = rng.sample(cand, k)
        else:
            chosen = free[:k]
        for i in chosen:
            free.remove(i)
        counts = [1] * k
        for _ in range(n - k):
            counts[rng.randrange(k)] += 1
        for i, c in zip(chosen, counts, strict=False):
            points[i] = sign * c
    if off[0] >= 15 or off[1] >= 15:
        return None
    return points, bar, off


# --------------------------------------------------------------------------------------------
# Everything below runs inside gnubg.


class Oracle:
    def __init__(self, gnubg):
        self.g = gnubg
        for cmd in (
            "set player 0 human",
            "set player 1 human",
            "set automatic move off",
            "set automatic roll off",
            "set automatic bearoff off",
            "set automatic game off",
            "set display off",
            "set jacoby off",
            "set rng mersenne",
            f"set seed {SEED}",
            "new session",
            "set evaluation chequerplay evaluation plies 0",
            "set evaluation cubedecision evaluation plies 0",
        ):
            gnubg.command(cmd)
        self.calls = 0

    def plays(self, points, bar, off, dice):
        """gnubg's legal plays: list of (notation, (points, bar, off))."""
        g = self.g
        board = to_gnubg(points, bar, off)
        pid = g.positionid(board)
        g.command("set board " + pid)
        got = tuple(tuple(x) for x in g.board())
        assert got == board, (got, board)
        g.command(f"set dice {dice[0]} {dice[1]}")
        hint = g.hint(1_000_000)
        self.calls += 1
        out = []
        for m in hint["hint"]:
            note = m["move"]
            res = apply_move(points, bar, off, g.parsemove(note))
            out.append((note, res))
        return out


def check_against_mine(points, bar, off, dice, gplays):
    keys = [pos_key(*r) for _, r in gplays]
    assert len(set(keys)) == len(keys), ("duplicate results", points, bar, off, dice)
    for _, r in gplays:
        validate(*r, result=True)
    mine, best = my_plays(points, bar, off, dice)
    if set(keys) != mine:
        raise AssertionError(
            f"gnubg/my generator disagree on {points!r} {bar!r} {off!r} dice {dice!r}:\n"
            f" gnubg-only {set(keys) - mine!r}\n mine-only {mine - set(keys)!r}"
        )
    return best


def classify(points, bar, off, dice, gplays, best):
    if bar[0] and all(points[i] <= -2 for i in range(18, 24)):
        return "closed"
    if not gplays:
        return "noplay"
    if bar[0]:
        return "bar"
    if dice[0] != dice[1] and best == 1:
        return "onedie"
    if all(c <= 0 for c in points[6:]):
        return "bearoff"
    if dice[0] == dice[1]:
        return "doubles"
    if any("*" in n for n, _ in gplays):
        return "hit"
    if not has_contact(points):
        return "race"
    return "contact"


class Corpus:
    def __init__(self, oracle):
        self.oracle = oracle
        self.seen = set()
        self.pool = {}  # category -> list of records (without id)
        self.nack_pool = []
        self.all_positions = []  # for position ids

    def add(self, points, bar, off, dice, forced=None, nack=False):
        validate(points, bar, off)
        key = (pos_key(points, bar, off), tuple(sorted(dice)))
        if key in self.seen:
            return None
        self.seen.add(key)
        gplays = self.oracle.plays(points, bar, off, dice)
        best = check_against_mine(points, bar, off, dice, gplays)
        cat = forced or classify(points, bar, off, dice, gplays, best)
        rec = {
            "category": cat,
            "points": list(points),
            "bar": list(bar),
            "off": list(off),
            "dice": list(dice),
            "plays": [
                {
                    "notation": n,
                    "result": {"points": list(r[0]), "bar": list(r[1]), "off": list(r[2])},
                }
                for n, r in gplays
            ],
        }
        if nack:
            self.nack_pool.append(rec)
        else:
            self.pool.setdefault(cat, []).append(rec)
        return gplays

    def count(self, cat):
        return len(self.pool.get(cat, []))


def play_games(corpus, rng, start, n_games, nack=False, max_positions=None, log=None):
    """Random / semi-greedy self-play; every (position, roll) met is offered to the corpus."""
    added = 0
    for game in range(n_games):
        greedy = [0.0, 0.5, 0.85, 0.97][game % 4]
        points, bar, off = list(start), [0, 0], [0, 0]
        for _turn in range(400):
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            gplays = corpus.add(points, bar, off, dice, nack=nack)
            if gplays is None:
                gplays = corpus.oracle.plays(points, bar, off, dice)
            else:
                added += 1
            if gplays:
                idx = 0 if rng.random() < greedy else rng.randrange(len(gplays))
                points, bar, off = (list(x) for x in gplays[idx][1])
            if off[0] == 15:
                break
            points, bar, off = flip(points, bar, off)
            if max_positions and added >= max_positions:
                return added
        if log and game % 20 == 0:
            log(f"game {game}: {added} positions, pool {summary(corpus)}")
    return added


def summary(corpus):
    return " ".join(f"{c}={corpus.count(c)}" for c in sorted(corpus.pool))


def edge_cases(corpus, rng):
    """Constructed positions for the rarer categories."""
    # Closed board: opponent holds points 19-24, 1-4 of ours on the bar.
    for n in range(400):
        op_home = [2] * 6
        spare = rng.randint(0, 3)
        for _ in range(spare):
            op_home[rng.randrange(6)] += 1
        points = [0] * 24
        for j in range(6):
            points[18 + j] = -op_home[j]
        theirs_left = 15 - sum(op_home)
        nb = 1 + n % 4
        mine_left = 15 - nb
        # Opponent's other checkers: bar/off/elsewhere; ours: random low points.
        opp_bar = rng.choice([0, 0, 0, 1]) if theirs_left else 0
        theirs_left -= opp_bar
        opp_off = rng.randint(0, theirs_left)
        theirs_left -= opp_off
        free = list(range(18))
        rng.shuffle(free)
        while theirs_left:
            i = free[-1]
            c = rng.randint(1, theirs_left)
            points[i] = -c
            theirs_left -= c
            free.pop()
        my_off = rng.choice([0, 0, 0, rng.randint(0, mine_left - 1)])
        mine_left -= my_off
        while mine_left:
            i = free.pop()
            c = rng.randint(1, mine_left)
            points[i] = c
            mine_left -= c
        corpus.add(points, [nb, opp_bar], [my_off, opp_off], rng.choice(ALL_ROLLS))
    # Five entry points closed, one open, 1-3 on the bar; every roll.
    for open_pt in range(18, 24):
        for nb in (1, 2, 3):
            points = [0] * 24
            for j in range(18, 24):
                if j != open_pt:
                    points[j] = -2
            points[5] = 15 - nb - 2
            points[7] = 2
            points[11] = -5
            for roll in ALL_ROLLS:
                d = (roll[1], roll[0]) if rng.random() < 0.5 else roll
                corpus.add(points, [nb, 0], [0, 0], d)
    # Bear-offs: all of ours in the home board, opponent racing or holding points there.
    for n in range(2500):
        k = rng.randint(1, 15)
        mode = n % 3
        home_pts = rng.sample(range(6), rng.randint(1, 6))
        if mode == 2:
            # opponent anchors in our home board
            anchors = rng.sample([i for i in range(6) if i not in home_pts] or [0], 1)
        else:
            anchors = []
        points = [0] * 24
        counts = [1] * len(home_pts)
        k = max(k, len(home_pts))
        for _ in range(k - len(home_pts)):
            counts[rng.randrange(len(home_pts))] += 1
        for i, c in zip(home_pts, counts, strict=False):
            points[i] = c
        theirs = 15
        opp_bar = 0
        for a in anchors:
            if points[a] == 0:
                c = rng.randint(2, 3)
                points[a] = -c
                theirs -= c
        if mode == 1 and theirs:
            opp_bar = rng.choice([0, 1])
            theirs -= opp_bar
        opp_off = rng.randint(0, max(0, theirs - 1))
        theirs -= opp_off
        zone = list(range(6, 24)) if mode != 0 else list(range(18, 24))
        rng.shuffle(zone)
        while theirs:
            i = zone.pop()
            c = rng.randint(1, theirs) if zone else theirs
            points[i] = -c
            theirs -= c
        roll = rng.choice(ALL_ROLLS)
        if rng.random() < 0.5:
            roll = (roll[1], roll[0])
        opp_off = 15 - sum(-c for c in points if c < 0) - opp_bar
        corpus.add(points, [0, opp_bar], [15 - k, opp_off], roll)
    # Random placements (category "random"), plus blocked ones to find one-die / no-play cases.
    made = 0
    while corpus.count("random") < QUOTA["random"] and made < 5000:
        made += 1
        pos = random_placement(rng)
        if pos:
            roll = rng.choice(ALL_ROLLS)
            corpus.add(*pos, roll, forced="random")
    tries = 0
    while (
        corpus.count("onedie") < QUOTA["onedie"] * 2 or corpus.count("noplay") < QUOTA["noplay"]
    ) and tries < 60000:
        tries += 1
        # Many opponent points near ours block many moves.
        pos = random_placement(rng, n_bar=(rng.choice([0, 0, 0, 1]), 0), n_off=(0, 0))
        if not pos:
            continue
        points, bar, off = pos
        roll = rng.choice([r for r in ALL_ROLLS if r[0] != r[1]] + [(6, 6), (5, 5), (4, 4)])
        mine, best = my_plays(points, bar, off, roll)
        if best <= 1 or (roll[0] == roll[1] and best < 4):
            corpus.add(points, bar, off, roll)
    return tries


# --------------------------------------------------------------------------------------------
# IDs


def b64_key(bits_value, nbytes):
    key = bits_value.to_bytes(nbytes, "little")
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    out = []
    for i in range(0, nbytes, 3):
        a, b, c = key[i], key[i + 1], key[i + 2]
        out += [alphabet[a >> 2], alphabet[((a & 3) << 4) | (b >> 4)]]
        out += [alphabet[((b & 15) << 2) | (c >> 6)], alphabet[c & 63]]
    return "".join(out)


def encode_match_id(f):
    """Documented gnubg Match ID layout; only used to propose IDs, gnubg is the judge."""
    log_cube = f["cube_value"].bit_length() - 1
    owner = 3 if f["cube_owner"] == -1 else f["cube_owner"]
    d = sorted(f["dice"], reverse=True)
    fields = [
        (0, 4, log_cube),
        (4, 2, owner),
        (6, 1, f["player_on_roll"]),
        (7, 1, f["crawford"]),
        (8, 3, f["game_state"]),
        (11, 1, f["turn"]),
        (12, 1, f["double_offered"]),
        (13, 2, f["resigned"]),
        (15, 3, d[0]),
        (18, 3, d[1]),
        (21, 15, f["match_length"]),
        (36, 15, f["score"][0]),
        (51, 15, f["score"][1]),
        (66, 1, 0 if f["jacoby"] else 1),
    ]
    v = 0
    for pos, n, val in fields:
        assert 0 <= val < (1 << n)
        v |= val << pos
    return b64_key(v, 9)


def decode_match_id(mid):
    """Inverse of encode_match_id (documented layout)."""
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    key = bytearray()
    for i in range(0, 12, 4):
        a, b, c, d = (alphabet.index(ch) for ch in mid[i : i + 4])
        key += bytes([(a << 2) | (b >> 4), ((b & 15) << 4) | (c >> 2), ((c & 3) << 6) | d])
    v = int.from_bytes(bytes(key), "little")

    def bits(pos, n):
        return (v >> pos) & ((1 << n) - 1)

    owner = bits(4, 2)
    return {
        "cube_value": 1 << bits(0, 4),
        "cube_owner": -1 if owner == 3 else owner,
        "player_on_roll": bits(6, 1),
        "crawford": bits(7, 1),
        "game_state": bits(8, 3),
        "turn": bits(11, 1),
        "double_offered": bits(12, 1),
        "resigned": bits(13, 2),
        "dice": [bits(15, 3), bits(18, 3)],
        "match_length": bits(21, 15),
        "score": [bits(36, 15), bits(51, 15)],
        "jacoby": 1 - bits(66, 1),
    }


def gnubg_match_state(g):
    ci = g.cubeinfo()
    pi = g.posinfo()
    return {
        "match_id": g.matchid(),
        "cube_value": ci["cube"],
        "cube_owner": ci["cubeowner"],
        "player_on_roll": ci["move"],
        "crawford": ci["crawford"],
        "game_state": pi["gamestate"],
        "turn": pi["turn"],
        "double_offered": pi["doubled"],
        "resigned": pi["resigned"],
        "dice": sorted(pi["dice"], reverse=True),  # the ID stores the larger die first
        "match_length": ci["matchto"],
        "score": list(ci["score"]),
        "jacoby": ci["jacoby"],
    }


def make_match_ids(g, rng, n_target=160):
    out = []
    seen = set()
    g.command(f"set seed {SEED}")  # "new session"/"new match" roll gnubg's own dice
    # 1. States proposed field by field, set with "set matchid", read back from gnubg.
    attempts = 0
    while len(out) < n_target - 30 and attempts < 5000:
        attempts += 1
        length = rng.choice([0, 0, 0, 1, 3, 5, 7, 9, 11, 13, 15, 17, 21, 25])
        if length:
            score = [rng.randrange(length), rng.randrange(length)]
            crawford = int(rng.random() < 0.3 and length - 1 in score and score != [length - 1] * 2)
            jacoby = 0
        else:
            score = [rng.randint(0, 3), rng.randint(0, 3)]
            crawford = 0
            jacoby = rng.choice([0, 1])
        roll = rng.choice([0, 1])
        cube_owner = -1 if crawford else rng.choice([-1, 0, 1])
        cube_value = 1 if crawford else rng.choice([1, 1, 2, 2, 4, 8, 16, 32, 64])
        if cube_owner == -1 and rng.random() < 0.7:
            cube_value = 1
        doubled = int(not roll and not crawford and rng.random() < 0.25)
        resigned = 0 if doubled or roll else rng.choice([0, 0, 0, 1, 2, 3])
        player = rng.choice([0, 1])
        turn = player if not (doubled or resigned) else 1 - player
        dice = sorted([rng.randint(1, 6), rng.randint(1, 6)], reverse=True) if roll else [0, 0]
        f = {
            "cube_value": cube_value,
            "cube_owner": cube_owner,
            "player_on_roll": player,
            "crawford": crawford,
            "game_state": 1,
            "turn": turn,
            "double_offered": doubled,
            "resigned": resigned,
            "dice": dice,
            "match_length": length,
            "score": score,
            "jacoby": jacoby,
        }
        mid = encode_match_id(f)
        if mid in seen:
            continue
        g.command("set matchid " + mid)
        st = gnubg_match_state(g)
        if st["match_id"] != mid:
            continue  # gnubg rejected or normalised it; not recorded
        if not length:
            # gnubg.cubeinfo() reports 0-0 in money sessions; the ID keeps the games won.
            assert st["score"] == [0, 0]
            st["score"] = decode_match_id(mid)["score"]
        for k, v in f.items():
            assert st[k] == v, (mid, k, st[k], v)
        seen.add(mid)
        out.append(st)
    # 2. States reached with ordinary commands.
    scripts = [
        ["new session"],
        ["new session", "set jacoby off", "new session"],
        ["set jacoby on", "new session"],
        ["new match 1"],
        ["new match 5", "set score 4 2"],
        ["new match 5", "set score 2 4"],
        ["new match 7", "set score 6 6"],
        ["new match 7", "set score 3 1", "set cube value 4", "set cube owner 0"],
        ["new match 7", "set score 1 3", "set cube value 2", "set cube owner 1"],
        ["new match 11", "set score 10 3", "set crawford on"],
        ["new match 11", "set score 3 10", "set crawford off"],
        ["new session", "set cube value 8", "set cube owner 1"],
        ["new session", "set cube value 2", "set cube owner 0", "set dice 6 2"],
        ["new session", "set cube value 16", "set cube owner centre"],
        ["new match 3", "set turn 0", "set dice 4 4"],
        ["new match 3", "set turn 1", "set dice 1 2"],
        ["new match 25", "set score 24 0", "set crawford on", "set turn 0"],
        ["new match 9", "set score 5 7", "set turn 1", "set dice 3 5"],
        # "set matchid" drops a pending double or resignation, so these are reached by play.
        ["new match 7", "set turn 0", "double"],
        ["new match 7", "set score 2 5", "set turn 1", "double"],
        [
            "new match 11",
            "set score 4 4",
            "set cube value 2",
            "set cube owner 0",
            "set turn 0",
            "double",
        ],
        [
            "new match 5",
            "set score 1 1",
            "set cube value 2",
            "set cube owner 1",
            "set turn 1",
            "double",
        ],
        ["new session", "set turn 1", "double"],
        ["new session", "set cube value 4", "set cube owner 0", "set turn 0", "double"],
        ["new match 5", "set turn 0", "resign single"],
        ["new match 9", "set turn 1", "resign backgammon"],
        ["new match 13", "set score 12 3", "set crawford on", "set turn 1", "resign gammon"],
        ["new session", "set turn 1", "set dice 3 2", "resign gammon"],
        ["new session", "set turn 0", "set dice 6 6", "resign single"],
        ["new match 3", "set score 1 2", "set turn 0", "set dice 5 1", "resign backgammon"],
        ["new match 15", "set score 14 9", "set crawford on", "set turn 0"],
        ["new match 15", "set score 9 14", "set crawford on", "set turn 1", "set dice 2 4"],
        ["new match 21", "set score 20 20", "set turn 0", "set dice 1 1"],
    ]
    for script in scripts:
        for cmd in script:
            g.command(cmd)
        st = gnubg_match_state(g)
        if st["match_id"] in seen:
            continue
        if not (st["double_offered"] or st["resigned"]):
            g.command("set matchid " + st["match_id"])
            assert gnubg_match_state(g) == st, (script, st, gnubg_match_state(g))
        dec = decode_match_id(st["match_id"])
        if not st["match_length"]:
            st["score"] = dec["score"]
        assert dec == {k: v for k, v in st.items() if k != "match_id"}, (script, st, dec)
        seen.add(st["match_id"])
        out.append(st)
    g.command("set jacoby off")
    return out


def make_position_ids(g, corpus, rng, n_target=400):
    out = []
    seen = set()
    cands = [(START, [0, 0], [0, 0]), (NACK, [0, 0], [0, 0])]
    recs = [r for lst in corpus.pool.values() for r in lst] + corpus.nack_pool
    rng.shuffle(recs)
    for r in recs:
        cands.append((r["points"], r["bar"], r["off"]))
        if r["plays"]:
            res = r["plays"][0]["result"]
            cands.append((res["points"], res["bar"], res["off"]))
    for points, bar, off in cands:
        key = pos_key(points, bar, off)
        if key in seen:
            continue
        seen.add(key)
        board = to_gnubg(points, bar, off)
        pid = g.positionid(board)
        back = tuple(tuple(x) for x in g.positionfromid(pid))
        assert back == board, (pid, back, board)
        assert from_gnubg(back) == (list(points), list(bar), list(off))
        out.append({"points": list(points), "bar": list(bar), "off": list(off), "position_id": pid})
        if len(out) >= n_target:
            break
    assert out[0]["position_id"] == "4HPwATDgc/ABMA", out[0]
    return out


# --------------------------------------------------------------------------------------------


def inner():
    import gnubg  # only available inside gnubg's embedded Python

    out_dir = os.environ["MAKE_ORACLE_OUT"]
    t0 = time.time()

    def log(msg):
        sys.stderr.write(f"[{time.time() - t0:6.1f}s] {msg}\n")
        sys.stderr.flush()

    rng = random.Random(SEED)
    oracle = Oracle(gnubg)
    corpus = Corpus(oracle)

    # Sanity: orientation of gnubg.board() -- (opponent, player on roll).
    points = [0] * 24
    points[1], points[2], points[18] = 10, 5, -14
    assert [n for n, _ in oracle.plays(points, [0, 1], [0, 0], (6, 5))] == ["3/off(2)"]

    # Openings: standard and Nackgammon start, all 21 rolls.
    openings = []
    for name, start in (("opening", START), ("nack-opening", NACK)):
        validate(start, [0, 0], [0, 0])
        for hi, lo in ALL_ROLLS:
            gplays = oracle.plays(start, [0, 0], [0, 0], (hi, lo))
            check_against_mine(start, [0, 0], [0, 0], (hi, lo), gplays)
            rec = {
                "id": f"{name}-{hi}{lo}",
                "category": "opening",
                "points": list(start),
                "bar": [0, 0],
                "off": [0, 0],
                "dice": [hi, lo],
                "plays": [
                    {
                        "notation": n,
                        "result": {"points": list(r[0]), "bar": list(r[1]), "off": list(r[2])},
                    }
                    for n, r in gplays
                ],
            }
            openings.append(rec)
            corpus.seen.add((pos_key(start, [0, 0], [0, 0]), (lo, hi)))
    log("openings done")

    play_games(corpus, rng, NACK, 40, nack=True, max_positions=1500, log=log)
    log("nack games done")
    n = 0
    while n < 200 and any(
        corpus.count(c) < QUOTA[c] * 1.2 for c in ("contact", "hit", "bar", "race", "doubles")
    ):
        play_games(corpus, rng, START, 10)
        n += 10
        log(f"std games {n}: {summary(corpus)}")
    edge_cases(corpus, rng)
    log(f"edge cases done: {summary(corpus)}")

    # Select: quotas per category, in a reproducible order.
    lines = list(openings)
    for cat in QUOTA:
        pool = corpus.pool.get(cat, [])
        pick = rng.sample(pool, min(QUOTA[cat], len(pool)))
        for i, rec in enumerate(pick):
            lines.append({"id": f"{cat}-{i:05d}", **rec})
    nack = rng.sample(corpus.nack_pool, min(NACK_QUOTA, len(corpus.nack_pool)))
    for i, rec in enumerate(nack):
        lines.append({"id": f"nack-{rec['category']}-{i:04d}", **rec})
    for rec in lines:
        validate(rec["points"], rec["bar"], rec["off"])
    text = "".join(json.dumps(rec) + "\n" for rec in lines)
    plain = os.path.join(out_dir, "oracle.jsonl")
    gz = plain + ".gz"
    for p in (plain, gz):
        if os.path.exists(p):
            os.remove(p)
    if len(text.encode()) > MAX_PLAIN_BYTES:
        with open(gz, "wb") as fh:
            # mtime=0 keeps the compressed file byte-identical between runs.
            with gzip.GzipFile(filename="oracle.jsonl", mode="wb", fileobj=fh, mtime=0) as z:
                z.write(text.encode())
        log(f"wrote {gz} ({len(lines)} lines, {len(text)} bytes uncompressed)")
    else:
        with open(plain, "w") as fh:
            fh.write(text)
        log(f"wrote {plain} ({len(lines)} lines)")
    counts = {}
    for rec in lines:
        counts[rec["category"]] = counts.get(rec["category"], 0) + 1
    log(f"categories: {counts}")

    ids = make_position_ids(gnubg, corpus, rng)
    mids = make_match_ids(gnubg, rng)
    with open(os.path.join(out_dir, "gnubg_ids.jsonl"), "w") as fh:
        for rec in ids + mids:
            fh.write(json.dumps(rec) + "\n")
    log(f"wrote gnubg_ids.jsonl: {len(ids)} position ids, {len(mids)} match ids")
    log(f"gnubg hint calls: {oracle.calls}")


def outer():
    exe = shutil.which("gnubg") or "/usr/games/gnubg"
    env = dict(os.environ, MAKE_ORACLE_INNER="1", MAKE_ORACLE_OUT=HERE)
    marker = os.path.join(HERE, ".make_oracle.ok")
    env["MAKE_ORACLE_MARKER"] = marker
    if os.path.exists(marker):
        os.remove(marker)
    with open(os.devnull, "w") as devnull:
        rc = subprocess.call(
            [exe, "-t", "-q", "-p", os.path.abspath(__file__)], env=env, stdout=devnull
        )
    if rc != 0 or not os.path.exists(marker):
        sys.exit(f"gnubg run failed (rc={rc}); see messages above")
    os.remove(marker)


if __name__ == "__main__":
    if os.environ.get("MAKE_ORACLE_INNER") == "1":
        try:
            inner()
        except BaseException:
            import traceback

            traceback.print_exc()
            sys.stderr.flush()
            os._exit(1)
        with open(os.environ["MAKE_ORACLE_MARKER"], "w") as fh:
            fh.write("ok\n")
    else:
        outer()
