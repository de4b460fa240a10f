"""Build or remove the optional compiled Onitama search (README "Compiled search").

    .venv/bin/python tools/compiled_search.py build [--if-possible] [--root DIR]
    .venv/bin/python tools/compiled_search.py remove [--stay-pure] [--root DIR]

``build`` compiles ``engine/bots/onitama.py`` with mypyc into a C extension beside it
(``onitama<EXT_SUFFIX>`` and ``onitama__mypyc<EXT_SUFFIX>``), which the import system then
prefers to the ``.py``. It runs under the venv's own Python, so the extension matches its ABI.
mypyc ships in mypy, which only the dev lock holds: when this Python cannot import it, the
pinned mypy and its dependencies (the closure of mypy's ``# via`` entries in
``requirements-dev.txt``, plus setuptools, which mypyc builds with) are installed with their
hashes into ``.venv/mypyc-tools`` (``pip --target``), away from the runtime packages.

The source is compiled from a temporary copy of ``engine/`` in which ``BUILD_SOURCE_DIGEST``
holds the SHA-256 of the source: ``engine.bots`` loads the ``.py`` instead of an extension
built from another source, so a stale build never plays. A build whose digest is today's is
kept (nothing to do).

``--if-possible`` (``make venv``, hence ``make run``): without a C compiler, after
``make pure`` (which leaves ``.venv/pure-search``), or when the build fails, say so in one
line and exit 0: the pure-Python search runs. ``remove --stay-pure`` (``make pure``) deletes
the extension and leaves that marker; ``build`` without ``--if-possible`` (``make compiled``)
removes it.
"""

from __future__ import annotations

import argparse
import glob
import hashlib
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE = os.path.join("engine", "bots", "onitama.py")
DIGEST_LINE = 'BUILD_SOURCE_DIGEST = ""'
TOOLS = ("mypy", "setuptools")  # what the build imports; their dependencies come from the lock


class BuildFailed(Exception):
    pass


