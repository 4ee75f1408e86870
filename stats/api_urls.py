from django.urls import path

from . import api

urlpatterns = [
    path("stats/", api.SiteStatsView.as_view(), name="api_stats_site"),
    path(
        "stats/variants/<str:variant>/",
        api.VariantStatsView.as_view(),
        name="api_stats_variant",
    ),
    path(
        "stats/players/<str:username>/",
        api.PlayerRecordView.as_view(),
        name="api_stats_player",
    ),
    path("stats/leaderboard/", api.LeaderboardView.as_view(), name="api_stats_leaderboard"),
    path("stats/dice/", api.DiceStatsView.as_view(), name="api_stats_dice"),
    path(
        "stats/dice/<str:username>/",
        api.PlayerDiceStatsView.as_view(),
        name="api_stats_player_dice",
    ),
]
