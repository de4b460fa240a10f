"""Scopes: a token needs ``read`` to read (GET, HEAD, OPTIONS) and ``play`` for anything else."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import permissions

from .models import SCOPE_PLAY, SCOPE_READ, ApiToken


class TokenHasScope(permissions.BasePermission):
    message = _("This token lacks the scope this request needs (read to read, play to act).")

    def has_permission(self, request: Any, view: Any) -> bool:
        if not isinstance(request.auth, ApiToken):
            return True
        needed = SCOPE_READ if request.method in permissions.SAFE_METHODS else SCOPE_PLAY
        return needed in request.auth.scopes
