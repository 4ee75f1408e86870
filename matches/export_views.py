"""Download a match as a Jellyfish .mat file, for GNU Backgammon or eXtreme Gammon.

Matches are public, so anyone who may watch a match may download it: players,
spectators and the API alike. ``?header=gnubg`` leaves out the eXtreme Gammon
style header lines, giving the file exactly as gnubg's own exporter writes it.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_GET

from .export import export_mat, mat_filename
from .models import Match


@require_GET
def match_export_mat(request: HttpRequest, match_id: int) -> HttpResponse:
    match = get_object_or_404(Match.objects.select_related("white", "black"), pk=match_id)
    text = export_mat(match, xg_header=request.GET.get("header") != "gnubg")
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{mat_filename(match)}"'
    return response
