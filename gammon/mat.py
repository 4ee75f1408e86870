"""Jellyfish ``.mat`` match files, written exactly as GNU Backgammon writes them.

The layout follows gnubg's own exporter (``ExportMatchMat`` and
``ExportGameJF`` in its ``export.c``), so that a file we write, imported into
gnubg and exported again, comes back identical (but for the cases below
where gnubg's writer is wrong):

- a ``" N point match"`` line (``0`` for a money session), then per game a
  ``" Game N"`` line and a score line;
- numbered rows with White (gnubg's player 0) on the left and Black on the
  right, the right column starting at character 34, so that there are always
  at least two spaces between the columns;
- a play as ``"52: 13/11 13/8 "``: the higher die first, then every checker
  step on its own (doubles as four steps), bar as 25 and off as 0, ``*`` after
  the first step that lands on a blot, steps ordered as gnubg's import orders
  them (from the highest point; ties by destination), a space after each of
  the first three steps; a roll that is not played (no legal move, or the
  player resigned instead) is the dice alone, ``"54: "``;
- ``" Doubles => N"``, ``" Takes"``, ``" Drops"`` and ``"Wins N point(s)"``,
  placed where gnubg places them; after a bear-off ``Wins`` says what the
  game is worth at the cube, as gnubg writes it, Jacoby rule or not.
  Resignations are written as gnubg writes them: a ``Wins`` line in the
  winner's column and nothing else. A time-out or
  an adjudicated game is written the same way, since the format has no record
  for either.

Columns are players: every record but an ending sits in the column of the
player who made it (White left, Black right), and the turns alternate, so a
row is one turn of each. When Black wins the opening roll the first row's
left cell stays empty, whether Black then plays or the game ends before
Black does; :func:`write_mat` refuses records out of turn.

Where gnubg's writer produces a file its own import misreads, we write what
the import reads right instead:

- Black's opening roll, not played: gnubg leaves the left cell empty only
  before a play, and puts the unplayed roll in White's column;
- after a roll that was not played (the player resigned, or the opponent
  did), gnubg in two of the four cases puts ``Wins`` on the roll's line,
  where its import misses it; we start a new line there;
- a resignation with a double pending: gnubg writes the points at the cube
  as doubled, which its import reads as a bigger resignation; we write the
  points scored.

gnubg's importer treats a line of 15 characters or fewer without a ``:`` as
the previous line's right-hand column; this layout never writes such a line,
and :func:`write_mat` checks it.

What the format cannot say: gnubg assumes the Crawford rule in match play,
takes Jacoby and beavers from its own settings, and starts every game with
the cube at 1. Automatic doubles are not recorded, so, as gnubg's writer
does, cube values and points are written relative to the cube the game
started with (``MatGame.cube``): a game that began at 2 after a tied opening
roll writes its first double as ``Doubles => 2`` and a single game resigned
at that cube as ``Wins 1 point``. gnubg then reads every double, take, drop
and resignation as what it was; the score lines keep the real scores. A
resignation or time-out is read back as a resigned single game, gammon or
backgammon at the cube, so a match resigned or lost on time for more points
than that ends with a different score in gnubg. A roll with a single legal
play that is never played (the game ended first) is read by gnubg as that
play made.

The optional eXtreme Gammon style header (``xg_header=True``) adds the player,
variation, Crawford and cube-limit lines that XG writes, and ``" and the
match"`` after the last game's ``Wins``, as Jellyfish and XG do; gnubg reads
such files too (it ignores those lines) but does not write them.

>>> from gammon import Step
>>> game = MatGame(
...     score=(0, 0),
...     records=(
...         MatPlay(Color.BLACK, (2, 5), (Step(13, 11), Step(13, 8))),
...         MatDouble(Color.WHITE, 2),
...         MatDrop(Color.BLACK, 1),
...     ),
... )
>>> text = write_mat(MatMatch(players=("alice", "bob"), length=3, games=(game,)))
>>> print(text.replace("\\n", "|\\n"), end="")  # | marks the ends of lines
|
 3 point match|
|
 Game 1|
 alice : 0                      bob : 0|
  1)                             52: 13/11 13/8 |
  2)  Doubles => 2                Drops|
      Wins 1 point|
|
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from .play import Step
from .position import Color, Variant

__all__ = [
    "MatDouble",
    "MatDrop",
    "MatGame",
    "MatMatch",
    "MatPlay",
    "MatRecord",
    "MatResign",
    "MatRoll",
    "MatTake",
    "MatWin",
    "format_plain_steps",
    "write_mat",
]

#: gnubg's ``[Variation "…"]`` names (``ImportMatVariation`` in its ``import.c``).
VARIATION_NAMES: dict[Variant, str] = {
    Variant.STANDARD: "Backgammon",
    Variant.NACKGAMMON: "NackGammon",
    Variant.HYPERGAMMON: "HyperGammon (3)",
}


@dataclass(frozen=True, slots=True)
class MatPlay:
    """``player`` rolled ``dice`` and played ``steps`` (none: no legal move).

    ``steps`` are from the player's own side (25 the bar, 0 off), in any order.
    """

    player: Color
    dice: tuple[int, int]
    steps: tuple[Step, ...] = ()


@dataclass(frozen=True, slots=True)
class MatRoll:
    """``player`` rolled ``dice`` and has not played them (yet, or ever)."""

    player: Color
    dice: tuple[int, int]


@dataclass(frozen=True, slots=True)
class MatDouble:
    """``player`` doubled; ``value`` is the cube's value if taken."""

    player: Color
    value: int


