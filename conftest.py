"""Root conftest: run the rules engine's docstring examples as tests.

Doctests are collected from ``gammon`` only, so Django settings, URLs and
scripts such as ``tests/data/make_oracle.py`` are never imported as doctest modules.
"""

from pathlib import Path

import pytest
from _pytest.doctest import DoctestModule

#: The real Celery worker harness (fixtures ``redis`` and ``live_db_url``).
pytest_plugins = ["tests.worker"]

RULES_DIR = Path(__file__).resolve().parent / "gammon"


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if file_path.suffix == ".py" and RULES_DIR in file_path.resolve().parents:
        return DoctestModule.from_parent(parent, path=file_path)
    return None
