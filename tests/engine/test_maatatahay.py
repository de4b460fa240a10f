"""Maatatahay engine: the rulebook's worked examples, setup, move text, errors, JSON.

The rulebook has no diagrams, so each example is a board built here that
reproduces the example's stated numbers with the provisional data.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from engine import get_game
from engine.core import Outcome, random_game, replay
from engine.errors import IllegalMoveError, MoveSyntaxError, OptionsError, StateFormatError
from engine.fair import SeedStream
from engine.maatatahay import RULES, Finish, Pick, Place, Shrine, State
from engine.maatatahay import data as mdata
from engine.maatatahay import rules as mr
from engine.maatatahay.board import tables

ROOT = Path(__file__).resolve().parents[2]
T = tables(mdata.CURRENT)


def final_outcome(state: State) -> Outcome:
    """The outcome of ``state``, a game that is over."""
    outcome = RULES.outcome(state)
    assert outcome is not None, "the game is not over"
    return outcome


# ------------------------------------------------------------------ building positions


def _cell(spec: str) -> dict[str, Any]:
    """ "W elder", "B rookie 1e1s", "w elite" (lower case: dead), optional "r2"."""
    words = spec.split()
    tribe = {"w": "wazu", "b": "balan"}[words[0].lower()]
    cell = {"tribe": tribe, "tile": words[1], "rotation": 0, "alive": words[0].isupper(), "energy": 0, "spirit": 0}
    for w in words[2:]:
        if w.startswith("r"):
            cell["rotation"] = int(w[1:])
        else:
            import re

            m = re.fullmatch(r"(?:(\d+)e)?(?:(\d+)s)?", w)
            assert m, w
            cell["energy"], cell["spirit"] = int(m.group(1) or 0), int(m.group(2) or 0)
    return cell


def position(
    board: dict[str, str],
    *,
    placer: str = "wazu",
    tile: str = "bravery",
    other: str = "bravery",
    storage: dict[str, tuple[int, int]] | None = None,
    variant: str = "first",
    relics: tuple[str, ...] = (),
    taken: tuple[tuple[str, str], ...] = (),
    phase: str = "place",
    ground: dict[str, tuple[int, int]] | None = None,
    track: int = 0,
):
    """A state built through from_json: ``placer`` is about to place ``tile``."""
    cells = {sq: _cell(spec) for sq, spec in board.items()}
    pair = None
    if phase in ("place", "finish"):
        pair = {"wazu": tile, "balan": other} if placer == "wazu" else {"wazu": other, "balan": tile}
    seen = {p: dict.fromkeys(T.kinds, 0) for p in ("balan", "wazu")}
    for c in cells.values():
        seen[c["tribe"]][c["tile"]] += 1
    if pair:
        for p in ("balan", "wazu"):
            seen[p][pair[p]] += 1
    piles = {p: [k for k in T.kinds for _ in range(T.counts[T.kind_index[k]] - seen[p][k])] for p in ("balan", "wazu")}
    for p in piles:
        for k in T.kinds:
            assert seen[p][k] <= T.counts[T.kind_index[k]], (p, k)
    sto = storage or {}
    data = {
        "schema": "maatatahay/1",
        "data_version": mdata.CURRENT,
        "variant": variant,
        "opening": 1 if variant == "first" else None,
        "start": "balan",
        "phase": phase,
        "turn": None if phase == "over" else placer,
        "round": 5,
        "active": "balan",
        "board": cells,
        "ground": {sq: {"energy": e, "spirit": s} for sq, (e, s) in (ground or {}).items()},
        "relics": list(relics),
        "storage": {p: {"energy": sto.get(p, (0, 0))[0], "spirit": sto.get(p, (0, 0))[1]} for p in ("balan", "wazu")},
        "taken": [{"tribe": p, "square": sq} for p, sq in taken],
        "track": track,
        "stream": [],
        "pair": pair,
        "first": placer if phase in ("place", "finish") else None,
        "placed": 0,
        "pending": None,
        "favour": [],
        "draft": {"step": 5 if variant == "standard" else 0, "taken": {"balan": 0, "wazu": 0}},
        "ended": None,
        "piles": piles,
        "bag": ["energy", "spirit"] * 4,
    }
    return RULES.from_json(data)


def cell(state, square: str) -> dict[str, Any]:
    return RULES.to_json(state)["board"][square]


def strength_at(state, square: str) -> int:
    return mr.strength(state.t, state.cells, state.own, state.t.index[square])


def play(state, text: str):
    move = RULES.parse_move(state, text)
    assert RULES.move_text(move) == text, "not canonical: %s -> %s" % (text, RULES.move_text(move))
    assert move in RULES.legal_moves(state)
    return RULES.apply(state, move)


# ------------------------------------------------------------------ the worked examples


def test_arrow_example():
    """Support, then Bravery below it, Elite top left, Rookie: 4, 4, 3, 0."""
    s = position({}, tile="support")
    s = play(s, "place b2 r0")
    s = play(position({"b2": "W support"}, tile="bravery"), "place b1 r0")
    assert cell(s, "b1")["energy"] == 1  # Support's S arrow
    board = {"b2": "W support", "b1": "W bravery 1e"}
    s = play(position(board, tile="elite"), "place a3 r0")
    assert cell(s, "a3")["energy"] == 1  # Support's NW arrow
    board["a3"] = "W elite 1e"
    s = play(position(board, tile="rookie"), "place a2 r0")
    assert cell(s, "a2")["energy"] == 3  # Support W, Bravery NW, Elite S
    assert {sq: strength_at(s, sq) for sq in ("a2", "a3", "b1", "b2")} == {"a2": 4, "a3": 4, "b1": 3, "b2": 0}
    assert cell(s, "b2")["energy"] == 0  # arrows never feed older tiles


def test_arrows_follow_rotation_and_map_arrows():
    board = {"b2": "W support r1"}  # W->N, NW->NE, S->W
    s = play(position(board, tile="bravery"), "place b3 r0")
    assert cell(s, "b3")["energy"] == 1 + 1  # Support's W arrow turned to N, map arrow
    s = play(position(board, tile="bravery", placer="balan"), "place b3 r0")
    assert cell(s, "b3")["energy"] == 1  # enemy arrows give nothing


def test_settlement_example_1():
    """Balan's Bravery surrounds Wazu's Support (2 < 3 + 4): Support dies, its Energy leaves."""
    board = {"a1": "W support 2e", "a2": "B champion"}
    s = position(board, placer="balan", tile="bravery", storage={"balan": (1, 0)})
    assert RULES.view(s, None)["turn"] == "balan"
    before = {sq: strength_at(s, sq) for sq in ("a1", "a2")}
    assert before == {"a1": 2, "a2": 4}
    after = play(s, "place b1 r0 put 1e")  # one candidate: no order
    assert strength_at(after, "b1") == 3
    assert cell(after, "a1") == {
        "tribe": "wazu",
        "tile": "support",
        "rotation": 0,
        "alive": False,
        "energy": 0,
        "spirit": 0,
    }
    assert cell(after, "b1")["alive"] and cell(after, "a2")["alive"]


def test_settlement_example_2():
    """Wazu's Convert: Bravery falls 3:13, the Elder 1:4, the Convert loots both Spirits."""
    board = {"a2": "B bravery 1e1s", "b1": "B elder 1s", "b2": "B rookie", "a3": "W berserk 4e", "c1": "w bravery"}
    s = position(board, tile="convert", storage={"wazu": (3, 0)})
    after = play(s, "place a1 r0 put 3e")  # both candidates are Balan: order cannot matter
    assert strength_at(after, "a1") == 4  # 3 Energy + 1 diagonal enemy
    assert strength_at(s, "a2") == 3 and strength_at(s, "b1") == 1
    assert not cell(after, "a2")["alive"] and not cell(after, "b1")["alive"]
    assert cell(after, "a1") == {
        "tribe": "wazu",
        "tile": "convert",
        "rotation": 0,
        "alive": True,
        "energy": 3,
        "spirit": 2,
    }


