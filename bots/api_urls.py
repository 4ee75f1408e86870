"""The bots API, included under /api/ by backgammon/urls.py."""

from django.urls import path

from . import api

urlpatterns = [path("bots/", api.BotListView.as_view(), name="api_bots")]
