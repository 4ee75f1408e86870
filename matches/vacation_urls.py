from django.urls import path

from . import vacation_views as views

urlpatterns = [
    path("vacations/", views.vacation_list, name="vacations"),
    path("vacations/<int:vacation_id>/cancel/", views.vacation_cancel, name="vacation_cancel"),
]
