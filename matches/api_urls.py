"""The matches API, included under /api/ by backgammon/urls.py.

Collections and objects end with a slash; actions (POST) are verbs without one.
"""

from django.urls import path

from . import api

urlpatterns = [
    path("challenges/", api.ChallengeListView.as_view(), name="api_challenges"),
    path(
        "challenges/<int:pk>/accept",
        api.ChallengeAcceptView.as_view(),
        name="api_challenge_accept",
    ),
    path(
        "challenges/<int:pk>/decline",
        api.ChallengeDeclineView.as_view(),
        name="api_challenge_decline",
    ),
    path(
        "challenges/<int:pk>/withdraw",
        api.ChallengeWithdrawView.as_view(),
        name="api_challenge_withdraw",
    ),
    path("matches/", api.MatchListView.as_view(), name="api_matches"),
    path("matches/<int:pk>/", api.MatchDetailView.as_view(), name="api_match"),
    path("games/<int:pk>/", api.GameDetailView.as_view(), name="api_game"),
    *[
        path(f"games/<int:pk>/{action}", view.as_view(), name=f"api_game_{action}")
        for action, view in api.GAME_ACTIONS.items()
    ],
]