EXAMPLE_3 = {
    "a2": "W elder",
    "a3": "B support 3e1s",
    "b2": "B rookie 1e1s",
    "b1": "B champion",
    "b3": "W bravery",
    "a4": "W rookie",
    "c2": "w elite",
}


def test_settlement_example_3():
    """Bravery under the Elder: Support then Rookie fall, the Elder lives, the Hot Tile dies."""
    s = position(EXAMPLE_3, tile="bravery", storage={"wazu": (1, 0)})
    assert strength_at(s, "a3") == 3 and strength_at(s, "b2") == 2 and strength_at(s, "a2") == 0
    after = play(s, "place a1 r0 put 1e order a3,b2,a2")
    board = RULES.to_json(after)["board"]
    assert not board["a3"]["alive"] and not board["b2"]["alive"]
    assert board["a2"]["alive"]
    assert board["a1"] == {
        "tribe": "wazu",
        "tile": "bravery",
        "rotation": 0,
        "alive": False,
        "energy": 0,
        "spirit": 0,
    }  # looted Spirits return to the supply
    # the order matters here: one move per distinct result, smallest order for each
    orders = sorted(
        m.order
        for m in RULES.legal_moves(s)
        if isinstance(m, Place) and m.square == "a1" and m.put_energy == 1 and m.rotation == 0
    )
    assert orders == [("a2", "a3", "b2"), ("a3", "a2", "b2"), ("a3", "b2", "a2"), ("b2", "a2", "a3")]
    # any full order is read as the canonical move with the same result
    assert (
        RULES.move_text(RULES.parse_move(s, "place a1 r0 put 1e order b2,a3,a2")) == "place a1 r0 put 1e order a3,b2,a2"
    )
    with pytest.raises(IllegalMoveError) as err:
        RULES.parse_move(s, "place a1 r0 put 1e")
    assert err.value.code == "order_needed"
    with pytest.raises(IllegalMoveError) as err:
        RULES.parse_move(s, "place a1 r0 put 1e order a3,b2,c3")
    assert err.value.code == "not_a_candidate"
    with pytest.raises(IllegalMoveError) as err:
        RULES.parse_move(s, "place a1 r0 put 1e order a3,b2")
    assert err.value.code == "order_incomplete"
    with pytest.raises(IllegalMoveError) as err:
        RULES.apply(s, Place("a1", 0, 1, 0, ("b2", "a3", "a2")))
    assert err.value.code == "order_not_canonical"


