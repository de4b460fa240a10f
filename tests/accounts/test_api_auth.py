"""Accounts and tokens through the API alone: sign up, confirm, reset, tokens and scopes."""

import re

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from api.models import ApiToken
from tests.api_clients import token_client

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("api_settings")]

PASSWORD = "correct horse battery 42"


def mailed_link(mailoutbox, pattern):
    found = re.search(pattern, mailoutbox[-1].body)
    assert found, mailoutbox[-1].body
    return found


def test_an_app_signs_up_confirms_and_gets_a_token(anon, mailoutbox, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        signed = anon.post(
            "/api/v1/auth/signup/",
            {"username": "dora", "email": "dora@example.org", "password": PASSWORD},
            format="json",
        )
    assert signed.status_code == 201 and signed.json()["username"] == "dora"
    refused = anon.post(
        "/api/v1/auth/token/", {"username": "dora", "password": PASSWORD, "name": "phone"}, format="json"
    )
    assert refused.status_code == 403 and refused.json()["code"] == "account_inactive"
    token = mailed_link(mailoutbox, r"/accounts/confirm/([^/\s]+)/").group(1)
    assert anon.post("/api/v1/auth/confirm/", {"token": token}, format="json").status_code == 200
    made = anon.post(
        "/api/v1/auth/token/",
        {"username": "dora", "password": PASSWORD, "name": "phone", "scopes": ["read", "play"]},
        format="json",
    )
    assert made.status_code == 201
    body = made.json()
    assert body["token"].startswith("mta_") and body["scopes"] == ["play", "read"]
    # Stored hashed: the secret is nowhere in the table.
    row = ApiToken.objects.get(pk=body["id"])
    assert body["token"] not in (row.key_hash, row.prefix, repr(row))
    anon.credentials(HTTP_AUTHORIZATION="Bearer " + body["token"])
    me = anon.get("/api/v1/me/")
    assert me.status_code == 200 and me.json()["username"] == "dora"


def test_signup_refusals_are_400_with_a_code(anon, alice):
    taken = anon.post(
        "/api/v1/auth/signup/", {"username": "alice", "email": "new@example.org", "password": PASSWORD}, format="json"
    )
    assert taken.status_code == 400 and taken.json()["code"] == "username_taken"
    weak = anon.post(
        "/api/v1/auth/signup/", {"username": "eve", "email": "eve@example.org", "password": "123"}, format="json"
    )
    assert weak.status_code == 400 and weak.json()["message"]
    missing = anon.post("/api/v1/auth/signup/", {"username": "eve"}, format="json")
    assert missing.status_code == 400
    assert set(missing.json()["details"]["fields"]) == {"email", "password"}
    bad_link = anon.post("/api/v1/auth/confirm/", {"token": "nonsense"}, format="json")
    assert bad_link.status_code == 400 and bad_link.json()["code"] == "invalid"


def test_resend_confirmation_mails_an_unconfirmed_account(anon, mailoutbox, django_capture_on_commit_callbacks):
    get_user_model().objects.create_user("fred", "fred@example.org", PASSWORD, is_active=False)
    with django_capture_on_commit_callbacks(execute=True):
        answer = anon.post("/api/v1/auth/confirm/resend/", {"email": "fred@example.org"}, format="json")
    assert answer.status_code == 202 and len(mailoutbox) == 1
    assert "/accounts/confirm/" in mailoutbox[0].body


def test_password_reset_through_the_api_revokes_tokens(anon, alice, mailoutbox, django_capture_on_commit_callbacks):
    old = token_client(alice)
    with django_capture_on_commit_callbacks(execute=True):
        asked = anon.post("/api/v1/auth/password/reset/", {"email": "alice@example.org"}, format="json")
        unknown = anon.post("/api/v1/auth/password/reset/", {"email": "nobody@example.org"}, format="json")
    assert asked.status_code == unknown.status_code == 202
    assert len(mailoutbox) == 1
    uid, token = mailed_link(mailoutbox, r"/accounts/password/reset/([^/]+)/([^/\s]+)/").groups()
    wrong = anon.post(
        "/api/v1/auth/password/reset/confirm/",
        {"uid": uid, "token": "1-bad", "new_password": "another long secret 7"},
        format="json",
    )
    assert wrong.status_code == 400 and wrong.json()["code"] == "bad_reset_link"
    done = anon.post(
        "/api/v1/auth/password/reset/confirm/",
        {"uid": uid, "token": token, "new_password": "another long secret 7"},
        format="json",
    )
    assert done.status_code == 200
    assert old.get("/api/v1/me/").status_code == 401
    made = anon.post(
        "/api/v1/auth/token/",
        {"username": "alice@example.org", "password": "another long secret 7", "name": "x"},
        format="json",
    )
    assert made.status_code == 201


def test_wrong_credentials(anon, alice):
    answer = anon.post("/api/v1/auth/token/", {"username": "alice", "password": "nope", "name": "x"}, format="json")
    assert answer.status_code == 400 and answer.json()["code"] == "bad_credentials"
    assert answer.json()["message"]


def test_tokens_are_listed_without_secret_and_revoked(alice_api, alice):
    made = alice_api.post("/api/v1/tokens/", {"name": "tablet", "scopes": ["read"]}, format="json")
    assert made.status_code == 201
    secret = made.json()["token"]
    listing = alice_api.get("/api/v1/tokens/")
    assert listing.status_code == 200
    assert {t["name"] for t in listing.json()} == {"test", "tablet"}
    assert secret not in listing.content.decode()
    tablet = APIClient()
    tablet.credentials(HTTP_AUTHORIZATION="Bearer " + secret)
    assert tablet.get("/api/v1/me/").status_code == 200
    assert alice_api.delete("/api/v1/tokens/%d/" % made.json()["id"]).status_code == 204
    revoked = tablet.get("/api/v1/me/")
    assert revoked.status_code == 401 and revoked.json()["code"] == "authentication_failed"
    assert revoked["WWW-Authenticate"].startswith("Bearer")


def test_nobody_revokes_someone_elses_token(alice_api, bob):
    bob_token = ApiToken.objects.create(user=bob, name="b", key_hash="0" * 64, prefix="mta_x", scopes=["read"])
    answer = alice_api.delete("/api/v1/tokens/%d/" % bob_token.pk)
    assert answer.status_code == 404
    bob_token.refresh_from_db()
    assert bob_token.revoked_at is None


def test_read_scope_reads_but_cannot_play_or_escalate(alice, bob):
    reader = token_client(alice, scopes=["read"])
    assert reader.get("/api/v1/me/").status_code == 200
    refused = reader.post("/api/v1/challenges/", {"kind": "onitama", "opponent": "bob"}, format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "permission_denied"
    player = token_client(alice, scopes=["play"])
    assert player.get("/api/v1/me/").status_code == 403
    escalate = player.post("/api/v1/tokens/", {"name": "more", "scopes": ["read", "play"]}, format="json")
    assert escalate.status_code == 403 and escalate.json()["code"] == "scope_escalation"


def test_no_credentials_and_bad_tokens_are_401(anon):
    assert anon.get("/api/v1/me/").status_code == 401
    anon.credentials(HTTP_AUTHORIZATION="Bearer mta_not-a-token")
    assert anon.get("/api/v1/me/").status_code == 401
    anon.credentials(HTTP_AUTHORIZATION="Bearer")
    assert anon.get("/api/v1/me/").status_code == 401


def test_session_auth_serves_the_sites_own_pages(client, alice):
    client.force_login(alice)
    assert client.get("/api/v1/me/").json()["username"] == "alice"
