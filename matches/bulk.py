"""Set-based writes for batches: many rows in one statement, without the ORM's per-value cost.

Django's ``bulk_update`` builds a ``CASE WHEN pk = … THEN …`` per field and row, which
costs about a millisecond of Python per row and field to compile; the expiry sweep
writes hundreds of rows per batch. :func:`rows_update` sends the values as one
``VALUES`` list joined on the primary key instead (PostgreSQL), and falls back to
``bulk_update`` elsewhere (SQLite, the tests' default), with the same result.

``bulk_create`` prepares every value of every row through its field (``get_db_prep_save``,
ten calls a row) and then quotes the arrays of its ``UNNEST`` in Python: over half of an
expiry batch. :func:`rows_insert` streams the rows with ``COPY … FROM STDIN`` instead,
whose rows psycopg formats in C, after taking the new primary keys from the table's
sequence in one query (PostgreSQL; ``bulk_create`` elsewhere).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connection, models


def rows_update(model: type[models.Model], rows: Sequence[Any], fields: Iterable[str]) -> None:
    """Write ``fields`` of ``rows`` (instances of ``model``) in one statement.

    The fields that hold one value across the rows go in a plain
    ``UPDATE … SET f = %s WHERE pk IN (…)``, the others in
    ``UPDATE … SET f = v.f FROM (VALUES …) v WHERE pk = v.pk`` (or ``bulk_update``).
    """
    rows = list(rows)
    if not rows:
        return
    same: dict[str, Any] = {}
    varying: list[models.Field[Any, Any]] = []
    for name in fields:
        field = model._meta.get_field(name)
        values = {getattr(row, field.attname) for row in rows}
        if len(values) == 1:
            same[field.attname] = values.pop()
        else:
            varying.append(field)  # type: ignore[arg-type]
    if same and not varying:
        model._default_manager.filter(pk__in=[row.pk for row in rows]).update(**same)
        return
    if connection.vendor != "postgresql":
        model._default_manager.bulk_update(rows, [f.name for f in varying] + list(same))
        return
    pk = model._meta.pk
    assert pk is not None
    qn = connection.ops.quote_name
    table = qn(model._meta.db_table)
    columns = [pk, *varying]
    casts = ", ".join(f"%s::{field.db_type(connection)}" for field in columns)
    params: list[Any] = []
    for row in rows:
        params += [
            field.get_db_prep_save(getattr(row, field.attname), connection) for field in columns
        ]
    sets = [f"{qn(field.column)} = v.{qn(field.column)}" for field in varying]
    same_params = []
    for attname, value in same.items():
        field = model._meta.get_field(attname)
        sets.append(f"{qn(field.column)} = %s")  # type: ignore[union-attr]
        same_params.append(field.get_db_prep_save(value, connection))  # type: ignore[union-attr]
    names = ", ".join(qn(field.column) for field in columns)
    sql = (
        f"UPDATE {table} SET {', '.join(sets)} FROM (VALUES "  # noqa: S608
        + ", ".join([f"({casts})"] * len(rows))
        + f") AS v ({names}) WHERE {table}.{qn(pk.column)} = v.{qn(pk.column)}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, same_params + params)


#: Below this many rows one ``INSERT`` (``bulk_create``) beats two statements.
COPY_MIN_ROWS = 20


def rows_insert(model: type[models.Model], rows: Sequence[models.Model]) -> None:
    """Insert ``rows`` (new, unsaved instances of ``model``) and set their primary keys.

    On PostgreSQL, from :data:`COPY_MIN_ROWS` rows, one ``SELECT nextval(…)`` for the
    keys and one ``COPY`` for the rows. The values go as they are on the instances (the
    models written here have plain integer, text, boolean, float, timestamp and JSON
    fields, none with a ``pre_save`` such as ``auto_now``); JSON goes through its field,
    with the field's encoder. Otherwise ``bulk_create``.
    """
    rows = list(rows)
    if not rows:
        return
    if connection.vendor != "postgresql" or len(rows) < COPY_MIN_ROWS:
        model._default_manager.bulk_create(rows)
        return
    meta = model._meta
    pk = meta.pk
    assert pk is not None
    qn = connection.ops.quote_name
    fields = [f for f in meta.concrete_fields if f is not pk]
    json = [(i, f) for i, f in enumerate(fields) if isinstance(f, models.JSONField)]
    attnames = [f.attname for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)",
            [meta.db_table, pk.column, len(rows)],
        )
        for row, (key,) in zip(rows, cursor.fetchall(), strict=True):
            row.pk = key
            row._state.adding = False
            row._state.db = connection.alias
        columns = ", ".join(qn(f.column) for f in [pk, *fields])
        with cursor.copy(f"COPY {qn(meta.db_table)} ({columns}) FROM STDIN") as copy:
            for row in rows:
                values = [getattr(row, name) for name in attnames]
                for i, field in json:
                    values[i] = field.get_db_prep_save(values[i], connection)
                copy.write_row([row.pk, *values])
