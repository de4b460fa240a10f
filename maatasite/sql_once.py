"""The SQL of an ORM query built once per process and database, for the hottest reads.

Building a query costs Django more than PostgreSQL takes to run it when the read is a row or
two (a game's version for every API revalidation, a token for every API request, a game and
its seats for every page and move). Such a read runs the SQL of its own ORM query, built at
its first call with a placeholder as the query's one variable parameter, and kept per (name,
database alias, vendor). Each caller's test compares what it reads with what the ORM reads.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import connections
from django.db.models import Model, QuerySet, signals
from django.db.models.constants import OnConflict
from django.db.models.deletion import Collector
from django.db.models.query import get_related_populators
from django.db.models.sql import DeleteQuery, InsertQuery
from django.db.transaction import TransactionManagementError

T = TypeVar("T")


class Placeholders(tuple[Any, ...]):
    """Several placeholders for a query with several variable parameters: ``queryset`` is called
    with them as its arguments, and each call's value is a tuple of as many values."""


@dataclass(frozen=True)
class Built(Generic[T]):
    """A query's SQL as Django built it, what the caller made of its compiler, and its
    parameters: the built ones, with the placeholders' places taken by each call's values."""

    sql: str
    described: T
    params: tuple[Any, ...]
    variables: tuple[tuple[int, int], ...]
    """(index in ``params``, index of the placeholder) of each variable parameter."""
    several: bool

    def params_with(self, value: Any) -> list[Any]:
        values = tuple(value) if self.several else (value,)
        params = list(self.params)
        for index, which in self.variables:
            params[index] = values[which]
        return params


_built: dict[tuple[str, str, str], Any] = {}


def _select_compiler(queryset: QuerySet[Any], alias: str) -> Any:
    return queryset.query.get_compiler(alias)


def built_once(
    name: str,
    *,
    queryset: Callable[..., QuerySet[Any]],
    placeholder: Any,
    alias: str,
    connection: Any,
    describe: Callable[[Any, str], T],
    compiler_of: Callable[[QuerySet[Any], str], Any] = _select_compiler,
) -> Built[T]:
    """``queryset(placeholder)``'s SQL on ``alias`` with ``describe(compiler, sql)``, made at the
    first call for (``name``, ``alias``, the database's vendor) and kept. The query's other
    parameters (a status it filters by, say) are kept as built. A single placeholder must be
    one of them exactly once; each of several (:class:`Placeholders`) at least once. Else this
    fails at once (a new Django that builds the query otherwise). ``compiler_of``: the compiler
    of another statement than the SELECT (:func:`delete_once`)."""
    key = (name, alias, connection.vendor)
    found = _built.get(key)
    if found is None:
        several = isinstance(placeholder, Placeholders)
        marks = tuple(placeholder) if several else (placeholder,)
        compiler = compiler_of(queryset(*marks), alias)
        sql, params = compiler.as_sql()
        variables = tuple((index, marks.index(param)) for index, param in enumerate(params) if param in marks)
        used = {which for _index, which in variables}
        if used != set(range(len(marks))) or (not several and len(variables) != 1):
            raise RuntimeError("%s: the placeholders are not parameters of %r" % (name, params))
        found = _built[key] = Built(sql, describe(compiler, sql), tuple(params), variables, several)
    return found


Converters = tuple[tuple[int, tuple[Any, ...], Any], ...]
"""(column, Django's converters of its values, the column's expression) for each column that has any."""


@dataclass(frozen=True)
class _Instances:
    """How Django's ModelIterable turns the query's rows into model instances, kept with its
    SQL: the model's columns, the converters, select_related's populators, the annotations."""

    model: type[Model]
    init_list: tuple[str, ...]
    start: int
    end: int
    converters: Converters
    related_populators: tuple[Any, ...]
    annotations: tuple[tuple[str, int], ...]
    locks: bool


