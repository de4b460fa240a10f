"""Maatatahay rules: legal moves, applying them, settlement, scoring.

The reading of the rules is ``shared/rules/maatatahay-rulings.md``. The main
entry points are ``legal_moves``, ``apply``, ``move_count``/``move_at`` (the
counting-and-indexing bijection behind the fast uniform ``random_move``) and
``outcome``.

>>> from engine.maatatahay.setup import new_game
>>> s = new_game(3, {"variant": "first", "opening": 1})
>>> moves = legal_moves(s)
>>> len(moves) == move_count(s) and set(moves) == {move_at(s, i) for i in range(len(moves))}
True

Settlement (one place in the code: ``Settlement``). After the Hot Tile is
put down and its crystals moved, the candidates are the living warriors other
than the Hot Tile that are surrounded (every orthogonal neighbour on the map
holds a tile, alive or dead) and have a living enemy orthogonal neighbour. All
Strengths are fixed for the settlement (abilities count tiles alive or dead,
crystals only leave a dying tile), except that a dead warrior has Strength 0,
so a candidate's fate depends only on which of its candidate enemy neighbours
died before it. Candidates linked that way form components; the distinct
results of a component are found by a memoised search over (settled, dead)
sets; the results of the whole settlement are the products of its
components' results. For one result the order written in the move is the
lexicographically smallest one reaching it (greedy: at each step the smallest
candidate from which the target is still reachable). The Hot Tile, when
surrounded, is settled last against its living enemy neighbours.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple, Protocol

from ..errors import IllegalMoveError
from .board import ALIVE, EN, KIND, OWNER, PLAYERS, ROT, SP, Tables, bits
from .moves import Draft, Finish, First, Move, Pick, Place, Shrine, counts_text
from .setup import draft_player, turn_up
from .state import Cell, State

# ---------------------------------------------------------------- strength


def strength(
    t: Tables, cells: tuple[Cell | None, ...] | list[Cell | None], own: tuple[int, int] | list[int], i: int
) -> int:
    """Strength of the warrior on square ``i`` (0 when dead).

    Claws + Energy Crystals on it + ability (Elder: allies orthogonally
    adjacent, Convert: enemies diagonally adjacent, alive or dead, capped).
    """
    c = cells[i]
    assert c is not None
    if not c[ALIVE]:
        return 0
    k = c[KIND]
    value = t.claws[k] + c[EN]
    ability = t.ability[k]
    if ability is not None:
        masks, enemy, cap = ability
        owner = c[OWNER]
        n = (masks[i] & own[1 - owner if enemy else owner]).bit_count()
        value += n if n < cap else cap
    return value


def arrow_bonus(t: Tables, cells: tuple[Cell | None, ...], player: int, square: int) -> int:
    """Energy the Hot Tile of ``player`` on ``square`` receives from arrows."""
    n = t.map_arrows[square]
    bit = 1 << square
    targets = t.arrow_targets
    for j in t.ring_list[square]:
        c = cells[j]
        if c is not None and c[OWNER] == player and c[ALIVE] and targets[c[KIND]][c[ROT]][j] & bit:
            n += 1
    return n


# ---------------------------------------------------------------- settlement


class _Component:
    """Candidates whose fates depend on each other, with their distinct results."""

    __slots__ = ("members", "mask", "memo", "results", "owner")

    def __init__(self, owner: Settlement, members: list[int]) -> None:
        self.owner = owner
        self.members = members
        mask = 0
        for c in members:
            mask |= 1 << c
        self.mask = mask
        self.memo: dict[tuple[int, int], frozenset[int]] = {}
        self.results = sorted(self.reach(0, 0))

    def reach(self, settled: int, dead: int) -> frozenset[int]:
        """Final dead sets (within the component) reachable from a partial settlement."""
        key = (settled, dead)
        found = self.memo.get(key)
        if found is not None:
            return found
        if settled == self.mask:
            found = frozenset((dead,))
        else:
            out: set[int] = set()
            dies = self.owner.dies
            for c in self.members:
                b = 1 << c
                if settled & b:
                    continue
                out |= self.reach(settled | b, dead | b if dies(c, dead) else dead)
            found = frozenset(out)
        self.memo[key] = found
        return found


class Settlement:
    """Every way the current player may order one settlement, as distinct results.

    ``cands`` are the candidate squares (increasing = text order), ``n`` the
    number of distinct results; ``result(i)`` the dead set of the i-th result,
    ``order_for(dead)`` its canonical order, ``dead_of_order(order)`` what an
    order does, ``hot_dies(dead)`` whether the Hot Tile then dies.
    """

    __slots__ = (
        "t",
        "cands",
        "cmask",
        "str",
        "base",
        "nbrs",
        "comps",
        "comp_of",
        "fixed_dead",
        "n",
        "hot",
        "hot_str",
        "hot_enemies",
        "hot_surrounded",
    )

    def __init__(
        self,
        t: Tables,
        cells: tuple[Cell | None, ...],
        own2: tuple[int, int],
        live2: tuple[int, int],
        hot: int,
        player: int,
        hot_str: int,
        cands: list[int],
    ) -> None:
        self.t = t
        self.cands = cands
        self.hot = hot
        self.hot_str = hot_str
        cmask = 0
        for c in cands:
            cmask |= 1 << c
        self.cmask = cmask
        strengths: dict[int, int] = {hot: hot_str}

        def get(i: int) -> int:
            v = strengths.get(i)
            if v is None:
                v = strengths[i] = strength(t, cells, own2, i)
            return v

        base: dict[int, int] = {}
        nbrs: dict[int, list[int]] = {}
        for c in cands:
            enemies = t.orth[c] & live2[1 - cells[c][OWNER]]  # type: ignore[index]
            total = 0
            linked = []
            for j in bits(enemies):
                if cmask >> j & 1:
                    linked.append(j)
                    get(j)
                else:
                    total += get(j)
            base[c] = total
            nbrs[c] = linked
            get(c)
        self.str = strengths
        self.base = base
        self.nbrs = nbrs
        occ2 = own2[0] | own2[1]
        self.hot_surrounded = (t.orth[hot] & occ2) == t.orth[hot]
        self.hot_enemies = list(bits(t.orth[hot] & live2[1 - player]))
        for j in self.hot_enemies:
            get(j)
        # components of the "candidate enemy neighbour" graph
        comp_of: dict[int, _Component | None] = {}
        comps: list[_Component] = []
        fixed = 0
        for c in cands:
            if c in comp_of:
                continue
            if not nbrs[c]:
                comp_of[c] = None
                if strengths[c] < base[c]:
                    fixed |= 1 << c
                continue
            members, todo = {c}, [c]
            while todo:
                x = todo.pop()
                for y in nbrs[x]:
                    if y not in members:
                        members.add(y)
                        todo.append(y)
            comp = _Component(self, sorted(members))
            comps.append(comp)
            for m in members:
                comp_of[m] = comp
        self.comps = comps
        self.comp_of = comp_of
        self.fixed_dead = fixed
        n = 1
        for comp in comps:
            n *= len(comp.results)
        self.n = n

    def dies(self, c: int, dead: int) -> bool:
        """Whether candidate ``c`` dies when settled with ``dead`` already flipped."""
        against = self.base[c]
        s = self.str
        for j in self.nbrs[c]:
            if not dead >> j & 1:
                against += s[j]
        return s[c] < against

    def result(self, index: int) -> int:
        """Dead set of the ``index``-th distinct result (0 <= index < n)."""
        dead = self.fixed_dead
        for comp in self.comps:
            index, r = divmod(index, len(comp.results))
            dead |= comp.results[r]
        return dead

    def results(self) -> list[int]:
        """All distinct dead sets, in index order."""
        return [self.result(i) for i in range(self.n)]

    def dead_of_order(self, order: Iterable[int]) -> int:
        """The dead set when candidates are settled in ``order``."""
        dead = 0
        for c in order:
            if self.dies(c, dead):
                dead |= 1 << c
        return dead

    def order_for(self, target: int) -> tuple[int, ...]:
        """The lexicographically smallest order giving ``target`` (() when n == 1)."""
        if self.n == 1:
            return ()
        settled = dead = 0
        out: list[int] = []
        for _ in range(len(self.cands)):
            for c in self.cands:
                b = 1 << c
                if settled & b:
                    continue
                nd = dead | b if self.dies(c, dead) else dead
                comp = self.comp_of[c]
                if comp is None:
                    ok = True
                else:
                    m = comp.mask
                    ok = (target & m) in comp.reach((settled | b) & m, nd & m)
                if ok:
                    settled |= b
                    dead = nd
                    out.append(c)
                    break
        return tuple(out)

    def hot_dies(self, dead: int) -> bool:
        """Whether the Hot Tile dies after the candidates' deaths ``dead``."""
        if not self.hot_surrounded:
            return False
        against = 0
        for j in self.hot_enemies:
            if not dead >> j & 1:
                against += self.str[j]
        return self.hot_str < against


