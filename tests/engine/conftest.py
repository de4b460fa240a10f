"""Engine test settings: the ``slow`` marker.

Tests marked ``slow`` (thousands of random games) run only when asked for:
``pytest -m slow tests/engine`` (or any -m expression naming slow), or with
ENGINE_SLOW=1 in the environment. The normal run skips them.
"""

from __future__ import annotations

import os

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: long property runs; only with -m slow or ENGINE_SLOW=1")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if "slow" in (config.getoption("-m") or "") or os.environ.get("ENGINE_SLOW") == "1":
        return
    skip = pytest.mark.skip(reason="slow: run with -m slow or ENGINE_SLOW=1")
    here = os.path.dirname(__file__)
    for item in items:  # this hook sees the whole session's items: skip only the engine's
        if "slow" in item.keywords and str(item.path).startswith(here + os.sep):
            item.add_marker(skip)
