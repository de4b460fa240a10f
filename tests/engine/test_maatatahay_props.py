"""Maatatahay engine: properties over many random games of both variants.

At every decision of every game: the counting-and-indexing bijection gives
exactly the listed moves (so ``random_move`` is exactly uniform over them);
a sampled state built from the view has the same legal moves and the same
view; the JSON round trip is exact; the score equals a recount from the
board; listed moves apply and lead to distinct states. At some decisions a
generated superset of candidate moves (all spaces, rotations, counts,
orders) is tried: a move is accepted exactly when it is listed. After each
game: replay from the move texts gives the same state, and what was turned
up and drawn is what ``reveal`` said.

The normal run plays a few hundred games per variant; ``-m slow`` thousands.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import replay
from engine.errors import IllegalMoveError
from engine.fair import SeedStream
from engine.maatatahay import RULES, Draft, Finish, First, Move, Pick, Place, Shrine
from engine.maatatahay import rules as mr
from engine.maatatahay.board import PLAYERS

NORMAL = 200
SLOW = 2000


class Fixed(SeedStream):
    """A stand-in stream whose ``below`` returns a chosen value."""

    def __init__(self, value: int) -> None:
        super().__init__(0, "fixed")
        self.value = value

    def below(self, n: int) -> int:
        assert 0 <= self.value < n
        return self.value


def indexed_moves(state):
    """Every move of the counting order (the plan computed once)."""
    if state.phase in ("place", "finish"):
        return [mr._spot_move_at(state, spot, i) for spot in mr._plan(state) for i in range(spot[0])]
    return [RULES.move_at(state, i) for i in range(RULES.move_count(state))]


def recount(view) -> dict[str, int]:
    """Scores from the view's board and relic list, independently of the engine."""
    sanity = {
        "bravery": 2,
        "rookie": 2,
        "elite": 1,
        "champion": 1,
        "berserk": 1,
        "support": 3,
        "elder": 4,
        "convert": 4,
    }
    out = {"balan": 0, "wazu": 0}
    for c in view["board"].values():
        if c["alive"]:
            out[c["tribe"]] += sanity[c["tile"]] + c["spirit"]
    own: Counter[str] = Counter()
    for n, x in enumerate(view["taken"], start=1):
        own[x["tribe"]] += 1
        out[x["tribe"]] += own[x["tribe"]] if view["variant"] == "first" else n
    return out


def superset(state):
    """Candidate moves well beyond the legal ones."""
    t = state.t
    names = t.names
    if state.phase == "pick":
        return [Pick(w, b) for w in t.kinds for b in t.kinds]
    if state.phase == "first":
        return [First(p) for p in PLAYERS]
    if state.phase == "draft":
        return [Draft(sq) for sq in names]
    p = state.placer
    held_e, held_s = state.storage[p]
    out: list[Move] = []
    listed_orders = {m.order for m in RULES.legal_moves(state) if isinstance(m, (Place, Finish)) and m.order}
    squares = [state.pending] if state.phase == "finish" else range(t.size)
    for s in squares:
        ge, gs = state.ground[s]
        e_max, s_max = held_e + ge, held_s + gs
        orders = [()] + sorted(listed_orders)
        if not (state.own[0] | state.own[1]) >> s & 1:
            own2, live2 = mr.with_hot(state, p, s)
            cands = [names[c] for c in mr.candidates(t, state.cells, own2, live2, s)]
            if 1 <= len(cands) <= 4:
                orders += list(itertools.permutations(cands))
            elif cands:
                orders += [tuple(cands), tuple(reversed(cands))]
            if cands:
                orders += [tuple(cands[:-1]), tuple(cands) + ("c3",), tuple(cands[:1] * 2)]
        for r in range(4):
            for e in range(e_max + 2):
                for sp in range(s_max + 2):
                    for order in orders if r == 0 or len(orders) < 6 else orders[:3]:
                        if state.phase == "finish":
                            out.append(Finish(r, e, sp, order))
                        else:
                            out.append(Place(names[s], r, e, sp, order))
        if state.phase == "place":
            for e in range(held_e + 2):
                for sp in range(held_s + 2):
                    out.append(Shrine(names[s], e, sp))
    return out


def check_superset(state, legal):
    listed = set(legal)
    for m in superset(state):
        try:
            RULES.apply(state, m)
        except IllegalMoveError:
            assert m not in listed, "listed move refused: %s" % RULES.move_text(m)
            continue
        assert m in listed, "unlisted move accepted: %r" % (m,)


