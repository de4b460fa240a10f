"""Every kind of response carries the Content-Security-Policy and the Permissions-Policy.

Pages, API JSON, the API docs and their init script, the admin, and errors (404, 403) alike;
and no template has inline script, inline style or an on*= handler, which the policy would
block (the browser test, test_content_security_browser.py, loads the pages themselves).
"""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from tests.factories import make_user

TEMPLATES = Path(settings.BASE_DIR) / "templates"
POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "object-src": "'none'",
    "base-uri": "'none'",
    "frame-ancestors": "'none'",
    "form-action": "'self'",
}


def assert_both_headers(response):
    policy = response.get("Content-Security-Policy")
    assert policy, "%s has no Content-Security-Policy" % response.wsgi_request.path
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives == POLICY
    assert "unsafe" not in policy and "http" not in policy
    permissions = response.get("Permissions-Policy")
    assert permissions, "%s has no Permissions-Policy" % response.wsgi_request.path
    for feature in ("camera", "microphone", "geolocation", "payment", "usb"):
        assert "%s=()" % feature in permissions


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path, status",
    [
        ("/", 200),
        ("/lobby/", 302),
        ("/rules/", 200),
        ("/accounts/login/", 200),
        ("/accounts/signup/", 200),
        ("/api/v1/ping/", 200),
        ("/api/v1/games/", 200),
        ("/api/v1/docs/", 200),
        ("/api/v1/docs/?script=", 200),
        ("/api/v1/schema/", 200),
        ("/admin/login/", 200),
        ("/admin/", 302),
        ("/no-such-page/", 404),
        ("/api/v1/no-such-path/", 404),
        ("/games/999999/", 404),
    ],
)
def test_anonymous_responses_carry_both_headers(client, path, status):
    response = client.get(path)
    assert response.status_code == status
    assert_both_headers(response)


@pytest.mark.django_db
def test_signed_in_pages_admin_and_refusals_carry_both_headers(client):
    staff = make_user("staffer")
    staff.is_staff = staff.is_superuser = True
    staff.save()
    client.force_login(staff)
    for path in (
        "/accounts/profile/",
        "/correspondence/settings/",
        "/admin/",
        "/admin/accounts/user/",
        "/admin/accounts/user/%d/change/" % staff.pk,
        "/admin/games/game/",
        "/api/v1/me/",
    ):
        response = client.get(path)
        assert response.status_code == 200, path
        assert_both_headers(response)
    csrf_checked = Client(enforce_csrf_checks=True)
    refused = csrf_checked.post("/accounts/login/", {"username": "staffer", "password": "x"})
    assert refused.status_code == 403
    assert_both_headers(refused)
    api_refused = Client().post("/api/v1/games/1/moves/", {"move": "x"}, content_type="application/json")
    assert api_refused.status_code in (401, 403)
    assert_both_headers(api_refused)


INLINE_CODE = re.compile(
    r"<script(?![^>]*\bsrc=)[^>]*>"  # a script element without src
    r"|<style\b|\sstyle=|\son[a-z]+=|javascript:",  # inline style, handler attributes, javascript: URLs
    re.IGNORECASE,
)


def test_no_template_has_inline_script_or_style():
    """Mail templates are left out: mail clients, not the site's CSP, show them."""
    found = []
    for template in TEMPLATES.rglob("*.html"):
        if "email" in template.relative_to(TEMPLATES).parts:
            continue
        for number, line in enumerate(template.read_text().splitlines(), 1):
            if INLINE_CODE.search(line):
                found.append("%s:%d: %s" % (template.relative_to(TEMPLATES), number, line.strip()))
    assert found == []
