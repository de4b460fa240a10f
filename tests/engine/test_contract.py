"""The one contract between the engine and its users (engine.GameRules): both games keep
it, a move's parts hold exactly what its text holds, and a game refuses another's state."""

from __future__ import annotations

import json

import pytest

import engine
from engine import GameRules
from engine.fair import SeedStream
from engine.maatatahay.moves import counts_text

SETUPS = [
    ("onitama", {"cards": "mixed"}),
    ("maatatahay", {"variant": "first"}),
    ("maatatahay", {"variant": "standard"}),
]


def text_from_parts(game: str, parts: dict) -> str:
    """The move text written from the parts alone, as a client building a move would."""
    kind = parts["type"]
    if game == "onitama":
        return "%s:%s" % (parts["card"], "pass" if kind == "pass" else parts["from"] + parts["to"])
    if kind == "pick":
        return "pick %s/%s" % (parts["wazu"], parts["balan"])
    if kind == "first":
        return "first " + parts["player"]
    if kind == "draft":
        return "draft " + parts["square"]
    if kind == "shrine":
        return "shrine %s pay %s" % (parts["square"], counts_text(parts["pay_energy"], parts["pay_spirit"]))
    text = ("place %s " % parts["square"] if kind == "place" else "finish ") + "r%d" % parts["rotation"]
    if parts["put_energy"] or parts["put_spirit"]:
        text += " put " + counts_text(parts["put_energy"], parts["put_spirit"])
    if parts["order"]:
        text += " order " + ",".join(parts["order"])
    return text


@pytest.mark.parametrize("game, options", SETUPS)
def test_every_legal_moves_parts_rebuild_its_text(game: str, options: dict) -> None:
    rules: GameRules = engine.get_game(game)
    kinds = set()
    for seed in range(4):
        state = rules.new_game(seed, options)
        stream = SeedStream(seed, "test/contract")
        while rules.outcome(state) is None:
            shrines = []
            for move in rules.legal_moves(state):
                parts = rules.move_parts(move)
                kinds.add(parts["type"])
                assert text_from_parts(game, parts) == rules.move_text(move), parts
                if parts["type"] == "shrine":
                    shrines.append(move)
            # A Shrine when one is offered, so that the finish decisions are listed too.
            state = rules.apply(state, shrines[0] if shrines else rules.random_move(state, stream))
    expected = {"move"} if game == "onitama" else {"pick", "first", "place", "shrine", "finish"}
    assert expected <= kinds


@pytest.mark.parametrize("game, options", SETUPS)
def test_the_contracts_data_version_and_hidden_information(game: str, options: dict) -> None:
    rules = engine.get_game(game)
    state = rules.new_game(3, options)
    assert rules.data_version(state) == rules.to_json(state)["data_version"] != ""
    assert rules.hidden_information is (game == "maatatahay")


def test_a_game_refuses_another_games_state_and_moves() -> None:
    onitama, maatatahay = engine.get_game("onitama"), engine.get_game("maatatahay")
    o_state, m_state = onitama.new_game(1, {}), maatatahay.new_game(1, {})
    with pytest.raises(TypeError):
        onitama.legal_moves(m_state)
    with pytest.raises(TypeError):
        maatatahay.view(o_state, None)
    with pytest.raises(engine.IllegalMoveError):
        maatatahay.move_text(onitama.legal_moves(o_state)[0])
    with pytest.raises(engine.IllegalMoveError):
        onitama.move_parts(maatatahay.legal_moves(m_state)[0])


@pytest.mark.parametrize("game, options", SETUPS)
def test_every_legal_move_has_a_preview_as_json_data(game: str, options: dict) -> None:
    rules: GameRules = engine.get_game(game)
    for seed in range(3):
        state = rules.new_game(seed, options)
        stream = SeedStream(seed, "test/contract-previews")
        while rules.outcome(state) is None:
            previews = rules.move_previews(state)
            assert [p.move for p in previews] == list(rules.legal_moves(state))
            for p in previews:
                assert p.effects["type"] == rules.move_parts(p.move)["type"]
                assert json.loads(json.dumps(p.effects)) == p.effects
            state = rules.apply(state, rules.random_move(state, stream))
        assert rules.move_previews(state) == []


def squares_named(parts: dict) -> list[str]:
    return [value for key in ("from", "to", "square") if isinstance(value := parts.get(key), str)]


@pytest.mark.parametrize("game, options", SETUPS)
def test_the_previews_of_one_square_are_exactly_those_of_every_move_on_it(game: str, options: dict) -> None:
    """move_previews_at(square) is move_previews filtered to the moves naming the square (None:
    naming none), in the same order, for every square of every decision of random games; a
    square nobody can play on, or no square of the board, gets none."""
    rules: GameRules = engine.get_game(game)
    for seed in range(2):
        state = rules.new_game(seed, options)
        stream = SeedStream(seed, "test/contract-previews-at")
        while rules.outcome(state) is None:
            every = rules.move_previews(state)
            named = {square for p in every for square in squares_named(rules.move_parts(p.move))}
            for square in sorted(named) + [None]:
                expected = [
                    p
                    for p in every
                    if (
                        square in squares_named(rules.move_parts(p.move))
                        if square
                        else not squares_named(rules.move_parts(p.move))
                    )
                ]
                assert rules.move_previews_at(state, square) == expected, (seed, square)
            assert rules.move_previews_at(state, "zz9") == []
            state = rules.apply(state, rules.random_move(state, stream))
        assert rules.move_previews_at(state, None) == []
