"""The registry of personal data (maatasite.personal_data): every model of the site that
refers to a user is named by its app's handler (so an app that forgets fails here), the
registry orders and checks what apps register, and privacy runs the handlers in one
transaction without importing the other apps' models."""

from __future__ import annotations

import ast
import importlib
from datetime import datetime
from pathlib import Path

import pytest
from django.apps import apps
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db.models import Choices

from accounts.models import User
from games.models import GameStatus
from maatasite.personal_data import (
    ErasePhase,
    EraseStep,
    ExportSection,
    PersonalData,
    PersonalDataRegistry,
    registry,
    timestamp,
)
from privacy import services
from tests.games.conftest import start_game

ROOT = Path(settings.BASE_DIR).resolve()


def _site_models():
    """The concrete models of the site's own apps (packages at the project's root), not
    of Django's or third-party apps (the admin's log of staff's edits stays with the user row)."""
    for app in apps.get_app_configs():
        if Path(app.path).resolve().parent != ROOT:
            continue
        for model in app.get_models():
            if not model._meta.proxy:
                yield model


def _refers_to_user(model) -> bool:
    user_model = apps.get_model(settings.AUTH_USER_MODEL)
    return any(
        field.is_relation and not field.auto_created and field.related_model is user_model
        for field in model._meta.get_fields()
    )


def test_every_model_that_refers_to_a_user_is_named_by_its_app():
    referring = {model._meta.label for model in _site_models() if _refers_to_user(model)}
    assert len(referring) > 20  # the check sees the site's models
    expected = referring | {settings.AUTH_USER_MODEL}  # the row itself: anonymised
    named = registry.models()
    assert sorted(expected - set(named)) == [], "add these to the app's personal_data.register()"
    assert sorted(set(named) - expected) == [], "these are named but hold no user"
    assert all(fate.strip() for fate in named.values())


def test_the_export_keeps_its_envelope_and_sections_in_order(alice):
    assert list(services.account_export(user=alice)) == [
        "format",
        "version",
        "profile",
        "games",
        "imported_records",
        "ratings",
        "blocks",
        "reports",
        "ladders",
        "tournaments",
        "messages",
        "replies_by_mail",
        "webhooks",
    ]


def test_the_erasure_runs_in_its_phases():
    steps = registry.erase_steps()
    names = [step.name for step in steps]
    # Where the order matters: the row first; replies by mail before the games they lock;
    # the games before the ladders and tournaments; the rest after everything that may
    # still create rows (the resignations' alarms and mail).
    assert names[:5] == [
        "accounts.user",
        "correspondence.replies",
        "games.play",
        "ladder.places",
        "tournaments.entries",
    ]
    assert {step.phase for step in steps[5:]} == {ErasePhase.REMAINDER}
    assert {
        "accounts.blocks",
        "accounts.mail",
        "accounts.sessions",
        "api.tokens",
        "correspondence.settings",
        "games.alarms",
    } <= set(names[5:])


@pytest.mark.django_db
def test_the_deletion_is_one_transaction_over_every_step(alice, bob, monkeypatch):
    """A step that fails undoes every step before it, the anonymisation included."""

    def fail(user, now):
        raise RuntimeError("the last step fails")

    with_failure = PersonalDataRegistry()
    for entry in registry.registered():
        with_failure.register(entry)
    with_failure.register(
        PersonalData(app="zz", models={}, erase=(EraseStep(name="zz.fail", phase=ErasePhase.REMAINDER, run=fail),))
    )
    assert with_failure.erase_steps()[-1].name == "zz.fail"
    monkeypatch.setattr(services, "registry", with_failure)
    game = start_game(alice, bob)
    with pytest.raises(RuntimeError):
        services.account_delete(user=alice, password="pw-alice-123456")
    alice.refresh_from_db()
    game.refresh_from_db()
    assert alice.username == "alice" and alice.is_active and alice.deleted_at is None
    assert game.status == GameStatus.ACTIVE


