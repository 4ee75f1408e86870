"""Translations: every visible template string is marked, every message is translated into
Spanish and Catalan, and the committed ``.mo`` files are what the ``.po`` files compile to."""

from __future__ import annotations

import gettext
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from backgammon.i18n_compile import mo_bytes, parse_po
from tests.conftest import in_ci

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ("es", "ca")
SOURCE_DIRS = (
    "accounts",
    "backgammon",
    "matches",
    "challenges",
    "notifications",
    "stats",
    "moderation",
    "bots",
    "analysis",
    "chouettes",
    "tournaments",
    "templates",
)

# Text that needs no translation: names of things, notation and symbols.
ALLOWED_TEXT = {
    "Backgammon",  # overridden by {% translate %} where it is a word, kept as a brand
    "GNU Backgammon",
    "eXtreme Gammon",
    "Position ID",
    "Match ID",
    "API",
    "ELO",
}
VISIBLE_ATTRIBUTES = ("title", "alt", "placeholder", "aria-label", "value")

TAG = re.compile(r"{%.*?%}", re.S)
VARIABLE = re.compile(r"{{.*?}}", re.S)
COMMENT = re.compile(r"{#.*?#}|{%\s*comment\s*%}.*?{%\s*endcomment\s*%}|<!--.*?-->", re.S)
TRANSLATED = re.compile(
    r"{%\s*(?:blocktranslate|blocktrans)\b.*?%}.*?{%\s*(?:endblocktranslate|endblocktrans)\s*%}",
    re.S,
)
RAW = re.compile(r"<(script|style)\b.*?</\1>", re.S | re.I)
LETTERS = re.compile(r"[^\W\d_]{2,}")


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []

    def handle_data(self, data: str) -> None:
        self.found.append(data)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in VISIBLE_ATTRIBUTES and value and not (tag == "input" and name == "value"):
                if not (tag in ("button", "option") and name == "value"):
                    self.found.append(value)


def untranslated(template: str, *, html: bool = True) -> list[str]:
    """Text a person would read that is not inside {% translate %} or {% blocktranslate %}."""
    text = COMMENT.sub(" ", template)
    text = TRANSLATED.sub(" ", text)
    text = TAG.sub(" ", text)
    text = VARIABLE.sub(" ", text)
    if html:
        text = RAW.sub(" ", text)
        parser = _Text()
        parser.feed(text)
        parser.close()
        pieces = parser.found
    else:
        pieces = text.splitlines()
    found = []
    for piece in pieces:
        piece = " ".join(piece.split())
        if piece and LETTERS.search(piece) and piece not in ALLOWED_TEXT:
            found.append(piece)
    return found


def test_the_checker_finds_unmarked_text_and_accepts_marked_text() -> None:
    assert untranslated("<p>Hello {{ name }}</p>") == ["Hello"]
    assert untranslated('<input placeholder="Your name">') == ["Your name"]
    assert untranslated("<p>{% translate 'Hello' %} · {{ n }} – 3</p>") == []
    assert untranslated("{% blocktranslate %}Hi {{ x }}{% endblocktranslate %}") == []
    assert untranslated('<a aria-label="{% translate "Main" %}">x</a>') == []


def template_files() -> list[Path]:
    folders = [ROOT / "templates", *(ROOT / app / "templates" for app in SOURCE_DIRS)]
    return sorted(
        path
        for folder in folders
        if folder.is_dir()
        for path in folder.rglob("*")
        if path.suffix in (".html", ".txt") and path.is_file()
    )