def digest_of(path: str) -> str:
    with open(path, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()


def ext_suffix() -> str:
    return str(sysconfig.get_config_var("EXT_SUFFIX") or ".so")


def built_files(root: str) -> list[str]:
    """Every extension of the search beside its source, whatever Python built it."""
    folder = os.path.join(root, os.path.dirname(SOURCE))
    return sorted(
        path
        for pattern in ("onitama.*.so", "onitama__mypyc.*.so", "onitama.*.pyd", "onitama__mypyc.*.pyd")
        for path in glob.glob(os.path.join(folder, pattern))
    )


def pure_marker(root: str) -> str:
    return os.path.join(root, ".venv", "pure-search")


def compiler() -> str | None:
    """The C compiler setuptools would call (``CC``, else Python's own), if it is installed."""
    name = os.environ.get("CC") or str(sysconfig.get_config_var("CC") or "cc")
    words = name.split()
    return shutil.which(words[0]) if words else None


def is_current(root: str, digest: str) -> bool:
    """The extension for this Python exists and was built from this source (mypyc keeps the
    digest, a string constant, verbatim in the shared library beside the module)."""
    stem = os.path.join(root, SOURCE[: -len(".py")])
    if not os.path.exists(stem + ext_suffix()):
        return False
    for path in (stem + ext_suffix(), stem + "__mypyc" + ext_suffix()):
        if os.path.exists(path):
            with open(path, "rb") as handle:
                if digest.encode() in handle.read():
                    return True
    return False


def lock_closure(lock: str, roots: tuple[str, ...]) -> str:
    """The blocks of ``lock`` (pip-compile's format, with hashes) for ``roots`` and every package
    the lock says is there ``via`` one of them."""
    blocks: dict[str, list[str]] = {}
    parents: dict[str, set[str]] = {}
    name = ""
    with open(lock, encoding="utf-8") as handle:
        for line in handle:
            start = re.match(r"^([A-Za-z0-9._-]+)==", line)
            if start:
                name = start.group(1).lower()
                blocks[name] = [line.rstrip("\n")]
                parents[name] = set()
                continue
            if not name:
                continue
            stripped = line.strip()
            if stripped.startswith("--hash") or line.rstrip("\n").endswith("\\"):
                blocks[name].append(line.rstrip("\n"))
            via = re.match(r"#\s+(?:via\s+)?([A-Za-z0-9._-]+)\s*$", stripped)
            if via and via.group(1) != "via":
                parents[name].add(via.group(1).lower())
    wanted = {root for root in roots if root in blocks}
    missing = set(roots) - wanted
    if missing:
        raise BuildFailed("%s does not pin %s" % (lock, ", ".join(sorted(missing))))
    grew = True
    while grew:
        grew = False
        for package, via in parents.items():
            if package not in wanted and via & wanted:
                wanted.add(package)
                grew = True
    return "".join("\n".join(blocks[package]).rstrip(" \\") + "\n" for package in sorted(wanted))


def build_tools(root: str) -> str | None:
    """A folder to put on PYTHONPATH for mypyc, or None when this Python imports it already."""
    if importlib.util.find_spec("mypyc") is not None and importlib.util.find_spec("setuptools") is not None:
        return None
    folder = os.path.join(root, ".venv", "mypyc-tools")
    wanted = lock_closure(os.path.join(root, "requirements-dev.txt"), TOOLS)
    stamp = os.path.join(folder, ".installed-from")
    try:
        with open(stamp, encoding="utf-8") as handle:
            if handle.read() == wanted:
                return folder
    except OSError:
        pass
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    requirements = os.path.join(folder, ".requirements.txt")
    with open(requirements, "w", encoding="utf-8") as handle:
        handle.write(wanted)
    print("compiled search: installing mypy's pinned build tools into %s" % os.path.relpath(folder, root), flush=True)
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps"]
        + ["--require-hashes", "--target", folder, "-r", requirements],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        shutil.rmtree(folder, ignore_errors=True)
        raise BuildFailed("pip could not install the build tools:\n" + done.stdout + done.stderr)
    with open(stamp, "w", encoding="utf-8") as handle:
        handle.write(wanted)
    return folder


def build(root: str) -> str:
    """Compile the search; returns the extension's path (raises BuildFailed)."""
    source = os.path.join(root, SOURCE)
    digest = digest_of(source)
    if is_current(root, digest):
        return os.path.join(root, SOURCE[: -len(".py")] + ext_suffix())
    with open(source, encoding="utf-8") as handle:
        text = handle.read()
    if text.count(DIGEST_LINE) != 1:
        raise BuildFailed("%s must hold the line %s once" % (SOURCE, DIGEST_LINE))
    tools = build_tools(root)
    with tempfile.TemporaryDirectory(prefix="maatasite-mypyc-") as work:
        shutil.copytree(
            os.path.join(root, "engine"),
            os.path.join(work, "engine"),
            ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"),
        )
        with open(os.path.join(work, SOURCE), "w", encoding="utf-8") as handle:
            handle.write(text.replace(DIGEST_LINE, 'BUILD_SOURCE_DIGEST = "%s"' % digest))
        env = dict(os.environ)
        if tools:
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [tools, env.get("PYTHONPATH")]))
        done = subprocess.run(
            [sys.executable, "-m", "mypyc", SOURCE], cwd=work, env=env, capture_output=True, text=True
        )
        if done.returncode != 0:
            raise BuildFailed("mypyc failed:\n" + (done.stdout + done.stderr)[-4000:])
        made = sorted(glob.glob(os.path.join(work, "engine", "bots", "onitama*" + ext_suffix())))
        if not made:
            raise BuildFailed("mypyc made no extension")
        remove(root)
        for path in made:
            target = os.path.join(root, "engine", "bots", os.path.basename(path))
            shutil.copyfile(path, target + ".part")
            os.replace(target + ".part", target)
    check = subprocess.run(
        [sys.executable, "-W", "error", "-c", "import engine.bots.onitama as m; print(m.__file__)"],
        cwd=root,
        capture_output=True,
        text=True,
    )
    in_use = check.stdout.strip()
    if check.returncode != 0 or in_use.endswith(".py"):
        remove(root)
        raise BuildFailed("the built search is not the one imported:\n" + check.stdout + check.stderr)
    return in_use


def remove(root: str) -> list[str]:
    gone = built_files(root)
    for path in gone:
        os.remove(path)
    return gone


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("build", "remove"))
    parser.add_argument("--if-possible", action="store_true", help="no compiler or a failed build: pure Python, exit 0")
    parser.add_argument("--stay-pure", action="store_true", help="remove: later `build --if-possible` builds nothing")
    parser.add_argument("--root", default=ROOT, help="the checkout (default: this script's)")
    args = parser.parse_args()
    root = os.path.abspath(args.root)
    marker = pure_marker(root)
    if args.action == "remove":
        gone = remove(root)
        if args.stay_pure and os.path.isdir(os.path.dirname(marker)):
            with open(marker, "w", encoding="utf-8") as handle:
                handle.write("make pure: `make venv` builds no compiled search until `make compiled`\n")
        names = ", ".join(os.path.basename(path) for path in gone) or "none there"
        print("compiled search removed (%s): the pure-Python search runs" % names)
        return 0
    if args.if_possible:
        if os.path.exists(marker):
            print("compiled search: off (make pure); `make compiled` turns it on")
            return 0
        if compiler() is None:
            if built_files(root):
                print("compiled search: no C compiler, the extension already there stays (unused if stale)")
            else:
                print("compiled search: no C compiler, the pure-Python search runs")
            return 0
    elif os.path.exists(marker):
        os.remove(marker)
    try:
        in_use = build(root)
    except BuildFailed as failure:
        if not args.if_possible:
            print("compiled search: %s" % failure, file=sys.stderr)
            return 1
        remove(root)
        print("compiled search: build failed, the pure-Python search runs (`make compiled` shows why)")
        return 0
    print("compiled search in use: %s" % os.path.relpath(in_use, root))
    return 0


if __name__ == "__main__":
    sys.exit(main())
