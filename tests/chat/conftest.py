"""Fixtures of the chat tests: a game of alice and bob (carol only watches)."""
from __future__ import annotations

import pytest

from tests.games.conftest import start_game


@pytest.fixture
def game(alice, bob):
    return start_game(alice, bob, "onitama", {"cards": "base"})
