"""The import direction ARCHITECTURE.md draws, held against the code.

Each app imports only the apps to its right in ``ORDER``; the project package
``backgammon`` (settings, the URL conf by dotted paths, the shared API, admin and error
types) imports no app; the engine ``gammon`` imports nothing of ours. Imports inside
functions count too: a lazy import is still an arrow.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: Highest first: an app may import the apps after it, never those before it.
ORDER = (
    "live",
    "moderation",
    "tournaments",
    "stats",
    "bots",
    "analysis",
    "notifications",
    "chouettes",
    "challenges",
    "matches",
    "accounts",
)
OURS = {*ORDER, "backgammon", "gammon", "gnubg_bridge"}


def imported_packages(path: Path) -> set[str]:
    """The top-level packages of ours that ``path`` imports (absolute imports; a
    relative import stays inside its own package)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        found |= {name.split(".")[0] for name in names} & OURS
    return found


def allowed(package: str) -> set[str]:
    if package == "gammon":
        return {"gammon"}
    if package == "gnubg_bridge":
        return {"gnubg_bridge", "gammon"}
    if package == "backgammon":
        return {"backgammon", "gammon"}
    below = ORDER[ORDER.index(package) :]
    return {*below, "backgammon", "gammon", "gnubg_bridge"}


def sources(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("package", [*ORDER, "backgammon", "gammon", "gnubg_bridge"])
def test_imports_run_one_way(package: str) -> None:
    wrong = {
        f"{path.relative_to(ROOT)} imports {sorted(bad)}"
        for path in sources(package)
        if (bad := imported_packages(path) - allowed(package))
    }
    assert not wrong, "imports against ARCHITECTURE.md's direction:\n" + "\n".join(sorted(wrong))


def test_every_package_of_ours_is_placed() -> None:
    """A new app must take its place in ORDER (and in ARCHITECTURE.md's picture)."""
    apps = {
        path.parent.name
        for path in ROOT.glob("*/apps.py")
        if (path.parent / "__init__.py").exists()
    }
    assert apps <= set(ORDER), f"add to ORDER: {sorted(apps - set(ORDER))}"
