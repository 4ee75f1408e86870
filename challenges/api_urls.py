"""The challenges API, included under /api/ by backgammon/urls.py."""

from django.urls import path

import backgammon.api.converters  # noqa: F401 - registers the object_id converter

from . import api

urlpatterns = [
    path("challenges/", api.ChallengeListView.as_view(), name="api_challenges"),
    path(
        "challenges/<object_id:pk>/accept",
        api.ChallengeAcceptView.as_view(),
        name="api_challenge_accept",
    ),
    path(
        "challenges/<object_id:pk>/decline",
        api.ChallengeDeclineView.as_view(),
        name="api_challenge_decline",
    ),
    path(
        "challenges/<object_id:pk>/withdraw",
        api.ChallengeWithdrawView.as_view(),
        name="api_challenge_withdraw",
    ),
]
