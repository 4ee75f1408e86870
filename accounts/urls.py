from django.urls import path

from accounts import views

urlpatterns = [
    path("accounts/profile/", views.profile, name="profile"),
    path("accounts/profile/token/", views.token_create, name="profile_token_create"),
    path("accounts/profile/token/revoke/", views.token_revoke, name="profile_token_revoke"),
    path(
        "accounts/logout/everywhere/",
        views.logout_everywhere,
        name="logout_everywhere",
    ),
    # Same name as Django's view, so {% url 'set_language' %} works; it also saves the
    # choice on the signed-in user's profile.
    path("i18n/setlang/", views.set_language, name="set_language"),
]
