"""The SQL of an ORM query built once per process and database, for the hottest reads.

Building a query costs Django more than PostgreSQL takes to run it when the read is a single
row (a game's version for every API revalidation, a token for every API request). Such a read
runs the SQL of its own ORM query, built at its first call with a placeholder as the query's
one parameter, and kept per (name, database alias, vendor). Each caller's test compares what
it reads with what the ORM reads.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.db.models import QuerySet

T = TypeVar("T")

_built: dict[tuple[str, str, str], Any] = {}


def built_once(
    name: str,
    *,
    queryset: Callable[[Any], QuerySet[Any]],
    placeholder: Any,
    alias: str,
    connection: Any,
    describe: Callable[[Any, str], T],
) -> T:
    """``describe(compiler, sql)`` of ``queryset(placeholder)``'s SQL on ``alias``, made at the
    first call for (``name``, ``alias``, the database's vendor) and kept: the SQL takes the real
    value where the placeholder was, as its only parameter. Fails at once when Django builds
    the query with other parameters (a new Django; the SQL would be wrong)."""
    key = (name, alias, connection.vendor)
    found = _built.get(key)
    if found is None:
        compiler = queryset(placeholder).query.get_compiler(alias)
        sql, params = compiler.as_sql()
        if list(params) != [placeholder]:
            raise RuntimeError("%s: unexpected parameters %r" % (name, params))
        found = _built[key] = describe(compiler, sql)
    return found


def forget(name: str) -> None:
    """Build ``name``'s SQL again at its next call (tests)."""
    for key in [key for key in _built if key[0] == name]:
        del _built[key]


def kept(name: str) -> list[tuple[str, str]]:
    """The (alias, vendor) pairs ``name``'s SQL is kept for (tests)."""
    return [(alias, vendor) for (kept_name, alias, vendor) in _built if kept_name == name]
