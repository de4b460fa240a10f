"""Game records (engine/records.py): the text record and the JSON replay record round-trip
every game, ``python -m engine replay`` reads both, and every malformed record gets an error
that names its line. No database."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from engine import get_game
from engine.core import random_game
from engine.records import (
    GameRecord,
    RecordError,
    record_from_text,
    record_read,
    record_replay,
    record_states,
    record_to_json,
    record_to_text,
    result_token,
)

SETUPS = [
    ("onitama", 11, {"cards": "base"}),
    ("onitama", 12, {"cards": "mixed"}),
    ("maatatahay", 13, {"variant": "first", "opening": 2}),
    ("maatatahay", 14, {"variant": "standard"}),
]


def played(game: str, seed: int, options: dict) -> tuple[GameRecord, str]:
    rules = get_game(game)
    moves, state = random_game(rules, seed, options)
    outcome = rules.outcome(state)
    assert outcome is not None
    tags = {
        "Event": 'A "quoted" event \\ with a backslash',
        "Date": "2026.12.02",
        side_name(rules.players[0]): "alice",
        side_name(rules.players[1]): "bob",
        "Result": result_token(rules, outcome.winner, True),
        "Reason": outcome.reason,
    }
    record = GameRecord(game=game, seed=seed, options=rules.normalize_options(options), moves=moves, tags=tags)
    return record, rules.result_line(state)


def side_name(side: str) -> str:
    return side.capitalize()


@pytest.mark.parametrize(("game", "seed", "options"), SETUPS)
def test_both_formats_round_trip_and_replay_to_the_same_end(game, seed, options):
    record, result_line = played(game, seed, options)
    rules = get_game(game)
    text = record_to_text(record)
    assert text.splitlines()[-1] == record.tags["Result"]
    again = record_read(text)
    assert again.moves == record.moves and again.seed == seed and again.game == game
    assert again.options == record.options
    assert again.tags["Event"] == record.tags["Event"] and again.tags["Date"] == "2026.12.02"
    assert again.move_lines[0] == text.splitlines().index("1. " + record.moves[0]) + 1
    assert rules.result_line(record_replay(again)) == result_line

    data = record_to_json(again, salt="00" * 16)
    from_json = record_read(json.dumps(data))
    assert from_json.moves == record.moves and from_json.options == record.options
    assert rules.result_line(record_replay(from_json)) == result_line
    assert len(record_states(from_json)) == len(record.moves) + 1


@pytest.mark.parametrize("form", ["text", "json"])
def test_the_command_line_replays_either_format(tmp_path, form):
    record, result_line = played("maatatahay", 14, {"variant": "standard"})
    path = tmp_path / "game.record"
    path.write_text(record_to_text(record) if form == "text" else json.dumps(record_to_json(record)))
    done = subprocess.run(
        [sys.executable, "-m", "engine", "replay", str(path)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == result_line


def test_the_command_line_names_the_line_of_an_illegal_move(tmp_path):
    record, _ = played("onitama", 11, {"cards": "base"})
    lines = record_to_text(record).splitlines()
    third = next(i for i, line in enumerate(lines) if line.startswith("3. "))
    lines[third] = "3. tiger:a1a1"
    path = tmp_path / "bad.txt"
    path.write_text("\n".join(lines) + "\n")
    done = subprocess.run(
        [sys.executable, "-m", "engine", "replay", str(path)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1
    assert done.stdout.splitlines()[-1].startswith("illegal at ply 3: ")
    assert "(line %d of the record)" % (third + 1) in done.stderr
    with pytest.raises(RecordError) as raised:
        record_states(record_from_text(path.read_text()))
    assert raised.value.line == third + 1 and raised.value.params["ply"] == 3


def test_an_unreadable_record_on_the_command_line_names_its_line(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text('[Game "onitama"]\n[Seed 12]\n')
    done = subprocess.run(
        [sys.executable, "-m", "engine", "replay", str(path)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and "line 2: " in done.stderr


GOOD_HEAD = '[Game "onitama"]\n[Seed "11"]\n[Cards "base"]\n\n'


@pytest.mark.parametrize(
    ("text", "line", "code"),
    [
        ('[Game "onitama"]\n[Seed "1"]\n[Broken\n', 3, "record_tag"),
        ('[Game "chess"]\n[Seed "1"]\n', 1, "record_game"),
        ('[Game "onitama"]\n', 0, "record_seed"),
        ('[Game "onitama"]\n[Seed "-4"]\n', 2, "record_seed"),
        ('[Seed "1"]\n', 0, "record_game"),
        (GOOD_HEAD + "1. x\n3. y\n", 6, "record_ply"),
        (GOOD_HEAD + "1 tiger:a1a2\n", 5, "record_line"),
        (GOOD_HEAD + "*\n1. tiger:a1a2\n", 6, "record_after_result"),
        (GOOD_HEAD + '1. tiger:a1a2\n[Late "tag"]\n', 6, "record_tag_late"),
        ('[Game "onitama"]\n[Seed "1"]\n[Result "1-0"]\n\n0-1\n', 0, "record_result"),
        ('[Game "onitama"]\n[Seed "1"]\n[Cards "chess"]\n', 3, "record_option"),
        ("x" * 1_000_001, 0, "record_too_long"),
        ('{"game": "onitama", "seed": 1, "moves": [1, 2]}', 0, "record_moves"),
        ('{"game": "onitama", "seed": 1, "moves": [], "options": {"colour": "red"}}', 0, "record_option"),
        ('{"game": "onitama", "seed": 1, "moves": [', 0, "record_json"),
        ("[" * 100 + "]" * 100, 1, "record_tag"),
        ("{" + '"a":' * 5000, 0, "record_json"),
    ],
)
def test_a_malformed_record_gets_an_error_naming_its_line(text, line, code):
    with pytest.raises(RecordError) as raised:
        record_read(text)
    assert (raised.value.line, raised.value.code) == (line, code), raised.value.message
    assert raised.value.message


def test_a_record_without_moves_is_the_starting_position():
    record = record_read(GOOD_HEAD + "*\n")
    states = record_states(record)
    assert len(states) == 1 and get_game("onitama").outcome(states[0]) is None