def _instances_describe(compiler: Any, _sql: str) -> _Instances:
    select, klass_info = compiler.select, compiler.klass_info
    fields = klass_info["select_fields"]
    start, end = fields[0], fields[-1] + 1
    converters = compiler.get_converters([column[0] for column in select[: compiler.col_count]])
    return _Instances(
        model=klass_info["model"],
        init_list=tuple(column[0].target.attname for column in select[start:end]),
        start=start,
        end=end,
        converters=tuple((index, tuple(found), expression) for index, (found, expression) in converters.items()),
        # the stubs name a later Django's fourth argument; Django 5.2 takes these three
        related_populators=tuple(get_related_populators(klass_info, select, compiler.using)),  # type: ignore[call-arg]
        annotations=tuple((compiler.annotation_col_map or {}).items()),
        locks=bool(compiler.query.select_for_update),
    )


def _rows_run(built: Built[Any], value: Any, converters: Converters, connection: Any) -> list[list[Any]]:
    """The rows of ``built``'s SQL run with ``value``, each a list of its values converted as the
    ORM converts them (JSON read from text, SQLite's times), with the arguments the ORM gives."""
    with connection.cursor() as cursor:
        cursor.execute(built.sql, built.params_with(value))
        rows: Sequence[Sequence[Any]] = cursor.fetchall()
    converted = []
    for row in rows:
        values = list(row)
        for index, found, expression in converters:
            for converter in found:
                values[index] = converter(values[index], expression, connection)
        converted.append(values)
    return converted


def instances_once(
    name: str, *, queryset: Callable[..., QuerySet[Any]], placeholder: Any, value: Any, alias: str
) -> list[Any]:
    """The instances ``queryset(value)`` gives (with its select_related objects and annotations,
    made as the ORM makes them), through its SQL built once (:func:`built_once`). A query that
    locks its rows needs a transaction, as the ORM's does."""
    connection = connections[alias]
    built: Built[_Instances] = built_once(
        name,
        queryset=queryset,
        placeholder=placeholder,
        alias=alias,
        connection=connection,
        describe=_instances_describe,
    )
    made = built.described
    if made.locks and connection.get_autocommit():
        raise TransactionManagementError("select_for_update cannot be used outside of a transaction.")
    instances = []
    for values in _rows_run(built, value, made.converters, connection):
        instance = made.model.from_db(alias, list(made.init_list), values[made.start : made.end])
        for populator in made.related_populators:
            populator.populate(values, instance)
        for attribute, index in made.annotations:
            setattr(instance, attribute, values[index])
        instances.append(instance)
    return instances


def _rows_describe(compiler: Any, _sql: str) -> Converters:
    converters = compiler.get_converters([column[0] for column in compiler.select[: compiler.col_count]])
    return tuple((index, tuple(found), expression) for index, (found, expression) in converters.items())


def rows_once(
    name: str,
    *,
    queryset: Callable[..., QuerySet[Any]],
    placeholder: Any,
    value: Any,
    alias: str,
) -> list[tuple[Any, ...]]:
    """The rows ``queryset(value)`` gives as tuples of its columns (a ``values_list``, a count
    grouped by a key), converted as the ORM converts them, through its SQL built once
    (:func:`built_once`; several placeholders take a tuple of values)."""
    connection = connections[alias]
    built: Built[Converters] = built_once(
        name,
        queryset=queryset,
        placeholder=placeholder,
        alias=alias,
        connection=connection,
        describe=_rows_describe,
    )
    return [tuple(values) for values in _rows_run(built, value, built.described, connection)]


def value_once(
    name: str,
    *,
    queryset: Callable[..., QuerySet[Any]],
    placeholder: Any,
    value: Any,
    alias: str,
    default: Any = None,
) -> Any:
    """The first column of the first row :func:`rows_once` gives (a count, say), or ``default``
    when there is no row."""
    rows = rows_once(name, queryset=queryset, placeholder=placeholder, value=value, alias=alias)
    return rows[0][0] if rows else default


class _CascadesCollector(Collector):
    """Django's fast-delete check without its part on signals, which :func:`delete_once`
    checks at each call: whether anything cascades from the rows, or they have parents."""

    def _has_signal_listeners(self, model: type[Model]) -> bool:
        return False


def _delete_compiler(queryset: QuerySet[Any], alias: str) -> Any:
    """The compiler of the DELETE that the ORM's fast delete runs for ``queryset``
    (``QuerySet._raw_delete``), refused for rows the ORM would collect first."""
    if not _CascadesCollector(using=alias, origin=None).can_fast_delete(queryset):
        raise RuntimeError("%s: the ORM collects these rows before it deletes them" % queryset.model.__name__)
    query = queryset.query.clone()
    query.__class__ = DeleteQuery
    return query.get_compiler(alias)


