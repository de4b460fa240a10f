"""The games tests' helpers (tests/factories.py): players, started games, moves played in them."""
from __future__ import annotations

from tests.factories import first_legal, make_user, play, start_game  # noqa: F401  (re-exported for the tests here)

