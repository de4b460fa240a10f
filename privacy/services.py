"""A player's own data: the export of everything the site holds about them, and the
deletion of their account.

Each app says what it holds about a user, and how it is exported and erased, in its own
``personal_data`` module, registered in ``maatasite.personal_data``; this module runs
them and owns the rest: the export's envelope (format, version, the sections in their
order), and the deletion's checks, its one transaction and the lock on the user's row.

Deletion keeps the user row, anonymised, because games, moves and rating changes
point at it: finished games stay replayable and show the player as "deleted player"
(``User.public_name``). Everything that can still change is ended first through the
other apps' own services, so their rules apply as for any player: running games are
resigned (``game_finished`` updates ratings, ladders and tournaments), open
challenges cancelled or declined, ladders left, tournaments withdrawn from.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ImproperlyConfigured
from django.db import transaction
from django.utils import timezone

from maatasite.personal_data import registry

from .errors import PrivacyConflict, PrivacyNotAllowed

if TYPE_CHECKING:
    from accounts.models import User

log = logging.getLogger(__name__)

EXPORT_FORMAT = "maatasite-account-export"
EXPORT_VERSION = 1


def account_export(*, user: User) -> dict[str, Any]:
    """Everything the site holds about ``user``, as JSON data (deterministic: the same
    data gives the same document; keys carry the format and its version, then every
    app's sections in their registered order)."""
    document: dict[str, Any] = {"format": EXPORT_FORMAT, "version": EXPORT_VERSION}
    for section in registry.export_sections():
        if section.key in document:
            raise ImproperlyConfigured("export section %r would overwrite the envelope" % section.key)
        document[section.key] = section.build(user)
    return document


def account_delete(*, user: User, password: str, now: datetime | None = None) -> User:
    """Delete ``user``'s account, in one transaction, after checking their password again.

    Runs every app's erase steps on the locked row, in the order of their phases
    (``maatasite.personal_data.ErasePhase``): the row is anonymised first (see the module
    docstring), replies by mail go, what is running is ended (challenges and games, then
    ladders and tournaments), and blocks, API tokens, sessions, pending mail, the digest,
    vacations and the calendar feed are removed. Reports and game messages the user
    wrote stay, for staff and for the other player, shown as written by a deleted player.
    Refuses a wrong password (403) and a second deletion (409).
    """
    now = now or timezone.now()
    if user.is_deleted:
        raise PrivacyConflict("already_deleted")
    if not user.check_password(password or ""):
        raise PrivacyNotAllowed("wrong_password")
    counts: dict[str, int] = {}
    with transaction.atomic():
        locked = get_user_model().objects.select_for_update().get(pk=user.pk)
        if locked.is_deleted:
            raise PrivacyConflict("already_deleted")
        for step in registry.erase_steps():
            counts.update(step.run(locked, now) or {})
    log.info("account_delete user_id=%s %s", locked.pk, " ".join("%s=%s" % item for item in sorted(counts.items())))
    return locked
