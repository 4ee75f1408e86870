"""The Celery application.

Run a worker with ``celery -A backgammon.celery worker -Q celery,email,clock`` and the
scheduler with ``celery -A backgammon.celery beat``. ``backgammon/__init__.py`` stays
empty (importing the rules engine must pull in nothing), so the web process imports
this module from ``accounts.apps.AccountsConfig.ready``: ``@shared_task`` then binds to
this app, and with no REDIS_URL tasks run eagerly in-process.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backgammon.settings")

app = Celery("backgammon")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
