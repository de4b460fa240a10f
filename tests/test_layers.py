"""The layers contract (pyproject.toml's [tool.importlinter], checked by `lint-imports`) has no
holes: every package of the project and every module of maatasite is in it, and no import
inside a function body crosses apps without saying why (README "Tests", Layers).

import-linter sees function-body imports too, so the contract already forbids one that goes
up a layer; this test asks that one going down also carry its reason, as it hides an edge
from a reader of the module's top: either it moves there, or it says why it cannot.
"""

from __future__ import annotations

import ast
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Folders of Python code outside the contract: the tests themselves and the benchmarks (scripts
# that drive the site from outside, not an app).
OUTSIDE = {"tests", "bench"}
# The written reason beside a function-body import that crosses apps: `# reason: <why>`, on one
# of the import's lines or in the comment lines directly above it.
REASON = re.compile(r"#\s*reason:\s*\S")


def importlinter_config() -> dict:
    with open(ROOT / "pyproject.toml", "rb") as file:
        return tomllib.load(file)["tool"]["importlinter"]


def layers_contract() -> dict:
    [contract] = [c for c in importlinter_config()["contracts"] if c["type"] == "layers"]
    return contract


def layer_modules(layer: str) -> list[str]:
    """The module names of one layer's string (`a | b`, `a : b`, optional `(a)`)."""
    return [name.strip().strip("()") for name in re.split(r"[|:]", layer)]


def project_packages() -> set[str]:
    return {path.parent.name for path in ROOT.glob("*/__init__.py")} - OUTSIDE


def test_every_package_of_the_project_is_a_root_package_of_the_contract():
    assert set(importlinter_config()["root_packages"]) == project_packages()


def test_every_package_and_every_module_of_maatasite_is_in_exactly_one_layer():
    named = [name for layer in layers_contract()["layers"] for name in layer_modules(layer)]
    assert len(named) == len(set(named)), named
    maatasite_children = {
        "maatasite." + (path.stem if path.is_file() else path.name)
        for path in (ROOT / "maatasite").iterdir()
        if (path.suffix == ".py" and path.name != "__init__.py") or (path / "__init__.py").is_file()
    }
    expected = (project_packages() - {"maatasite"}) | maatasite_children
    assert set(named) == expected, "in no layer: %s; named but not a package or a module of maatasite: %s" % (
        sorted(expected - set(named)),
        sorted(set(named) - expected),
    )


def test_the_maatasite_package_itself_imports_only_its_bottom_layer():
    """maatasite/__init__.py is in no layer (maatasite.urls, inside it, is on top): what it
    imports must be of the bottom maatasite layer, or the contract would not see the edge."""
    [bottom] = [
        layer_modules(layer)
        for layer in layers_contract()["layers"]
        if all(name.startswith("maatasite.") for name in layer_modules(layer))
        and "maatasite.urls" not in layer_modules(layer)
    ]
    imported = {edge.imported for edge in module_imports(ROOT / "maatasite" / "__init__.py", "maatasite", True)}
    assert imported, "maatasite/__init__.py imports the Celery app, which makes `celery -A maatasite` work"
    for name in imported:
        assert any(name == module or name.startswith(module + ".") for module in bottom), name


@dataclass(frozen=True)
class Import:
    path: str
    line: int
    imported: str
    in_function: bool
    has_reason: bool


def module_imports(path: Path, module: str, is_package: bool, source: str | None = None) -> list[Import]:
    """Every import of one module, with the absolute name imported, whether it sits inside a
    function (or method, or lambda) body and whether a `# reason:` comment is beside it."""
    text = path.read_text() if source is None else source
    lines = text.splitlines()
    package = module.split(".") if is_package else module.split(".")[:-1]
    found: list[Import] = []

    def has_reason(node: ast.stmt) -> bool:
        own = lines[node.lineno - 1 : (node.end_lineno or node.lineno)]
        above = []
        number = node.lineno - 2
        while number >= 0 and lines[number].strip().startswith("#"):
            above.append(lines[number])
            number -= 1
        return any(REASON.search(line) for line in own + above)

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import):
                names = [alias.name for alias in child.names]
            elif isinstance(child, ast.ImportFrom):
                base = package[: max(0, len(package) - child.level + 1)] if child.level else []
                names = [".".join(base + ([child.module] if child.module else []))]
            else:
                visit(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))
                continue
            for name in names:
                found.append(
                    Import(
                        str(path.relative_to(ROOT)) if path.is_absolute() else str(path),
                        child.lineno,
                        name,
                        in_function,
                        has_reason(child),
                    )
                )

    visit(ast.parse(text), False)
    return found


def cross_app_function_imports_without_reason(
    path: Path, module: str, is_package: bool, source: str | None = None
) -> list[str]:
    app = module.split(".")[0]
    packages = project_packages()
    return [
        "%s:%d imports %s" % (edge.path, edge.line, edge.imported)
        for edge in module_imports(path, module, is_package, source)
        if edge.in_function
        and not edge.has_reason
        and edge.imported.split(".")[0] in packages
        and edge.imported.split(".")[0] != app
    ]


def test_no_function_body_import_crosses_apps_without_a_reason():
    missing = []
    for package in sorted(project_packages()):
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.relative_to(ROOT).parts:
                continue
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            module = ".".join(parts[:-1] if is_package else parts)
            missing += cross_app_function_imports_without_reason(path, module, is_package)
    assert not missing, (
        "Move these imports to the module's top (when the layers allow it), replace them (a signal, "
        "a registry), or write `# reason: ...` beside them:\n" + "\n".join(missing)
    )


def test_the_scan_finds_a_cross_app_function_body_import_and_accepts_a_reason():
    source = """
from games.models import Game  # the module's top: lint-imports alone judges it


def one():
    from ratings.selectors import leaderboard
    from . import services
    from .models import Ladder
    from django.db import models
    import json


class View:
    def get(self):
        return lambda: __import__("x")

    def post(self):
        import accounts.services
        # reason: app loading, the receivers connect when imported
        from games import signals
        from games import labels  # reason: games.labels imports this module
        from .errors import NotFound
"""
    found = cross_app_function_imports_without_reason(Path("ladder/views.py"), "ladder.views", False, source)
    assert found == ["ladder/views.py:6 imports ratings.selectors", "ladder/views.py:18 imports accounts.services"]
    # Relative imports resolve from the module's package: ...errors in ladder.management.commands.x
    # is ladder.errors.
    relative = module_imports(
        Path("ladder/management/commands/x.py"),
        "ladder.management.commands.x",
        False,
        "def f():\n    from . import y\n    from ...errors import NotFound\n",
    )
    assert [edge.imported for edge in relative] == ["ladder.management.commands", "ladder.errors"]
    package_init = module_imports(Path("ladder/__init__.py"), "ladder", True, "from .celery import app\n")
    assert [(edge.imported, edge.in_function) for edge in package_init] == [("ladder.celery", False)]
