from django.urls import path

from . import views

urlpatterns = [path("computer/", views.bot_list, name="bot_list")]
