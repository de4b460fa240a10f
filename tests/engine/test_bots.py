"""The bots' interface and the Onitama bot: legal, deterministic, never blind to a win or
a loss in one (small budgets; strength is measured in bench/bots.py)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from engine import get_game
from engine.bots import ONITAMA_LEVELS, bot_move_from_cli, choose_move
from engine.bots import onitama as ob
from engine.errors import OptionsError, StateFormatError
from engine.fair import SeedStream
from engine.onitama import OnitamaState, position_from_text
from engine.onitama.cards import CARD_NAMES, DEST, SQUARE_NAMES
from engine.onitama.fast import zobrist_of
from engine.onitama.rules import OnitamaRules

_rules = get_game("onitama")
assert isinstance(_rules, OnitamaRules)  # the concrete rules: their states are OnitamaState
RULES = _rules
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PERFT1 = "bbBbb/5/5/5/rrRrr boar,ox elephant,horse crab r"
FAST = 0.03  # wall-time cap for the big levels in tests (the properties hold under any cap)
# A search node without its hash: own, opp, om, pm, c1, c2, p1, p2, side, col (see ob.Searcher).
Node = tuple[int, int, int, int, int, int, int, int, int, int]


def random_positions(count: int, *, salt: str = "", max_plies: int = 24):
    """Running Onitama states reached by random play from random deals of all pools."""
    out: list[OnitamaState] = []
    seed = 0
    while len(out) < count:
        seed += 1
        stream = SeedStream(seed, "test-bots" + salt)
        state = RULES.new_game(seed, {"cards": ("base", "senseis_path", "mixed")[seed % 3]})
        for _ in range(stream.below(max_plies)):
            if RULES.outcome(state) is not None:
                break
            state = RULES.apply(state, RULES.random_move(state, stream))
        if RULES.outcome(state) is None:
            out.append(state)
    return out


def view(state):
    return RULES.view(state, RULES.to_move(state))


def wins_at_once(state, text):
    after = RULES.apply(state, RULES.parse_move(state, text))
    outcome = RULES.outcome(after)
    return outcome is not None and outcome.winner == RULES.to_move(state)


def loses_at_once(state, text):
    """Whether after ``text`` the opponent has a move that wins at once."""
    after = RULES.apply(state, RULES.parse_move(state, text))
    if RULES.outcome(after) is not None:
        return False
    return any(wins_at_once(after, RULES.move_text(m)) for m in RULES.legal_moves(after))


def bot(state, level, seed=0):
    seconds = FAST if level >= 3 else None
    return choose_move("onitama", view(state), level=level, seed=seed, seconds=seconds)


def node(state: OnitamaState) -> Node:
    if state.turn == 0:
        own, opp, om, pm, hand, ohand = (
            state.red,
            state.blue,
            state.red_master,
            state.blue_master,
            state.red_hand,
            state.blue_hand,
        )
    else:
        own, opp, om, pm, hand, ohand = (
            state.blue,
            state.red,
            state.blue_master,
            state.red_master,
            state.blue_hand,
            state.red_hand,
        )
    return own, opp, om, pm, hand[0], hand[1], ohand[0], ohand[1], state.side, state.turn


# --- interface ---------------------------------------------------------------------------------


def test_level_table_has_five_growing_budgets():
    assert sorted(ONITAMA_LEVELS) == [1, 2, 3, 4, 5]
    budgets = [ONITAMA_LEVELS[k].nodes for k in range(1, 6)]
    assert budgets == sorted(budgets) and len(set(budgets)) == 5


@pytest.mark.parametrize("level", [0, 6, "3", True, None])
def test_bad_level_is_refused(level):
    with pytest.raises(OptionsError):
        choose_move("onitama", {"position": PERFT1}, level=level, seed=1)


def test_bad_inputs_are_refused():
    with pytest.raises(OptionsError):
        choose_move("chess", {"position": PERFT1}, level=1, seed=1)
    with pytest.raises(OptionsError):
        choose_move("onitama", {"position": PERFT1}, level=1, seed=-1)
    with pytest.raises(StateFormatError):
        choose_move("onitama", {"board": "x"}, level=1, seed=1)
    with pytest.raises(StateFormatError):
        choose_move("onitama", PERFT1, level=1, seed=1)  # type: ignore[arg-type]
    ended = dict(RULES.view(position_from_text(PERFT1), "red"))
    ended["outcome"] = {"winner": None, "reason": "agreement", "scores": None}
    with pytest.raises(StateFormatError):  # a game drawn by agreement
        choose_move("onitama", ended, level=1, seed=1)
    with pytest.raises(StateFormatError):  # a finished game: the red master stands on c5
        choose_move("onitama", {"position": "bbRbb/5/5/5/rr1rr boar,ox elephant,horse crab b"}, level=1, seed=1)


def test_cli_helper_reads_text_view_file_and_json(tmp_path):
    state = position_from_text(PERFT1)
    assert RULES.parse_move(state, bot_move_from_cli("onitama", PERFT1, level=1, seed=3, seconds=None))
    path = tmp_path / "view.json"
    import json

    path.write_text(json.dumps(RULES.view(state, "red")))
    from_file = bot_move_from_cli("onitama", str(path), level=2, seed=3, seconds=None)
    assert from_file == choose_move("onitama", RULES.view(state, "red"), level=2, seed=3)


def test_command_line_prints_a_legal_move_last():
    r = subprocess.run(
        [sys.executable, "-m", "engine", "bot-move", "onitama", "--position", PERFT1, "--level", "2", "--seed", "5"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    last = r.stdout.strip().splitlines()[-1]
    RULES.parse_move(position_from_text(PERFT1), last)
    bad = subprocess.run(
        [sys.executable, "-m", "engine", "bot-move", "onitama", "--position", "not a position", "--level", "2"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert bad.returncode != 0 and "error" in bad.stderr


# --- Onitama: tactics at every level ----------------------------------------------------------


def test_takes_a_win_in_one_at_every_level():
    found = 0
    for state in random_positions(200, salt="win"):
        texts = [RULES.move_text(m) for m in RULES.legal_moves(state)]
        if not any(wins_at_once(state, t) for t in texts):
            continue
        found += 1
        for level in range(1, 6):
            assert wins_at_once(state, bot(state, level, seed=found)), (level, state)
    assert found >= 10


def test_never_walks_into_a_loss_in_one_when_avoidable():
    found = 0
    for state in random_positions(150, salt="loss"):
        texts = [RULES.move_text(m) for m in RULES.legal_moves(state)]
        if any(wins_at_once(state, t) for t in texts):
            continue
        losing = {t for t in texts if loses_at_once(state, t)}
        if not losing or len(losing) == len(texts):
            continue
        found += 1
        for level in range(1, 6):
            assert bot(state, level, seed=found) not in losing, (level, state)
        if found == 15:
            break
    assert found >= 10


def test_moves_are_legal_at_every_level():
    for i, state in enumerate(random_positions(12, salt="legal")):
        for level in range(1, 6):
            RULES.parse_move(state, bot(state, level, seed=i))


def test_same_seed_same_move_and_seeds_vary_level_one():
    states = random_positions(8, salt="det")
    for i, state in enumerate(states):
        for level in (1, 2, 3) if i < 2 else (1, 2):
            a = choose_move("onitama", view(state), level=level, seed=i)
            b = choose_move("onitama", view(state), level=level, seed=i)
            assert a == b
    state = position_from_text(PERFT1)
    assert len({choose_move("onitama", view(state), level=1, seed=s) for s in range(12)}) > 1


def test_view_of_either_player_or_spectator_gives_the_same_move():
    state = random_positions(1, salt="views")[0]
    moves = {choose_move("onitama", RULES.view(state, p), level=2, seed=9) for p in ("red", "blue", None)}
    assert len(moves) == 1


# --- Onitama: the search itself ---------------------------------------------------------------


def brute(searcher: ob.Searcher, n: Node, depth: int, ply: int) -> int:
    """Plain negamax to ``depth`` with the same leaves (quiescence) as the search."""
    own, opp, om, pm, c1, c2, p1, p2, side, col = n
    if depth == 0:
        return searcher.qsearch(*n, -ob.INF, ob.INF, ply, 0)
    if searcher.wins_now(own, om, pm, c1, c2, col):
        return ob.WIN - ply
    best = -ob.INF
    for m in searcher.moves(own, c1, c2, col):
        child = ob.play(*n, 0, m)[:10]
        best = max(best, -brute(searcher, child, depth - 1, ply + 1))
    return best


def test_alpha_beta_with_table_equals_plain_negamax():
    searcher = ob.Searcher(max_nodes=10**9)
    for state in random_positions(6, salt="ab"):
        n = node(state)
        if searcher.wins_now(n[0], n[2], n[3], n[4], n[5], n[9]):
            continue
        for depth in (1, 2, 3):
            result = ob.search_state(
                state,
                level=ob.Level(10**9, depth, 0),
                seed=1,
            )
            assert result.score == brute(searcher, n, depth, 0)


def test_incremental_hash_equals_hash_from_scratch():
    for state in random_positions(20, salt="hash"):
        h = zobrist_of(
            state.red,
            state.blue,
            state.red_master,
            state.blue_master,
            state.red_hand,
            state.blue_hand,
            state.side,
            state.turn,
        )
        n = node(state)
        stream = SeedStream(1, "hash")
        for m in RULES.legal_moves(state)[:6]:
            text = RULES.move_text(m)
            card = CARD_NAMES.index(text.split(":")[0])
            rest = text.split(":")[1]
            code = (
                ob.encode(card, ob.PASS, ob.PASS)
                if rest == "pass"
                else ob.encode(card, SQUARE_NAMES.index(rest[:2]), SQUARE_NAMES.index(rest[2:]))
            )
            child = ob.play(*n, h, code)
            after = RULES.apply(state, m)
            assert child[10] == zobrist_of(
                after.red,
                after.blue,
                after.red_master,
                after.blue_master,
                after.red_hand,
                after.blue_hand,
                after.side,
                after.turn,
            )
        assert stream is not None


def test_a_proven_win_is_the_shortest_and_is_carried_out():
    """Where the bot reports a win on its next move (score WIN - 2), every reply leaves a win
    in one; and no move wins at once (else it would have been played)."""
    checked = 0
    for state in random_positions(160, salt="mate", max_plies=30):
        r = ob.search_state(
            state,
            level=ob.Level(600, 2, 0),
            seed=2,
        )
        if r.score != ob.WIN - 2:
            continue
        checked += 1
        assert not any(wins_at_once(state, RULES.move_text(m)) for m in RULES.legal_moves(state))
        after = RULES.apply(state, RULES.parse_move(state, r.text))
        assert RULES.outcome(after) is None
        for reply in RULES.legal_moves(after):
            later = RULES.apply(after, reply)
            assert any(wins_at_once(later, RULES.move_text(m)) for m in RULES.legal_moves(later))
    assert checked >= 3


def test_a_proven_loss_is_delayed_as_long_as_possible():
    """Where every move loses, the bot picks one that loses latest (checked by plain negamax)."""
    searcher = ob.Searcher(max_nodes=10**9)
    checked = 0
    for state in random_positions(260, salt="lost", max_plies=30):
        r = ob.search_state(
            state,
            level=ob.Level(600, 3, 0),
            seed=4,
        )
        if r.score != -(ob.WIN - 3):
            continue
        checked += 1
        n = node(state)
        # Every move loses within 3 plies, and the chosen one does not lose at once.
        assert brute(searcher, n, 3, 0) == -(ob.WIN - 3)
        assert not loses_at_once(state, r.text)
        if checked == 5:
            break
    assert checked >= 2


# --- Onitama: the fast search board -----------------------------------------------------------


def test_search_nodes_keep_the_engine_hash_along_random_lines():
    """The search's own nodes (card configuration, 62-bit hash) follow the rules' states:
    pieces, masters, cards and the hash (the engine's, shifted) after every move."""
    for state in random_positions(12, salt="fasthash"):
        n = node(state)
        searcher = ob.Searcher(max_nodes=1)
        cfg = searcher.config(*n[4:])
        h = state.zobrist >> ob.ZSHIFT
        fast = (n[0], n[1], n[2], n[3], cfg, h)
        stream = SeedStream(3, "fasthash")
        for _ in range(10):
            if RULES.outcome(state) is not None:
                break
            move = RULES.random_move(state, stream)
            text = RULES.move_text(move)
            card = CARD_NAMES.index(text.split(":")[0])
            rest = text.split(":")[1]
            code = (
                ob.encode(card, ob.PASS, ob.PASS)
                if rest == "pass"
                else ob.encode(card, SQUARE_NAMES.index(rest[:2]), SQUARE_NAMES.index(rest[2:]))
            )
            state = RULES.apply(state, move)
            if RULES.outcome(state) is not None:
                break
            fast = ob.fast_child(fast, code, searcher.configs)
            expect = node(state)
            assert fast[:4] == expect[:4]
            assert fast[4] == searcher.config(*expect[4:])
            assert fast[5] == state.zobrist >> ob.ZSHIFT


def reference_evaluation(w: ob.Weights, n: Node) -> int:
    """The evaluation written out plainly, piece by piece (what the tables must add up to)."""
    own, opp, om, pm, c1, c2, p1, p2, side, col = n
    mine, theirs = DEST[col], DEST[1 - col]
    score = w.tempo
    for sq in range(25):
        if own >> sq & 1:
            score += w.student + w.mobility * (mine[c1][sq] | mine[c2][sq]).bit_count()
            score += w.side_mobility * mine[side][sq].bit_count()
            if sq != om and ob.CENTRE >> sq & 1:
                score += w.centre
        if opp >> sq & 1:
            score -= w.student + w.mobility * (theirs[p1][sq] | theirs[p2][sq]).bit_count()
            if sq != pm and ob.CENTRE >> sq & 1:
                score -= w.centre
    score += w.advance * (ob.DIST[pm][ob.ENEMY_ARCH[1 - col]] - ob.DIST[om][ob.ENEMY_ARCH[col]])
    score += w.danger * ((ob.NEAR[pm] & own).bit_count() - (ob.NEAR[om] & opp).bit_count())
    reach_own = reach_opp = 0
    for sq in range(25):
        if own >> sq & 1:
            reach_own |= mine[c1][sq] | mine[c2][sq]
        if opp >> sq & 1:
            reach_opp |= theirs[p1][sq] | theirs[p2][sq]
    score += w.attack * ((reach_own & opp).bit_count() - (reach_opp & own).bit_count())
    return score


def test_table_evaluation_equals_the_plain_evaluation():
    for w in (ob.DEFAULT_WEIGHTS, ob.MATERIAL_ONLY):
        evaluate = ob.make_evaluator(w)
        for state in random_positions(40, salt="eval"):
            n = node(state)
            assert evaluate(*n) == reference_evaluation(w, n)


def test_same_move_whatever_the_process_searched_before():
    """No table or history outlives a search: a position's move at a level and seed does not
    depend on what was searched before it (here: other positions, other levels, the same
    position with other seeds, and a time-only search)."""
    states = random_positions(6, salt="fresh")
    first = {
        (i, level): choose_move("onitama", view(s), level=level, seed=7)
        for i, s in enumerate(states)
        for level in (3, 4)
    }
    for i, s in enumerate(reversed(states)):
        for level in (5, 2):
            choose_move("onitama", view(s), level=level, seed=i, seconds=FAST)
    for seed in (1, 2):
        choose_move("onitama", view(states[0]), level=4, seed=seed)
    again = {
        (i, level): choose_move("onitama", view(s), level=level, seed=7)
        for i, s in reversed(list(enumerate(states)))
        for level in (4, 3)
    }
    assert again == first


def test_time_only_mode_has_no_node_cap():
    """With ``seconds`` the search is not stopped by the level's node budget: given far more
    time than it needs, it completes the level's depth limit, far past the budget."""
    state = position_from_text(PERFT1)
    level = ob.Level(nodes=500, max_depth=6, noise=0)
    timed = ob.search_state(
        state,
        level=level,
        seed=0,
        seconds=600.0,
        time_only=True,
    )
    counted = ob.search_state(
        state,
        level=level,
        seed=0,
    )
    assert timed.depth == 6 and timed.nodes > 10 * 500
    assert counted.depth < 6


def test_a_proven_table_result_is_used_at_any_depth():
    """A proven win or loss stored by a shallow search answers a deeper probe of the same node."""
    searcher = ob.Searcher(max_nodes=10**9)
    for state in random_positions(160, salt="proven", max_plies=30):
        n = node(state)
        if searcher.wins_now(n[0], n[2], n[3], n[4], n[5], n[9]):
            continue
        fresh = ob.Searcher(max_nodes=10**9)
        score = fresh.search(*n, state.zobrist, 3, -ob.INF, ob.INF, 0)
        if abs(score) <= ob.MATE_BOUND:
            continue
        before = fresh.nodes
        assert fresh.search(*n, state.zobrist, 9, -ob.INF, ob.INF, 0) == score
        assert fresh.nodes == before + 1  # answered by the table at the root of the probe
        return
    pytest.fail("no proven position found")


def test_the_compiled_and_the_pure_search_choose_the_same_moves(monkeypatch):
    """When the compiled search (mypyc, README "Compiled search") shadows the source, the
    source's own search, loaded beside it, gives the same moves, scores and node counts."""
    import importlib.util

    if ob.__file__ is None or ob.__file__.endswith(".py"):
        pytest.skip("the pure-Python search is the one in use (no compiled build)")
    source = os.path.join(os.path.dirname(ob.__file__), "onitama.py")
    spec = importlib.util.spec_from_file_location("engine.bots._onitama_source", source)
    assert spec is not None and spec.loader is not None
    pure = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, pure)  # its dataclasses look themselves up there
    spec.loader.exec_module(pure)
    assert pure.__file__ == source
    for i, state in enumerate(random_positions(10, salt="builds")):
        for level in (2, 4):
            results = [
                m.search_position(
                    state.red,
                    state.blue,
                    state.red_master,
                    state.blue_master,
                    state.red_hand,
                    state.blue_hand,
                    state.side,
                    state.turn,
                    level=m.Level(
                        ONITAMA_LEVELS[level].nodes, ONITAMA_LEVELS[level].max_depth, ONITAMA_LEVELS[level].noise
                    ),
                    seed=i,
                )
                for m in (ob, pure)
            ]
            assert [(r.move, r.score, r.depth, r.nodes) for r in results][0] == (
                results[1].move,
                results[1].score,
                results[1].depth,
                results[1].nodes,
            )


def test_the_card_tables_kept_between_searches_stay_small():
    """A worker plays game after game, each with its own five cards: the tables it keeps for
    the deals it saw (``card_tables``' cache) must stay a few megabytes, not grow with the
    deals (256 kept sets were 384 MB in a Celery worker)."""
    import gc
    import tracemalloc

    cards = (0, 3, 7, 11, 15)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        tables = ob.CardTables(cards, ob.DEFAULT_WEIGHTS)
        one = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert tables.cards == cards
    assert one > 100_000, "the measure missed the tables (%d bytes)" % one
    kept = ob.card_tables.cache_info().maxsize
    assert kept is not None and kept * one <= 16 * 2**20, (kept, one)
    ob.card_tables.cache_clear()
    for deal in range(kept + 5):
        ob.card_tables((deal, deal + 1, deal + 2, deal + 3, deal + 4))
    assert ob.card_tables.cache_info().currsize == kept