def test_survivors_are_settled_again():
    """A surrounded survivor falls later, away from the Hot Tile, when a Convert grows;
    the current player's own dead warrior gives its Spirit to the Hot Tile."""
    board = {"a1": "B rookie 1e1s", "a2": "W convert", "b1": "W bravery"}
    s = position(board, placer="balan", tile="elite")
    assert strength_at(s, "a1") == 2 and strength_at(s, "a2") + strength_at(s, "b1") == 2
    after = play(s, "place b3 r0")  # Convert a2 gains 1 from a diagonal enemy
    assert strength_at(after, "a2") == 1
    assert not cell(after, "a1")["alive"]
    assert cell(after, "b3") == {
        "tribe": "balan",
        "tile": "elite",
        "rotation": 0,
        "alive": True,
        "energy": 1,
        "spirit": 1,
    }  # map arrow; looted own Spirit
    assert RULES.view(after, None)["scores"]["balan"] == 1 + 1


def test_scoring_example():
    """Wazu 13 + 4 + 1 = 18, Balan 15 + 3 + 6 = 24: Balan wins on score."""
    board = {
        "a5": "W champion",
        "b5": "W berserk 1e2s",
        "c5": "W bravery 1s",
        "d5": "W bravery",
        "e5": "W elder 1s",
        "a4": "W rookie",
        "b4": "W elite",
        "c4": "w bravery",
        "a1": "B champion 2s",
        "b1": "B support",
        "c1": "B convert 1s",
        "d1": "B elite",
        "e1": "B bravery",
        "a2": "B bravery",
        "b2": "B rookie",
        "c2": "b rookie",
    }
    s = position(
        board, phase="over", relics=("e3",), taken=(("balan", "a3"), ("wazu", "c3"), ("balan", "d3"), ("balan", "e2"))
    )
    out = RULES.outcome(s)
    assert out is not None and out.as_dict() == {
        "winner": "balan",
        "reason": "score",
        "scores": {"balan": 24, "wazu": 18},
    }
    assert RULES.result_line(s) == "result: balan 24-18"
    assert mr.relic_points(s) == (6, 1)


