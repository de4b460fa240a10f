"""The API's throttles count the client's address from api/client_address.py: a new
X-Forwarded-For on every request dodges nothing (DRF's own get_ident believed it)."""

from __future__ import annotations

import pytest
from django.core import mail
from rest_framework.test import APIClient

from accounts.models import User
from tests.helpers import rotated, through_before_429

from .conftest import token_client

HIGH = "100000/min"


def through_before_api_429(send, attempts: int) -> int:
    """tests.helpers.through_before_429, whose 429 must be the API's error shape with a Retry-After."""
    through, refused = through_before_429(send, attempts)
    if refused is not None:
        assert int(refused["Retry-After"]) > 0 and refused.json()["code"] == "throttled"
    return through


@pytest.fixture
def default_rates(settings):
    """The production defaults (api/conftest.py lifts them for the other API tests)."""
    settings.TRUSTED_PROXY_COUNT = 0
    settings.API_THROTTLE_RATES = {"user": "120/min", "ip": "300/min", "auth": "10/min"}
    settings.RATE_LIMITS = {"page_auth": "10/min", "login_failures": "10/hour", "account_mail": "5/hour"}


def test_wrong_passwords_with_a_rotated_forwarded_for_get_a_429(default_rates, anon, alice):
    """30 wrong passwords on the token endpoint, each with a new header: before, no 429."""
    wrong = {"username": "alice", "password": "guess", "name": "x", "scopes": ["read"]}
    through = through_before_api_429(lambda i: anon.post("/api/v1/auth/token/", wrong, format="json", **rotated(i)), 30)
    assert through == 10  # API_RATE_AUTH


def test_the_failed_sign_in_budget_of_the_pair_holds_on_the_api_alone(settings, default_rates, anon, alice):
    settings.API_THROTTLE_RATES = {"user": HIGH, "ip": HIGH, "auth": HIGH}
    wrong = {"username": "alice", "password": "guess", "name": "x", "scopes": ["read"]}
    through = through_before_api_429(
        lambda i: anon.post("/api/v1/auth/token/", wrong, format="json", REMOTE_ADDR="198.51.100.66", **rotated(i)), 30
    )
    assert through == 10  # ACCOUNT_RATE_LOGIN_FAILURES
    right = {**wrong, "password": "pw-alice-123456"}
    assert anon.post("/api/v1/auth/token/", right, format="json", REMOTE_ADDR="203.0.113.5").status_code == 201


def test_the_per_address_budget_ignores_a_rotated_forwarded_for(settings, default_rates, anon):
    settings.API_THROTTLE_RATES = {"user": HIGH, "ip": "5/min", "auth": HIGH}
    assert through_before_api_429(lambda i: anon.get("/api/v1/ping/", **rotated(i)), 20) == 5


def test_the_per_user_budget_is_unchanged(settings, default_rates, alice):
    settings.API_THROTTLE_RATES = {"user": "3/min", "ip": HIGH, "auth": HIGH}
    client = token_client(alice)
    assert through_before_api_429(lambda i: client.get("/api/v1/me/", **rotated(i)), 10) == 3


@pytest.mark.django_db(transaction=True)  # mail leaves on commit
@pytest.mark.parametrize("path", ["/api/v1/auth/password/reset/", "/api/v1/auth/confirm/resend/"])
def test_one_victim_gets_at_most_its_share_of_account_mail(settings, default_rates, path):
    """25 reset mails reached one victim. Now 5, however many addresses ask."""
    settings.API_THROTTLE_RATES = {"user": HIGH, "ip": HIGH, "auth": HIGH}
    User.objects.create_user(
        "victim",
        "victim@example.org",
        "pw-victim-123456",
        is_active=path.endswith("reset/"),
        email_confirmed=path.endswith("reset/"),
    )
    client = APIClient()
    through = through_before_api_429(
        lambda i: client.post(
            path, {"email": "victim@example.org"}, format="json", REMOTE_ADDR="192.0.2.%d" % (i + 1), **rotated(i)
        ),
        25,
    )
    assert through == 5 and len(mail.outbox) == 5
