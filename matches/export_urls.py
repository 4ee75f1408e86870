"""The .mat download, for the match page and for the API (included at the site root)."""

from django.urls import path

from .export_views import match_export_mat

urlpatterns = [
    path("matches/<int:match_id>/export.mat", match_export_mat, name="match_export_mat"),
    path("api/matches/<int:match_id>/export.mat", match_export_mat, name="api_match_export_mat"),
]
