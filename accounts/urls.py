from django.urls import path

from accounts import views

urlpatterns = [
    path("profile/", views.profile, name="profile"),
    path("profile/token/", views.token_create, name="profile_token_create"),
    path("profile/token/revoke/", views.token_revoke, name="profile_token_revoke"),
]
