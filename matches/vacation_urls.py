from django.urls import path

import backgammon.converters  # noqa: F401 - registers the id converter

from . import vacation_views as views

urlpatterns = [
    path("vacations/", views.vacation_list, name="vacations"),
    path("vacations/<id:vacation_id>/cancel/", views.vacation_cancel, name="vacation_cancel"),
]
