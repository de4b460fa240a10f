"""Serializer helpers every app's endpoints share (they know no domain app)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rest_framework import serializers


def read_through(fields: dict[str, Any], names: Iterable[str], attribute: str) -> dict[str, Any]:
    """Make the fields ``names`` read from ``attribute`` of the instance (``source`` prefixed).

    A serializer that extends another one's shape (a ladder's detail extends the ladder)
    reads the page a selector returns, which holds the object of the shorter shape as an
    attribute; call it from ``get_fields``, so that the schema keeps the inherited fields
    in their order."""
    for name in names:
        field = fields[name]
        field.source = "%s.%s" % (attribute, field.source or name)
    return fields


class RoundedFloatField(serializers.FloatField):
    """A float rounded to ``decimals`` places in responses."""

    def __init__(self, *, decimals: int, **kwargs: Any) -> None:
        self.decimals = decimals
        super().__init__(**kwargs)

    def to_representation(self, value: Any) -> Any:  # a float (DRF's stubs say str for FloatField)
        return round(float(value), self.decimals)
