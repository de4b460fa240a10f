"""Importing a game record (either format) opens it on an analysis board that steps through
its moves, from the site and the API; a malformed record or an illegal move is refused with
its line, and the text is kept. Imports are private to their owner and show no bot
evaluation."""

from __future__ import annotations

import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from engine import get_game
from engine.core import random_game
from engine.records import GameRecord, record_to_json, record_to_text
from games import records as game_records
from games.models import ImportedRecord
from maatasite.personal_data import registry
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def a_record(kind: str = "maatatahay", seed: int = 7, options: dict | None = None) -> GameRecord:
    rules = get_game(kind)
    options = rules.normalize_options(options or {})
    moves, _state = random_game(rules, seed, options)
    return GameRecord(game=kind, seed=seed, options=options, moves=moves[:20], tags={"Event": "Club night"})


@pytest.mark.parametrize("kind", ["onitama", "maatatahay"])
def test_an_imported_record_steps_through_its_moves_on_the_board(client, kind):
    owner = make_user("importer")
    client.force_login(owner)
    record = a_record(kind)
    response = client.post("/records/import/", {"record": record_to_text(record)})
    assert response.status_code == 302
    board_url = response["Location"]
    assert re.fullmatch(r"/records/\d+/", board_url)
    end = client.get(board_url).content.decode()
    assert "ply %d of %d" % (len(record.moves), len(record.moves)) in end
    assert "<svg" in end and "Club night" in end
    assert "evaluation" not in end.replace("No bot evaluation", "")
    start = client.get(board_url + "?ply=0").content.decode()
    assert "ply 0 of %d" % len(record.moves) in start and 'id="step-next" href' not in start
    assert 'href="?ply=1"' in start
    third = client.get(board_url + "?ply=3").content.decode()
    assert "<code>%s</code>" % record.moves[2].replace("'", "&#x27;") in third
    assert client.get(board_url + "?ply=999").status_code == 200  # clamped to the end
    assert ImportedRecord.objects.get(owner=owner).plies == len(record.moves)


def test_a_json_record_or_a_file_imports_too(client):
    client.force_login(make_user("importer"))
    as_json = json.dumps(record_to_json(a_record("onitama", 3)))
    assert client.post("/records/import/", {"record": as_json}).status_code == 302
    upload = SimpleUploadedFile("game.txt", record_to_text(a_record("maatatahay", 4)).encode(), "text/plain")
    assert client.post("/records/import/", {"file": upload}).status_code == 302
    assert ImportedRecord.objects.count() == 2
    listing = client.get("/records/import/").content.decode()
    assert listing.count('href="/records/') == 2


def test_a_malformed_record_or_an_illegal_move_is_refused_with_its_line_and_kept(client):
    client.force_login(make_user("importer"))
    text = record_to_text(a_record("onitama", 5))
    lines = text.splitlines()
    fourth = next(i for i, line in enumerate(lines) if line.startswith("4. "))
    lines[fourth] = "4. tiger:a1a1"
    bad = "\n".join(lines)
    refused = client.post("/records/import/", {"record": bad})
    assert refused.status_code == 400
    page = refused.content.decode()
    assert "at line %d" % (fourth + 1) in page and "Ply 4 (tiger:a1a1)" in page
    assert "4. tiger:a1a1" in page  # the text stays in the form
    broken = client.post("/records/import/", {"record": '[Game "onitama"]\n[Seed 1]\n'})
    assert broken.status_code == 400 and "at line 2" in broken.content.decode()
    too_long = client.post("/records/import/", {"record": "x" * (game_records.IMPORT_MAX_CHARS + 1)})
    assert too_long.status_code == 400 and "too long" in too_long.content.decode()
    assert not ImportedRecord.objects.exists()
    client.cookies["django_language"] = "ar"
    arabic = client.post("/records/import/", {"record": bad}).content.decode()
    assert "السطر %d" % (fourth + 1) in arabic


def test_imports_are_private_and_the_oldest_go(client, monkeypatch):
    owner, other = make_user("owner1"), make_user("other1")
    client.force_login(owner)
    url = client.post("/records/import/", {"record": record_to_text(a_record("onitama", 8))})["Location"]
    client.force_login(other)
    assert client.get(url).status_code == 404
    assert client.get("/api/v1/records/%s/" % url.strip("/").split("/")[-1]).status_code == 404
    client.logout()
    assert client.get(url).status_code == 302  # to the sign-in page
    monkeypatch.setattr(game_records, "IMPORTS_KEPT", 2)
    for seed in (9, 10, 11):
        game_records.record_import(owner=owner, text=record_to_text(a_record("onitama", seed)))
    assert ImportedRecord.objects.filter(owner=owner).count() == 2


def test_the_api_imports_and_steps_through_a_record(client):
    owner = make_user("apiimporter")
    client.force_login(owner)
    record = a_record("maatatahay", 12)
    created = client.post("/api/v1/records/", {"record": record_to_text(record)}, content_type="application/json")
    assert created.status_code == 201, created.content
    body = created.json()
    assert body["ply"] == 0 and body["plies"] == len(record.moves) and body["moves"] == record.moves
    assert body["tags"]["Event"] == "Club night" and body["last_move"] is None
    assert "piles" not in json.dumps(body["view"])  # the public view: no face-down order
    at = client.get("/api/v1/records/%d/?ply=5" % body["id"]).json()
    assert at["ply"] == 5 and at["last_move"] == record.moves[4]
    lines = record_to_text(record).splitlines()
    lines[0] = "[Broken"
    refused = client.post("/api/v1/records/", {"record": "\n".join(lines)}, content_type="application/json")
    assert refused.status_code == 400
    assert refused.json()["code"] == "record_invalid_line" and refused.json()["details"]["line"] == 1
    client.logout()
    assert client.post("/api/v1/records/", {"record": "x"}, content_type="application/json").status_code == 401


def test_imports_join_the_export_and_go_with_the_account():
    owner = make_user("leaver")
    game_records.record_import(owner=owner, text=record_to_text(a_record("onitama", 13)))
    sections = {section.key: section for section in registry.export_sections()}
    exported = sections["imported_records"].build(owner)
    assert isinstance(exported, list) and len(exported) == 1 and exported[0]["record"].startswith("[Event")
    steps = {step.name: step for step in registry.erase_steps()}
    steps["games.imported_records"].run(owner, timezone.now())
    assert not ImportedRecord.objects.filter(owner=owner).exists()
