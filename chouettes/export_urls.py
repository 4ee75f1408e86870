"""A chouette game's .mat download (included at the site root; the API's is in
api_urls.py)."""

from django.urls import path

from .export_views import chouette_game_export_mat

urlpatterns = [
    path(
        "chouettes/<int:chouette_id>/games/<int:number>/export.mat",
        chouette_game_export_mat,
        name="chouette_game_export_mat",
    ),
]
