"""Settings for bench/api_moves.py only: the project's settings plus the bare view.

The same middleware, database and everything else as ``backgammon.settings``; only the
URLconf adds ``/bench/bare-move/<id>``. Static files use plain storage, because the
benchmark does not run ``collectstatic`` (no manifest) and serves no static file.
"""

import warnings

from backgammon.settings import *  # noqa: F403
from backgammon.settings import STORAGES

ROOT_URLCONF = "bench.bare_urls"

STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# No collectstatic, so no STATIC_ROOT directory: WhiteNoise warns once per process.
warnings.filterwarnings("ignore", message="No directory at")
