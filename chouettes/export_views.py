"""Download a chouette game as a money-session .mat file (the page's and the API's).

A chouette is public, as a match is: anyone may download any of its games. The file
is the board's (``matches.export_views.mat_response``) with the chouette's header
(``chouettes.export.game_header``); ``?header=gnubg`` leaves out eXtreme Gammon's
header lines, as for a match.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request

from backgammon.api.views import APIView
from matches.api import ERROR, ERRORS_READ, OBJECT_ID, AlwaysJSONErrors, query_params
from matches.export_views import mat_response
from matches.serializers import MatExportQuerySerializer

from .export import game_header, mat_filename
from .models import ChouetteGame


def exportable_game(chouette_id: int, number: int) -> ChouetteGame:
    """The game to export, or 404, for the page and the API alike."""
    game = (
        ChouetteGame.objects.select_related("chouette", "match__white", "match__black")
        .filter(chouette_id=chouette_id, number=number)
        .first()
    )
    if game is None:
        raise Http404(_("No such chouette game."))
    return game


def game_mat_response(game: ChouetteGame, *, xg_header: bool) -> HttpResponse:
    header = game_header(game)
    return mat_response(
        game.match,
        xg_header=xg_header,
        event=header.event,
        comments=header.comments,
        filename=mat_filename(game),
    )


@require_GET
def chouette_game_export_mat(request: HttpRequest, chouette_id: int, number: int) -> HttpResponse:
    game = exportable_game(chouette_id, number)
    return game_mat_response(game, xg_header=request.GET.get("header") != "gnubg")


NUMBER = OpenApiParameter(
    "number", OpenApiTypes.INT, OpenApiParameter.PATH, description="The game's number (1, 2, …)."
)


class ChouetteGameExportView(APIView):
    """The chouette game's download, for programs."""

    permission_classes = [AllowAny]
    renderer_classes = [JSONRenderer]
    content_negotiation_class = AlwaysJSONErrors

    @extend_schema(
        operation_id="chouettes_games_export_mat",
        parameters=[OBJECT_ID, NUMBER, MatExportQuerySerializer],
        responses={
            (200, "text/plain"): OpenApiResponse(
                OpenApiTypes.STR, description="The .mat file, as an attachment."
            ),
            400: OpenApiResponse(ERROR, description="An unknown `header`."),
            **ERRORS_READ,
        },
        description="One game of a chouette as a money-session Jellyfish .mat file: the "
        "box (White) against the captain (Black), with the chouette, the line, each "
        "member's stake, their answers to the box's doubles, any change of captain and "
        "the points in the header's comment lines, which GNU Backgammon keeps as the "
        "match's comment. Anyone may download it, also without signing in.",
    )
    def get(self, request: Request, pk: int, number: int) -> HttpResponse:
        query = MatExportQuerySerializer(data=query_params(request))
        query.is_valid(raise_exception=True)
        game = exportable_game(pk, number)
        return game_mat_response(game, xg_header=query.validated_data["header"] == "xg")
