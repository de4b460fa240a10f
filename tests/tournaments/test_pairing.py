"""Pairing invariants of the pure functions (no database), on simulated tournaments."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest

from tournaments import pairing as p


@pytest.mark.parametrize("n", range(2, 13))
@pytest.mark.parametrize("cycles", [1, 2])
def test_berger_each_pair_meets_once_per_cycle_with_balanced_seats(n, cycles):
    schedule = p.berger_schedule(list(range(n)), cycles=cycles)
    assert len(schedule) == (n - 1 if n % 2 == 0 else n) * cycles
    met = Counter(frozenset(pair) for round_ in schedule for pair in round_)
    assert len(met) == n * (n - 1) // 2 and set(met.values()) == {cycles}
    for round_ in schedule:
        players = [x for pair in round_ for x in pair]
        assert len(players) == len(set(players)) == n - n % 2
    balance: Counter[int] = Counter()
    for round_ in schedule[: len(schedule) // cycles]:
        for a, b in round_:
            balance[a] += 1
            balance[b] -= 1
    assert max(abs(v) for v in balance.values()) <= 1
    if cycles == 2:
        half = len(schedule) // 2
        assert schedule[half:] == [[(b, a) for a, b in r] for r in schedule[:half]]


@dataclass
class Standing:
    """One simulated player's record so far."""

    score: int = 0
    opponents: set[int] = field(default_factory=set)
    bye: bool = False
    balance: int = 0
    last: int | None = None


def simulate_swiss(n: int, rounds: int, rng: random.Random) -> Iterator[tuple[list[p.SwissPlayer], p.SwissRound]]:
    """Pair ``rounds`` rounds with random results; yields (players before, round)."""
    state = {i: Standing() for i in range(n)}
    for _ in range(rounds):
        players = [
            p.SwissPlayer(
                id=i,
                score=s.score,
                seed=i + 1,
                opponents=frozenset(s.opponents),
                had_bye=s.bye,
                seat_balance=s.balance,
                last_seat=s.last,
            )
            for i, s in state.items()
        ]
        paired = p.swiss_pair(players)
        yield players, paired
        if paired.bye is not None:
            state[paired.bye].score += 2
            state[paired.bye].bye = True
        for a, b in paired.pairs:
            result = rng.choice([(2, 0), (1, 1), (0, 2)])
            for me, other, pts, seat in ((a, b, result[0], 0), (b, a, result[1], 1)):
                state[me].score += pts
                state[me].opponents.add(other)
                state[me].balance += 1 if seat == 0 else -1
                state[me].last = seat


@pytest.mark.parametrize("n", [3, 4, 5, 8, 13, 64])
def test_swiss_invariants_on_simulated_tournaments(n):
    rng = random.Random(n)
    rounds = max(1, (n - 1).bit_length())  # ceil(log2 n)
    byes: Counter[int] = Counter()
    for players, paired in simulate_swiss(n, rounds, rng):
        by_id = {x.id: x for x in players}
        seen = [x for pair in paired.pairs for x in pair] + ([paired.bye] if paired.bye is not None else [])
        assert sorted(seen) == list(range(n))  # everyone exactly once
        assert (paired.bye is not None) == (n % 2 == 1)
        if paired.bye is not None:
            assert not by_id[paired.bye].had_bye  # no second bye while others lack one
            byes[paired.bye] += 1
        assert paired.rematches == 0  # ceil(log2 n) rounds never force a rematch
        for a, b in paired.pairs:
            assert b not in by_id[a].opponents
            # Seats: nobody more than 2 ahead on first seats.
            assert by_id[a].seat_balance <= by_id[b].seat_balance or by_id[a].seat_balance <= 0
    assert all(count == 1 for count in byes.values())


@pytest.mark.parametrize("n", [4, 5, 8])
def test_swiss_full_round_robin_length_has_no_rematch_and_one_bye_each(n):
    rng = random.Random(7)
    limit = p.swiss_round_limit(n)
    byes: Counter[int] = Counter()
    for players, paired in simulate_swiss(n, limit, rng):
        assert paired.rematches == 0 or not p.rematch_avoidable(players, paired.bye)
        if paired.bye is not None:
            byes[paired.bye] += 1
    assert all(count == 1 for count in byes.values())


def test_swiss_beyond_the_limit_pairs_with_rematches():
    rounds = list(simulate_swiss(4, 5, random.Random(1)))
    assert rounds[-1][1].rematches > 0
    assert p.swiss_round_limit(4) == 3 and p.swiss_round_limit(5) == 5


def test_swiss_pairs_within_score_groups_first():
    players = [p.SwissPlayer(id=i, score=s, seed=i + 1) for i, s in enumerate([2, 2, 0, 0])]
    paired = p.swiss_pair(players)
    assert {frozenset(x) for x in paired.pairs} == {frozenset({0, 1}), frozenset({2, 3})}


def test_swiss_bye_goes_to_the_lowest_ranked_without_one():
    players = [p.SwissPlayer(id=i, score=0, seed=i + 1, had_bye=(i == 2)) for i in range(3)]
    assert p.swiss_pair(players).bye == 1


def test_swiss_seat_goes_to_the_player_due_it():
    a = p.SwissPlayer(id=1, score=0, seed=1, seat_balance=1, last_seat=0)
    b = p.SwissPlayer(id=2, score=0, seed=2, seat_balance=-1, last_seat=1)
    assert p.swiss_pair([a, b]).pairs == [(2, 1)]


@pytest.mark.parametrize("n", [3, 4, 5, 8, 13, 64])
def test_knockout_bracket_byes_to_top_seeds_and_a_single_champion(n):
    rng = random.Random(n)
    seeds = list(range(1, n + 1))  # player id = seed
    first = p.knockout_first_round(seeds)
    size = p.knockout_size(n)
    assert len(first) == size // 2
    byes = [a for a, b in first if b is None]
    assert sorted(byes) == list(range(1, size - n + 1))
    assert sorted(x for pair in first for x in pair if x is not None) == seeds
    assert all(a < b for a, b in first if b is not None)  # higher seed in the first seat
    seed_of = {s: s for s in seeds}
    matches: list[tuple[int | None, int | None]] = list(first)
    rounds = 1
    met = set()
    while True:
        winners: list[int | None] = []
        for a, b in matches:
            if b is None:
                winners.append(a)
                continue
            assert frozenset((a, b)) not in met
            met.add(frozenset((a, b)))
            winners.append(rng.choice([a, b]))
        if len(winners) == 1:
            break
        matches = p.knockout_next_round(winners, seed_of)
        rounds += 1
    assert rounds == p.knockout_rounds(n)


def test_knockout_top_two_seeds_meet_only_in_the_final():
    order = p.bracket_positions(16)
    assert order.index(1) < 8 <= order.index(2)
    assert p.bracket_positions(8) == [1, 8, 4, 5, 2, 7, 3, 6]


def test_knockout_draws_replayed_twice_then_the_higher_seed_advances():
    top, low = 101, 102  # players' ids
    seed_of = {top: 1, low: 2}
    assert p.knockout_match_winner(["draw"], top, low, seed_of) is None
    assert p.knockout_match_winner(["draw", "draw"], top, low, seed_of) is None
    assert p.knockout_match_winner(["draw", "draw", "draw"], top, low, seed_of) == top
    assert p.knockout_match_winner(["draw", "draw", "draw"], low, top, seed_of) == top
    assert p.knockout_match_winner(["draw", "loss"], top, low, seed_of) == low
    assert p.knockout_match_winner(["draw", ""], top, low, seed_of) is None
