from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from django.views.generic import RedirectView, TemplateView
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from backgammon.api.docs import redoc_view

urlpatterns = [
    # The API first: a bot's every request resolves here without trying the site's
    # patterns (the admin's and allauth's among them) one by one.
    path("api/", include("challenges.api_urls")),
    path("api/", include("matches.api_urls")),
    path("api/", include("accounts.api_urls")),
    path("api/", include("stats.api_urls")),
    path("api/", include("bots.api_urls")),
    path("api/", include("analysis.api_urls")),
    path("api/", include("chouettes.api_urls")),
    path("api/", include("tournaments.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api_schema"),
    # The split view serves Swagger UI's start-up script from ?script, not inline (CSP).
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api_schema"), name="api_docs"),
    path("api/redoc/", redoc_view, name="api_redoc"),
    path("", TemplateView.as_view(template_name="home.html"), name="home"),
    # Browsers ask for /favicon.ico wherever a page names no icon (the API's JSON, Swagger).
    path(
        "favicon.ico",
        RedirectView.as_view(url=f"{settings.STATIC_URL}favicon.svg"),
        name="favicon",
    ),
    path("admin/", admin.site.urls),
    # The project names each app's URL conf by its dotted path and imports no app.
    path("", include("accounts.urls")),  # /accounts/profile/…, /i18n/setlang/
    path("accounts/", include("allauth.urls")),
    path("", include("notifications.urls")),  # /notifications/
    path("", include("matches.vacation_urls")),  # /vacations/ (issue 4)
    # The .mat download: matches/<id>/export.mat and api/matches/<id>/export.mat.
    path("", include("matches.export_urls")),
    path("", include("chouettes.export_urls")),  # chouettes/<id>/games/<n>/export.mat
    path("", include("analysis.urls")),  # matches/<id>/analysis/… (issue 15)
    path("", include("moderation.urls")),  # /report/<username>/ (issue 6)
    path("chouettes/", include("chouettes.urls")),  # issue 16
    path("", include("challenges.urls")),
    path("", include("live.lobby_urls")),  # /play/, the lobby of live play (issue 28)
    path("", include("matches.urls")),
    path("", include("stats.urls")),
    path("", include("bots.urls")),  # /computer/
    path("tournaments/", include("tournaments.urls")),  # issue 17
    path("", include("live.urls")),  # /live/badges/ (issue 28)
]

# Under /api/ these answer the API's JSON error shape; elsewhere Django's own pages.
handler400 = "backgammon.api.errors.handler400"
handler403 = "backgammon.api.errors.handler403"
handler404 = "backgammon.api.errors.handler404"
handler500 = "backgammon.api.errors.handler500"
