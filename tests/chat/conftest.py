"""Fixtures of the chat tests: a game of alice and bob (carol only watches)."""

from __future__ import annotations

import pytest


@pytest.fixture
def game(onitama_game):
    """The shared running Onitama game of alice and bob (tests/conftest.py)."""
    return onitama_game
