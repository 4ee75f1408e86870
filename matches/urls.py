from django.urls import path

import backgammon.converters  # noqa: F401 - registers the id converter
from matches import clock_views, dashboard_views, views

urlpatterns = [
    path("dashboard/", dashboard_views.dashboard, name="dashboard"),
    path("next/", dashboard_views.next_game, name="next_game"),
    path("games/<id:game_id>/", views.game_detail, name="game_detail"),
    path("games/<id:game_id>/ply", views.game_ply, name="game_ply"),
    path("games/<id:game_id>/board.svg", views.game_board_svg, name="game_board_svg"),
    path("games/<id:game_id>/messages/", views.game_message_post, name="game_message_post"),
    path("games/<id:game_id>/swap-dice/", views.game_swap_dice, name="game_swap_dice"),
    path("games/<id:game_id>/claim-time/", clock_views.game_claim_time, name="game_claim_time"),
    path("matches/<id:match_id>/", views.match_detail, name="match_detail"),
]
