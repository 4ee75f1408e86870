from django.urls import path

from . import views

urlpatterns = [
    path("notifications/", views.notification_list, name="notifications"),
    path("notifications/read/", views.notification_mark_read, name="notifications_read"),
    path(
        "notifications/unsubscribe/<str:token>/",
        views.unsubscribe,
        name="notifications_unsubscribe",
    ),
]
