"""The tournaments API, included under /api/ by backgammon/urls.py."""

from django.urls import path

import backgammon.api.converters  # noqa: F401 - registers the object_id converter

from . import api

urlpatterns = [
    path("tournaments/", api.TournamentListView.as_view(), name="api_tournaments"),
    path("tournaments/<object_id:pk>/", api.TournamentDetailView.as_view(), name="api_tournament"),
    path(
        "tournaments/<object_id:pk>/enter",
        api.TournamentRegisterView.as_view(),
        name="api_tournament_enter",
    ),
    path(
        "tournaments/<object_id:pk>/withdraw",
        api.TournamentWithdrawView.as_view(),
        name="api_tournament_withdraw",
    ),
]
