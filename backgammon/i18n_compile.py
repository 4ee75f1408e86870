"""Compile the translations (``locale/*/LC_MESSAGES/*.po`` -> ``.mo``) in pure Python.

GNU gettext's ``msgfmt`` is not needed: ``python -m backgammon.i18n_compile`` reads each
``.po`` file and writes the ``.mo`` file beside it, as ``msgfmt`` does, leaving out fuzzy
and untranslated entries. ``dev.py`` runs it on every set-up; the ``.mo`` files are
committed too, so a plain ``pip install`` serves the translations as well.

Standard library only (it runs before Django is set up).
"""

from __future__ import annotations

import ast
import struct
import sys
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Entry", "compile_all", "compile_po", "mo_bytes", "parse_po"]

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Entry:
    """One message of a ``.po`` file."""

    msgid: str = ""
    msgid_plural: str | None = None
    msgctxt: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    obsolete: bool = False

    @property
    def fuzzy(self) -> bool:
        return "fuzzy" in self.flags

    @property
    def translated(self) -> bool:
        return bool(self.msgstr) and all(self.msgstr.values())


def _unquote(text: str, where: str) -> str:
    text = text.strip()
    if not (text.startswith('"') and text.endswith('"')):
        raise ValueError(f"{where}: expected a quoted string, got {text!r}")
    return ast.literal_eval(text)


def parse_po(text: str, name: str = "<po>") -> list[Entry]:
    """The entries of a ``.po`` file (the header is the entry with an empty ``msgid``)."""
    entries: list[Entry] = []
    entry = Entry()
    started = False
    target: tuple[str, int] | None = None

    def finish() -> None:
        nonlocal entry, started, target
        if started:
            entries.append(entry)
        entry, started, target = Entry(), False, None

    for number, raw in enumerate(text.splitlines(), 1):
        where = f"{name}:{number}"
        line = raw.strip()
        if not line:
            finish()
            continue
        if line.startswith("#~"):
            entry.obsolete = True
            line = line[2:].strip()
            if not line:
                continue
        elif line.startswith("#,"):
            if started and target is not None:
                finish()
            entry.flags.update(flag.strip() for flag in line[2:].split(","))
            continue
        elif line.startswith("#"):
            if started and target is not None and target[0] == "msgstr":
                finish()
            continue
        keyword, _, rest = line.partition(" ")
        if line.startswith('"'):
            if target is None:
                raise ValueError(f"{where}: a string outside any message")
            value = _unquote(line, where)
            kind, index = target
            if kind == "msgstr":
                entry.msgstr[index] += value
            elif kind == "msgid":
                entry.msgid += value
            elif kind == "msgid_plural":
                entry.msgid_plural = (entry.msgid_plural or "") + value
            else:
                entry.msgctxt = (entry.msgctxt or "") + value
            continue
        if keyword in ("msgctxt", "msgid") and started and target and target[0] == "msgstr":
            finish()
        started = True
        value = _unquote(rest, where)
        if keyword == "msgctxt":
            entry.msgctxt, target = value, ("msgctxt", 0)
        elif keyword == "msgid":
            entry.msgid, target = value, ("msgid", 0)
        elif keyword == "msgid_plural":
            entry.msgid_plural, target = value, ("msgid_plural", 0)
        elif keyword == "msgstr":
            entry.msgstr[0], target = value, ("msgstr", 0)
        elif keyword.startswith("msgstr[") and keyword.endswith("]"):
            index = int(keyword[7:-1])
            entry.msgstr[index], target = value, ("msgstr", index)
        else:
            raise ValueError(f"{where}: unknown keyword {keyword!r}")
    finish()
    return entries


def mo_bytes(entries: list[Entry]) -> bytes:
    """The GNU ``.mo`` file for ``entries``: translated, not fuzzy, not obsolete (+ header)."""
    catalog: dict[bytes, bytes] = {}
    for entry in entries:
        if entry.obsolete or not entry.msgstr:
            continue
        if entry.msgid and (entry.fuzzy or not entry.translated):
            continue
        key = entry.msgid
        if entry.msgid_plural is not None:
            key += "\0" + entry.msgid_plural
        if entry.msgctxt is not None:
            key = entry.msgctxt + "\x04" + key
        value = "\0".join(entry.msgstr[i] for i in sorted(entry.msgstr))
        if not entry.msgid:  # the header: msgfmt leaves the template's date out
            value = "".join(
                line for line in value.splitlines(True) if not line.startswith("POT-Creation-Date:")
            )
        catalog[key.encode()] = value.encode()
    keys = sorted(catalog)
    count = len(keys)
    ids = strs = b""
    offsets: list[tuple[int, int, int, int]] = []
    for raw in keys:
        offsets.append((len(ids), len(raw), len(strs), len(catalog[raw])))
        ids += raw + b"\0"
        strs += catalog[raw] + b"\0"
    start = 7 * 4 + count * 16  # header, then the two tables
    key_table: list[int] = []
    value_table: list[int] = []
    for id_at, id_len, str_at, str_len in offsets:
        key_table += [id_len, start + id_at]
        value_table += [str_len, start + len(ids) + str_at]
    header = struct.pack("<7I", 0x950412DE, 0, count, 7 * 4, 7 * 4 + count * 8, 0, 0)
    tables = struct.pack(f"<{len(key_table)}I", *key_table)
    tables += struct.pack(f"<{len(value_table)}I", *value_table)
    return header + tables + ids + strs


def compile_po(po: Path) -> Path:
    """Write the ``.mo`` beside ``po`` (only when its content changes); returns its path."""
    mo = po.with_suffix(".mo")
    data = mo_bytes(parse_po(po.read_text(encoding="utf-8"), str(po)))
    if not mo.exists() or mo.read_bytes() != data:
        mo.write_bytes(data)
    return mo


def compile_all(root: Path = ROOT) -> list[Path]:
    """Compile every ``locale/*/LC_MESSAGES/*.po`` under ``root`` (the project's locale)."""
    return [compile_po(po) for po in sorted((root / "locale").glob("*/LC_MESSAGES/*.po"))]


def main() -> int:
    for mo in compile_all():
        print(f"i18n_compile: {mo.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
