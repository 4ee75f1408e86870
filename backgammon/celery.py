"""The Celery application.

Run a worker with ``celery -A backgammon worker -Q celery,email,clock`` and the scheduler
with ``celery -A backgammon beat``. With no REDIS_URL, tasks run eagerly in-process.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backgammon.settings")

app = Celery("backgammon")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