def test_standard_relic_example():
    """Standard Game: relics score by global order: Balan 2+3 = 5, Wazu 1+4+5 = 10."""
    taken = (("wazu", "a1"), ("balan", "c1"), ("balan", "e1"), ("wazu", "a5"), ("wazu", "e5"))
    s = position({}, phase="over", variant="standard", taken=taken)
    assert mr.relic_points(s) == (5, 10)
    assert final_outcome(s).scores == {"balan": 5, "wazu": 10}
    s1 = position({}, phase="over", variant="first", taken=taken)
    assert mr.relic_points(s1) == (3, 6)


def _shrine_payments(state, square):
    return sorted(
        (m.pay_energy, m.pay_spirit) for m in RULES.legal_moves(state) if isinstance(m, Shrine) and m.square == square
    )


def test_shrine_costs():
    """(i) one warrior beside the Shrine: 3; (ii) two: 2; (iii) four: still 1 Spirit."""
    rich = {"wazu": (3, 3)}
    s = position({"a2": "W rookie"}, relics=("a3",), storage=rich)
    assert _shrine_payments(s, "a3") == [(0, 3), (1, 2), (2, 1)]
    s = position({"c2": "W rookie", "b3": "B rookie"}, relics=("c3",), storage=rich)
    assert _shrine_payments(s, "c3") == [(0, 2), (1, 1)]
    s = position({"c3": "B rookie", "e3": "B elite", "d2": "b bravery", "d4": "W elite"}, relics=("d3",), storage=rich)
    assert _shrine_payments(s, "d3") == [(0, 1)]
    s = position(
        {"c3": "B rookie", "e3": "B elite", "d2": "b bravery", "d4": "W elite"},
        relics=("d3",),
        storage={"wazu": (4, 0)},
    )
    assert _shrine_payments(s, "d3") == []
    with pytest.raises(IllegalMoveError) as err:
        RULES.parse_move(s, "shrine d3 pay 1e")
    assert err.value.code == "shrine_needs_spirit"


def test_shrine_cost_message_and_two_moves():
    s = position({"a2": "W rookie"}, relics=("a3",), storage={"wazu": (1, 1)})
    with pytest.raises(IllegalMoveError) as err:
        RULES.parse_move(s, "shrine a3 pay 2e1s")
    assert str(err.value) == "Shrine at a3 costs 3 crystals, you hold 2"
    assert err.value.code == "shrine_cost" and err.value.params == {"square": "a3", "cost": 3, "held": 2}
    s = position({"a2": "W rookie"}, relics=("a3",), storage={"wazu": (2, 2)})
    with pytest.raises(IllegalMoveError) as err:
        RULES.parse_move(s, "place a3 r0")
    assert err.value.code == "shrine_needs_payment"
    with pytest.raises(IllegalMoveError):
        RULES.parse_move(s, "shrine a3 pay 3e")  # no Spirit
    mid = play(s, "shrine a3 pay 1e2s")
    v = RULES.view(mid, "wazu")
    assert v["phase"] == "finish" and v["pending"] == "a3" and v["turn"] == "wazu"
    assert v["favour"] == ["energy", "spirit"]  # the next two bag crystals
    assert v["storage"]["wazu"] == {"energy": 2, "spirit": 1}
    assert v["taken"] == [{"tribe": "wazu", "square": "a3"}] and "a3" not in v["relics"]
    assert all(isinstance(m, Finish) for m in RULES.legal_moves(mid))
    done = play(mid, "finish r1")  # Bravery: storage 3 <= 4
    assert cell(done, "a3")["rotation"] == 1 and RULES.to_move(done) == "balan"


