from django.urls import path

from matches import views

urlpatterns = [
    path("dashboard/", views.dashboard, name="dashboard"),
    path("next/", views.next_game, name="next_game"),
    path("games/<int:game_id>/", views.game_detail, name="game_detail"),
    path("games/<int:game_id>/ply", views.game_ply, name="game_ply"),
    path("games/<int:game_id>/board.svg", views.game_board_svg, name="game_board_svg"),
    path("games/<int:game_id>/messages/", views.game_message_post, name="game_message_post"),
    path("games/<int:game_id>/swap-dice/", views.game_swap_dice, name="game_swap_dice"),
    path("matches/<int:match_id>/", views.match_detail, name="match_detail"),
]
