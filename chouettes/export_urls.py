"""A chouette game's .mat download (included at the site root; the API's is in
api_urls.py)."""

from django.urls import path

import backgammon.converters  # noqa: F401 - registers the id converter

from .export_views import chouette_game_export_mat

urlpatterns = [
    path(
        "chouettes/<id:chouette_id>/games/<id:number>/export.mat",
        chouette_game_export_mat,
        name="chouette_game_export_mat",
    ),
]