def test_storage_limit_and_rotation_classes():
    s = position({}, tile="berserk", storage={"wazu": (4, 2)})
    moves = [m for m in RULES.legal_moves(s) if isinstance(m, Place) and m.square == "c3"]
    assert {m.rotation for m in moves} == {0}  # no arrows: one rotation
    assert all((4 - m.put_energy) + (2 - m.put_spirit) <= 4 for m in moves)
    assert len(moves) == len(T.puts(4, 2)) == 12
    with pytest.raises(IllegalMoveError) as err:
        RULES.apply(s, Place("c3", 0))
    assert err.value.code == "storage_over_limit"
    with pytest.raises(IllegalMoveError) as err:
        RULES.apply(s, Place("c3", 2, 2, 0))
    assert err.value.code == "rotation_not_canonical"
    assert RULES.parse_move(s, "place c3 r2 put 2e") == Place("c3", 0, 2, 0)
    assert RULES.parse_move(s, "place c3 r0 put 2e0s") == Place("c3", 0, 2, 0)


def test_crystals_on_space_go_to_storage():
    s = position({}, tile="elite", storage={"wazu": (4, 0)}, ground={"a1": (0, 1)})
    moves = [m for m in RULES.legal_moves(s) if isinstance(m, Place) and m.square == "a1"]
    assert all(m.put_energy + m.put_spirit >= 1 for m in moves)
    after = play(s, "place a1 r0 put 1e")
    v = RULES.view(after, None)
    assert v["storage"]["wazu"] == {"energy": 3, "spirit": 1} and "a1" not in v["ground"]


# ------------------------------------------------------------------ setup, reveal, options


def test_reveal_matches_new_game():
    for variant, opening in (("first", 1), ("first", 4), ("first", None), ("standard", None)):
        opts = {"variant": variant, "opening": opening}
        r = RULES.reveal(11, opts)
        s = RULES.new_game(11, opts)
        v = RULES.view(s, None)
        assert r["start"] == RULES.to_json(s)["start"]
        assert sorted(r["relics"]) == sorted(v["relics"])
        assert r["niches"] == {sq: ("energy" if g["energy"] else "spirit") for sq, g in v["ground"].items()}
        assert RULES.to_json(s)["bag"] == r["bag"]
        for p in ("balan", "wazu"):
            assert sorted(r["piles"][p]) == sorted(k for k in T.kinds for _ in range(T.counts[T.kind_index[k]]))
        if variant == "first":
            assert r["opening"] in (1, 2, 3, 4) and (opening is None or r["opening"] == opening)
            on_niches = len(set(r["relics"]) & {T.names[i] for i in T.niche_list})
            assert len(r["niches"]) == 16 - on_niches and len(r["bag"]) == 26 - len(r["niches"])
            for p in ("balan", "wazu"):
                assert {"champion", "berserk"} <= set(r["piles"][p][:6])
                assert {"convert", "elder"} <= set(r["piles"][p][6:])
            pairs = sorted(zip(r["piles"]["wazu"][:3], r["piles"]["balan"][:3], strict=True))
            assert sorted((x["wazu"], x["balan"]) for x in v["stream"]) == pairs
            assert v["storage"]["balan"] == {"energy": 1, "spirit": 1}
        else:
            assert r["opening"] is None and r["relics"] == [] and len(r["niches"]) == 16
            assert len(r["bag"]) == 14 and v["stream"] == [] and v["turn"] != r["start"]


