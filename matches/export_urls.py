"""The .mat download of the match page (included at the site root; the API's is in
api_urls.py)."""

from django.urls import path

import backgammon.converters  # noqa: F401 - registers the id converter

from .export_views import match_export_mat

urlpatterns = [
    path("matches/<id:match_id>/export.mat", match_export_mat, name="match_export_mat"),
]
