"""The wheel's package list, which pyproject.toml spells out by name, matches the checkout.

The list is explicit because templates/, static/ and locale/ are mapped into the wheel as
backgammon.templates, backgammon.static and backgammon.locale. A package added to the
code but not to the list would be missing from an installed site (as moderation once
was), and ``dev.py check`` only notices that for apps and migrations.
"""

import tomllib
from pathlib import Path

from setuptools import find_packages

ROOT = Path(__file__).resolve().parent.parent
ASSET_PACKAGES = {"backgammon.templates", "backgammon.static", "backgammon.locale"}


def pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_every_python_package_of_the_checkout_is_in_the_wheel():
    listed = set(pyproject()["tool"]["setuptools"]["packages"]) - ASSET_PACKAGES
    # bench/ and deploy/ (the cluster of hosts, issue 29) are tools run from the checkout.
    outside = ["tests", "tests.*", "bench", "bench.*", "deploy", "deploy.*"]
    found = set(find_packages(str(ROOT), exclude=outside))

    assert listed == found


def test_templates_static_and_locale_are_mapped_into_the_backgammon_package():
    setuptools = pyproject()["tool"]["setuptools"]

    assert setuptools["package-dir"] == {
        "backgammon.templates": "templates",
        "backgammon.static": "static",
        "backgammon.locale": "locale",
    }
    assert ASSET_PACKAGES <= set(setuptools["packages"])