def test_privacy_imports_no_other_apps_models_or_writes():
    """privacy runs the handlers; the rows are the apps' own (type hints aside)."""
    own_apps = {app.name for app in apps.get_app_configs() if Path(app.path).resolve().parent == ROOT}
    found = []
    for path in sorted((ROOT / "privacy").glob("*.py")):
        tree = ast.parse(path.read_text())
        hinted = {
            id(node)
            for block in ast.walk(tree)
            if isinstance(block, ast.If) and isinstance(block.test, ast.Name) and block.test.id == "TYPE_CHECKING"
            for node in ast.walk(block)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and id(node) not in hinted:
                app, _, rest = node.module.partition(".")
                if app not in own_apps - {"privacy", "maatasite"}:
                    continue
                part = rest.split(".")[0]
                if part in ("services", "outbox", "adjudication"):
                    found.append("%s: %s" % (path.name, node.module))
                elif part == "models":
                    # The export's schema may name another app's choices (statuses, kinds), never its rows.
                    module = importlib.import_module(node.module)
                    found += [
                        "%s: %s.%s" % (path.name, node.module, alias.name)
                        for alias in node.names
                        if not (
                            isinstance(getattr(module, alias.name), type)
                            and issubclass(getattr(module, alias.name), Choices)
                        )
                    ]
    assert found == []


# ---------------------------------------------------------------- the registry itself


def _noop(user, now):
    return None


def _section(key: str, position: int) -> ExportSection:
    return ExportSection(key=key, position=position, build=lambda user: key)


def test_sections_and_steps_come_in_their_declared_order_not_that_of_registration():
    fresh = PersonalDataRegistry()
    fresh.register(
        PersonalData(
            app="b",
            models={"b.Thing": "deleted"},
            export=(_section("late", 30),),
            erase=(
                EraseStep(name="b.z", phase=ErasePhase.IDENTITY, run=_noop),
                EraseStep(name="b.a", phase=ErasePhase.REMAINDER, run=_noop),
            ),
        )
    )
    fresh.register(
        PersonalData(
            app="a",
            models={"a.Thing": "kept"},
            export=(_section("early", 10),),
            erase=(
                EraseStep(name="a.m", phase=ErasePhase.REMAINDER, run=_noop),
                EraseStep(name="a.g", phase=ErasePhase.GAMES, run=_noop),
            ),
        )
    )
    assert [s.key for s in fresh.export_sections()] == ["early", "late"]
    assert [s.name for s in fresh.erase_steps()] == ["b.z", "a.g", "a.m", "b.a"]
    assert [entry.app for entry in fresh.registered()] == ["a", "b"]
    assert fresh.models() == {"a.Thing": "kept", "b.Thing": "deleted"}
    nobody = User(username="nobody")  # the sections here ignore their user
    assert [s.build(nobody) for s in fresh.export_sections()] == ["early", "late"]


def test_registering_the_same_handlers_again_changes_nothing():
    fresh = PersonalDataRegistry()
    entry = PersonalData(app="a", models={"a.Thing": "kept"}, export=(_section("things", 10),))
    fresh.register(entry)
    fresh.register(PersonalData(app="a", models={"a.Thing": "kept"}, export=entry.export))
    assert fresh.registered() == [entry]


@pytest.mark.parametrize(
    "second, message",
    [
        (PersonalData(app="a", models={"a.Other": "kept"}), "registered twice"),
        (PersonalData(app="b", models={"a.Thing": "kept"}), "another app's model"),
        (
            PersonalData(app="b", models={}, erase=(EraseStep(name="a.x", phase=ErasePhase.GAMES, run=_noop),)),
            "not named after it",
        ),
        (PersonalData(app="b", models={}, export=(_section("things", 20),)), "share a key"),
        (PersonalData(app="b", models={}, export=(_section("other", 10),)), "share a position"),
        (PersonalData(app="b", models={}, export=(_section("x", 20), _section("y", 20))), "share a position"),
        (
            PersonalData(
                app="b",
                models={},
                erase=(
                    EraseStep(name="b.x", phase=ErasePhase.GAMES, run=_noop),
                    EraseStep(name="b.x", phase=ErasePhase.REMAINDER, run=_noop),
                ),
            ),
            "share a name",
        ),
    ],
)
def test_conflicting_handlers_are_refused_and_leave_the_registry_as_it_was(second, message):
    fresh = PersonalDataRegistry()
    first = PersonalData(
        app="a",
        models={"a.Thing": "kept"},
        export=(_section("things", 10),),
        erase=(EraseStep(name="a.x", phase=ErasePhase.GAMES, run=_noop),),
    )
    fresh.register(first)
    with pytest.raises(ImproperlyConfigured, match=message):
        fresh.register(second)
    assert fresh.registered() == [first]


def test_export_timestamps_are_iso_8601():
    assert timestamp(None) is None
    assert timestamp(datetime(2026, 1, 2, 3, 4, 5)) == "2026-01-02T03:04:05"
