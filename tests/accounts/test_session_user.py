"""accounts.backends.ModelBackendReadOnce: the signed-in user of every page read through SQL
built once; the same user as Django's ModelBackend reads, field by field."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY
from django.contrib.auth.backends import ModelBackend
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.backends import USER_SQL, ModelBackendReadOnce
from accounts.models import User
from maatasite import sql_once
from tests.factories import make_user
from tests.helpers import fields_of

pytestmark = pytest.mark.django_db


def test_the_user_is_the_orms_field_by_field_in_one_query():
    dora = make_user("dora")
    dora.display_name = "Dora"
    dora.last_login = timezone.now()
    dora.save()
    sql_once.forget(USER_SQL)
    for user_id in (dora.pk, str(dora.pk)):  # the session keeps the id as text
        with CaptureQueriesContext(connection) as queries:
            read = ModelBackendReadOnce().get_user(user_id)
        assert len(queries) == 1
        assert read is not None and fields_of(read) == fields_of(ModelBackend().get_user(dora.pk))
        assert read._state.adding is False and read._state.db == "default"
    assert sql_once.kept(USER_SQL) == [("default", connection.vendor)]


def test_unknown_malformed_and_inactive_users_are_nobody():
    backend = ModelBackendReadOnce()
    assert backend.get_user(10**12) is None
    assert backend.get_user(-7_001_007) is None  # the placeholder the SQL is built with
    assert backend.get_user("nope") is None and backend.get_user(None) is None
    erin = make_user("erin")
    User.objects.filter(pk=erin.pk).update(is_active=False)
    assert backend.get_user(erin.pk) is None
    assert ModelBackend().get_user(erin.pk) is None  # as Django's


def test_a_session_records_this_backend_and_older_sessions_go_on():
    dora = make_user("dora")
    client = Client()
    client.force_login(dora)
    assert (
        client.session[BACKEND_SESSION_KEY]
        == settings.AUTHENTICATION_BACKENDS[0]
        == ("accounts.backends.ModelBackendReadOnce")
    )
    assert client.get("/accounts/profile/").status_code == 200
    older = Client()
    older.force_login(dora, backend="django.contrib.auth.backends.ModelBackend")  # a session of before
    assert older.get("/accounts/profile/").status_code == 200
    client.logout()
    assert client.get("/accounts/profile/").status_code == 302
