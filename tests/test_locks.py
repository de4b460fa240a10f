"""The hashed locks install on every Python the project accepts, not only on the one that wrote them.

pip-compile resolves for the Python it runs on. A dependency that a locked package needs only on
an older Python (redis 8 needs async-timeout below 3.11.3) is then missing from the lock, and
``pip install --require-hashes`` refuses the whole lock there: ``make run`` failed on Debian 12,
whose python3 is 3.11.2. This reads each locked package's own requirements from the installed
metadata (the dev venv holds every package of both locks) and evaluates their markers for the
Pythons below.
"""

import importlib.metadata
import os
import re

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PYTHONS = ("3.11.0", "3.11.2", "3.11.3", "3.12.0", "3.13.0")
"""The oldest 3.11 that pyproject's requires-python admits, Debian 12's, the first without the
async-timeout need, and the newer lines."""

NOT_LOCKED = {"pip"}
"""pip-compile leaves pip out on purpose (``--unsafe-package=pip``): every venv has it."""


def _pins(lock: str) -> dict[str, str]:
    with open(os.path.join(ROOT, lock), encoding="utf-8") as handle:
        text = handle.read()
    return {canonicalize_name(m.group(1)): m.group(2) for m in re.finditer(r"^([A-Za-z0-9._-]+)==(\S+)", text, re.M)}


def _needs_outside(pins: dict[str, str], python: str) -> set[str]:
    """What the locked packages require on ``python`` (no extras asked) that the lock lacks."""
    environment = {"python_full_version": python, "python_version": ".".join(python.split(".")[:2]), "extra": ""}
    missing = set()
    for name in pins:
        for line in importlib.metadata.distribution(name).requires or []:
            requirement = Requirement(line)
            if requirement.marker is not None and not requirement.marker.evaluate(environment):
                continue
            needed = canonicalize_name(requirement.name)
            if needed not in pins and needed not in NOT_LOCKED:
                missing.add("%s (for %s)" % (requirement, name))
    return missing


@pytest.mark.parametrize("lock", ["requirements.txt", "requirements-dev.txt"])
@pytest.mark.parametrize("python", PYTHONS)
def test_each_lock_holds_what_its_packages_need_on_every_accepted_python(lock, python):
    pins = _pins(lock)
    for name, version in pins.items():  # the metadata read is the locked version's
        assert importlib.metadata.version(name) == version, name
    assert _needs_outside(pins, python) == set()


def test_the_check_sees_a_need_that_only_an_older_python_has():
    pins = _pins("requirements.txt")
    assert "redis" in pins
    without = {name: version for name, version in pins.items() if name != "async-timeout"}
    assert any(need.startswith("async-timeout") for need in _needs_outside(without, "3.11.2"))
    assert not any(need.startswith("async-timeout") for need in _needs_outside(without, "3.11.3"))
