"""Root conftest: run the rules engine's docstring examples as tests, start the
longest group first, and refuse a parallel run that would split the ``xdist_group`` tests.

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


#: Groups that take minutes (the cluster's season): collected first, so that under xdist
#: they start with the run and the other workers play the rest beside them. Collected in
#: their place, the season started eleven minutes into a run and ended it alone.
FIRST_GROUPS = {"cluster"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def later(item: pytest.Item) -> bool:
        group = item.get_closest_marker("xdist_group")
        name = (group.args[0] if group.args else group.kwargs.get("name")) if group else None
        return name not in FIRST_GROUPS

    items.sort(key=later)  # stable: the rest keep their order


def pytest_collection_finish(session: pytest.Session) -> None:
    """On an xdist worker under ``--dist loadgroup``: every ``xdist_group`` test carries
    its group in its node id, which is how xdist keeps a group on one worker. Without it
    (pytest-xdist#1386) a group's costly module fixtures (a gnubg run, a set of matches)
    would be built once per worker, and the suite would still pass, only slower."""
    config = session.config
    if not hasattr(config, "workerinput") or not config.getvalue("loadgroup"):
        return
    split = [
        item.nodeid
        for item in session.items
        if item.get_closest_marker("xdist_group") and "@" not in item.nodeid
    ]
    if split:
        raise pytest.UsageError(
            f"pytest-xdist did not group {len(split)} xdist_group tests (first: {split[0]}): "
            "this pytest and pytest-xdist do not work together; see pyproject.toml"
        )