def test_setup_draws_are_documented():
    """Recompute a reveal from the documented stream by hand."""
    st = SeedStream(5, "maatatahay/setup")
    start = st.below(2)
    opening = st.below(4) + 1
    bag = ["energy"] * 13 + ["spirit"] * 13
    st.shuffle(bag)
    piles = {}
    for p in ("balan", "wazu"):
        basics = ["bravery"] * 3 + ["rookie"] * 2 + ["elite"] * 2 + ["support"]
        st.shuffle(basics)
        lower = basics[:4] + ["convert", "elder"]
        st.shuffle(lower)
        upper = basics[4:] + ["champion", "berserk"]
        st.shuffle(upper)
        piles[p] = upper + lower
    relics = mdata.VERSIONS[mdata.CURRENT]["first"]["openings"][str(opening)]["relics"]
    niches = [sq for sq in sorted(mdata.VERSIONS[mdata.CURRENT]["map"]["niches"]) if sq not in relics]
    r = RULES.reveal(5, {})
    assert r["start"] == ("balan", "wazu")[start] and r["opening"] == opening
    assert r["piles"] == piles
    assert r["niches"] == dict(zip(niches, bag, strict=False)) and r["bag"] == bag[len(niches) :]


def test_options():
    assert RULES.normalize_options({}) == {"variant": "first", "opening": None}
    assert RULES.normalize_options({"variant": "standard"}) == {"variant": "standard", "opening": None}
    for bad in (
        {"cards": "base"},
        {"variant": "third"},
        {"opening": 5},
        {"opening": "2"},
        {"variant": "standard", "opening": 1},
    ):
        with pytest.raises(OptionsError):
            RULES.normalize_options(bad)
    with pytest.raises(OptionsError):
        RULES.new_game(1, {}, data_version="1999-01")


def test_data_versions_are_kept_and_recorded():
    assert mdata.CURRENT in mdata.VERSIONS and RULES.data_versions()[-1] == mdata.CURRENT
    s = RULES.new_game(3, {}, data_version=mdata.CURRENT)
    assert RULES.to_json(s)["data_version"] == mdata.CURRENT
    assert RULES.view(s, None)["data_version"] == mdata.CURRENT
    t = mdata.table()
    t["tiles"]["rookie"]["claws"] = 99  # a copy: the table is safe
    assert mdata.VERSIONS[mdata.CURRENT]["tiles"]["rookie"]["claws"] == 1


def test_first_game_draft_and_phases():
    s = RULES.new_game(9, {"variant": "standard"})
    first_drafter = RULES.to_move(s)
    texts = []
    stream = SeedStream(1, "t")
    while RULES.decision(s) == "draft":
        m = RULES.random_move(s, stream)
        texts.append(RULES.move_text(m))
        s = RULES.apply(s, m)
    v = RULES.view(s, None)
    assert len(texts) == 5 and len(v["relics"]) == 5 and len(v["stream"]) == 3
    assert v["turn"] == v["start"] != first_drafter
    assert all(v["draft"]["taken"][p] <= 3 for p in ("balan", "wazu"))
    squares = [T.index[x] for x in v["relics"]]
    assert not any(T.orth[i] >> j & 1 for i in squares for j in squares)


def test_pick_and_first():
    s = RULES.new_game(4, {"opening": 3})
    picks = RULES.legal_moves(s)
    assert all(RULES.move_text(m).startswith("pick ") for m in picks)
    m = picks[0]
    assert isinstance(m, Pick)
    after = RULES.apply(s, m)
    cw, cb = T.claws[T.kind_index[m.wazu]], T.claws[T.kind_index[m.balan]]
    chooser = "wazu" if cw < cb else "balan" if cb < cw else RULES.to_move(s)
    assert RULES.to_move(after) == chooser
    assert [RULES.move_text(x) for x in RULES.legal_moves(after)] == ["first balan", "first wazu"]
    placing = RULES.apply(after, RULES.parse_move(after, "first wazu"))
    assert RULES.to_move(placing) == "wazu" and RULES.decision(placing) == "place"
    with pytest.raises(IllegalMoveError) as err:
        RULES.parse_move(s, "pick support/support") if ("support", "support") not in [
            (x.wazu, x.balan) for x in picks if isinstance(x, Pick)
        ] else RULES.parse_move(s, "first wazu")
    assert err.value.code in ("pair_not_in_stream", "wrong_phase")