@dataclass(frozen=True, slots=True)
class MatTake:
    player: Color


@dataclass(frozen=True, slots=True)
class MatDrop:
    """``player`` dropped; the doubler wins ``points`` (the cube before the double)."""

    player: Color
    points: int


@dataclass(frozen=True, slots=True)
class MatResign:
    """``player`` lost the game without playing it out, the opponent winning ``points``.

    A resignation, a time-out or an adjudicated loss: gnubg writes them alike.
    """

    player: Color
    points: int


@dataclass(frozen=True, slots=True)
class MatWin:
    """``player`` bore off the last checker with the play before.

    ``points`` is what the game is worth at the cube (a single game, gammon or
    backgammon times the cube), as gnubg writes it; when the Jacoby rule scored
    a gammon as a single game, the points scored are fewer (the next game's
    score line has them).
    """

    player: Color
    points: int


MatRecord = MatPlay | MatRoll | MatDouble | MatTake | MatDrop | MatResign | MatWin


@dataclass(frozen=True, slots=True)
class MatGame:
    """One game: the score (White, Black) before it, and its records in order.

    ``cube`` is the cube's value when the game began (above 1 after automatic
    doubles). The records hold real values; the file writes them relative to it.
    """

    score: tuple[int, int]
    records: tuple[MatRecord, ...]
    cube: int = 1


@dataclass(frozen=True, slots=True)
class MatMatch:
    """Everything a ``.mat`` file says about a match.

    ``players`` are (White, Black), gnubg's player 0 and 1. ``length`` 0 is a
    money session. ``site``, ``event`` and ``event_date`` become header lines
    when set; ``crawford`` and ``cube_limit`` only appear in the XG-style header.
    ``comments`` are free lines of the header (``; text``), which gnubg's import
    keeps, silently, as the match's comment and its exporter writes back in
    the same place.
    """

    players: tuple[str, str]
    length: int
    games: tuple[MatGame, ...] = ()
    variant: Variant = Variant.STANDARD
    site: str | None = None
    event_date: datetime.date | None = None
    crawford: bool = True
    cube_limit: int | None = None
    finished: bool = False
    event: str | None = None
    comments: tuple[str, ...] = ()


def _clean(text: str) -> str:
    """A name or header value on one line, without the characters the format uses."""
    return " ".join(text.replace(":", "_").replace('"', "'").split()) or "-"


