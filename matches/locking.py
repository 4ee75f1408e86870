"""Read and lock a game with its match and both players: the first query of every action.
Also the two helpers it is made of, for other hand-written queries on a hot path
(:func:`select_part`, :func:`from_row`; the API's token authentication uses them).

It is ``Game.objects.select_for_update(of=("self", "match")).select_related("match",
"match__white", "match__black").get(pk=…)``, but the ORM compiled that four-table query
again on every call, which cost more Python than the rest of a move's reads and writes.
Here its SQL is built once per process from the models' own metadata, and each row is
turned into instances with the same converters the ORM applies (``from_db_value`` of each
field and the backend's), so the instances are those the ORM would have built.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from django.db import connection, models

from accounts.models import User

from .models import Game, Match

Converter = Callable[[Any, Any, Any], Any]
#: One model of the row: its class, the attnames of its columns in order, and for each
#: column its expression and converters (the ORM's ``get_converters`` for a column).
Part = tuple[type[models.Model], list[str], list[tuple[Any, list[Converter]]]]


def select_part(model: type[models.Model], alias: str) -> tuple[list[str], Part]:
    """The qualified columns of ``model`` under ``alias`` for a hand-written SELECT, and
    how to turn them back into an instance (:func:`from_row`)."""
    qn = connection.ops.quote_name
    names: list[str] = []
    conversion: list[tuple[Any, list[Converter]]] = []
    columns: list[str] = []
    for field in model._meta.concrete_fields:
        column = field.get_col(alias)
        converters = connection.ops.get_db_converters(column)
        converters += column.get_db_converters(connection)
        names.append(field.attname)
        conversion.append((column, converters))
        columns.append(f"{alias}.{qn(field.column)}")
    return columns, (model, names, conversion)


def from_row(part: Part, values: Sequence[Any]) -> Any:
    """The instance of ``part``'s model whose columns are ``values``, converted as the ORM
    converts them (the fields' ``from_db_value`` and the backend's converters)."""
    model, names, conversion = part
    values = list(values)
    for i, (column, converters) in enumerate(conversion):
        for convert in converters:
            values[i] = convert(values[i], column, connection)
    return model.from_db(connection.alias, names, values)


@cache
def _plan(vendor: str, lock: bool, lock_of: bool) -> tuple[str, list[Part]]:
    """The SQL and how to cut its row into a game, its match and the two players."""
    qn = connection.ops.quote_name
    parts: list[Part] = []
    columns: list[str] = []
    for alias, model in (("g", Game), ("m", Match), ("w", User), ("b", User)):
        selected, part = select_part(model, alias)
        columns += selected
        parts.append(part)
    game, match, user = (qn(m._meta.db_table) for m in (Game, Match, User))

    def column(model: type[models.Model], name: str) -> str:
        return qn(model._meta.get_field(name).column)  # type: ignore[union-attr]

    match_pk, user_pk = qn(Match._meta.pk.column), qn(User._meta.pk.column)  # type: ignore[union-attr]
    sql = (
        f"SELECT {', '.join(columns)} FROM {game} g"  # noqa: S608
        f" INNER JOIN {match} m ON m.{match_pk} = g.{column(Game, 'match')}"
        f" INNER JOIN {user} w ON w.{user_pk} = m.{column(Match, 'white')}"
        f" INNER JOIN {user} b ON b.{user_pk} = m.{column(Match, 'black')}"
        f" WHERE g.{qn(Game._meta.pk.column)} = %s"  # type: ignore[union-attr]
    )
    if lock:
        sql += " FOR UPDATE OF g, m" if lock_of else " FOR UPDATE"
    return sql, parts


def game_for_update(game_id: int) -> Game | None:
    """The game, locked with its match (``FOR UPDATE OF`` both rows), with ``game.match``,
    ``match.white`` and ``match.black`` loaded; None if there is no such game."""
    features = connection.features
    sql, parts = _plan(
        connection.vendor, features.has_select_for_update, features.has_select_for_update_of
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [game_id])
        row = cursor.fetchone()
    if row is None:
        return None
    instances = []
    start = 0
    for part in parts:
        instances.append(from_row(part, row[start : start + len(part[1])]))
        start += len(part[1])
    game, match, white, black = instances
    match.white = white
    match.black = black
    game.match = match
    return game  # type: ignore[return-value]
