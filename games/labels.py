"""The names the site shows for sides and result reasons.

The engine defines the sides (``engine.get_game(kind).players``, in seat order); the
site takes them from there and only adds a translated label to each. Result reasons
are ``games.models.ResultReason``, whose labels these are.
"""
from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from engine import get_game

from .models import GameKind, ResultReason

SIDES: dict[str, tuple[str, ...]] = {kind: tuple(get_game(kind).players) for kind in GameKind.values}
# Labels in the engine's seat order, per game.
_LABELS: dict[str, tuple[Promise, ...]] = {
    GameKind.ONITAMA: (_("Red"), _("Blue")),
    GameKind.MAATATAHAY: (_("Balan"), _("Wazu")),
}
SIDE_LABELS: dict[str, Promise] = {side: label for kind, sides in SIDES.items()
                                   for side, label in zip(sides, _LABELS[kind], strict=True)}


def side_label(side: str) -> str:
    """A side's name in the reader's language (an unknown side is shown as it is)."""
    label = SIDE_LABELS.get(side)
    return str(label) if label is not None else side


def reason_label(reason: str) -> str:
    """A result reason's label in the reader's language (an unknown one is shown as it is)."""
    return str(ResultReason(reason).label) if reason in ResultReason.values else reason
