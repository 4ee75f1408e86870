from django.urls import path

import backgammon.api.converters  # noqa: F401 - registers the object_id converter

from . import api

urlpatterns = [
    path(
        "matches/<object_id:pk>/analysis",
        api.MatchAnalysisView.as_view(),
        name="api_match_analysis",
    ),
]