@pytest.mark.parametrize(
    "text",
    [
        "",
        "jump c3",
        "place",
        "place z9 r0",
        "place c3 r4",
        "place c3 r0 put",
        "place c3 r0 put 2x",
        "place c3 r0 order",
        "shrine c3",
        "shrine c3 pay",
        "finish",
        "first nobody",
        "pick elite",
        "pick dragon/elite",
        "draft",
        "place c3 r0 extra",
        "place f3 r0",
        "place c3 r0 order c2,f9",
    ],
)
def test_syntax_errors(text):
    s = RULES.new_game(2, {})
    with pytest.raises(MoveSyntaxError) as err:
        RULES.parse_move(s, text)
    assert err.value.code in ("bad_move_text", "not_text") and str(err.value)


def test_wrong_phase_is_illegal_not_syntax():
    s = RULES.new_game(2, {})
    with pytest.raises(IllegalMoveError) as err:
        RULES.parse_move(s, "place c3 r0")
    assert err.value.code == "wrong_phase" and "picks a pair" in str(err.value)


def test_terminate_and_json_of_endings():
    s = RULES.new_game(2, {})
    end = RULES.terminate(s, reason="resign", winner="wazu")
    assert final_outcome(end).winner == "wazu" and final_outcome(end).reason == "resign"
    assert RULES.to_move(end) is None and RULES.legal_moves(end) == []
    assert RULES.from_json(json.loads(json.dumps(RULES.to_json(end)))) == end
    assert RULES.result_line(end).startswith("result: wazu ")
    draw = RULES.terminate(s, reason="agreement", winner=None)
    assert RULES.result_line(draw).startswith("result: draw ")
    with pytest.raises(IllegalMoveError):
        RULES.terminate(end, reason="resign", winner="balan")


def test_a_game_ended_by_the_site_during_a_shrines_finish_reads_back():
    """Resigning (or timing out) at the finish decision that follows a shrine move: the state
    stored once the game is over must read back, or the game could never be shown again."""
    for seed in range(1, 200):
        s = RULES.new_game(seed, {"variant": "first", "opening": 2})
        while RULES.to_move(s) is not None and s.phase != "finish":
            s = RULES.apply(s, RULES.legal_moves(s)[0])
        if s.phase == "finish":
            break
    assert s.phase == "finish", "no seed reaches a shrine's finish"
    end = RULES.terminate(s, reason="resign", winner="balan")
    assert RULES.from_json(json.loads(json.dumps(RULES.to_json(end)))) == end
    assert final_outcome(end).winner == "balan"


def test_tie_breaks():
    base = {"a1": "B rookie", "e5": "W rookie"}
    s = position(base, phase="over")
    assert final_outcome(s).as_dict() == {"winner": None, "reason": "tie", "scores": {"balan": 2, "wazu": 2}}
    s = position(base, phase="over", taken=(("wazu", "c3"), ("balan", "a3")))
    assert (final_outcome(s).winner, final_outcome(s).reason) == ("balan", "latest_relic")
    s = position({"a1": "B support", "e5": "W elite", "e4": "W elite", "e3": "W champion"}, phase="over")
    assert (final_outcome(s).winner, final_outcome(s).reason) == ("wazu", "more_warriors")


def test_from_json_refuses_bad_data():
    s = RULES.new_game(2, {})
    good = RULES.to_json(s)
    change: Mapping[str, object]
    for change in (
        {"schema": "x"},
        {"phase": "dance"},
        {"data_version": "nope"},
        {"piles": {"balan": [], "wazu": []}},
        {"board": {"c3": {"tribe": "wazu"}}},
        {"turn": None},
    ):
        bad = dict(good)
        bad.update(change)
        with pytest.raises(StateFormatError):
            RULES.from_json(bad)
    with pytest.raises(StateFormatError):
        RULES.from_json([])  # type: ignore[arg-type]


