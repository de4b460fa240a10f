"""The HTML forms' budgets (accounts/ratelimits.py): per client address, per account and
address pair for failed sign-ins, per target address for mails. A client that writes a new
X-Forwarded-For on every request still gets a 429, and the real owner still signs in."""

from __future__ import annotations

import pytest
from django.core import mail
from django.urls import reverse
from rest_framework.test import APIClient

from accounts.models import User
from tests.factories import make_user
from tests.helpers import rotated, through_before_429

HIGH = "100000/min"
STRANGER = "198.51.100.66"
OWNER = "203.0.113.5"


@pytest.fixture
def rates(settings):
    """The production defaults, with one budget at a time under test (the others high)."""
    settings.TRUSTED_PROXY_COUNT = 0
    settings.RATE_LIMITS = {"page_auth": "10/min", "login_failures": "10/hour", "account_mail": "5/hour"}
    settings.API_THROTTLE_RATES = {"user": HIGH, "ip": HIGH, "auth": HIGH}
    return settings.RATE_LIMITS


def assert_refusal_page(response, field: str):
    """A 429 page: the form again (unbound), the message, and Retry-After."""
    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0
    text = response.content.decode()
    assert 'name="%s"' % field in text and "<form" in text
    assert "try again in" in text


ALICE_PASSWORD = "pw-alice-123456"


def test_login_page_refuses_a_rotated_forwarded_for_after_its_budget(client, rates, alice):
    """40 wrong passwords, each with a new X-Forwarded-For: before, all were answered and
    then the right one signed in. Now the 11th is a 429, and so is the right password."""
    login = reverse("accounts:login")
    count, refused = through_before_429(
        lambda i: client.post(login, {"username": "alice", "password": "guess-%d" % i}, **rotated(i)), 40
    )
    assert count == 10
    assert_refusal_page(refused, "username")
    assert 'value="alice"' in refused.content.decode()  # the typed name is shown again, the password not
    right = client.post(login, {"username": "alice", "password": ALICE_PASSWORD}, **rotated(99))
    assert right.status_code == 429 and "_auth_user_id" not in client.session


