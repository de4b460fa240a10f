"""``field__any_of=[...]``: ``field IN (...)`` sent as one array parameter on PostgreSQL.

A player's lists read their games by primary key from a list of ids (games.selectors.
player_game_ids). With ``__in``, each id is a placeholder of its own: for a player with a
thousand games the query text is too long for psycopg's cache of parsed queries, and psycopg
parsed it again on every request (about a fifth of a busy player's lobby in
bench/profile_game.py --lobby 1000). ``= ANY(%s)`` with the list as one array keeps the query
text short and the same for every player. Other databases get the plain ``IN``.

Registered on every field by MaatasiteConfig.ready.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import EmptyResultSet
from django.db.models import lookups


class AnyOf(lookups.In):
    lookup_name = "any_of"

    def as_postgresql(self, compiler: Any, connection: Any) -> tuple[str, Any]:
        if not self.rhs_is_direct_value():  # a subquery: as __in does
            return super().as_sql(compiler, connection)
        lhs, lhs_params = self.process_lhs(compiler, connection)
        values = [value for value in self.rhs if value is not None]
        if not values:
            raise EmptyResultSet
        field = self.lhs.output_field  # the values were prepared (get_prep_value) by In already
        prepared = [field.get_db_prep_value(value, connection, prepared=True) for value in values]
        return "%s = ANY(%%s)" % lhs, [*lhs_params, prepared]
