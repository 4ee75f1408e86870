from django.urls import path

import backgammon.converters  # noqa: F401 - registers the id converter

from . import views

urlpatterns = [
    path("", views.tournament_list, name="tournament_list"),
    path("new", views.tournament_create, name="tournament_create"),
    path("<id:tournament_id>/", views.tournament_detail, name="tournament_detail"),
    path("<id:tournament_id>/register/", views.tournament_register, name="tournament_register"),
    path("<id:tournament_id>/withdraw/", views.tournament_withdraw, name="tournament_withdraw"),
    path(
        "<id:tournament_id>/stop-repeating/",
        views.tournament_stop_repeating,
        name="tournament_stop_repeating",
    ),
]
