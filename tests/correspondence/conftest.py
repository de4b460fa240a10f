"""Fixtures of the correspondence tests: players (from the games tests), started games,
and the mail settings the reply addresses need."""

from __future__ import annotations

import pytest

from tests.games.conftest import first_legal, make_user, play, start_game  # noqa: F401


@pytest.fixture(autouse=True)
def _correspondence_settings(settings):
    settings.CORRESPONDENCE_REPLY_DOMAIN = "reply.example.org"
    settings.CORRESPONDENCE_INBOUND_SECRET = "inbound-test-secret"
    settings.SITE_URL = "http://testserver"
