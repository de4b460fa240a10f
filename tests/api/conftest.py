"""Fixtures of the API tests: players, clients signed in with tokens of given scopes."""
from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from api import services as api_services
from tests.conftest import isolated_caches
from tests.games.conftest import make_user, play, start_game  # noqa: F401  (shared helpers)

HIGH_RATES = {"user": "100000/min", "ip": "100000/min", "auth": "100000/min"}


@pytest.fixture(autouse=True)
def _api_settings(settings):
    """No rate limits in the way (the throttling tests set their own), events at once,
    rate-limit counters in a cache namespace of this test's own."""
    settings.API_THROTTLE_RATES = dict(HIGH_RATES)
    settings.API_EVENTS_SETTLE_SECONDS = 0
    settings.CACHES = isolated_caches(settings.CACHES)


def token_client(user, scopes=("read", "play")) -> APIClient:
    """A client sending a fresh Bearer token of ``user`` with ``scopes``."""
    _token, secret = api_services.token_create(user=user, name="test", scopes=list(scopes))
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Bearer " + secret)
    return client


@pytest.fixture
def anon():
    return APIClient()


@pytest.fixture
def alice_api(alice):
    return token_client(alice)


@pytest.fixture
def bob_api(bob):
    return token_client(bob)


@pytest.fixture
def carol_api(carol):
    return token_client(carol)
