"""The API tests' clients and settings (tests/api, and the API tests of accounts and games):
clients signed in with tokens of given scopes, and ``api_settings``, which lifts the rate
limits, serves events at once and gives the rate-limit counters a cache namespace of the test's own.

tests/api's conftest applies ``api_settings`` to every test there; an app's API test module
asks for it with ``pytest.mark.usefixtures("api_settings")``."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from api import services as api_services
from tests.conftest import isolated_caches

HIGH_RATES = {"user": "100000/min", "ip": "100000/min", "auth": "100000/min"}


def api_test_settings(settings) -> None:
    """No rate limits in the way (the throttling tests set their own), events at once,
    rate-limit counters in a cache namespace of this test's own (``settings``: pytest-django's fixture)."""
    settings.API_THROTTLE_RATES = dict(HIGH_RATES)
    settings.API_EVENTS_SETTLE_SECONDS = 0
    settings.CACHES = isolated_caches(settings.CACHES)


@pytest.fixture
def api_settings(settings):
    """The API's test settings (``api_test_settings``) for one test."""
    api_test_settings(settings)
    return settings


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
