from django.urls import path

from . import views

urlpatterns = [
    path("stats/", views.site, name="stats_site"),
    path("stats/leaderboard/", views.leaderboard, name="stats_leaderboard"),
    path("stats/dice/", views.dice, name="stats_dice"),
    path("stats/dice/<str:username>/", views.player_dice, name="stats_player_dice"),
    path("players/", views.player_list, name="player_list"),
    path("players/<str:username>/", views.player_detail, name="player_detail"),
]
