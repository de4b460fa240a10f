"""api.selectors.token_for_secret reads the token and its user through SQL built once per
process: the objects it gives are the ORM's, field by field, on PostgreSQL and SQLite alike."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from api import selectors, services
from api.models import ApiToken
from maatasite import sql_once
from tests.factories import make_user
from tests.helpers import fields_of

pytestmark = pytest.mark.django_db


def test_the_token_and_its_user_are_the_orms_field_by_field():
    dora = make_user("dora")
    dora.display_name = "Dora the Explorer"
    dora.last_login = timezone.now()
    dora.save()
    token, secret = services.token_create(user=dora, name="phone", scopes=["read", "play"])
    services.token_mark_used(token=token)
    sql_once.forget(selectors.TOKEN_SQL)  # built in this test's first read, then kept
    for _ in range(2):
        with CaptureQueriesContext(connection) as queries:
            read = selectors.token_for_secret(secret=secret)
            assert read is not None
            user = read.user  # with the token: no second query
        assert len(queries) == 1
        expected = ApiToken.objects.select_related("user").get(pk=token.pk)
        assert fields_of(read) == fields_of(expected)
        assert fields_of(user) == fields_of(expected.user)
        assert sorted(read.scopes) == ["play", "read"] and read.last_used_at is not None  # JSON read as a list
        assert user.pk == dora.pk and user.is_active and user.display_name == "Dora the Explorer"
        assert read._state.adding is False and read._state.db == "default" and user._state.adding is False
    assert sql_once.kept(selectors.TOKEN_SQL) == [("default", connection.vendor)]
    # saving what it read writes the same row back
    assert read is not None
    read.name = "tablet"
    read.save(update_fields=["name"])
    assert ApiToken.objects.get(pk=token.pk).name == "tablet"


def test_a_revoked_unknown_or_malformed_secret_reads_nothing():
    dora = make_user("dora")
    token, secret = services.token_create(user=dora, name="phone", scopes=["read"])
    other, other_secret = services.token_create(user=dora, name="laptop", scopes=["read"])
    services.token_revoke(user=dora, token_id=token.pk)
    assert selectors.token_for_secret(secret=secret) is None
    found = selectors.token_for_secret(secret=other_secret)
    assert found is not None and found.pk == other.pk
    assert selectors.token_for_secret(secret=selectors.TOKEN_PREFIX + "nope") is None
    assert selectors.token_for_secret(secret="not-a-token") is None
    assert selectors.token_for_secret(secret=selectors.TOKEN_PREFIX + "x" * 300) is None
    # the placeholder the SQL is built with matches no token
    assert selectors.token_for_secret(secret=selectors.TOKEN_PREFIX) is None
