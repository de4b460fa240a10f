"""The API clients of the accounts' test_api_* modules (tests/api_clients.py)."""

from __future__ import annotations

from tests.api_clients import alice_api, anon, api_settings, bob_api, carol_api  # noqa: F401  (fixtures)