def check_decision(state, rng, *, full: bool):
    legal = RULES.legal_moves(state)
    assert legal and len(legal) == len(set(legal))
    indexed = indexed_moves(state)
    assert len(indexed) == RULES.move_count(state) == len(legal)
    assert set(indexed) == set(legal)
    # random_move takes exactly one index and uses the same bijection
    for i in {0, len(legal) - 1, rng.below(len(legal))}:
        assert RULES.random_move(state, Fixed(i)) == indexed[i]
    view = RULES.view(state, PLAYERS[rng.below(2)])
    assert "piles" not in view and set(view["bag"]) == {"energy", "spirit"}
    assert view["scores"] == recount(view)
    sample = RULES.sample_state(view, SeedStream(rng.below(1 << 30), "sample"))
    assert RULES.legal_moves(sample) == legal
    assert RULES.view(sample, view["you"]) == view
    data = json.loads(json.dumps(RULES.to_json(state)))
    assert RULES.from_json(data) == state
    # listed moves apply, each to a different state; text round trips
    chosen = legal if full else [legal[rng.below(len(legal))] for _ in range(6)]
    results = {}
    for m in chosen:
        text = RULES.move_text(m)
        assert RULES.parse_move(state, text) == m
        after = RULES.apply(state, m)
        results[m] = after
    assert len(set(results.values())) == len(results)
    if full:
        check_superset(state, legal)


def play_checked(seed: int, variant: str, *, full_every: int = 0) -> None:
    rng = SeedStream(seed, "test-maatatahay")
    options = {"variant": variant}
    state = RULES.new_game(seed, options)
    reveal = RULES.reveal(seed, options)
    favours = []
    turned: list[tuple[int, int]] = []  # (wazu, balan) pairs in turn-up order after the first three
    texts = []
    placements = 0
    full_at = rng.below(20)
    while RULES.outcome(state) is None:
        is_place = state.phase in ("place", "finish")
        full = is_place and (placements == full_at or (full_every and placements % full_every == 0))
        check_decision(state, rng, full=bool(full) or state.phase in ("pick", "first", "draft"))
        placements += is_place
        before = Counter(state.stream)
        move = RULES.random_move(state, rng)
        texts.append(RULES.move_text(move))
        after = RULES.apply(state, move)
        if isinstance(move, Shrine):
            favours.extend(RULES.view(after, None)["favour"])
        if isinstance(move, Pick):
            assert after.pair is not None  # the pair just picked
            before[(after.pair)] -= 1
        new = Counter(after.stream) - before
        if isinstance(move, Draft) and after.phase == "pick":
            first3 = sorted(zip(reveal["piles"]["wazu"][:3], reveal["piles"]["balan"][:3], strict=True))
            assert sorted((w, b) for (w, b), n in new.items() for _ in range(n)) == sorted(
                (after.t.kind_index[w], after.t.kind_index[b]) for w, b in first3
            )
        elif new:
            turned.extend(new.elements())
        state = after
    t = state.t
    assert replay(RULES, seed, options, texts) == state
    if variant == "first":
        first3 = sorted(zip(reveal["piles"]["wazu"][:3], reveal["piles"]["balan"][:3], strict=True))
        start = RULES.new_game(seed, options)
        assert sorted((t.kinds[w], t.kinds[b]) for w, b in start.stream) == first3
    expected = [
        (t.kind_index[w], t.kind_index[b])
        for w, b in zip(reveal["piles"]["wazu"][3:], reveal["piles"]["balan"][3:], strict=False)
    ]
    assert turned == expected[: len(turned)]
    assert favours == reveal["bag"][: len(favours)]
    out = RULES.outcome(state)
    assert out is not None
    view = RULES.view(state, None)
    assert out.scores == recount(view) == view["scores"]
    assert RULES.result_line(state) == "result: %s %d-%d" % (
        out.winner or "draw",
        out.scores["balan"],
        out.scores["wazu"],
    )
    sc = out.scores
    if sc["balan"] != sc["wazu"]:
        assert out.reason == "score" and out.winner == max(sc, key=sc.__getitem__)


_SETTINGS = settings(
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.mark.parametrize("variant", ["first", "standard"])
@settings(_SETTINGS, max_examples=NORMAL)
@given(seed=st.integers(min_value=0, max_value=2**64))
def test_random_games(variant, seed):
    play_checked(seed, variant)


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["first", "standard"])
@settings(_SETTINGS, max_examples=SLOW)
@given(seed=st.integers(min_value=0, max_value=2**256 - 1))
def test_random_games_slow(variant, seed):
    play_checked(seed, variant, full_every=5)


def test_random_move_is_uniform_on_small_states():
    """Counts of random_move over all indices equal the listed moves, one each."""
    for seed in range(30):
        rng = SeedStream(seed, "uniform")
        state = RULES.new_game(seed, {"variant": ("first", "standard")[seed % 2]})
        steps = rng.below(30)
        for _ in range(steps):
            if RULES.outcome(state) is not None:
                break
            state = RULES.apply(state, RULES.random_move(state, rng))
        if RULES.outcome(state) is not None:
            continue
        legal = RULES.legal_moves(state)
        if len(legal) > 400:
            continue
        drawn = Counter(RULES.random_move(state, Fixed(i)) for i in range(len(legal)))
        assert drawn == Counter(legal)