def with_hot(state: State, player: int, square: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """The (own, live) masks once ``player``'s Hot Tile stands on ``square``."""
    own, live = state.own, state.live
    bit = 1 << square
    if player == 0:
        return (own[0] | bit, own[1]), (live[0] | bit, live[1])
    return (own[0], own[1] | bit), (live[0], live[1] | bit)


def candidates(
    t: Tables, cells: tuple[Cell | None, ...], own2: tuple[int, int], live2: tuple[int, int], hot: int
) -> list[int]:
    """Living surrounded warriors other than ``hot`` with a living enemy neighbour."""
    occ2 = own2[0] | own2[1]
    out = []
    orth = t.orth
    for p in (0, 1):
        enemy = live2[1 - p]
        for i in bits(live2[p] & ~(1 << hot)):
            o = orth[i]
            if o & occ2 == o and o & enemy:
                out.append(i)
    out.sort()
    return out


# ---------------------------------------------------------------- helpers


def _illegal(code: str, message: str, **params: object) -> IllegalMoveError:
    return IllegalMoveError(code, message, **params)


def tile_of(state: State, player: int) -> int:
    """The kind the player places this round (from the picked pair)."""
    assert state.pair is not None
    return state.pair[1] if player == 0 else state.pair[0]


def _expect(state: State, phase: str, move: Move) -> None:
    if state.phase != phase:
        if state.phase == "over":
            raise _illegal("game_over", "The game is over", phase=state.phase)
        raise _illegal(
            "wrong_phase",
            "Now is not the time to %s (%s)" % (type(move).__name__.lower(), _phase_words(state)),
            phase=state.phase,
        )


def _phase_words(state: State) -> str:
    who = PLAYERS[state.turn] if state.turn is not None else "nobody"
    return {
        "draft": "%s places a relic of the draft" % who,
        "pick": "%s picks a pair" % who,
        "first": "%s names who places first" % who,
        "place": "%s places a warrior" % who,
        "finish": "%s finishes the Shrine placement" % who,
        "over": "the game is over",
    }.get(state.phase, state.phase)


def _square_index(t: Tables, name: str) -> int:
    i = t.index.get(name)
    if i is None:
        raise _illegal("no_such_square", "There is no square %s on the map" % name, square=name)
    return i


def _kind_index(t: Tables, name: str) -> int:
    k = t.kind_index.get(name)
    if k is None:
        raise _illegal("no_such_tile", "There is no warrior called %s" % name, tile=name)
    return k


# ---------------------------------------------------------------- placement plan


# A spot is one space the placer may choose, as a tuple (weight, square, how, data):
# weight = its number of moves; how = _FREE (data: puts; the order cannot
# matter), _ORDERED (data: (puts, {put energy: Settlement})) or _SHRINE (data:
# payments).
_FREE, _ORDERED, _SHRINE = 0, 1, 2
Spot = tuple[int, int, int, Any]


def _plan(state: State, only: int | None = None) -> list[Spot]:
    """Every space of the current placement with the structure of its moves (with ``only``,
    a space's index, that space alone: nothing is computed for the others)."""
    t = state.t
    p = state.placer
    k = tile_of(state, p)
    own, live = state.own, state.live
    occ = own[0] | own[1]
    orth = t.orth
    cells = state.cells
    # candidates already surrounded (b0), warriors one empty neighbour short (almost)
    b0 = almost = 0
    for q in (0, 1):
        enemy = live[1 - q]
        for i in bits(live[q]):
            empty = orth[i] & ~occ
            if not empty:
                if orth[i] & enemy:
                    b0 |= 1 << i
            elif not empty & (empty - 1):
                almost |= 1 << i
    n_rots = len(t.rotations[k])
    held_e, held_s = state.storage[p]
    puts_of = t.puts
    ground = state.ground
    spots: list[Spot] = []
    if state.phase == "finish":
        squares = [state.pending]
        relics = 0
    else:
        squares = bits(t.full & ~occ)
        relics = state.relics
        if only is not None:
            squares = [s for s in squares if s == only]
    for s in squares:
        if relics >> s & 1:
            cost = t.shrine_cost(occ, s)
            lo = max(t.shrine_min_spirit, cost - held_e)
            hi = min(cost, held_s)
            if lo <= hi:
                spots.append((hi - lo + 1, s, _SHRINE, [(cost - x, x) for x in range(lo, hi + 1)]))
            continue
        ge, gs = ground[s]
        puts = puts_of(held_e + ge, held_s + gs)
        # quick test: can the settlement order matter at all?
        cm = b0
        near = orth[s] & almost
        while near:
            low = near & -near
            near ^= low
            n = low.bit_length() - 1
            o = cells[n][OWNER]  # type: ignore[index]
            if o != p or orth[n] & live[1 - o]:
                cm |= low
        if cm & (cm - 1):
            spread = 0
            for i in bits(cm & own[0]):
                spread |= orth[i]
            if spread & cm & own[1]:
                own2, live2 = with_hot(state, p, s)
                hot_base = _hot_base(t, cells, own2, p, k, s)
                cands = bits(cm)
                by_e: dict[int, Settlement] = {}
                total = 0
                for e, _sp in puts:
                    st = by_e.get(e)
                    if st is None:
                        st = by_e[e] = Settlement(t, cells, own2, live2, s, p, hot_base + e, cands)
                    total += st.n
                spots.append((n_rots * total, s, _ORDERED, (puts, by_e)))
                continue
        spots.append((n_rots * len(puts), s, _FREE, puts))
    return spots


def _hot_base(t: Tables, cells: tuple[Cell | None, ...], own2: tuple[int, int], p: int, k: int, s: int) -> int:
    """Hot Tile Strength before crystals moved from storage: claws, arrows, ability."""
    value = t.claws[k] + arrow_bonus(t, cells, p, s)
    ability = t.ability[k]
    if ability is not None:
        masks, enemy, cap = ability
        n = (masks[s] & own2[1 - p if enemy else p]).bit_count()
        value += n if n < cap else cap
    return value


def _spot_moves(state: State, spot: Spot) -> list[Move]:
    """Every move of one spot, listed by plain loops (the indexing is ``_spot_move_at``)."""
    t = state.t
    _w, s, how, data = spot
    name = t.names[s]
    if how == _SHRINE:
        return [Shrine(name, e, sp) for e, sp in data]
    finish = state.phase == "finish"
    puts, by_e = (data, None) if how == _FREE else data
    out: list[Move] = []
    for r in t.rotations[tile_of(state, state.placer)]:
        for e, sp in puts:
            st = None if by_e is None else by_e[e]
            if st is None or st.n == 1:
                out.append(Finish(r, e, sp) if finish else Place(name, r, e, sp))
                continue
            for dead in st.results():
                order = tuple(t.names[c] for c in st.order_for(dead))
                out.append(Finish(r, e, sp, order) if finish else Place(name, r, e, sp, order))
    return out


def _spot_move_at(state: State, spot: Spot, index: int) -> Move:
    """The ``index``-th move of one spot (rotation-major, then puts, then results)."""
    t = state.t
    weight, s, how, data = spot
    name = t.names[s]
    if how == _SHRINE:
        e, sp = data[index]
        return Shrine(name, e, sp)
    finish = state.phase == "finish"
    rots = t.rotations[tile_of(state, state.placer)]
    if how == _FREE:
        puts = data
        ri, pi = divmod(index, len(puts))
        e, sp = puts[pi]
        r = rots[ri]
        return Finish(r, e, sp) if finish else Place(name, r, e, sp)
    puts, by_e = data
    ri, rem = divmod(index, weight // len(rots))
    r = rots[ri]
    for e, sp in puts:
        st = by_e[e]
        if rem < st.n:
            order = () if st.n == 1 else tuple(t.names[c] for c in st.order_for(st.result(rem)))
            return Finish(r, e, sp, order) if finish else Place(name, r, e, sp, order)
        rem -= st.n
    raise AssertionError("index out of range")


# ---------------------------------------------------------------- listing moves


def _pick_moves(state: State) -> list[Move]:
    t = state.t
    return [Pick(t.kinds[w], t.kinds[b]) for w, b in sorted(set(state.stream))]


def _draft_squares(state: State) -> list[int]:
    t = state.t
    p = state.turn
    assert p is not None
    cap = int(t.data["standard"]["draft_crystal_cap"])
    got = state.draft_got[p]
    relics = state.relics
    out = []
    for s in range(t.size):
        if relics >> s & 1 or t.orth[s] & relics:
            continue
        ge, gs = state.ground[s]
        if got + ge + gs > cap:
            continue
        out.append(s)
    return out


def legal_moves(state: State) -> list[Move]:
    """Every legal decision, each with a distinct result, in a fixed order."""
    phase = state.phase
    if phase == "place" or phase == "finish":
        out: list[Move] = []
        for spot in _plan(state):
            out.extend(_spot_moves(state, spot))
        return out
    if phase == "pick":
        return _pick_moves(state)
    if phase == "first":
        return [First(PLAYERS[0]), First(PLAYERS[1])]
    if phase == "draft":
        return [Draft(state.t.names[s]) for s in _draft_squares(state)]
    return []


def move_count(state: State) -> int:
    """How many legal moves there are (without listing them)."""
    phase = state.phase
    if phase == "place" or phase == "finish":
        return sum(spot[0] for spot in _plan(state))
    if phase == "pick":
        return len(set(state.stream))
    if phase == "first":
        return 2
    if phase == "draft":
        return len(_draft_squares(state))
    return 0


def move_at(state: State, index: int) -> Move:
    """The ``index``-th legal move of a counting order (a bijection onto legal_moves)."""
    phase = state.phase
    if phase == "place" or phase == "finish":
        return _move_in(state, _plan(state), index)
    if phase == "pick":
        t = state.t
        w, b = sorted(set(state.stream))[index]
        return Pick(t.kinds[w], t.kinds[b])
    if phase == "first":
        return First(PLAYERS[index])
    if phase == "draft":
        return Draft(state.t.names[_draft_squares(state)[index]])
    raise IndexError("no moves: the game is over")


def _move_in(state: State, spots: list[Spot], index: int) -> Move:
    """The ``index``-th move over the spots of a placement, in counting order."""
    for spot in spots:
        if index < spot[0]:
            return _spot_move_at(state, spot, index)
        index -= spot[0]
    raise IndexError("move index out of range")


class Below(Protocol):
    """Anything with ``below(n)``: a uniform integer in [0, n) (a SeedStream)."""

    def below(self, n: int) -> int: ...


def random_move(state: State, stream: Below) -> Move:
    """A uniformly random legal move, reading ``stream.below`` exactly once."""
    phase = state.phase
    if phase == "place" or phase == "finish":
        spots = _plan(state)
        return _move_in(state, spots, stream.below(sum(spot[0] for spot in spots)))
    n = move_count(state)
    if n == 0:
        raise _illegal("game_over", "The game is over", phase=phase)
    return move_at(state, stream.below(n))


# ---------------------------------------------------------------- applying


def apply(state: State, move: Move) -> State:
    """The state after ``move``; IllegalMoveError when it is not legal now."""
    if isinstance(move, Place):
        _expect(state, "place", move)
        return _place(
            state, _free_square(state, move.square), move.rotation, move.put_energy, move.put_spirit, move.order
        )
    if isinstance(move, Finish):
        _expect(state, "finish", move)
        return _place(state, state.pending, move.rotation, move.put_energy, move.put_spirit, move.order)
    if isinstance(move, Pick):
        return _apply_pick(state, move)
    if isinstance(move, First):
        return _apply_first(state, move)
    if isinstance(move, Shrine):
        return _apply_shrine(state, move)
    if isinstance(move, Draft):
        return _apply_draft(state, move)
    raise _illegal("not_a_move", "That is not a Maatatahay move", move=repr(move))


def _free_square(state: State, name: str) -> int:
    """Index of a free space named in a ``place`` move (IllegalMoveError otherwise)."""
    s = _square_index(state.t, name)
    if (state.own[0] | state.own[1]) >> s & 1:
        raise _illegal("occupied", "%s already holds a warrior" % name, square=name)
    if state.relics >> s & 1:
        raise _illegal(
            "shrine_needs_payment", "%s is a Shrine: enter it with shrine %s pay <crystals>" % (name, name), square=name
        )
    return s


def _apply_first(state: State, move: First) -> State:
    _expect(state, "first", move)
    if move.player not in PLAYERS:
        raise _illegal("no_such_player", "There is no player %s" % move.player, player=move.player)
    new = state.copy()
    new.first = PLAYERS.index(move.player)
    new.placed = 0
    new.phase = "place"
    new.turn = new.first
    return new


def _apply_pick(state: State, move: Pick) -> State:
    _expect(state, "pick", move)
    t = state.t
    w, b = _kind_index(t, move.wazu), _kind_index(t, move.balan)
    stream = list(state.stream)
    if (w, b) not in stream:
        raise _illegal(
            "pair_not_in_stream",
            "The stream has no pair %s/%s (Wazu/Balan)" % (move.wazu, move.balan),
            wazu=move.wazu,
            balan=move.balan,
        )
    stream.remove((w, b))
    new = state.copy()
    new.stream = tuple(stream)
    new.pair = (w, b)
    cw, cb = t.claws[w], t.claws[b]
    new.turn = 1 if cw < cb else 0 if cb < cw else state.active
    new.phase = "first"
    return new


def _apply_shrine(state: State, move: Shrine) -> State:
    _expect(state, "place", move)
    t = state.t
    s = _square_index(t, move.square)
    occ = state.own[0] | state.own[1]
    if not state.relics >> s & 1:
        raise _illegal("not_a_shrine", "%s holds no relic" % move.square, square=move.square)
    p = state.placer
    held_e, held_s = state.storage[p]
    cost = t.shrine_cost(occ, s)
    pay_e, pay_s = move.pay_energy, move.pay_spirit
    if held_e + held_s < cost or held_s < t.shrine_min_spirit:
        if held_s < t.shrine_min_spirit and held_e + held_s >= cost:
            raise _illegal(
                "shrine_needs_spirit",
                "Shrine at %s needs at least %d Spirit Crystal, you hold %d"
                % (move.square, t.shrine_min_spirit, held_s),
                square=move.square,
                spirit=held_s,
            )
        raise _illegal(
            "shrine_cost",
            "Shrine at %s costs %d crystals, you hold %d" % (move.square, cost, held_e + held_s),
            square=move.square,
            cost=cost,
            held=held_e + held_s,
        )
    if pay_e + pay_s != cost:
        raise _illegal(
            "shrine_wrong_payment",
            "Shrine at %s costs exactly %d crystals, not %d" % (move.square, cost, pay_e + pay_s),
            square=move.square,
            cost=cost,
            paid=pay_e + pay_s,
        )
    if pay_s < t.shrine_min_spirit:
        raise _illegal(
            "shrine_needs_spirit",
            "The offering at %s must include a Spirit Crystal" % move.square,
            square=move.square,
            spirit=pay_s,
        )
    if pay_e > held_e or pay_s > held_s:
        raise _illegal(
            "not_enough_crystals",
            "You cannot pay %s: you hold %s" % (counts_text(pay_e, pay_s), counts_text(held_e, held_s) or "nothing"),
            pay=counts_text(pay_e, pay_s),
            held=counts_text(held_e, held_s),
        )
    new = state.copy()
    n = min(t.favour, len(state.bag))
    drawn = state.bag[:n]
    new.bag = state.bag[n:]
    got_s = sum(drawn)
    storage = list(state.storage)
    storage[p] = (held_e - pay_e + n - got_s, held_s - pay_s + got_s)
    new.storage = (storage[0], storage[1])
    new.relics = state.relics & ~(1 << s)
    new.taken = state.taken + ((p, s),)
    new.pending = s
    new.favour = drawn
    new.phase = "finish"
    return new


def _apply_draft(state: State, move: Draft) -> State:
    _expect(state, "draft", move)
    t = state.t
    s = _square_index(t, move.square)
    p = state.turn
    assert p is not None
    if state.relics >> s & 1:
        raise _illegal("draft_taken", "%s already holds a relic" % move.square, square=move.square)
    if t.orth[s] & state.relics:
        raise _illegal(
            "draft_adjacent",
            "Relics may not be orthogonally adjacent: %s touches one" % move.square,
            square=move.square,
        )
    ge, gs = state.ground[s]
    cap = int(t.data["standard"]["draft_crystal_cap"])
    got = state.draft_got[p]
    if got + ge + gs > cap:
        raise _illegal(
            "draft_crystal_cap",
            "In the draft you may take at most %d crystals: you hold %d and %s has %d"
            % (cap, got, move.square, ge + gs),
            square=move.square,
            cap=cap,
            held=got,
        )
    new = state.copy()
    new.relics = state.relics | 1 << s
    ground = list(state.ground)
    ground[s] = (0, 0)
    new.ground = tuple(ground)
    storage = list(state.storage)
    storage[p] = (storage[p][0] + ge, storage[p][1] + gs)
    new.storage = (storage[0], storage[1])
    dg = list(state.draft_got)
    dg[p] += ge + gs
    new.draft_got = (dg[0], dg[1])
    new.draft = state.draft + 1
    if new.draft == len(t.data["standard"]["draft"]):
        turn_up(new, int(t.data["standard"]["stream"]))
        new.phase = "pick"
        new.turn = new.start
        new.active = new.start
    else:
        new.turn = draft_player(new, new.draft)
    return new


class _Resolved(NamedTuple):
    """What a placement does: crystals, the Hot Tile's Energy, who dies, the canonical order."""

    held: tuple[int, int]
    hot_energy: int
    dead: int
    hot_dead: bool
    order: tuple[str, ...]


def _resolve(
    state: State, s: int, rot: int, put_e: int, put_s: int, order: tuple[str, ...], *, strict: bool
) -> _Resolved:
    """Check a placement of the placer's tile on ``s`` and work out its settlement.

    ``strict`` (apply): the order must be exactly the canonical one. Otherwise
    (reading move text) any order listing every candidate once is accepted,
    and ``order`` of the result is the canonical order of its result.
    """
    t = state.t
    p = state.placer
    k = tile_of(state, p)
    if not 0 <= rot <= 3:
        raise _illegal("bad_rotation", "Rotations are r0 to r3", rotation=rot)
    canon_rot = t.canonical_rotation[k][rot]
    if canon_rot != rot and strict:
        raise _illegal(
            "rotation_not_canonical",
            "%s at r%d has the same arrows as at r%d: write r%d" % (t.kinds[k].capitalize(), rot, canon_rot, canon_rot),
            rotation=rot,
            canonical=canon_rot,
        )
    ge, gs = state.ground[s]
    held_e, held_s = state.storage[p]
    held_e += ge
    held_s += gs
    if put_e < 0 or put_s < 0 or put_e > held_e or put_s > held_s:
        raise _illegal(
            "put_more_than_held",
            "You cannot move %s onto the Hot Tile: you hold %s"
            % (counts_text(put_e, put_s), counts_text(held_e, held_s) or "nothing"),
            put=counts_text(put_e, put_s),
            held=counts_text(held_e, held_s),
        )
    left = held_e - put_e + held_s - put_s
    if left > t.storage_limit:
        raise _illegal(
            "storage_over_limit",
            "Your storage may keep at most %d crystals: move at least %d more onto the Hot Tile"
            % (t.storage_limit, left - t.storage_limit),
            limit=t.storage_limit,
            keep=left,
        )
    cells = state.cells
    st = settlement(state, s, put_e)
    names = [t.names[c] for c in st.cands]
    canon: tuple[str, ...] = ()
    if st.n == 1:
        if order:
            if strict:
                raise _illegal(
                    "order_not_needed",
                    "Every settlement order gives the same result here: leave the order out",
                    order=",".join(order),
                )
            _check_order(order, names)
        dead = st.result(0)
    else:
        if not order:
            raise _illegal(
                "order_needed",
                "The settlement order changes the result here: give the order of %s" % ",".join(names),
                candidates=",".join(names),
            )
        _check_order(order, names)
        dead = st.dead_of_order(t.index[x] for x in order)
        canon = tuple(t.names[c] for c in st.order_for(dead))
        if strict and canon != tuple(order):
            raise _illegal(
                "order_not_canonical",
                "Order %s gives the same result as %s: write %s" % (",".join(order), ",".join(canon), ",".join(canon)),
                order=",".join(order),
                canonical=",".join(canon),
            )
    return _Resolved((held_e, held_s), arrow_bonus(t, cells, p, s) + put_e, dead, st.hot_dies(dead), canon)


def settlement(state: State, s: int, put_e: int) -> Settlement:
    """The settlement once the placer's Hot Tile stands on ``s`` with ``put_e`` Energy
    moved onto it from storage (what it depends on: not the rotation, nor the Spirit put)."""
    t = state.t
    p = state.placer
    cells = state.cells
    own2, live2 = with_hot(state, p, s)
    hot_str = _hot_base(t, cells, own2, p, tile_of(state, p), s) + put_e
    return Settlement(t, cells, own2, live2, s, p, hot_str, candidates(t, cells, own2, live2, s))


def _place(state: State, s: int, rot: int, put_e: int, put_s: int, order: tuple[str, ...]) -> State:
    """The state after the placer's tile goes on ``s`` (a canonical placement) and settles."""
    r = _resolve(state, s, rot, put_e, put_s, order, strict=True)
    p = state.placer
    k = tile_of(state, p)
    new = state.copy()
    nc = list(state.cells)
    loot = 0
    bit = 1 << s
    l0, l1 = state.live
    for c in bits(r.dead):
        cell = nc[c]
        assert cell is not None
        loot += cell[SP]
        nc[c] = (cell[OWNER], cell[KIND], cell[ROT], False, 0, 0)
        if cell[OWNER] == 0:
            l0 &= ~(1 << c)
        else:
            l1 &= ~(1 << c)
    if r.hot_dead:
        nc[s] = (p, k, rot, False, 0, 0)
    else:
        nc[s] = (p, k, rot, True, r.hot_energy, put_s + loot)
        if p == 0:
            l0 |= bit
        else:
            l1 |= bit
    new.cells = tuple(nc)
    own = state.own
    new.own = (own[0] | bit, own[1]) if p == 0 else (own[0], own[1] | bit)
    new.live = (l0, l1)
    if state.ground[s] != (0, 0):
        ground = list(state.ground)
        ground[s] = (0, 0)
        new.ground = tuple(ground)
    held_e, held_s = r.held
    storage = list(state.storage)
    storage[p] = (held_e - put_e, held_s - put_s)
    new.storage = (storage[0], storage[1])
    new.pending = -1
    new.favour = ()
    if state.placed == 0:
        new.placed = 1
        new.phase = "place"
        new.turn = 1 - p
        return new
    _end_round(new)
    return new


def _check_order(order: tuple[str, ...] | list[str], names: list[str]) -> None:
    listed = list(order)
    for x in listed:
        if x not in names:
            raise _illegal(
                "not_a_candidate",
                "%s is not settled in this placement (candidates: %s)" % (x, ",".join(names) or "none"),
                square=x,
                candidates=",".join(names),
            )
    if len(set(listed)) != len(listed) or len(listed) != len(names):
        raise _illegal(
            "order_incomplete",
            "The order must list each of %s exactly once" % ",".join(names),
            candidates=",".join(names),
        )


def _end_round(new: State) -> None:
    """Spirit Track, end check and refill after both placements (in place, on a fresh copy)."""
    t = new.t
    own, live = new.own, new.live
    occ = own[0] | own[1]
    new.track = occ.bit_count() - (live[0] | live[1]).bit_count()
    free = t.full & ~occ & ~new.relics
    if new.track >= t.spirit_track or free.bit_count() <= 1 or occ.bit_count() >= 2 * t.tiles_per_tribe:
        new.phase = "over"
        new.turn = None
        new.pair = None
        new.first = None
        new.placed = 0
        return
    turn_up(new, 1)
    new.active = 1 - new.active
    new.round += 1
    new.phase = "pick"
    new.turn = new.active
    new.pair = None
    new.first = None
    new.placed = 0


def normalize(state: State, move: Move) -> Move:
    """The canonical legal move equal in result to ``move`` (IllegalMoveError if none).

    Rotations are reduced to the smallest one with the same arrows; a
    settlement order listing every candidate once is replaced by the
    canonical order of its result (or dropped when the order cannot
    matter); everything else must already be exact.
    """
    if isinstance(move, Place):
        _expect(state, "place", move)
        s = _free_square(state, move.square)
    elif isinstance(move, Finish):
        _expect(state, "finish", move)
        s = state.pending
    else:
        return move
    rot = move.rotation
    if 0 <= rot <= 3:
        rot = state.t.canonical_rotation[tile_of(state, state.placer)][rot]
    r = _resolve(state, s, rot, move.put_energy, move.put_spirit, move.order, strict=False)
    if isinstance(move, Place):
        return Place(move.square, rot, move.put_energy, move.put_spirit, r.order)
    return Finish(rot, move.put_energy, move.put_spirit, r.order)


# ---------------------------------------------------------------- scoring


def relic_points(state: State) -> tuple[int, int]:
    """Relic score per player: First Game own k-th relic scores k; Standard
    Game the n-th relic taken in the whole game scores n."""
    pts = [0, 0]
    if state.variant == "first":
        n = [0, 0]
        for p, _s in state.taken:
            n[p] += 1
            pts[p] += n[p]
    else:
        for i, (p, _s) in enumerate(state.taken):
            pts[p] += i + 1
    return pts[0], pts[1]


def scores(state: State) -> tuple[int, int]:
    """Score per player so far: sanity and Spirit Crystals of living warriors, plus relics."""
    t = state.t
    rel = relic_points(state)
    out = []
    for p in (0, 1):
        total = rel[p]
        for i in bits(state.live[p]):
            c = state.cells[i]
            assert c is not None
            total += t.sanity[c[KIND]] + c[SP]
        out.append(total)
    return out[0], out[1]


# The reasons the scoring rules end a game with (winner()), tie-breaks in order.
ENGINE_REASONS = ("score", "more_warriors", "latest_relic", "tie")


def winner(state: State) -> tuple[int | None, str, tuple[int, int]]:
    """(winner or None, reason, scores) of a finished game by the scoring rules."""
    by_score, by_warriors, by_relic, tie = ENGINE_REASONS
    sc = scores(state)
    if sc[0] != sc[1]:
        return (0 if sc[0] > sc[1] else 1), by_score, sc
    w0, w1 = state.live[0].bit_count(), state.live[1].bit_count()
    if w0 != w1:
        return (0 if w0 > w1 else 1), by_warriors, sc
    if state.taken:
        return state.taken[-1][0], by_relic, sc
    return None, tie, sc


__all__ = [
    "ENGINE_REASONS",
    "legal_moves",
    "apply",
    "move_count",
    "move_at",
    "random_move",
    "normalize",
    "scores",
    "winner",
    "relic_points",
    "strength",
    "arrow_bonus",
    "Settlement",
    "candidates",
    "tile_of",
    "settlement",
]
