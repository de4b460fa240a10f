"""``field__any_of=[...]``: ``field IN (...)`` sent as one array parameter on PostgreSQL.

A player's lists read their games by primary key from a list of ids (games.selectors.
player_game_ids). With ``__in``, each id is a placeholder of its own: for a player with a
thousand games the query text is too long for psycopg's cache of parsed queries, and psycopg
parsed it again on every request (about a fifth of a busy player's lobby in
bench/profile_game.py --lobby 1000). ``= ANY(%s)`` with the list as one array keeps the query
text short and the same for every player. Other databases get the plain ``IN``.

The array is cast to the column's own type. psycopg sends a list of small ints as ``smallint[]``
(the narrowest type that holds them), and PostgreSQL hashes a long ``= ANY(array)`` only when
the array's type is the column's: with ``bigint = ANY(smallint[])`` it compared each row with
every id, 37 ms for a lobby of 1,000 games (900 running) and 190 ms for 10,000, against 5 and
8 ms with ``bigint[]`` (EXPLAIN ANALYZE on bench/pages.py's database).

Registered on every field by MaatasiteConfig.ready.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import EmptyResultSet
from django.db.models import IntegerField, lookups


def _whole_numbers(values: Any) -> bool:
    return all(type(value) is int for value in values)


class AnyOf(lookups.In):
    lookup_name = "any_of"

    def get_prep_lookup(self) -> Any:
        """Ids that are ints already are taken as they are: __in prepares each value through
        the field (10,000 calls for a player with 10,000 games), which changes no int."""
        field = getattr(self.lhs, "output_field", None)
        if (
            self.rhs_is_direct_value()
            and isinstance(field, IntegerField)
            and isinstance(self.rhs, (list, tuple, set, frozenset))
            and _whole_numbers(self.rhs)
        ):
            return list(self.rhs)
        return super().get_prep_lookup()

    def as_postgresql(self, compiler: Any, connection: Any) -> tuple[str, Any]:
        if not self.rhs_is_direct_value():  # a subquery: as __in does
            return super().as_sql(compiler, connection)
        lhs, lhs_params = self.process_lhs(compiler, connection)
        values = [value for value in self.rhs if value is not None]
        if not values:
            raise EmptyResultSet
        field = self.lhs.output_field  # the values were prepared (get_prep_value) by In already
        column_type = field.db_type(connection)
        array: Any
        if column_type and isinstance(field, IntegerField):  # prepared: ints (IntegerField.get_prep_value)
            # The array's text, which PostgreSQL reads as the column's type: psycopg's own list
            # dumping checks every element (a tenth of a lobby of 10,000 games).
            array = "{%s}" % ",".join(map(str, values))
        else:
            array = [field.get_db_prep_value(value, connection, prepared=True) for value in values]
        cast = "::%s[]" % column_type if column_type else ""
        return "%s = ANY(%%s%s)" % (lhs, cast), [*lhs_params, array]