def test_behind_one_proxy_only_the_proxys_entry_counts(client, rates, alice, settings):
    rates["page_auth"] = "5/min"
    settings.TRUSTED_PROXY_COUNT = 1
    login = reverse("accounts:login")

    def send(i):
        forged = "10.0.%d.%d" % (i // 256, i % 256)
        return client.post(
            login,
            {"username": "alice", "password": "x"},
            REMOTE_ADDR="10.0.0.2",
            HTTP_X_FORWARDED_FOR="%s, 198.51.100.7" % forged,
        )

    count, refused = through_before_429(send, 20)
    assert count == 5 and refused is not None
    # Another client behind the same proxy has its own budget.
    other = client.post(
        login, {"username": "alice", "password": "x"}, REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="198.51.100.8"
    )
    assert other.status_code == 200


def test_a_stranger_hammering_an_account_does_not_lock_its_owner_out(client, rates, alice):
    """Failed sign-ins count per account and address pair: the stranger's pair is refused
    (even the right password, which is then not checked), the owner signs in from theirs."""
    rates["page_auth"] = HIGH
    login = reverse("accounts:login")
    count, refused = through_before_429(
        lambda i: client.post(
            login, {"username": "ALICE", "password": "guess-%d" % i}, REMOTE_ADDR=STRANGER, **rotated(i)
        ),
        40,
    )
    assert count == 10
    assert_refusal_page(refused, "username")
    assert "failed sign-ins" in refused.content.decode()
    assert (
        client.post(login, {"username": "alice", "password": ALICE_PASSWORD}, REMOTE_ADDR=STRANGER).status_code == 429
    )
    # The stranger's address may still try another account (its own budget).
    make_user("bob")
    assert client.post(login, {"username": "bob", "password": "nope"}, REMOTE_ADDR=STRANGER).status_code == 200
    # The owner, from their own address, signs in.
    owner = client.__class__()
    signed_in = owner.post(login, {"username": "alice", "password": ALICE_PASSWORD}, REMOTE_ADDR=OWNER)
    assert signed_in.status_code == 302 and owner.session["_auth_user_id"] == str(alice.pk)


def test_the_api_token_endpoint_shares_the_account_and_address_budget(client, rates, alice):
    rates["page_auth"] = HIGH
    login = reverse("accounts:login")
    for i in range(10):
        client.post(login, {"username": "alice", "password": "guess-%d" % i}, REMOTE_ADDR=STRANGER, **rotated(i))
    api = APIClient()
    credentials = {"username": "alice@example.org", "password": ALICE_PASSWORD, "name": "x", "scopes": ["read"]}
    refused = api.post("/api/v1/auth/token/", credentials, format="json", REMOTE_ADDR=STRANGER, **rotated(50))
    assert refused.status_code == 429 and refused.json()["code"] == "throttled"
    assert int(refused["Retry-After"]) > 0
    owner = api.post("/api/v1/auth/token/", credentials, format="json", REMOTE_ADDR=OWNER)
    assert owner.status_code == 201


def test_a_success_gives_the_pair_its_budget_back(client, rates, alice):
    rates["page_auth"] = HIGH
    rates["login_failures"] = "3/hour"
    login = reverse("accounts:login")
    for _ in range(2):
        assert client.post(login, {"username": "alice", "password": "typo"}, REMOTE_ADDR=OWNER).status_code == 200
    assert client.post(login, {"username": "alice", "password": ALICE_PASSWORD}, REMOTE_ADDR=OWNER).status_code == 302
    client.post(reverse("accounts:logout"))
    for _ in range(3):
        assert client.post(login, {"username": "alice", "password": "typo"}, REMOTE_ADDR=OWNER).status_code == 200
    assert client.post(login, {"username": "alice", "password": "typo"}, REMOTE_ADDR=OWNER).status_code == 429


def test_a_post_without_a_password_does_not_give_the_budget_back(client, rates, alice):
    rates["page_auth"] = HIGH
    rates["login_failures"] = "3/hour"
    login = reverse("accounts:login")
    codes = []
    for _ in range(4):
        codes.append(client.post(login, {"username": "alice", "password": "guess"}, REMOTE_ADDR=STRANGER).status_code)
        client.post(login, {"username": "alice", "password": ""}, REMOTE_ADDR=STRANGER)
    assert codes == [200, 200, 200, 429]


def test_admin_login_refuses_a_rotated_forwarded_for(client, rates, db):
    User.objects.create_superuser("root", "root@example.org", "root-pass-123456")
    admin_login = "/admin/login/"
    count, refused = through_before_429(
        lambda i: client.post(admin_login, {"username": "root", "password": "guess-%d" % i}, **rotated(i)), 40
    )
    assert count == 10
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert 'name="username"' in refused.content.decode() and "try again in" in refused.content.decode()


def test_admin_login_counts_failures_per_account_and_address(client, rates, db):
    rates["page_auth"] = HIGH
    User.objects.create_superuser("root", "root@example.org", "root-pass-123456")
    count, refused = through_before_429(
        lambda i: client.post(
            "/admin/login/", {"username": "root", "password": "guess-%d" % i}, REMOTE_ADDR=STRANGER, **rotated(i)
        ),
        40,
    )
    assert count == 10 and refused is not None
    owner = client.__class__()
    signed_in = owner.post(
        "/admin/login/?next=/admin/",
        {"username": "root", "password": "root-pass-123456", "next": "/admin/"},
        REMOTE_ADDR=OWNER,
    )
    assert signed_in.status_code == 302


def test_signup_refuses_a_rotated_forwarded_for(client, rates, db):
    def send(i):
        return client.post(
            reverse("accounts:signup"),
            {
                "username": "newbie%d" % i,
                "email": "newbie%d@example.org" % i,
                "password1": "a-long-unusual-passphrase-9",
                "password2": "a-long-unusual-passphrase-9",
            },
            **rotated(i),
        )

    count, refused = through_before_429(send, 30)
    assert count == 10
    assert_refusal_page(refused, "email")
    assert User.objects.filter(username__startswith="newbie").count() == 10


def test_resend_refuses_a_rotated_forwarded_for(client, rates, db):
    count, refused = through_before_429(
        lambda i: client.post(reverse("accounts:resend"), {"email": "who%d@example.org" % i}, **rotated(i)), 30
    )
    assert count == 10
    assert_refusal_page(refused, "email")


def test_reset_page_refuses_a_rotated_forwarded_for(client, rates, db):
    count, refused = through_before_429(
        lambda i: client.post(reverse("accounts:password_reset"), {"email": "who%d@example.org" % i}, **rotated(i)), 30
    )
    assert count == 10
    assert_refusal_page(refused, "email")


@pytest.mark.django_db(transaction=True)  # mail leaves on commit
def test_one_address_gets_at_most_its_share_of_reset_mails_from_any_number_of_addresses(client, rates):
    """15 reset requests for one victim, each from another real address: 5 mails, then 429
    (the hostile tester's victim got 25)."""
    make_user("victim")
    count, refused = through_before_429(
        lambda i: client.post(
            reverse("accounts:password_reset"),
            {"email": "Victim@example.org"},
            REMOTE_ADDR="192.0.2.%d" % (i + 1),
            **rotated(i),
        ),
        15,
    )
    assert count == 5
    assert len([m for m in mail.outbox if m.to == ["victim@example.org"]]) == 5
    assert_refusal_page(refused, "email")
    assert "already mailed this address" in refused.content.decode()


@pytest.mark.django_db(transaction=True)
def test_one_address_gets_at_most_its_share_of_confirmation_resends(client, rates):
    User.objects.create_user(
        "pending", "pending@example.org", "pw-pending-123456", is_active=False, email_confirmed=False
    )
    count, refused = through_before_429(
        lambda i: client.post(
            reverse("accounts:resend"), {"email": "pending@example.org"}, REMOTE_ADDR="192.0.2.%d" % (i + 1)
        ),
        15,
    )
    assert count == 5 and len(mail.outbox) == 5
    assert_refusal_page(refused, "email")


@pytest.mark.django_db(transaction=True)
def test_the_page_and_the_api_spend_one_mail_budget_per_address(client, rates):
    make_user("victim")
    api = APIClient()
    for i in range(3):
        assert (
            client.post(
                reverse("accounts:password_reset"), {"email": "victim@example.org"}, REMOTE_ADDR="192.0.2.%d" % (i + 1)
            ).status_code
            == 302
        )
    for i in range(2):
        assert (
            api.post(
                "/api/v1/auth/password/reset/",
                {"email": "victim@example.org"},
                format="json",
                REMOTE_ADDR="192.0.2.%d" % (i + 10),
            ).status_code
            == 202
        )
    refused = api.post(
        "/api/v1/auth/password/reset/", {"email": "victim@example.org"}, format="json", REMOTE_ADDR="192.0.2.20"
    )
    assert refused.status_code == 429 and refused.json()["code"] == "throttled"
    assert int(refused["Retry-After"]) > 0 and refused.json()["details"]["retry_after"] > 0
    assert (
        client.post(
            reverse("accounts:password_reset"), {"email": "victim@example.org"}, REMOTE_ADDR="192.0.2.21"
        ).status_code
        == 429
    )
    assert len(mail.outbox) == 5


@pytest.mark.django_db(transaction=True)
def test_the_mail_budget_counts_unknown_addresses_too(client, rates):
    """The refusal says nothing about whether an account uses the address."""
    codes = [
        client.post(
            reverse("accounts:password_reset"), {"email": "nobody@example.org"}, REMOTE_ADDR="192.0.2.%d" % (i + 1)
        ).status_code
        for i in range(6)
    ]
    assert codes == [302] * 5 + [429] and not mail.outbox


def test_pages_are_refused_in_the_visitors_language(client, rates, db):
    rates["page_auth"] = "1/min"
    client.post(reverse("accounts:resend"), {"email": "a@example.org"}, HTTP_ACCEPT_LANGUAGE="id")
    refused = client.post(reverse("accounts:resend"), {"email": "a@example.org"}, HTTP_ACCEPT_LANGUAGE="id")
    assert refused.status_code == 429
    assert "Terlalu banyak percobaan" in refused.content.decode()
