"""The command line's Onitama contracts (``python -m engine ...``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from engine.core import random_game
from engine.onitama import RULES

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
POSITION = "bbBbb/5/5/5/rrRrr boar,ox elephant,horse crab r"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args], cwd=ROOT, capture_output=True, text=True, timeout=120
    )


def lines(result: subprocess.CompletedProcess) -> list[str]:
    return [line for line in result.stdout.splitlines() if line.strip()]


def test_perft_prints_the_count_last() -> None:
    result = run("perft", "onitama", "--position", POSITION, "--depth", "3")
    assert result.returncode == 0 and lines(result)[-1] == "1989"


def test_perft_of_a_malformed_position_is_an_error() -> None:
    result = run("perft", "onitama", "--position", "bbBbb/5/5 boar,ox", "--depth", "1")
    assert result.returncode == 2 and "five parts" in result.stderr


@pytest.fixture(scope="module")
def game() -> list[str]:
    first = run("random-game", "onitama", "--seed", "7", "--cards", "mixed")
    second = run("random-game", "onitama", "--seed", "7", "--cards", "mixed")
    assert first.returncode == 0 and first.stdout == second.stdout
    return lines(first)


def test_random_game_is_deterministic_and_ends_with_a_result(game: list[str]) -> None:
    assert game[-1] in ("result: red", "result: blue", "result: draw")
    texts, state = random_game(RULES, 7, {"cards": "mixed"})
    assert game == texts + [RULES.result_line(state)]


def test_reveal_prints_the_deal() -> None:
    result = run("reveal", "onitama", "--seed", "7")
    assert result.returncode == 0
    assert json.loads(result.stdout) == RULES.reveal(7, {"cards": "base"})
    mixed = json.loads(run("reveal", "onitama", "--seed", "7", "--cards", "mixed").stdout)
    assert set(mixed) == {"red", "blue", "side", "first"} and mixed == RULES.reveal(7, {"cards": "mixed"})


def _replay(tmp_path, moves: list[str]) -> subprocess.CompletedProcess:
    record = tmp_path / "game.json"
    record.write_text(json.dumps({"game": "onitama", "options": {"cards": "mixed"}, "seed": 7, "moves": moves}))
    return run("replay", str(record))


def test_replay_of_the_record(tmp_path, game: list[str]) -> None:
    result = _replay(tmp_path, game[:-1])
    assert result.returncode == 0 and lines(result)[-1] == game[-1]


def test_replay_stops_at_a_corrupted_move(tmp_path, game: list[str]) -> None:
    moves = game[:-1]
    card = moves[2].split(":")[0]
    bad = moves[:2] + [card + ":a1a1"] + moves[3:]
    result = _replay(tmp_path, bad)
    assert result.returncode == 1 and lines(result)[-1].startswith("illegal at ply 3: ")
    result = _replay(tmp_path, moves[:1] + ["no such move"] + moves[1:])
    assert result.returncode == 1 and lines(result)[-1].startswith("illegal at ply 2: ")


def test_replay_of_half_a_game_is_unfinished(tmp_path, game: list[str]) -> None:
    result = _replay(tmp_path, game[:-1][: max(1, (len(game) - 1) // 2)])
    assert result.returncode == 0 and lines(result)[-1] == "result: unfinished"
