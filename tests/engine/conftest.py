"""Engine tests: no database, no Django.

Registers the ``slow`` marker; tests marked slow under tests/engine/ are
skipped unless the marker expression names them (``pytest tests/engine -m slow``).
"""
from __future__ import annotations

import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

HERE = os.path.dirname(os.path.abspath(__file__))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: long engine property runs (run with -m slow)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if "slow" in (config.option.markexpr or ""):
        return
    skip = pytest.mark.skip(reason="slow engine test: run with -m slow")
    for item in items:
        if "slow" in item.keywords and str(item.path).startswith(HERE + os.sep):
            item.add_marker(skip)
