"""The writer of the one staff audit log (``accounts.models.StaffAction``).

Every app that acts for staff (ops, fairplay, tournaments) records the action here, in
the transaction of the action, so that the row exists exactly when the action happened."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.utils import timezone

from .models import STAFF_ACTION_KINDS_WITHOUT_REASON, StaffAction, StaffActionKind

if TYPE_CHECKING:
    from .models import User


def staff_action_record(
    *,
    staff: User | None,
    action: StaffActionKind,
    reason: str = "",
    target: models.Model | None = None,
    player: User | None = None,
    details: dict[str, Any] | None = None,
    now: datetime | None = None,
) -> StaffAction:
    """One row per staff action: who (``staff``; None when the site or the player did it),
    what (``action``), on what (``target``, and the ``player`` it concerns), when and why.
    A reason is required except for the kinds that never ask for one (tournament management)."""
    if action not in StaffActionKind.values:
        raise ValueError("unknown staff action %r" % action)
    if not reason.strip() and action not in STAFF_ACTION_KINDS_WITHOUT_REASON:
        raise ValueError("the staff action %r needs a reason" % action)
    return StaffAction.objects.create(
        staff=staff,
        action=action,
        reason=reason,
        player=player,
        details=details or {},
        target_type=ContentType.objects.get_for_model(target) if target is not None else None,
        target_id=target.pk if target is not None else None,
        at=now or timezone.now(),
    )
