"""One text per error (issue 14): a refusal's text lives in its app's table of messages
only; the services raise the code (and its params), never a second English copy."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest
from django.utils import translation

from games import services
from games.errors import SITE_MESSAGES, Conflict, GameActionError, NotAllowed
from tests.factories import make_user, play, start_game

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
APPS = ["games", "ops", "ladder", "tournaments", "chat", "fairplay", "privacy", "correspondence"]


def _error_classes() -> dict[str, dict]:
    """Every error class of the apps, by name, with the table it reads first."""
    found: dict[str, dict] = {}
    for app in APPS:
        module = importlib.import_module(app + ".errors")
        for name, value in vars(module).items():
            if isinstance(value, type) and issubclass(value, GameActionError):
                found.setdefault(name, {}).update(value.app_messages)
    return found


def test_no_service_repeats_a_text_its_table_holds():
    classes = _error_classes()
    copies = []
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                if not (isinstance(node, ast.Call) and len(node.args) >= 2):
                    continue
                name = getattr(node.func, "id", getattr(node.func, "attr", None))
                code, text = node.args[0], node.args[1]
                if (
                    name in classes
                    and isinstance(code, ast.Constant)
                    and isinstance(text, ast.Constant)
                    and (code.value in classes[name] or code.value in SITE_MESSAGES)
                ):
                    copies.append("%s:%s %s" % (path.relative_to(ROOT), node.lineno, str(code.value)))
    assert copies == []


def test_an_app_table_does_not_copy_a_games_text():
    for app in APPS[1:]:
        module = importlib.import_module(app + ".errors")
        for name, table in vars(module).items():
            if isinstance(table, dict) and name.endswith("MESSAGES"):
                repeated = {
                    code
                    for code, text in table.items()
                    if code in SITE_MESSAGES and str(text) == str(SITE_MESSAGES[code])
                }
                assert repeated == set(), (app, name)


def test_the_abort_refusal_reads_its_one_text_in_english_and_translated():
    alice, bob = make_user("alice"), make_user("bob")
    game = play(start_game(alice, bob), 2)  # both sides have moved
    with pytest.raises(Conflict) as refused:
        services.game_abort(game_id=game.pk, user=alice)
    with translation.override("en"):
        english = str(SITE_MESSAGES["abort_too_late"])
    assert refused.value.code == "abort_too_late"
    assert str(refused.value) == english
    with translation.override("en"):
        assert refused.value.message == english
    with translation.override("id"):
        assert refused.value.message != english


def test_a_blocked_challenge_is_refused_in_the_players_language():
    """The "blocked" text sat in the engine's table, so the games refusal fell back to English."""
    error = NotAllowed("blocked")
    with translation.override("en"):
        english = error.message
    with translation.override("id"):
        assert error.message != english and error.message
