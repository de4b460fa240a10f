"""Pairing rules of the three formats, as pure functions (no database).

Players are plain ids (ints); the services map them to participants. Scores are
counted in half points (a win is 2, a draw 1) so that all arithmetic is exact.
Seats: in a pair ``(a, b)``, ``a`` takes the first side the engine lists
(Onitama's red, Maatatahay's first tribe) and ``b`` the second.

* Round robin: Berger tables (:func:`berger_schedule`).
* Swiss: a maximum-weight matching over all possible pairs (networkx), whose
  weights make "no rematch" outweigh "same score group", which outweighs seat
  balance (:func:`swiss_pair`).
* Knockout: a seeded bracket with byes for the top seeds (:func:`knockout_first_round`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import networkx as nx

PlayerId = int  # the site's participant ids
Pair = tuple[PlayerId, PlayerId]

# ---------------------------------------------------------------- round robin


def berger_schedule(players: Sequence[PlayerId], *, cycles: int = 1) -> list[list[Pair]]:
    """All rounds of a round robin: each pair meets once per cycle.

    With an odd number of players one player rests each round (it has no pair
    in that round). In the second cycle of a double round robin the rounds
    repeat with the seats swapped. Within a cycle each player's first and
    second seats differ by at most one.
    """
    ids: list[PlayerId | None] = list(players)
    if len(ids) < 2:
        return []
    if len(ids) % 2:
        ids.append(None)
    n = len(ids)
    fixed = ids[-1]
    rotating = ids[:-1]
    m = n - 1
    rounds: list[list[Pair]] = []
    for r in range(m):
        pairs: list[tuple[PlayerId | None, PlayerId | None]] = []
        other = rotating[r]
        # The fixed player alternates seats round by round.
        pairs.append((other, fixed) if r % 2 == 0 else (fixed, other))
        for k in range(1, n // 2):
            x, y = rotating[(r + k) % m], rotating[(r - k) % m]
            pairs.append((x, y) if k % 2 == 0 else (y, x))
        rounds.append([(a, b) for a, b in pairs if a is not None and b is not None])
    schedule = [list(round_) for round_ in rounds]
    for _cycle in range(1, cycles):
        schedule += [[(b, a) for a, b in round_] for round_ in rounds]
    return schedule


# ---------------------------------------------------------------- Swiss

REMATCH_PENALTY = 10**15
SCORE_PENALTY = 10**6
SEAT_PENALTY = 10**3


@dataclass(frozen=True)
class SwissPlayer:
    """What Swiss pairing needs to know of one player before a round.

    ``seed`` orders players of equal score (1 = best rated); ``seat_balance``
    is first seats minus second seats so far; ``last_seat`` 0 (first), 1
    (second) or None.
    """

    id: PlayerId
    score: int
    seed: int
    opponents: frozenset = field(default_factory=frozenset)
    had_bye: bool = False
    seat_balance: int = 0
    last_seat: int | None = None


@dataclass
class SwissRound:
    pairs: list[Pair]
    bye: PlayerId | None
    rematches: int


def swiss_rank(players: Iterable[SwissPlayer]) -> list[SwissPlayer]:
    """Players best first: by score, then seed."""
    return sorted(players, key=lambda p: (-p.score, p.seed))


def swiss_round_limit(player_count: int) -> int:
    """How many Swiss rounds can be paired without any rematch (a round robin's worth)."""
    return player_count - 1 if player_count % 2 == 0 else player_count


def _has_rematch_free_matching(players: Sequence[SwissPlayer]) -> bool:
    graph = nx.Graph()
    graph.add_nodes_from(p.id for p in players)
    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            if b.id not in a.opponents:
                graph.add_edge(a.id, b.id)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    return 2 * len(matching) == len(players)


def swiss_bye(players: Sequence[SwissPlayer]) -> PlayerId | None:
    """Who sits out with a bye (odd count only): the lowest-ranked player without a
    bye yet, passing over those whose bye would force a rematch among the others."""
    if len(players) % 2 == 0:
        return None
    ranked = swiss_rank(players)
    candidates = [p for p in reversed(ranked) if not p.had_bye] or list(reversed(ranked))
    for candidate in candidates:
        rest = [p for p in ranked if p.id != candidate.id]
        if _has_rematch_free_matching(rest):
            return candidate.id
    return candidates[0].id


def _pair_weight(a: SwissPlayer, b: SwissPlayer) -> int:
    penalty = 0
    if b.id in a.opponents:
        penalty += REMATCH_PENALTY
    penalty += SCORE_PENALTY * (a.score - b.score) ** 2
    # Both due the same seat: one of them will not get it.
    if a.seat_balance * b.seat_balance > 0 or (
        a.seat_balance == b.seat_balance == 0 and a.last_seat is not None and a.last_seat == b.last_seat
    ):
        penalty += SEAT_PENALTY * (1 + min(abs(a.seat_balance), abs(b.seat_balance)))
    return REMATCH_PENALTY * 4 - penalty


def seat_order(a: SwissPlayer, b: SwissPlayer) -> Pair:
    """Who takes the first seat: the one with fewer first seats, then the one who
    last had the second seat, then the higher-ranked player."""
    if a.seat_balance != b.seat_balance:
        return (a.id, b.id) if a.seat_balance < b.seat_balance else (b.id, a.id)
    if a.last_seat != b.last_seat:
        if a.last_seat == 1 or b.last_seat == 0:
            return (a.id, b.id)
        return (b.id, a.id)
    return (a.id, b.id) if (-a.score, a.seed) <= (-b.score, b.seed) else (b.id, a.id)


def swiss_pair(players: Sequence[SwissPlayer]) -> SwissRound:
    """Pair one Swiss round: same scores together, no rematch while avoidable,
    seats balanced, a bye (odd count) for the lowest-ranked player without one."""
    bye = swiss_bye(players)
    active = [p for p in swiss_rank(players) if p.id != bye]
    by_id = {p.id: p for p in active}
    graph = nx.Graph()
    for i, a in enumerate(active):
        for b in active[i + 1 :]:
            graph.add_edge(a.id, b.id, weight=_pair_weight(a, b))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    pairs = []
    rematches = 0
    for x, y in matching:
        a, b = by_id[x], by_id[y]
        if b.id in a.opponents:
            rematches += 1
        pairs.append(seat_order(a, b))
    order = {p.id: i for i, p in enumerate(active)}
    pairs.sort(key=lambda pair: min(order[pair[0]], order[pair[1]]))
    return SwissRound(pairs=pairs, bye=bye, rematches=rematches)


def rematch_avoidable(players: Sequence[SwissPlayer], bye: PlayerId | None) -> bool:
    """True when the players other than ``bye`` could have been paired without a rematch
    (for checking a round that has one)."""
    return _has_rematch_free_matching([p for p in players if p.id != bye])


# ---------------------------------------------------------------- knockout


def bracket_positions(size: int) -> list[int]:
    """Seeds (1-based) in bracket order for a power-of-two ``size``: 1 meets size,
    and seeds 1 and 2 can only meet in the final."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def knockout_size(player_count: int) -> int:
    return 1 if player_count <= 1 else 2 ** math.ceil(math.log2(player_count))


def knockout_rounds(player_count: int) -> int:
    return int(math.log2(knockout_size(player_count)))


def knockout_first_round(seeded: Sequence[PlayerId]) -> list[tuple[PlayerId, PlayerId | None]]:
    """Round 1 matches in bracket order, players given best seed first.

    A pair ``(a, None)`` is a bye: when the count is not a power of two the top
    seeds get them. The higher seed takes the first seat.
    """
    size = knockout_size(len(seeded))
    slots = [seeded[s - 1] if s <= len(seeded) else None for s in bracket_positions(size)]
    matches: list[tuple[PlayerId, PlayerId | None]] = []
    for i in range(0, size, 2):
        first = slots[i]
        assert first is not None  # the better seed of each pair of slots is within the count
        matches.append((first, slots[i + 1]))
    return matches


def knockout_next_round(
    winners: Sequence[PlayerId | None], seed_of: dict[PlayerId, int]
) -> list[tuple[PlayerId | None, PlayerId | None]]:
    """The next round from the previous round's winners in bracket order; the higher
    seed (smaller number) of each pair takes the first seat."""
    pairs = []
    for i in range(0, len(winners), 2):
        a, b = winners[i], winners[i + 1]
        if a is None or (b is not None and seed_of[b] < seed_of[a]):
            a, b = b, a
        pairs.append((a, b))
    return pairs


KNOCKOUT_MAX_REPLAYS = 2


def knockout_match_winner(
    results: Sequence[str],
    first: PlayerId,
    second: PlayerId,
    seed_of: dict[PlayerId, int],
    *,
    replayable: bool = True,
) -> PlayerId | None:
    """The winner of a knockout match from its games' results, in order, seen from
    the match's ``first`` player (``"win"``, ``"loss"``, ``"draw"``, ``""`` unfinished).

    A draw is replayed (seats swapped) at most twice; after a third draw the
    higher seed advances. None while the match goes on. ``replayable`` False: the
    last game was adjudicated when the tournament's end date passed, so a draw there
    is not replayed and the higher seed advances, as after the last replay.
    """
    for result in results:
        if result == "win":
            return first
        if result == "loss":
            return second
        if result != "draw":
            return None
    if results and (len(results) > KNOCKOUT_MAX_REPLAYS or not replayable):
        return first if seed_of[first] < seed_of[second] else second
    return None
