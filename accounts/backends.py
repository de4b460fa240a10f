"""The authentication backend: Django's ModelBackend, whose read of the signed-in user (every
page's first query) runs through SQL built once (maatasite.sql_once)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.backends import ModelBackend
from django.db import router

from maatasite.sql_once import instances_once

from .models import User

USER_SQL = "session_user"  # its name in maatasite.sql_once
_USER_ID_PLACEHOLDER = -7_001_007  # an id no account has: the compiled SQL's variable parameter


def _user_query(user_id: int) -> Any:
    return User._default_manager.filter(pk=user_id)


class ModelBackendReadOnce(ModelBackend):
    """ModelBackend but for how ``get_user`` reads the row: the same user (a test compares it
    with the ORM's field by field), without building its query on every request. Sessions made
    through ModelBackend itself (before this backend) go on through it: both are listed."""

    def get_user(self, user_id: Any) -> User | None:
        try:
            pk = int(user_id)
        except (TypeError, ValueError):
            return None
        found = instances_once(
            USER_SQL, queryset=_user_query, placeholder=_USER_ID_PLACEHOLDER, value=pk, alias=router.db_for_read(User)
        )
        if not found:
            return None
        user = found[0]
        return user if self.user_can_authenticate(user) else None
