from django.urls import path

import backgammon.converters  # noqa: F401 - registers the id converter

from . import views

urlpatterns = [
    path(
        "matches/<id:match_id>/analysis/request",
        views.analysis_request,
        name="analysis_request",
    ),
    path(
        "matches/<id:match_id>/analysis/progress",
        views.analysis_progress,
        name="analysis_progress",
    ),
]
