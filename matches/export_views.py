"""Download a match as a Jellyfish .mat file, for GNU Backgammon or eXtreme Gammon.

Matches are public, so anyone who may watch a match may download it: players,
spectators and the API alike (the API's view, ``matches.api.MatchExportView``, answers
its errors in JSON and checks ``header``). ``?header=gnubg`` leaves out the eXtreme Gammon
style header lines, giving the file exactly as gnubg's own exporter writes it.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_GET

from .export import export_mat, mat_filename
from .models import Match


def exportable_match(match_id: int) -> Match:
    """The match to export, or 404: who may download it is decided here, for the page's
    link and the API alike."""
    return get_object_or_404(Match.objects.select_related("white", "black"), pk=match_id)


def mat_response(
    match: Match,
    *,
    xg_header: bool,
    event: str | None = None,
    comments: Sequence[str] = (),
    filename: str | None = None,
) -> HttpResponse:
    """The file as a text/plain attachment named after the match and its players (or
    ``filename``); ``event`` and ``comments`` go into its header (``export_mat``)."""
    text = export_mat(match, xg_header=xg_header, event=event, comments=comments)
    response = HttpResponse(text, content_type=MAT_CONTENT_TYPE)
    name = filename or mat_filename(match)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


MAT_CONTENT_TYPE = "text/plain; charset=utf-8"


@require_GET
def match_export_mat(request: HttpRequest, match_id: int) -> HttpResponse:
    match = exportable_match(match_id)
    return mat_response(match, xg_header=request.GET.get("header") != "gnubg")
