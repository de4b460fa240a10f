"""Every body the API cannot read, and every error under /api/, answers in the API's JSON
error shape: a deep body, garbage, a body over the size limit, a path that names nothing,
an unexpected exception. Never a RecursionError, never an HTML page.

The write endpoints are read from the OpenAPI schema, so a new endpoint is covered here
without anyone listing it."""

from __future__ import annotations

import re

import pytest
from django.conf import settings as django_settings
from django.test import Client
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from .conftest import token_client

DEEP = "[" * 1000 + "]" * 1000  # 2 KB
WRITE_METHODS = ("post", "put", "patch", "delete")
PATH_VALUES = {"username": "bob"}


def _write_endpoints() -> list[tuple[str, str, bool]]:
    """(method, path with its parameters filled in, whether anonymous callers may use it)."""
    spec = SchemaGenerator().get_schema(request=None, public=True)
    found = []
    for template, operations in spec["paths"].items():
        path = re.sub(r"\{(\w+)\}", lambda m: PATH_VALUES.get(m.group(1), "1"), template)
        for method, operation in operations.items():
            if method in WRITE_METHODS:
                anonymous = {} in operation.get("security", [{}])
                found.append((method, path, anonymous))
    return sorted(found)


WRITE_ENDPOINTS = _write_endpoints()
ENDPOINT_IDS = ["%s %s" % (method.upper(), path) for method, path, _anonymous in WRITE_ENDPOINTS]


def test_the_schema_lists_the_write_endpoints():
    assert len(WRITE_ENDPOINTS) >= 30
    assert ("post", "/api/v1/games/1/moves/", False) in WRITE_ENDPOINTS
    assert ("post", "/api/v1/auth/token/", True) in WRITE_ENDPOINTS


def _send(client, method: str, path: str, body, content_type="application/json"):
    return getattr(client, method)(path, data=body, content_type=content_type)


def assert_error_shape(response, status: int, code: str | None = None):
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"code", "message", "details"} and body["message"]
    if code is not None:
        assert body["code"] == code, body
    return body


@pytest.mark.django_db
@pytest.mark.parametrize(("method", "path", "anonymous"), WRITE_ENDPOINTS, ids=ENDPOINT_IDS)
def test_a_thousand_deep_body_is_a_json_400_on_every_write_endpoint(method, path, anonymous, alice, bob):
    signed_in = token_client(alice)
    body = assert_error_shape(_send(signed_in, method, path, DEEP), 400, "parse_error")
    assert body["details"]["reason"] == "too_deep"
    # Not signed in: where anonymous callers are admitted (auth/) the body is read and refused
    # (400); elsewhere the API does not read a stranger's body at all: 401.
    answer = _send(APIClient(), method, path, DEEP)
    if anonymous:
        assert_error_shape(answer, 400, "parse_error")
    else:
        assert_error_shape(answer, 401, "not_authenticated")


@pytest.mark.django_db
@pytest.mark.parametrize(("method", "path", "anonymous"), WRITE_ENDPOINTS, ids=ENDPOINT_IDS)
def test_garbage_and_oversized_bodies_are_json_400s_on_every_write_endpoint(method, path, anonymous, alice, bob):
    client = token_client(alice)
    body = assert_error_shape(_send(client, method, path, "{not json"), 400, "parse_error")
    assert body["details"]["reason"] == "bad_json"
    assert_error_shape(_send(client, method, path, '{"n": NaN}'), 400, "parse_error")
    assert_error_shape(_send(client, method, path, b"\xff\xfe{}"), 400, "parse_error")
    oversized = '{"a": "%s"}' % ("x" * (django_settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1024))
    assert_error_shape(_send(client, method, path, oversized), 400, "body_too_large")


@pytest.mark.django_db
def test_a_body_within_the_depth_limit_is_read(alice_api):
    nested = {"name": "phone", "scopes": ["read"], "extra": [[[[{"a": [1]}]]]]}
    answer = alice_api.post("/api/v1/tokens/", nested, format="json")
    assert answer.status_code == 201


@pytest.mark.parametrize(
    "path", ["/api/v1/%0A", "/api/v1/games/%0A/", "/api/v1/players/%0A/games/x/", "/api/", "/api/v2/games/"]
)
def test_paths_that_name_nothing_are_json_404s(path, db):
    assert_error_shape(Client().get(path), 404, "not_found")
    assert_error_shape(Client().post(path, DEEP, content_type="application/json"), 404, "not_found")


@pytest.mark.django_db
def test_a_wrong_method_is_a_json_405(alice_api):
    answer = alice_api.delete("/api/v1/ping/")
    assert_error_shape(answer, 405, "method_not_allowed")


@pytest.mark.django_db
def test_a_csrf_failure_under_api_is_json_and_elsewhere_a_page(alice):
    session = APIClient(enforce_csrf_checks=True)
    session.force_login(alice)
    assert_error_shape(session.post("/api/v1/tokens/", {"name": "x", "scopes": ["read"]}, format="json"), 403)
    from django.test import RequestFactory

    from api.json_errors import csrf_failure

    api_answer = csrf_failure(RequestFactory().post("/api/v1/whatever/"), reason="CSRF cookie not set.")
    assert api_answer.status_code == 403 and api_answer["Content-Type"] == "application/json"
    page = csrf_failure(RequestFactory().post("/accounts/login/"), reason="CSRF cookie not set.")
    assert page.status_code == 403 and page["Content-Type"].startswith("text/html")


@pytest.mark.django_db
def test_an_unexpected_error_under_api_is_a_json_500(monkeypatch, alice_api):
    from api import apis

    def broken(self, request):
        raise RuntimeError("boom")

    monkeypatch.setattr(apis.PingView, "get", broken)
    client = APIClient(raise_request_exception=False)
    body = assert_error_shape(client.get("/api/v1/ping/"), 500, "server_error")
    assert "boom" not in body["message"]


def test_html_errors_outside_the_api_stay_pages(db):
    answer = Client().get("/no-such-page-at-all/")
    assert answer.status_code == 404 and answer["Content-Type"].startswith("text/html")
