"""Fixtures of the API tests: players, clients signed in with tokens of given scopes
(tests/api_clients.py), and the API's test settings for every test here."""

from __future__ import annotations

import pytest

from tests.api_clients import (  # noqa: F401  (fixtures and helpers of the tests here)
    HIGH_RATES,
    alice_api,
    anon,
    api_settings,
    api_test_settings,
    bob_api,
    carol_api,
    token_client,
)
from tests.games.conftest import make_user, play, start_game  # noqa: F401  (shared helpers)


@pytest.fixture(autouse=True)
def _api_settings(settings):
    """Every test here runs with the API's test settings (see tests/api_clients.py)."""
    api_test_settings(settings)
