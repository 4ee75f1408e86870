"""The chouettes API, included under /api/ by backgammon/urls.py."""

from django.urls import path

import backgammon.api.converters  # noqa: F401 - registers the object_id converter
import backgammon.converters  # noqa: F401 - registers the id converter

from . import api
from .export_views import ChouetteGameExportView

ACTIONS = {
    "join": api.ChouetteJoinView,
    "invite": api.ChouetteInviteView,
    "start": api.ChouetteStartView,
    "leave": api.ChouetteLeaveView,
    "propose": api.ChouetteProposeView,
    "vote": api.ChouetteVoteView,
    "box-answer": api.ChouetteBoxAnswerView,
    "box-double": api.ChouetteBoxDoubleView,
    "answer": api.ChouetteAnswerView,
    "suggest": api.ChouetteSuggestView,
}

urlpatterns = [
    path("chouettes/", api.ChouetteListView.as_view(), name="api_chouettes"),
    path("chouettes/<object_id:pk>/", api.ChouetteDetailView.as_view(), name="api_chouette"),
    path(
        "chouettes/<object_id:pk>/messages",
        api.ChouetteMessagesView.as_view(),
        name="api_chouette_messages",
    ),
    *(
        path(f"chouettes/<object_id:pk>/{name}", view.as_view(), name=f"api_chouette_{name}")
        for name, view in ACTIONS.items()
    ),
    path(
        "chouettes/<object_id:pk>/games/<id:number>/export.mat",
        ChouetteGameExportView.as_view(),
        name="api_chouette_game_export_mat",
    ),
]
