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

from collections.abc import Callable, Iterable, Sequence
from functools import cache
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
            inserted(row, key)
        columns = ", ".join(qn(f.column) for f in [pk, *fields])
        with cursor.copy(f"COPY {qn(meta.db_table)} ({columns}) FROM STDIN") as copy:
            for row in rows:
                values = [getattr(row, name) for name in attnames]
                for i, field in json:
                    values[i] = field.get_db_prep_save(values[i], connection)
                copy.write_row([row.pk, *values])


Statement = tuple[str, list[Any]]
#: A write sent with another statement: its SQL, its parameters, and, for an ``INSERT …
#: RETURNING id``, what to do with the ids it returns (``None`` otherwise).
Deferred = tuple[str, list[Any], Callable[[list[int]], None] | None]


def execute_together(statements: Iterable[Statement]) -> None:
    """Run writes that touch different rows: on PostgreSQL as one statement, each but the
    last a data-modifying ``WITH`` clause (one round trip and one plan instead of several;
    all of them see the same snapshot, so they must not write the same row twice),
    elsewhere one after the other."""
    statements = list(statements)
    if not statements:
        return
    with connection.cursor() as cursor:
        if connection.vendor != "postgresql" or len(statements) == 1:
            for sql, params in statements:
                cursor.execute(sql, params)
            return
        *first, (last_sql, last_params) = statements
        clauses = ", ".join(f"w{i} AS ({sql})" for i, (sql, _) in enumerate(first))
        params = [value for _, values in first for value in values]
        cursor.execute(f"WITH {clauses} {last_sql}", [*params, *last_params])


def execute_deferred(deferred: Iterable[Deferred]) -> None:
    """Run deferred writes one after the other (where they cannot join a statement)."""
    with connection.cursor() as cursor:
        for sql, params, returning in deferred:
            cursor.execute(sql, params)
            if returning is not None:
                returning([row[0] for row in cursor.fetchall()])


def save_with_rows(
    instance: models.Model,
    rows: Sequence[models.Model],
    *,
    key: str,
    deferred: Sequence[Deferred] = (),
) -> bool:
    """Update every field of ``instance`` (an existing row, as a plain ``save()`` does),
    insert ``rows`` (new instances of one model) and run the ``deferred`` writes (each
    on other rows), in one statement; the rows' primary keys are set, matched by ``key``,
    an integer field unique among ``rows``, and each deferred ``INSERT … RETURNING id``
    gets its ids. PostgreSQL only (``WITH d0 AS (…), r AS (INSERT … RETURNING id, key)
    UPDATE …``): returns False elsewhere, and the caller saves the usual way. The models
    written here have no ``pre_save`` (``auto_now``) and no ``pre_save``/``post_save``
    receivers.
    """
    if connection.vendor != "postgresql" or not rows:
        return False
    meta, row_meta = instance._meta, rows[0]._meta
    pk, row_pk = meta.pk, row_meta.pk
    assert pk is not None and row_pk is not None
    qn = connection.ops.quote_name
    fields = [f for f in meta.concrete_fields if f is not pk]
    row_fields = [f for f in row_meta.concrete_fields if f is not row_pk]
    one = "(" + ", ".join(["%s"] * len(row_fields)) + ")"
    row_key, key_column = qn(row_pk.column), qn(row_meta.get_field(key).column)  # type: ignore[union-attr]
    clauses = "".join(f"d{i} AS ({sql}), " for i, (sql, _, _) in enumerate(deferred))
    ids = "".join(
        f", (SELECT array_agg(id ORDER BY id) FROM d{i})"
        for i, (_, _, returning) in enumerate(deferred)
        if returning is not None
    )
    sql = (
        f"WITH {clauses}r AS (INSERT INTO {qn(row_meta.db_table)} "  # noqa: S608
        f"({', '.join(qn(f.column) for f in row_fields)}) VALUES "
        + ", ".join([one] * len(rows))
        + f" RETURNING {row_key}, {key_column}) UPDATE {qn(meta.db_table)} SET "
        + ", ".join(f"{qn(f.column)} = %s" for f in fields)
        + f" WHERE {qn(pk.column)} = %s"
        + f" RETURNING (SELECT array_agg(ARRAY[{row_key}, {key_column}]::bigint[]) FROM r){ids}"
    )
    params: list[Any] = [value for _, values, _ in deferred for value in values]
    params += [
        f.get_db_prep_save(getattr(row, f.attname), connection) for row in rows for f in row_fields
    ]
    params += [f.get_db_prep_save(getattr(instance, f.attname), connection) for f in fields]
    params.append(pk.get_db_prep_save(instance.pk, connection))
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        found = cursor.fetchone()
    if found is None:
        raise instance.DoesNotExist(f"{meta.object_name} {instance.pk} is gone")  # type: ignore[attr-defined]
    keys = {value: pk_value for pk_value, value in found[0]}
    for row in rows:
        inserted(row, keys[getattr(row, key)])
    returned = iter(found[1:])
    for _, _, returning in deferred:
        if returning is not None:
            returning(list(next(returned) or ()))
    return True


@cache
def _insert_sql(model: type[models.Model], vendor: str) -> tuple[str, list[Any]]:
    meta = model._meta
    pk = meta.pk
    assert pk is not None
    qn = connection.ops.quote_name
    fields = [f for f in meta.concrete_fields if f is not pk]
    sql = (
        f"INSERT INTO {qn(meta.db_table)} ({', '.join(qn(f.column) for f in fields)}) "  # noqa: S608
        f"VALUES ({', '.join(['%s'] * len(fields))}) RETURNING {qn(pk.column)}"
    )
    return sql, fields


def insert_statement(instance: models.Model) -> Statement:
    """``INSERT … RETURNING id`` of a new ``instance`` (SQL built once per model), for
    :func:`insert_one` or for sending with another statement (:data:`Deferred`)."""
    sql, fields = _insert_sql(type(instance), connection.vendor)
    return sql, [f.get_db_prep_save(getattr(instance, f.attname), connection) for f in fields]


def inserted(instance: models.Model, key: int) -> None:
    """Mark ``instance`` as stored under ``key``, as ``save()`` does."""
    instance.pk = key
    instance._state.adding = False
    instance._state.db = connection.alias


def insert_one(instance: models.Model) -> None:
    """``instance.save(force_insert=True)`` for a row written on every move, with its SQL
    built once per model and process instead of compiled by the ORM each time (the
    models written here have no ``pre_save`` such as ``auto_now``, and no signals)."""
    if not connection.features.can_return_columns_from_insert:
        instance.save(force_insert=True)
        return
    sql, params = insert_statement(instance)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        (key,) = cursor.fetchone()
    inserted(instance, key)
