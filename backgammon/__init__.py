"""The Django project package. Celery's app is loaded with Django, as Celery's Django guide
shows, so that ``@shared_task`` binds to it in every process (the rules engine is the
separate, pure ``gammon`` package and pulls none of this in)."""

from .celery import app as celery_app

__all__ = ("celery_app",)
