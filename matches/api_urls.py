"""The matches API, included under /api/ by backgammon/urls.py.

Collections and objects end with a slash; actions (POST) are verbs without one, and so is
a game's ``messages`` (GET the chat, POST to it), which lives beside its actions.
"""

from django.urls import path

import backgammon.api.converters  # noqa: F401 - registers the object_id converter

from . import api

urlpatterns = [
    path("matches/", api.MatchListView.as_view(), name="api_matches"),
    path("matches/<object_id:pk>/", api.MatchDetailView.as_view(), name="api_match"),
    path(
        "matches/<object_id:pk>/export.mat",
        api.MatchExportView.as_view(),
        name="api_match_export_mat",
    ),
    path("games/<object_id:pk>/", api.GameDetailView.as_view(), name="api_game"),
    path("games/<object_id:pk>/messages", api.GameMessagesView.as_view(), name="api_game_messages"),
    *[
        path(f"games/<object_id:pk>/{action}", view.as_view(), name=f"api_game_{action}")
        for action, view in api.GAME_ACTIONS.items()
    ],
]
