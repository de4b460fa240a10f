"""The games tests' helpers (tests/factories.py): players, started games, moves played in them;
and the API clients of the test_api_* modules (tests/api_clients.py)."""

from __future__ import annotations

from tests.api_clients import alice_api, anon, api_settings, bob_api, carol_api  # noqa: F401  (fixtures)
from tests.factories import first_legal, make_user, play, start_game  # noqa: F401  (re-exported for the tests here)