@pytest.mark.parametrize("path", template_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_visible_template_string_is_marked_for_translation(path: Path) -> None:
    found = untranslated(path.read_text(encoding="utf-8"), html=path.suffix == ".html")
    assert not found, f"{path.relative_to(ROOT)}: not marked for translation: {found}"


def po_files() -> list[Path]:
    return [ROOT / "locale" / lang / "LC_MESSAGES" / "django.po" for lang in LANGUAGES]


@pytest.mark.parametrize("po", po_files(), ids=lambda p: p.parts[-3])
def test_the_committed_mo_files_are_compiled_from_the_po_files(po: Path) -> None:
    entries = parse_po(po.read_text(encoding="utf-8"), str(po))
    assert po.with_suffix(".mo").read_bytes() == mo_bytes(entries), (
        "run python -m backgammon.i18n_compile (dev.py does) and commit the .mo"
    )


@pytest.mark.parametrize("po", po_files(), ids=lambda p: p.parts[-3])
def test_the_po_files_have_no_fuzzy_or_empty_entry(po: Path) -> None:
    entries = parse_po(po.read_text(encoding="utf-8"), str(po))
    bad = [e.msgid for e in entries if e.msgid and not e.obsolete and (e.fuzzy or not e.translated)]
    assert not bad, f"{po.relative_to(ROOT)}: fuzzy or untranslated: {bad}"


def test_the_compiler_writes_what_gettext_reads(tmp_path: Path) -> None:
    po = (
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
        '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
        '#: x.py:1\nmsgid "Hello"\nmsgstr "Hola"\n\n'
        '#, fuzzy\nmsgid "Fuzzy"\nmsgstr "Borroso"\n\n'
        'msgctxt "cube"\nmsgid "None"\nmsgstr "Ninguno"\n\n'
        'msgid "%(n)s point"\nmsgid_plural "%(n)s points"\n'
        'msgstr[0] "%(n)s punto"\nmsgstr[1] "%(n)s "\n"puntos"\n\n'
        '#~ msgid "Old"\n#~ msgstr "Viejo"\n'
    )
    mo = tmp_path / "x.mo"
    mo.write_bytes(mo_bytes(parse_po(po)))
    with mo.open("rb") as handle:
        catalog = gettext.GNUTranslations(handle)
    # Through variables, so that makemessages does not take these for the site's messages.
    hello, fuzzy, old, context, none = "Hello", "Fuzzy", "Old", "cube", "None"
    one, many = "%(n)s point", "%(n)s points"
    assert catalog.gettext(hello) == "Hola"
    assert catalog.gettext(fuzzy) == "Fuzzy"
    assert catalog.gettext(old) == "Old"
    assert catalog.pgettext(context, none) == "Ninguno"
    assert catalog.ngettext(one, many, 3) == "%(n)s puntos"
    assert catalog.ngettext(one, many, 1) == "%(n)s punto"


def test_every_message_in_the_code_is_in_the_po_files_and_translated(tmp_path: Path) -> None:
    """makemessages on a copy of the code: the .po files it updates must need no work."""
    if shutil.which("xgettext") is None or shutil.which("msgmerge") is None:
        message = "makemessages needs GNU gettext (xgettext, msgmerge)"
        if in_ci():
            pytest.fail(f"{message} (CI=true)")
        pytest.skip(message)
    for name in (*SOURCE_DIRS, "locale"):
        if (ROOT / name).is_dir():
            shutil.copytree(
                ROOT / name,
                tmp_path / name,
                ignore=shutil.ignore_patterns("__pycache__", "*.mo", "migrations"),
            )
    shutil.copy(ROOT / "manage.py", tmp_path / "manage.py")
    args = ["makemessages", "--no-obsolete", "--no-location", *(f"-l{lang}" for lang in LANGUAGES)]
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    problems = []
    for lang in LANGUAGES:
        po = tmp_path / "locale" / lang / "LC_MESSAGES" / "django.po"
        for entry in parse_po(po.read_text(encoding="utf-8"), str(po)):
            if entry.msgid and (entry.fuzzy or not entry.translated):
                problems.append(f"{lang}: {entry.msgid!r}{' (fuzzy)' if entry.fuzzy else ''}")
    assert not problems, "missing or fuzzy translations:\n" + "\n".join(problems)
