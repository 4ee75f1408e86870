from django.urls import path

import backgammon.converters  # noqa: F401 - registers the id converter

from . import views

urlpatterns = [
    path("", views.chouette_list, name="chouette_list"),
    path("new", views.chouette_new, name="chouette_new"),
    path("<id:chouette_id>/", views.chouette_detail, name="chouette_detail"),
    path("<id:chouette_id>/join", views.chouette_join, name="chouette_join"),
    path("<id:chouette_id>/leave", views.chouette_leave, name="chouette_leave"),
    path("<id:chouette_id>/start", views.chouette_start, name="chouette_start"),
    path("<id:chouette_id>/invite", views.chouette_invite, name="chouette_invite"),
    path("<id:chouette_id>/cube", views.chouette_cube, name="chouette_cube"),
    path("<id:chouette_id>/suggest", views.chouette_suggest, name="chouette_suggest"),
    path("<id:chouette_id>/messages", views.chouette_message_post, name="chouette_message_post"),
    # A game's board is the matches app's game page (ChouetteGame.get_absolute_url).
    path("<id:chouette_id>/games/<id:number>/", views.chouette_game, name="chouette_game"),
    path(
        "<id:chouette_id>/games/<id:number>/stamp",
        views.chouette_game_stamp,
        name="chouette_game_stamp",
    ),
]
