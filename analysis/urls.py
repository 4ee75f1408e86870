from django.urls import path

from . import views

urlpatterns = [
    path(
        "matches/<int:match_id>/analysis/request",
        views.analysis_request,
        name="analysis_request",
    ),
    path(
        "matches/<int:match_id>/analysis/progress",
        views.analysis_progress,
        name="analysis_progress",
    ),
]
