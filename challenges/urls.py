from django.urls import path

import backgammon.converters  # noqa: F401 - registers the id converter

from . import views

urlpatterns = [
    path("challenges/", views.challenge_list, name="challenge_list"),
    path("challenges/new/", views.challenge_new, name="challenge_new"),
    path("challenges/opponents/", views.challenge_opponents, name="challenge_opponents"),
    path("challenges/<id:challenge_id>/accept/", views.challenge_accept, name="challenge_accept"),
    path(
        "challenges/<id:challenge_id>/decline/", views.challenge_decline, name="challenge_decline"
    ),
    path(
        "challenges/<id:challenge_id>/withdraw/",
        views.challenge_withdraw,
        name="challenge_withdraw",
    ),
    # The match page (matches') shows the button through the rematch_button tag.
    path("matches/<id:match_id>/rematch/", views.match_rematch, name="match_rematch"),
]
