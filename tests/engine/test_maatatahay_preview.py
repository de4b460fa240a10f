"""Maatatahay move previews: the public table only, and exactly what ``apply`` then does.

Random positions of both variants are visited at every decision. There:
- the previews are those of the state rebuilt from the view with another hidden
  order (other piles, another bag), and of the state with its bag or piles permuted
  directly: they never depend on the hidden order, and hold nothing of it;
- for every legal move, what the preview says (deaths of friends and enemies, the
  Hot Tile's Strength and crystals, storage, scores, the relic, the chooser) is
  compared with the state ``apply`` returns on the real state, read independently.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from engine.fair import SeedStream
from engine.maatatahay import RULES, Draft, Finish, First, Move, Pick, Place, Shrine, State
from engine.maatatahay import preview as mp
from engine.maatatahay import rules as mr
from engine.maatatahay.board import ALIVE, EN, KIND, OWNER, PLAYERS, SP
from engine.maatatahay.moves import MOVE_TYPES
from tests.engine.test_maatatahay import EXAMPLE_3, position
from tests.engine.test_maatatahay_reference import crowded_position

GAMES = 12


def positions(variant: str, games: int = GAMES) -> Iterator[State]:
    """Every decision of ``games`` random games of ``variant``."""
    for seed in range(games):
        state = RULES.new_game(seed, {"variant": variant})
        stream = SeedStream(seed, "preview-test")
        while RULES.outcome(state) is None:
            yield state
            state = RULES.apply(state, RULES.random_move(state, stream))


def effects_of(state: State) -> list[tuple[Move, dict[str, Any]]]:
    """The previews through the contract (``RULES.move_previews``), as (move, effects)."""
    out: list[tuple[Move, dict[str, Any]]] = []
    for preview in RULES.move_previews(state):
        assert isinstance(preview.move, MOVE_TYPES)
        out.append((preview.move, preview.effects))
    return out


def keys_in(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, inner in value.items():
            yield key
            yield from keys_in(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from keys_in(inner)


def permuted_hidden(state: State, seed: int) -> State:
    """``state`` with its bag and its face-down piles in another order (same contents)."""
    stream = SeedStream(seed, "permute")
    other = state.copy()
    bag = list(state.bag)
    stream.shuffle(bag)
    other.bag = tuple(bag)
    piles = [list(state.piles[0]), list(state.piles[1])]
    stream.shuffle(piles[0])
    stream.shuffle(piles[1])
    other.piles = (tuple(piles[0]), tuple(piles[1]))
    return other


@pytest.mark.parametrize("variant", ["first", "standard"])
def test_previews_see_only_the_public_table(variant: str) -> None:
    checked = 0
    favour_differs = 0
    for n, state in enumerate(positions(variant)):
        previews = effects_of(state)
        assert [m for m, _e in previews] == RULES.legal_moves(state)
        # JSON data, with no hidden field: no pile, no bag order (only its counts)
        data = [e for _m, e in previews]
        assert json.loads(json.dumps(data)) == data
        keys = set(keys_in(data))
        assert "piles" not in keys and "unseen" not in keys and "favour" not in keys
        for e in data:
            if "bag" in e:
                assert set(e["bag"]) == {"energy", "spirit"}
                assert all(isinstance(v, int) for v in e["bag"].values())
        # the same previews with another hidden order, from the view or permuted in place
        view = RULES.view(state, PLAYERS[n % 2])
        sampled = RULES.sample_state(view, SeedStream(n, "other-order"))
        permuted = permuted_hidden(state, n)
        assert effects_of(sampled) == previews
        assert effects_of(permuted) == previews
        if any(isinstance(m, Shrine) for m, _e in previews):
            shrine = next(m for m, _e in previews if isinstance(m, Shrine))
            if RULES.apply(state, shrine).favour != RULES.apply(permuted, shrine).favour:
                favour_differs += 1  # the hidden draws differ, the previews do not
        checked += 1
    assert checked > 100
    assert favour_differs > 0


def died(before: State, after: State) -> list[dict[str, str]]:
    """Warriors alive before and dead after (a new tile that died included), by square."""
    out = []
    t = before.t
    for i, cell in enumerate(after.cells):
        if cell is None or cell[ALIVE]:
            continue
        old = before.cells[i]
        if old is None or old[ALIVE]:
            out.append({"square": t.names[i], "tribe": PLAYERS[cell[OWNER]], "tile": t.kinds[cell[KIND]]})
    return out


def check_placement(state: State, move: Place | Finish, e: dict[str, Any]) -> None:
    t = state.t
    after = RULES.apply(state, move)
    p = state.placer
    s = t.index[move.square] if isinstance(move, Place) else state.pending
    kind = mr.tile_of(state, p)
    assert e["type"] == type(move).__name__.lower()
    assert (e["square"], e["tribe"], e["tile"], e["rotation"]) == (t.names[s], PLAYERS[p], t.kinds[kind], move.rotation)
    assert e["put"] == {"energy": move.put_energy, "spirit": move.put_spirit}
    assert e["order"] == list(move.order)
    assert e["deaths"] == died(state, after)
    assert e["collected"] == dict(zip(("energy", "spirit"), state.ground[s], strict=True))
    assert after.ground[s] == (0, 0)
    hot = after.cells[s]
    assert hot is not None and hot[OWNER] == p and hot[KIND] == kind
    assert e["hot_survives"] is hot[ALIVE]
    assert e["hot_crystals"] == {"energy": hot[EN], "spirit": hot[SP]}
    strength = e["strength"]
    assert strength["total"] == (strength["claws"] + strength["support"] + strength["put"] + strength["ability"])
    assert strength["claws"] == t.claws[kind] and strength["put"] == move.put_energy
    # the Strength at settlement: the tile alive on the square with the Energy it received
    own2, live2 = mr.with_hot(state, p, s)
    assert e["settled"] == [t.names[c] for c in mr.candidates(t, state.cells, own2, live2, s)]
    cells = list(state.cells)
    cells[s] = (p, kind, move.rotation, True, strength["support"] + move.put_energy, 0)
    assert strength["total"] == mr.strength(t, cells, own2, s)
    if hot[ALIVE]:
        assert strength["support"] + move.put_energy == hot[EN]
        assert strength["total"] == mr.strength(t, after.cells, after.own, s)
        assert e["loot"] == hot[SP] - move.put_spirit
    else:
        assert hot[EN] == hot[SP] == 0
    assert e["loot"] == sum(
        c[SP] for i, c in enumerate(state.cells) if c is not None and t.names[i] in {d["square"] for d in e["deaths"]}
    )
    assert e["storage"] == dict(zip(("energy", "spirit"), after.storage[p], strict=True))
    check_scores(state, after, e)


def check_scores(state: State, after: State, e: dict[str, Any]) -> None:
    before, now = RULES.scores(state), RULES.scores(after)
    assert e["scores"] == now
    assert e["score_change"] == {name: now[name] - before[name] for name in PLAYERS}


def check_other(state: State, move: Move, e: dict[str, Any]) -> None:
    after = RULES.apply(state, move)
    if isinstance(move, Shrine):
        p = state.placer
        drawn = after.favour
        assert e["favour_draws"] == len(drawn) == min(2, len(state.bag))
        held = after.storage[p]
        assert e["storage"] == {"energy": held[0] - drawn.count(0), "spirit": held[1] - drawn.count(1)}
        assert e["pay"] == {"energy": move.pay_energy, "spirit": move.pay_spirit}
        assert e["cost"] == state.t.shrine_cost(state.own[0] | state.own[1], state.t.index[move.square])
        assert after.taken[-1] == (p, state.t.index[move.square])
        assert e["relic_points"] == e["score_change"][PLAYERS[p]] > 0
        check_scores(state, after, e)
    elif isinstance(move, Draft):
        drafter = state.turn
        assert drafter is not None
        assert e["storage"] == dict(zip(("energy", "spirit"), after.storage[drafter], strict=True))
    elif isinstance(move, Pick):
        assert after.turn is not None and e["chooser"] == PLAYERS[after.turn]
    else:
        assert isinstance(move, First)
        assert after.turn is not None and e["player"] == PLAYERS[after.turn] == move.player


@pytest.mark.parametrize("variant", ["first", "standard"])
def test_every_preview_is_what_apply_does(variant: str) -> None:
    seen: set[str] = set()
    deaths = friendly = 0
    for state in positions(variant):
        by_choice: dict[tuple[Any, ...], list[list[dict[str, str]]]] = {}
        for move, e in effects_of(state):
            seen.add(e["type"])
            assert e["type"] == RULES.move_parts(move)["type"]
            if isinstance(move, (Place, Finish)):
                check_placement(state, move, e)
                deaths += bool(e["deaths"])
                friendly += any(d["tribe"] == e["tribe"] for d in e["deaths"])
                if move.order:
                    choice = (e["square"], move.rotation, move.put_energy, move.put_spirit)
                    by_choice.setdefault(choice, []).append(e["deaths"])
            else:
                check_other(state, move, e)
        # where the order matters, each order is a distinct result on the board
        for results in by_choice.values():
            assert len(results) > 1
            assert len({json.dumps(r) for r in results}) == len(results)
    expected = {"pick", "first", "place", "shrine", "finish"} | ({"draft"} if variant == "standard" else set())
    assert seen == expected
    assert deaths > 0 and friendly > 0


def test_the_rulebooks_third_example_previews_each_order() -> None:
    """Example 3: Bravery under the Elder; each settlement order its own result on the board."""
    state = position(EXAMPLE_3, tile="bravery", storage={"wazu": (1, 0)})
    here = {
        tuple(e["order"]): e
        for m, e in effects_of(state)
        if isinstance(m, Place) and m.square == "a1" and m.rotation == 0 and m.put_energy == 1
    }
    assert sorted(here) == [("a2", "a3", "b2"), ("a3", "a2", "b2"), ("a3", "b2", "a2"), ("b2", "a2", "a3")]
    e = here[("a3", "b2", "a2")]  # the rulebook's order: Support, then Rookie, then the Elder
    assert e["strength"] == {"claws": 2, "support": 0, "put": 1, "ability": 0, "total": 3}
    assert e["settled"] == ["a2", "a3", "b2"]
    assert e["deaths"] == [
        {"square": "a1", "tribe": "wazu", "tile": "bravery"},
        {"square": "a3", "tribe": "balan", "tile": "support"},
        {"square": "b2", "tribe": "balan", "tile": "rookie"},
    ]
    assert (e["hot_survives"], e["loot"], e["hot_crystals"]) == (False, 2, {"energy": 0, "spirit": 0})
    assert e["score_change"] == {"balan": -7, "wazu": 0}
    # the Elder dies first in the smallest order: a friend among the dead
    assert {"square": "a2", "tribe": "wazu", "tile": "elder"} in here[("a2", "a3", "b2")]["deaths"]
    for m, e in effects_of(state):
        if isinstance(m, Place):
            check_placement(state, m, e)


def test_crowded_boards_previews_agree_and_hide_nothing() -> None:
    """Crowded boards (settlement orders matter often): previews against apply, per order,
    and the same previews with the bag and piles in another order."""
    with_orders = 0
    for seed in range(40):
        state = crowded_position(seed)
        previews = effects_of(state)
        assert effects_of(permuted_hidden(state, seed)) == previews
        by_choice: dict[tuple[Any, ...], list[str]] = {}
        for m, e in previews:
            if isinstance(m, Place):
                check_placement(state, m, e)
                if m.order:
                    assert sorted(e["settled"]) == sorted(m.order)
                    by_choice.setdefault((m.square, m.rotation, m.put_energy, m.put_spirit), []).append(
                        json.dumps(e["deaths"])
                    )
            else:
                check_other(state, m, e)
        for results in by_choice.values():
            assert len(results) > 1 and len(set(results)) == len(results)
        with_orders += bool(by_choice)
    assert with_orders >= 5


def test_blind_keeps_the_public_table() -> None:
    state = next(s for s in positions("first", games=1) if s.phase == "place")
    blinded = mp.blind(state)
    assert blinded.piles == ((), ()) and sorted(blinded.bag) == list(blinded.bag)
    assert RULES.view(blinded, None) == RULES.view(state, None)
    assert RULES.legal_moves(blinded) == RULES.legal_moves(state)
