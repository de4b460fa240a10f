"""Plain helpers that build test data, shared by every app's tests.

The common players are fixtures in tests/conftest.py (``alice``, ``bob``,
``carol``); apps' conftests import ``make_user`` from here for more.
"""
from __future__ import annotations

from django.contrib.auth import get_user_model


def make_user(name: str, *, email: bool = True):
    """An active user ``name`` with the password ``pw-<name>-123456`` (and no email if asked)."""
    return get_user_model().objects.create_user(
        username=name, email="%s@example.org" % name if email else "",
        password="pw-" + name + "-123456")
