"""ResultReason is the one list of why a game ended: it covers every reason the engine and
the site can store, its labels are translated, and the API's schema offers it as an enum."""

from __future__ import annotations

import ast
from pathlib import Path

import polib
import pytest
from django.db import transaction
from django.test import Client
from django.utils import translation

import engine
from engine.maatatahay import rules as maatatahay_rules
from engine.onitama import rules as onitama_rules
from games import adjudication, services
from games.events import EventKind
from games.labels import SIDE_LABELS, SIDES, reason_label, side_label
from games.models import ChallengeStatus, Game, GameKind, GameStatus, ResultReason
from tests.factories import make_user, start_game

ROOT = Path(__file__).resolve().parent.parent.parent
SITE_APPS = (
    "games",
    "ladder",
    "tournaments",
    "privacy",
    "ops",
    "fairplay",
    "ratings",
    "correspondence",
    "chat",
    "accounts",
    "api",
)
FINISHING_CALLS = {"game_finish", "game_state_terminate", "terminate"}


def test_the_engines_own_reasons_are_members():
    engine_reasons = set(onitama_rules.ENGINE_REASONS) | set(maatatahay_rules.ENGINE_REASONS)
    assert engine_reasons and engine_reasons <= set(ResultReason.values)


@pytest.mark.parametrize("kind", GameKind.values)
def test_random_games_end_with_member_reasons(kind):
    rules = engine.get_game(kind)
    for seed in range(40):
        _texts, state = engine.random_game(rules, seed)
        outcome = rules.outcome(state)
        assert outcome is not None and outcome.reason in ResultReason.values, (kind, seed)


def test_the_site_reason_constants_are_members():
    constants = {
        name: value
        for module in (services, adjudication)
        for name, value in vars(module).items()
        if name.startswith("REASON_") and name != "REASON_MAX_LENGTH"
    }
    assert len(constants) == 8 and set(constants.values()) <= set(ResultReason.values)


def _stored_reason_literals() -> list[tuple[str, int, str]]:
    """Every string literal the site code passes as a finishing ``reason=`` or assigns to
    ``.result_reason`` (file, line, value)."""
    found = []
    for app in SITE_APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
                values: list[ast.expr] = []
                if isinstance(node, ast.Call):
                    name = getattr(node.func, "attr", getattr(node.func, "id", ""))
                    if name in FINISHING_CALLS:
                        values = [k.value for k in node.keywords if k.arg == "reason"]
                elif isinstance(node, ast.Assign):
                    if any(isinstance(t, ast.Attribute) and t.attr == "result_reason" for t in node.targets):
                        values = [node.value]
                for value in values:
                    if isinstance(value, ast.Constant) and isinstance(value.value, str):
                        found.append((str(path.relative_to(ROOT)), value.lineno, value.value))
    return found


def test_no_site_code_stores_a_reason_outside_the_enum():
    literals = _stored_reason_literals()
    # The one literal today: adjudication clears the reason when staff reopen a game.
    assert literals and all(value in ResultReason.values or value == "" for _path, _line, value in literals), literals


@pytest.mark.django_db
def test_game_finish_refuses_an_unknown_reason():
    game = start_game(make_user("ada"), make_user("bob"))
    with pytest.raises(ValueError), transaction.atomic():
        services.game_finish(
            Game.objects.select_for_update().get(pk=game.pk),
            status="finished",
            winner_side="red",
            reason="fell_asleep",
            scores=None,
        )
    assert Game.objects.get(pk=game.pk).status == "active"


@pytest.mark.parametrize("language", ["id", "ar"])
def test_every_reason_label_is_translated(language):
    catalog = {
        entry.msgid: entry for entry in polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / "django.po"))
    }
    for reason in ResultReason:
        entry = catalog.get(str(reason.label))
        assert entry is not None and entry.msgstr and not entry.fuzzy, (language, reason)
    with translation.override(language):
        assert reason_label(ResultReason.TIMEOUT) != "out of time"


def test_reason_label_shows_an_unknown_reason_as_it_is():
    assert reason_label("") == "" and reason_label("resign") == "resignation"
    assert reason_label("made_up") == "made_up"


def test_sides_are_the_engines_and_each_has_a_label():
    assert SIDES == {kind: tuple(engine.get_game(kind).players) for kind in GameKind.values}
    assert set(SIDE_LABELS) == {side for sides in SIDES.values() for side in sides}
    with translation.override("id"):
        assert side_label("red") != "Red"
    assert side_label("nobody") == "nobody"


@pytest.mark.django_db
def test_the_schema_offers_the_enums_of_the_models():
    schema = Client().get("/api/v1/schema/?format=json").json()["components"]["schemas"]
    for name, choices in (
        ("ResultReasonEnum", ResultReason),
        ("GameStatusEnum", GameStatus),
        ("ChallengeStatusEnum", ChallengeStatus),
        ("EventKindEnum", EventKind),
        ("GameKindEnum", GameKind),
    ):
        assert schema[name]["enum"] == choices.values, name
    assert schema["TournamentStatusEnum"]["enum"] == ["registration", "running", "paused", "finished"]
    assert schema["Result"]["properties"]["reason"] == {"$ref": "#/components/schemas/ResultReasonEnum"}
