import ast
import subprocess
import sys
from pathlib import Path

import gammon
import gammon.moves
import gammon.play


def test_importing_the_engine_pulls_in_no_django_or_celery() -> None:
    code = (
        "import sys, gammon, gammon.jsonio;"
        "roots = ('django', 'celery', 'rest_framework');"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in roots);"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def _engine_imports() -> dict[str, set[str]]:
    """``{module: engine modules it imports}`` for each module of ``gammon``, from its source."""
    root = Path(gammon.__file__).parent
    graph: dict[str, set[str]] = {}
    for path in root.glob("*.py"):
        name = path.stem
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                module = node.module or ""
                if node.level == 1:
                    found.add(module.split(".")[0])
                elif module.startswith("gammon."):
                    found.add(module.split(".")[1])
            elif isinstance(node, ast.Import):
                found |= {a.name.split(".")[1] for a in node.names if a.name.startswith("gammon.")}
        graph[name] = found - {""}
    return graph


def test_the_engines_modules_import_each_other_one_way() -> None:
    """No circle (moves.py and notation.py once imported each other), not even a lazy one."""
    graph = _engine_imports()
    below = {name: deps for name, deps in graph.items() if name != "__init__"}
    order: list[str] = []
    while below:
        ready = sorted(name for name, deps in below.items() if not deps - set(order))
        assert ready, f"an import circle among {sorted(below)}: {below}"
        order += ready
        for name in ready:
            del below[name]
    assert order.index("moves") < order.index("play")
    assert "play" not in graph["moves"] and "__init__" not in set().union(*graph.values())


def test_the_engine_knows_no_other_language() -> None:
    """Localising words such as "pass" is the web layer's job (matches.forms)."""
    assert gammon.play.PASS == "pass"
    assert not hasattr(gammon.moves, "PASS_WORDS") and not hasattr(gammon.play, "PASS_WORDS")
