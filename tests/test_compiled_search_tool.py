"""tools/compiled_search.py, the compiled search's build (README "Compiled search"): the build
tools it installs are the dev lock's pins of mypy and its dependencies, with their hashes; and
`make venv`'s build steps aside, in one line, where it cannot or must not build."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = os.path.join(ROOT, "tools", "compiled_search.py")


def _tool():
    spec = importlib.util.spec_from_file_location("compiled_search_tool", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _pins(text: str) -> dict[str, str]:
    return {m.group(1).lower(): m.group(2) for m in re.finditer(r"^([A-Za-z0-9._-]+)==(\S+)", text, re.M)}


def test_the_build_tools_are_mypy_and_its_dependencies_pinned_with_hashes_by_the_dev_lock():
    lock = os.path.join(ROOT, "requirements-dev.txt")
    wanted = _tool().lock_closure(lock, ("mypy", "setuptools"))
    with open(lock, encoding="utf-8") as handle:
        locked = _pins(handle.read())
    pins = _pins(wanted)
    assert {"mypy", "setuptools", "mypy-extensions", "typing-extensions", "pathspec"} <= set(pins)
    assert "django" not in pins and "pytest" not in pins  # only what mypy needs
    assert all(locked[name] == version for name, version in pins.items())
    for block in re.split(r"\n(?=\S)", wanted.strip()):  # one package a block, each with its hashes
        assert "--hash=sha256:" in block, block
        assert not block.endswith("\\")


def test_a_package_the_lock_lacks_is_refused():
    tool = _tool()
    with pytest.raises(tool.BuildFailed, match="does not pin"):
        tool.lock_closure(os.path.join(ROOT, "requirements.txt"), ("mypy",))  # the runtime lock


def _run(tmp_path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, TOOL, *args, "--root", str(tmp_path)],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=60,
    )


def _checkout(tmp_path) -> None:
    (tmp_path / ".venv").mkdir()
    (tmp_path / "engine" / "bots").mkdir(parents=True)
    (tmp_path / "engine" / "bots" / "onitama.py").write_text('BUILD_SOURCE_DIGEST = ""\n', encoding="utf-8")


def test_without_a_compiler_make_venv_builds_nothing_and_says_so(tmp_path):
    _checkout(tmp_path)
    done = _run(tmp_path, "build", "--if-possible", env={"CC": "no-such-compiler-here"})
    assert done.returncode == 0, done.stderr
    assert "no C compiler, the pure-Python search runs" in done.stdout
    assert not list((tmp_path / "engine" / "bots").glob("*.so"))


def test_make_pure_removes_the_build_and_keeps_make_venv_from_building_it_again(tmp_path):
    _checkout(tmp_path)
    built = tmp_path / "engine" / "bots" / "onitama.cpython-311-x86_64-linux-gnu.so"
    shared = tmp_path / "engine" / "bots" / "onitama__mypyc.cpython-311-x86_64-linux-gnu.so"
    built.write_bytes(b"")
    shared.write_bytes(b"")
    done = _run(tmp_path, "remove", "--stay-pure")
    assert done.returncode == 0 and not built.exists() and not shared.exists()
    assert (tmp_path / ".venv" / "pure-search").exists()
    done = _run(tmp_path, "build", "--if-possible")
    assert done.returncode == 0 and "off (make pure)" in done.stdout
    assert not list((tmp_path / "engine" / "bots").glob("*.so"))