def test_view_has_no_order_and_sampling_keeps_moves():
    s = RULES.new_game(8, {"variant": "first"})
    v = RULES.view(s, "balan")
    text = json.dumps(v)
    assert "piles" not in v and v["schema"] == "maatatahay-view/1" and v["you"] == "balan"
    assert v["bag"] == {
        "energy": RULES.to_json(s)["bag"].count("energy"),
        "spirit": RULES.to_json(s)["bag"].count("spirit"),
    }
    assert v["unseen"]["balan"]["count"] == 9
    assert v["unseen"]["balan"]["upper"]["count"] == 3
    assert set(v["unseen"]["balan"]["lower"]["includes"]) == {"convert", "elder"}
    assert "order" not in text
    sample = RULES.sample_state(v, SeedStream(1, "sample"))
    assert RULES.view(sample, "balan") == v
    assert RULES.legal_moves(sample) == RULES.legal_moves(s)
    for p in ("balan", "wazu"):  # segments respected
        assert {"convert", "elder"} <= set(RULES.to_json(sample)["piles"][p][3:])


def test_replay_and_command_line(tmp_path):
    moves, state = random_game(RULES, 21, {"variant": "standard"})
    assert replay(RULES, 21, {"variant": "standard"}, moves) == state
    record = {
        "game": "maatatahay",
        "options": {"variant": "standard"},
        "seed": 21,
        "moves": moves,
        "data_version": mdata.CURRENT,
    }
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    out = subprocess.run(
        [sys.executable, "-m", "engine", "replay", str(path)], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert out[-1] == RULES.result_line(state)
    cli = subprocess.run(
        [sys.executable, "-m", "engine", "random-game", "maatatahay", "--seed", "21", "--variant", "standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    assert cli == moves + [RULES.result_line(state)]
    record["options"] = {"variant": "standard", "cards": "base"}
    path.write_text(json.dumps(record))
    bad = subprocess.run(
        [sys.executable, "-m", "engine", "replay", str(path)], cwd=ROOT, capture_output=True, text=True
    )
    assert bad.returncode != 0


def test_get_game():
    assert get_game("maatatahay") is RULES
    assert RULES.players == ("balan", "wazu")


def test_docstring_examples():
    import doctest
    import importlib

    for name in (
        "engine.maatatahay",
        "engine.maatatahay.data",
        "engine.maatatahay.board",
        "engine.maatatahay.moves",
        "engine.maatatahay.setup",
        "engine.maatatahay.rules",
        "engine.maatatahay.serial",
        "engine.maatatahay.state",
    ):
        failed, _ = doctest.testmod(importlib.import_module(name))
        assert failed == 0, name


def test_a_new_data_version_is_a_data_change(monkeypatch):
    """A corrected table is a new entry; old games keep replaying with their own."""
    import copy

    fixed = copy.deepcopy(mdata.VERSIONS[mdata.CURRENT])
    fixed["version"] = "test-corrected"
    fixed["tiles"]["support"]["arrows"] = ["N"]
    fixed["map"]["arrows"] = {"c3": 2}
    monkeypatch.setitem(mdata.VERSIONS, "test-corrected", fixed)
    old = RULES.new_game(3, {"opening": 1})
    new = RULES.new_game(3, {"opening": 1}, data_version="test-corrected")
    assert RULES.to_json(new)["data_version"] == "test-corrected"
    assert RULES.from_json(RULES.to_json(new)) == new
    t_new = tables("test-corrected")
    assert t_new.rotations[t_new.kind_index["support"]] == (0, 1, 2, 3)
    assert t_new.map_arrows[t_new.index["c3"]] == 2 and T.map_arrows[T.index["c3"]] == 0
    moves, state = random_game(RULES, 3, {"opening": 1})
    assert replay(RULES, 3, {"opening": 1}, moves, data_version=mdata.CURRENT) == state
    assert old.data_version == mdata.CURRENT