def _points(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def format_plain_steps(steps: Sequence[Step]) -> str:
    """The steps of a play as gnubg's ``FormatMovePlain`` writes them after the import.

    One ``from/to`` per checker step, ordered from the highest source point
    (ties: highest destination first), ``*`` on the first step that lands on
    a point where a blot was hit, and a space after each of the first three.

    >>> format_plain_steps([Step(8, 5), Step(6, 5)])
    '8/5 6/5 '
    >>> format_plain_steps([Step(7, 4, True), Step(9, 4)])
    '9/4* 7/4 '
    >>> format_plain_steps([Step(25, 22), Step(22, 19), Step(6, 3), Step(3, 0)])
    '25/22 22/19 6/3 3/0'
    """
    hit_points = {s.dest for s in steps if s.hit}
    ordered = sorted(steps, key=lambda s: (-s.source, -s.dest))
    text = ""
    landed: set[int] = set()
    for index, step in enumerate(ordered):
        text += f"{step.source}/{step.dest}"
        if step.dest in hit_points and step.dest not in landed:
            text += "*"
        landed.add(step.dest)
        if index < 3:
            text += " "
    return text


def _dice(dice: tuple[int, int]) -> str:
    return f"{max(dice)}{min(dice)}: "


def _column(record: MatRecord) -> Color | None:
    """The column ``record`` is written in: its player's. None for an ending."""
    if isinstance(record, MatResign | MatWin):
        return None  # "Wins" goes in the winner's column, wherever the turn stood
    return record.player


def _write_game(number: int, game: MatGame, match: MatMatch, last: bool, xg: bool) -> str:
    """One game, following gnubg's ``ExportGameJF`` line for line."""
    out: list[str] = [f" Game {number}\n"]
    white, black = (_clean(name) for name in match.players)
    left = f"{white} : {game.score[0]}"
    out.append(f" {left:<31}{black} : {game.score[1]}\n")
    and_match = " and the match" if xg and last and match.finished else ""
    scale = game.cube  # gnubg's file cube starts at 1 whatever the real one did

    def wins(points: int) -> str:
        return f"Wins {_points(points // scale)}{and_match}"

    i = 0  # gnubg's column counter: even = White's column, odd = Black's
    dice_rolled = False
    records = game.records
    for index, record in enumerate(records):
        if isinstance(record, MatWin):
            continue  # written with the play that bore off
        column = _column(record)
        if column is not None and int(column) != i & 1:
            if i:
                raise ValueError(f"{record} is out of turn: a column is its player's")
            # Black acts first: the first row's left cell stays empty.
            out.append("  1)" + " " * 29)
            i += 1
        if isinstance(record, MatPlay):
            dice_rolled = False
            text = _dice(record.dice) + format_plain_steps(record.steps)
        elif isinstance(record, MatRoll):
            text = _dice(record.dice)
            dice_rolled = True
        elif isinstance(record, MatDouble):
            text = f" Doubles => {record.value // scale}"
        elif isinstance(record, MatTake):
            text = " Takes"
        elif isinstance(record, MatDrop):
            gap = "\n      " if i & 1 else " " * 23
            text = f" Drops{gap}{wins(record.points)}"
        else:  # MatResign: "Wins" goes in the winner's column.
            line_start = not i & 1 and not dice_rolled
            if record.player == Color.BLACK:
                # gnubg omits this line break after White's unplayed roll, and so
                # joins "Wins" to the roll, where its import cannot read it.
                text = ("" if line_start else "\n") + "      " + wins(record.points) + "\n"
            elif i & 1:
                text = (" " * 24 if dice_rolled else " ") + wins(record.points) + "\n"
            else:
                # After Black's unplayed roll gnubg writes " Wins" on the roll's
                # line, where its import reads it as part of the roll.
                text = ("" if line_start else "\n") + " " * 34 + wins(record.points) + "\n"

        if i & 1 or isinstance(record, MatResign):
            out.append(text)
            if not isinstance(record, MatRoll):
                out.append("\n")
        elif not isinstance(record, MatRoll):
            out.append(f"{(i >> 1) + 1:3d}) {text:<27} ")
        else:
            out.append(f"{(i >> 1) + 1:3d}) {text:<3}")
        if isinstance(record, MatDrop):
            out.append("\n")
            if not i & 1:
                out.append("\n")
        following = records[index + 1] if index + 1 < len(records) else None
        if isinstance(record, MatPlay) and isinstance(following, MatWin):
            gap = " " * 34 if i & 1 else "\n      "
            out.append(f"{gap}{wins(following.points)}\n\n")
        i += 1
    text = "".join(out)
    for line in text.split("\n")[2:]:
        if line.strip() and len(line) <= 15 and ":" not in line:
            # gnubg's import would read it as the previous line's right-hand column.
            raise ValueError(f"the .mat layout produced a short line gnubg misreads: {line!r}")
    return text


def _header(match: MatMatch, xg: bool) -> list[str]:
    lines: list[str] = []
    if match.site:
        lines.append(f'; [Site "{_clean(match.site)}"]')
    if match.event:
        lines.append(f'; [Event "{_clean(match.event)}"]')
    if xg:
        lines.append(f'; [Player 1 "{_clean(match.players[0])}"]')
        lines.append(f'; [Player 2 "{_clean(match.players[1])}"]')
    if match.event_date is not None:
        lines.append(f'; [EventDate "{match.event_date:%Y.%m.%d}"]')
    if xg or match.variant is not Variant.STANDARD:
        lines.append(f'; [Variation "{VARIATION_NAMES[match.variant]}"]')
    if xg and match.length and match.crawford:
        lines.append('; [Crawford "On"]')
    if xg and match.cube_limit is not None:
        lines.append(f'; [CubeLimit "{match.cube_limit}"]')
    if match.comments:
        # Where gnubg's exporter puts the match comment: after a blank line.
        lines.append("")
        lines.extend(f"; {_comment(text)}" for text in match.comments)
    return lines


def _comment(text: str) -> str:
    """A comment on one line; one starting with ``[`` could read to gnubg as a tag."""
    line = " ".join(text.split()) or "-"
    return f"- {line}" if line.startswith("[") else line


def write_mat(match: MatMatch, *, xg_header: bool = False) -> str:
    """The ``.mat`` text of ``match``, as gnubg's ``export match mat`` writes it.

    With ``xg_header`` the file also carries eXtreme Gammon's player,
    variation, Crawford and cube-limit lines, and ``" and the match"`` after
    the deciding game's ``Wins`` line when ``match.finished``.

    >>> print(write_mat(MatMatch(("alice", "bob"), 0, variant=Variant.NACKGAMMON)), end="")
    ; [Variation "NackGammon"]
    <BLANKLINE>
     0 point match
    <BLANKLINE>
    """
    parts = [line + "\n" for line in _header(match, xg_header)]
    parts.append("\n")
    parts.append(f" {match.length} point match\n\n")
    for number, game in enumerate(match.games, start=1):
        last = number == len(match.games)
        parts.append(_write_game(number, game, match, last, xg_header))
    return "".join(parts)