def _deletes_signalled(model: type[Model]) -> bool:
    return signals.pre_delete.has_listeners(model) or signals.post_delete.has_listeners(model)


def delete_once(name: str, *, queryset: Callable[..., QuerySet[Any]], placeholder: Any, value: Any, alias: str) -> int:
    """Delete the rows ``queryset(value)`` selects, as its ``.delete()`` does for a model that
    nothing cascades from (the ORM's fast delete: one DELETE, no rows read), through its SQL
    built once (:func:`built_once`); the number of rows deleted. Building refuses a model whose
    rows the ORM would collect; a call while delete signals are connected for the model takes
    the ORM's way, which sends them. Calling ``.delete()`` costs more CPU than the DELETE
    costs PostgreSQL."""
    connection = connections[alias]
    built: Built[type[Model]] = built_once(
        name,
        queryset=queryset,
        placeholder=placeholder,
        alias=alias,
        connection=connection,
        describe=lambda compiler, _sql: compiler.query.model,
        compiler_of=_delete_compiler,
    )
    if _deletes_signalled(built.described):
        return int(queryset(value).delete()[0])
    with connection.cursor() as cursor:
        cursor.execute(built.sql, built.params_with(value))
        return int(cursor.rowcount)


@dataclass(frozen=True)
class _Insert:
    sql: str
    fields: tuple[Any, ...]
    model: type[Model]
    ignore_conflicts: bool


_inserts: dict[tuple[str, str, str], _Insert] = {}


def insert_once(name: str, objs: Sequence[Model], *, alias: str, ignore_conflicts: bool = False) -> None:
    """Insert ``objs``, new rows of one model with every concrete field but an automatic id,
    as ``bulk_create(objs, ignore_conflicts=...)`` inserts them (a row that conflicts is left
    out when ``ignore_conflicts``), through the ORM's single-row INSERT built once per
    (``name``, ``alias``, vendor) and run for each row in one ``executemany`` (one round trip
    with psycopg's pipeline). Each value is prepared for the database as the ORM prepares it
    (``pre_save``, then ``get_db_prep_save``). No ids come back: for the few rows a write adds
    beside its main one (a turn's alarms), where ``bulk_create`` costs more CPU than the
    INSERT costs the database."""
    if not objs:
        return
    connection = connections[alias]
    model = type(objs[0])
    key = (name, alias, connection.vendor)
    made = _inserts.get(key)
    if made is None:
        meta = model._meta
        fields = tuple(
            field
            for field in meta.concrete_fields
            if field is not meta.auto_field and not getattr(field, "generated", False)
        )
        if any(hasattr(field, "get_placeholder") for field in fields):
            raise RuntimeError("%s: a field's placeholder depends on its value" % name)
        query = InsertQuery(model, on_conflict=OnConflict.IGNORE if ignore_conflicts else None)
        query.insert_values(list(fields), [objs[0]])
        ((sql, _params),) = query.get_compiler(using=alias).as_sql()
        made = _inserts[key] = _Insert(sql, fields, model, ignore_conflicts)
    if made.model is not model or made.ignore_conflicts != ignore_conflicts:
        built_for = (name, made.model.__name__, made.ignore_conflicts)
        raise ValueError("%s: built for %s rows with ignore_conflicts=%s" % built_for)
    rows = []
    for obj in objs:
        if type(obj) is not model or (obj.pk is not None and model._meta.auto_field is not None):
            raise ValueError("%s: new rows of one model only" % name)
        rows.append([field.get_db_prep_save(field.pre_save(obj, True), connection=connection) for field in made.fields])
    with connection.cursor() as cursor:
        cursor.executemany(made.sql, rows)


def forget(name: str) -> None:
    """Build ``name``'s SQL again at its next call (tests)."""
    for key in [key for key in _built if key[0] == name]:
        del _built[key]
    for key in [key for key in _inserts if key[0] == name]:
        del _inserts[key]


def kept(name: str) -> list[tuple[str, str]]:
    """The (alias, vendor) pairs ``name``'s SQL is kept for (tests)."""
    return [(alias, vendor) for (kept_name, alias, vendor) in [*_built, *_inserts] if kept_name == name]
