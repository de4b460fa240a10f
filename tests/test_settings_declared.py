"""Every setting the project reads is declared once, in maatasite/settings.py (or is one of
Django's own), and is read there plainly: no second default hides beside a reader
(``getattr(settings, "X", default)``), so the value the README documents is the value used."""

import ast
import re
from pathlib import Path

from django.conf import global_settings

ROOT = Path(__file__).resolve().parent.parent
SETTINGS_FILE = ROOT / "maatasite" / "settings.py"
# The project's own code: every top-level package but the tests and the environments.
SKIPPED = {"tests", "locale", "static", "templates", "node_modules", "staticfiles"}
# settings.NAME, and getattr(settings, "NAME"...), which the next test refuses anyway.
SETTING_READ = re.compile(
    r"\b(?:django_)?settings\.([A-Z][A-Z0-9_]*)\b"
    r"|\bgetattr\(\s*(?:django_)?settings\s*,\s*[\"']([A-Z][A-Z0-9_]*)[\"']"
)
DEFAULTED_READ = re.compile(r"\b(?:getattr|hasattr)\(\s*(?:django_)?settings\s*,")


def project_sources() -> list[Path]:
    return sorted(
        path
        for path in ROOT.rglob("*.py")
        if not any(part.startswith(".") or part in SKIPPED for part in path.relative_to(ROOT).parts[:-1])
        and path != SETTINGS_FILE
    )


def declared_settings() -> set[str]:
    """The upper-case names maatasite/settings.py assigns, at any depth of its ifs and loops."""
    names = set()
    for node in ast.walk(ast.parse(SETTINGS_FILE.read_text())):
        targets = (
            node.targets
            if isinstance(node, ast.Assign)
            else [node.target]
            if isinstance(node, (ast.AnnAssign, ast.AugAssign))
            else []
        )
        for target in targets:
            for name in ast.walk(target):
                if isinstance(name, ast.Name) and name.id.isupper():
                    names.add(name.id)
    return names


def setting_reads() -> dict[str, list[str]]:
    reads: dict[str, list[str]] = {}
    for path in project_sources():
        for number, line in enumerate(path.read_text().splitlines(), 1):
            for name in (attribute or quoted for attribute, quoted in SETTING_READ.findall(line)):
                reads.setdefault(name, []).append("%s:%d" % (path.relative_to(ROOT), number))
    return reads


def test_the_scan_sees_the_project():
    reads = setting_reads()
    assert "GAMES_BOT_OVERDUE_SECONDS" in reads and "CORRESPONDENCE_REPLY_DOMAIN" in reads
    assert {
        "SECRET_KEY",
        "GAMES_SEAL_KEY",
        "GAMES_BOT_SECONDS",
        "API_IDEMPOTENCY_HOURS",
        "CORRESPONDENCE_LINK_MAX_AGE",
    } <= declared_settings()


def test_every_setting_read_is_declared():
    declared = declared_settings()
    undeclared = {
        name: where
        for name, where in setting_reads().items()
        if name not in declared and not hasattr(global_settings, name)
    }
    assert undeclared == {}, "declare these in maatasite/settings.py (with their environment variable)"


def test_no_setting_is_read_with_a_second_default():
    defaulted = [
        "%s:%d: %s" % (path.relative_to(ROOT), number, line.strip())
        for path in project_sources()
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if DEFAULTED_READ.search(line)
    ]
    assert defaulted == [], "read the setting plainly (settings.NAME); its default is in settings.py"


def test_the_apps_keep_no_conf_module():
    """What a deployment tunes is a setting; a rule's or formula's number is a named constant
    of its app (ratings/constants.py, ladder/constants.py), never a conf.py beside them."""
    assert sorted(str(path.relative_to(ROOT)) for path in project_sources() if path.name == "conf.py") == []
