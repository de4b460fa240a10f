"""The compiled search's guard (README "Compiled search"): an extension built from another
source than the ``.py`` beside it never plays; the source is loaded in its place. And the
command line's time-only mode counts the process's start in its ``--seconds``."""

from __future__ import annotations

import hashlib
import os
import sys
import types

import pytest

import engine.bots
from engine.bots import cli_seconds, fresh_search, process_age
from engine.bots import onitama as ob

PROBE = "engine.bots._guard_probe"
PROBE_SOURCE = 'BUILD_SOURCE_DIGEST = ""\nKIND = "source"\n'


def _fake_build(tmp_path, monkeypatch, digest: str) -> types.ModuleType:
    """A module that looks like a compiled build of ``_guard_probe.py`` (written in tmp_path)."""
    (tmp_path / "_guard_probe.py").write_text(PROBE_SOURCE, encoding="utf-8")
    built = types.ModuleType(PROBE)
    built.__file__ = str(tmp_path / "_guard_probe.cpython-311-x86_64-linux-gnu.so")
    built.BUILD_SOURCE_DIGEST = digest  # type: ignore[attr-defined]
    built.KIND = "build"  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, PROBE, built)  # both restored after the test
    monkeypatch.setattr(engine.bots, "_guard_probe", built, raising=False)
    return built


def test_a_build_of_todays_source_is_kept(tmp_path, monkeypatch, recwarn):
    digest = hashlib.sha256(PROBE_SOURCE.encode()).hexdigest()
    built = _fake_build(tmp_path, monkeypatch, digest)
    assert fresh_search(built) is built
    assert sys.modules[PROBE] is built
    assert not [w for w in recwarn if "was not built from" in str(w.message)]


@pytest.mark.parametrize("digest", ["", "0" * 64])
def test_a_stale_build_gives_way_to_its_source(tmp_path, monkeypatch, digest):
    built = _fake_build(tmp_path, monkeypatch, digest)
    with pytest.warns(UserWarning, match="was not built from today's _guard_probe.py"):
        used = fresh_search(built)
    assert used is not built
    assert used.KIND == "source" and used.__file__ == str(tmp_path / "_guard_probe.py")
    # Later imports get the source too: the module table and the package's attribute.
    assert sys.modules[PROBE] is used
    assert engine.bots._guard_probe is used  # type: ignore[attr-defined]


def test_a_build_without_its_source_beside_it_is_kept(tmp_path, monkeypatch):
    built = _fake_build(tmp_path, monkeypatch, "")
    os.remove(tmp_path / "_guard_probe.py")
    assert fresh_search(built) is built


def test_the_source_in_use_passes_through_and_holds_the_build_digest_line():
    assert fresh_search(ob) is ob
    source = os.path.join(os.path.dirname(engine.bots.__file__), "onitama.py")
    with open(source, encoding="utf-8") as handle:
        text = handle.read()
    # tools/compiled_search.py writes the digest into this line of its copy of the source.
    assert text.count('BUILD_SOURCE_DIGEST = ""\n') == 1
    if ob.__file__ is not None and ob.__file__.endswith(".py"):
        assert ob.BUILD_SOURCE_DIGEST == ""
    else:  # the compiled build in use is today's (else the guard would have loaded the source)
        assert ob.BUILD_SOURCE_DIGEST == hashlib.sha256(text.encode()).hexdigest()


def test_the_command_line_counts_its_start_in_its_seconds():
    assert cli_seconds(2.0, 0.1) == pytest.approx(2.0 - 0.1 - engine.bots.CLI_EXIT_RESERVE)
    assert cli_seconds(2.0, 0.0) == pytest.approx(2.0 - engine.bots.CLI_EXIT_RESERVE)
    assert cli_seconds(2.0, 30.0) == pytest.approx(0.2)  # never under a tenth of the limit
    age = process_age()
    assert 0.0 <= age <= 60.0
    if sys.platform.startswith("linux"):
        assert age > 0.0  # read from /proc/self/stat
