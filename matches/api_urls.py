"""The matches API, included under /api/ by backgammon/urls.py.

Collections and objects end with a slash; actions (POST) are verbs without one, and so is
a game's ``messages`` (GET the chat, POST to it), which lives beside its actions.
"""

from django.urls import path, register_converter

from . import api


class ObjectIdConverter:
    """Any path segment; a non-number (or one out of range) becomes 0, which no row has.

    So ``/api/games/abc/`` is the API's JSON 404, not Django's HTML page, and a huge
    number never reaches the database driver.
    """

    regex = "[^/]+"

    def to_python(self, value: str) -> int:
        try:
            number = int(value)
        except ValueError:
            return 0
        return number if 0 < number < 2**31 else 0

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(ObjectIdConverter, "object_id")

urlpatterns = [
    path("challenges/", api.ChallengeListView.as_view(), name="api_challenges"),
    path(
        "challenges/<object_id:pk>/accept",
        api.ChallengeAcceptView.as_view(),
        name="api_challenge_accept",
    ),
    path(
        "challenges/<object_id:pk>/decline",
        api.ChallengeDeclineView.as_view(),
        name="api_challenge_decline",
    ),
    path(
        "challenges/<object_id:pk>/withdraw",
        api.ChallengeWithdrawView.as_view(),
        name="api_challenge_withdraw",
    ),
    path("matches/", api.MatchListView.as_view(), name="api_matches"),
    path("matches/<object_id:pk>/", api.MatchDetailView.as_view(), name="api_match"),
    path(
        "matches/<object_id:pk>/export.mat",
        api.MatchExportView.as_view(),
        name="api_match_export_mat",
    ),
    path("games/<object_id:pk>/", api.GameDetailView.as_view(), name="api_game"),
    path("games/<object_id:pk>/messages", api.GameMessagesView.as_view(), name="api_game_messages"),
    *[
        path(f"games/<object_id:pk>/{action}", view.as_view(), name=f"api_game_{action}")
        for action, view in api.GAME_ACTIONS.items()
    ],
]
