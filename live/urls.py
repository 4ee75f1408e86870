from django.urls import path

from . import views

urlpatterns = [path("live/badges/", views.badges, name="live_badges")]
