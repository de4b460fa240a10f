"""No service name exists in two layers with different behaviour: the staff action
(ops.services, which writes the audit row) has the name, the game-side building block
another one that says what it changes (games.adjudication.game_result_void, ...)."""

import ast
import subprocess
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The modules that hold writes (services and the services split out of games').
SERVICE_MODULES = (
    "/services.py",
    "games/adjudication.py",
    "games/outages.py",
    "accounts/outbox.py",
    "accounts/audit.py",
)


def _public_functions_by_name() -> dict[str, list[str]]:
    listed = subprocess.run(["git", "ls-files", "*.py"], cwd=ROOT, capture_output=True, text=True, check=True)
    homes: dict[str, list[str]] = defaultdict(list)
    for path in listed.stdout.split():
        if path.startswith("tests/") or not path.endswith(SERVICE_MODULES):
            continue
        for node in ast.parse((ROOT / path).read_text(), filename=path).body:
            if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
                homes[node.name].append(path)
    return homes


def test_no_service_name_is_defined_in_two_service_modules():
    homes = _public_functions_by_name()
    assert {name: paths for name, paths in homes.items() if len(paths) > 1} == {}
    assert homes["game_void"] == ["ops/services.py"]  # the one with the audit row
