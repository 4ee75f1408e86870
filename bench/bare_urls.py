"""The project's URLs plus the bare views the benchmarks compare with.

``POST /bench/bare-move/<id>`` (bench/api_moves.py) does only the three SQL statements at
the heart of a move, with no authentication, validation, rules or response payload: lock
the game row (``SELECT … FOR UPDATE``), insert the move event, update the game.

``GET /bench/hello/`` (bench/pages.py) is a signed-in hello-world: the site's base
template (its header and its two badges) around one word, behind ``login_required``, so
what every page costs before its own work.

Never installed in the real site: only ``bench.bare_settings`` points at this module.
"""

import json

from django.contrib.auth.decorators import login_required
from django.db import connection, transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import engines
from django.urls import include, path
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST


@csrf_exempt
@require_POST
def bare_move(request: HttpRequest, pk: int) -> JsonResponse:
    body = json.loads(request.body)
    now = timezone.now()
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT ply, turn FROM matches_game WHERE id = %s FOR UPDATE", [pk])
        row = cursor.fetchone()
        if row is None:
            return JsonResponse({"code": "not_found"}, status=404)
        ply, turn = row[0] + 1, row[1]
        cursor.execute(
            "INSERT INTO matches_gameevent "
            "(game_id, ply, kind, color, die1, die2, notation, value, created_at) "
            "VALUES (%s, %s, 'move', %s, NULL, NULL, %s, NULL, %s)",
            [pk, ply, turn, str(body.get("play", ""))[:80], now],
        )
        cursor.execute(
            "UPDATE matches_game SET ply = %s, turn = %s, updated_at = %s WHERE id = %s",
            [ply, 1 - turn, now, pk],
        )
    return JsonResponse({"id": pk, "ply": ply})


HELLO = engines["django"].from_string(
    '{% extends "base.html" %}{% block content %}<p>Hello</p>{% endblock content %}'
)


@login_required
def hello(request: HttpRequest) -> HttpResponse:
    return HttpResponse(HELLO.render({}, request))


urlpatterns = [
    path("bench/bare-move/<int:pk>", bare_move),
    path("bench/hello/", hello),
    path("", include("backgammon.urls")),
]
