"""Set-based writes for batches: one ``UPDATE`` for many rows with different values.

Django's ``bulk_update`` builds a ``CASE WHEN pk = … THEN …`` per field and row, which
costs about a millisecond of Python per row and field to compile; the expiry sweep
writes hundreds of rows per batch. :func:`rows_update` sends the values as one
``VALUES`` list joined on the primary key instead (PostgreSQL), and falls back to
``bulk_update`` elsewhere (SQLite, the tests' default), with the same result.
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
