"""The lobby of live play (issue 28), included by backgammon/urls.py."""

from django.urls import path

from . import lobby

urlpatterns = [
    path("play/", lobby.lobby, name="lobby"),
    path("play/seeks/", lobby.lobby_seeks, name="lobby_seeks"),
    path("play/state/", lobby.lobby_state, name="lobby_state"),
]
