"""Maatatahay states as JSON: the full state, the players' view, sampling.

Full state (server side only, it holds the hidden order), schema
``"maatatahay/1"``::

    {"schema": "maatatahay/1", "data_version": "2026-11",
     "variant": "first"|"standard", "opening": 1..4|null, "start": "balan"|"wazu",
     "phase": "draft"|"pick"|"first"|"place"|"finish"|"over",
     "turn": player|null, "round": n, "active": player,
     "board": {square: {"tribe", "tile", "rotation", "alive", "energy", "spirit"}},
     "ground": {square: {"energy": n, "spirit": n}},      # crystals lying on spaces
     "relics": [square, ...],                             # Shrines still holding a relic
     "storage": {player: {"energy": n, "spirit": n}},
     "taken": [{"tribe": player, "square": square}, ...], # relics in the order taken
     "track": n,                                          # Spirit Track
     "stream": [{"wazu": tile, "balan": tile}, ...], "pair": {...}|null,
     "first": player|null, "placed": 0|1,
     "pending": square|null, "favour": ["energy"|"spirit", ...],
     "draft": {"step": n, "taken": {player: n}},
     "ended": {"winner": player|null, "reason": code}|null,
     "piles": {player: [tile, ...]},                      # HIDDEN: face down, top first
     "bag": ["energy"|"spirit", ...]}                     # HIDDEN: in draw order

The view (``"maatatahay-view/1"``) has every public key above but neither
``piles`` nor ``bag``; instead ``unseen`` (per tribe: the tiles not yet turned
up, ``{"count", "tiles": {tile: n}, "upper": {"count", "includes"}, "lower":
{"count", "includes"}}``: in the First Game the pile is an upper and a lower
segment, Champion and Berserk start in the upper one, Convert and Elder in the
lower one, and the other unseen tiles are spread at random over both) and
``bag`` as counts ``{"energy": n, "spirit": n}``, plus ``you``, ``to_move``,
``scores`` (so far) and ``outcome``.

``sample_state(view, stream)`` builds a full state consistent with a view,
drawing the unknown order from ``stream`` in this order: Balan's pile, then
Wazu's (First Game with upper tiles left: the unseen tiles other than the
segment-fixed ones, in table order, are shuffled, the first ones completing
the upper segment; then the upper and lower segments are shuffled; otherwise
the unseen tiles in table order are shuffled), then the bag (energy first,
shuffled).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import EngineError, StateFormatError
from ..fair import SeedStream
from .board import ALIVE, CRYSTALS, EN, KIND, OWNER, PLAYERS, ROT, SP, Tables, bits, tables
from .rules import scores, winner
from .state import State

SCHEMA = "maatatahay/1"
VIEW_SCHEMA = "maatatahay-view/1"


def _player(value: int | None) -> str | None:
    return None if value is None else PLAYERS[value]


def _public(state: State) -> dict[str, Any]:
    t = state.t
    board = {}
    for i, c in enumerate(state.cells):
        if c is not None:
            board[t.names[i]] = {
                "tribe": PLAYERS[c[OWNER]],
                "tile": t.kinds[c[KIND]],
                "rotation": c[ROT],
                "alive": c[ALIVE],
                "energy": c[EN],
                "spirit": c[SP],
            }
    return {
        "data_version": state.data_version,
        "variant": state.variant,
        "opening": state.opening,
        "start": PLAYERS[state.start],
        "phase": state.phase,
        "turn": _player(state.turn),
        "round": state.round,
        "active": PLAYERS[state.active],
        "board": board,
        "ground": {t.names[i]: {"energy": e, "spirit": s} for i, (e, s) in enumerate(state.ground) if e or s},
        "relics": [t.names[i] for i in bits(state.relics)],
        "storage": {PLAYERS[p]: {"energy": state.storage[p][0], "spirit": state.storage[p][1]} for p in (0, 1)},
        "taken": [{"tribe": PLAYERS[p], "square": t.names[s]} for p, s in state.taken],
        "track": state.track,
        "stream": [{"wazu": t.kinds[w], "balan": t.kinds[b]} for w, b in state.stream],
        "pair": None if state.pair is None else {"wazu": t.kinds[state.pair[0]], "balan": t.kinds[state.pair[1]]},
        "first": _player(state.first),
        "placed": state.placed,
        "pending": None if state.pending < 0 else t.names[state.pending],
        "favour": [CRYSTALS[c] for c in state.favour],
        "draft": {"step": state.draft, "taken": {PLAYERS[p]: state.draft_got[p] for p in (0, 1)}},
        "ended": None if state.ended is None else {"winner": _player(state.ended[0]), "reason": state.ended[1]},
    }


def to_json(state: State) -> dict[str, Any]:
    """The full state as JSON data (hidden order included: server side only)."""
    t = state.t
    data: dict[str, Any] = {"schema": SCHEMA}
    data.update(_public(state))
    data["piles"] = {PLAYERS[p]: [t.kinds[k] for k in state.piles[p]] for p in (0, 1)}
    data["bag"] = [CRYSTALS[c] for c in state.bag]
    return data


def _seen(state: State) -> list[list[int]]:
    """Per player, per kind: tiles turned up so far (board, stream, picked pair)."""
    t = state.t
    seen = [[0] * len(t.kinds), [0] * len(t.kinds)]
    for c in state.cells:
        if c is not None:
            seen[c[OWNER]][c[KIND]] += 1
    pairs = list(state.stream)
    if state.pair is not None:
        # the picked pair stays "seen" until both are placed
        pairs.append(state.pair)
    placed_now = _placed_this_round(state)
    for w, b in pairs:
        seen[1][w] += 1
        seen[0][b] += 1
    for p, k in placed_now:
        seen[p][k] -= 1
    return seen


def _placed_this_round(state: State) -> list[tuple[int, int]]:
    """The picked pair's tiles already on the board (counted twice otherwise)."""
    if state.pair is None or state.first is None:
        return []
    out = []
    if state.placed >= 1:
        p = state.first
        out.append((p, state.pair[1] if p == 0 else state.pair[0]))
    return out


def _lower_size(t: Tables) -> tuple[int, set[int], set[int]]:
    first = t.data["first"]
    upper = {t.kind_index[k] for k in first["upper"]}
    lower = {t.kind_index[k] for k in first["lower"]}
    basics = sum(t.counts[k] for k in range(len(t.kinds)) if k not in upper | lower)
    return basics // 2 + sum(t.counts[k] for k in lower), upper, lower


def unseen(state: State) -> dict[str, Any]:
    """Public knowledge of each tribe's face-down tiles (no order)."""
    t = state.t
    seen = _seen(state)
    out = {}
    for p in (0, 1):
        left = [t.counts[k] - seen[p][k] for k in range(len(t.kinds))]
        count = sum(left)
        info: dict[str, Any] = {"count": count, "tiles": {t.kinds[k]: n for k, n in enumerate(left) if n}}
        if state.variant == "first":
            lower_n, upper_set, lower_set = _lower_size(t)
            up = max(0, count - lower_n)
            if up:
                info["upper"] = {"count": up, "includes": {t.kinds[k]: left[k] for k in sorted(upper_set) if left[k]}}
                info["lower"] = {
                    "count": count - up,
                    "includes": {t.kinds[k]: left[k] for k in sorted(lower_set) if left[k]},
                }
            else:
                info["upper"] = {"count": 0, "includes": {}}
                info["lower"] = {"count": count, "includes": dict(info["tiles"])}
        out[PLAYERS[p]] = info
    return out


def view(state: State, player: str | None) -> dict[str, Any]:
    """What ``player`` (None: a spectator) sees; both players see the same table."""
    if player is not None and player not in PLAYERS:
        raise StateFormatError("no_such_player", "There is no player %r" % player, player=str(player))
    data: dict[str, Any] = {"schema": VIEW_SCHEMA, "you": player}
    data.update(_public(state))
    data["to_move"] = _player(state.turn)
    sc = scores(state)
    data["scores"] = {PLAYERS[p]: sc[p] for p in (0, 1)}
    n_s = sum(state.bag)
    data["bag"] = {"energy": len(state.bag) - n_s, "spirit": n_s}
    data["unseen"] = unseen(state)
    if state.phase == "over":
        if state.ended is not None:
            w, reason = state.ended
        else:
            w, reason, _ = winner(state)
        data["outcome"] = {"winner": _player(w), "reason": reason, "scores": dict(data["scores"])}
    else:
        data["outcome"] = None
    return data


# ---------------------------------------------------------------- reading back


def _fail(why: str) -> StateFormatError:
    return StateFormatError("bad_state", "Not a valid Maatatahay state: %s" % why, reason=why)


def _pl(value: Any) -> int:
    if value not in PLAYERS:
        raise _fail("%r is not a player" % (value,))
    return PLAYERS.index(value)


def _pl_or_none(value: Any) -> int | None:
    return None if value is None else _pl(value)


def _int(value: Any, lo: int = 0, hi: int = 10**6) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise _fail("%r is not a whole number in %d..%d" % (value, lo, hi))
    return value


def _read_public(data: Mapping[str, Any], schema: str) -> State:
    if not isinstance(data, Mapping):
        raise _fail("not an object")
    if data.get("schema") != schema:
        raise _fail("schema must be %r" % schema)
    try:
        t = tables(data["data_version"])
    except EngineError as error:
        raise _fail(error.message) from error
    try:
        st = State.__new__(State)
        st.t = t
        st.data_version = t.version
        if data["variant"] not in ("first", "standard"):
            raise _fail("unknown variant")
        st.variant = data["variant"]
        st.opening = None if data["opening"] is None else _int(data["opening"], 1, 4)
        st.start = _pl(data["start"])
        if data["phase"] not in ("draft", "pick", "first", "place", "finish", "over"):
            raise _fail("unknown phase")
        st.phase = data["phase"]
        st.turn = _pl_or_none(data["turn"])
        if (st.turn is None) != (st.phase == "over"):
            raise _fail("a running game has a player to move, a finished one none")
        st.round = _int(data["round"], 1, 100)
        st.active = _pl(data["active"])
        cells: list[Any] = [None] * t.size
        own, live = [0, 0], [0, 0]
        for sq, c in data["board"].items():
            i = t.index[sq]
            k = t.kind_index[c["tile"]]
            p = _pl(c["tribe"])
            alive = c["alive"]
            if not isinstance(alive, bool):
                raise _fail("alive must be true or false")
            rot = _int(c["rotation"], 0, 3)
            if t.canonical_rotation[k][rot] != rot:
                raise _fail("rotation of %s is not the stored one" % sq)
            e, s = _int(c["energy"]), _int(c["spirit"])
            if not alive and (e or s):
                raise _fail("a dead warrior holds no crystals")
            cells[i] = (p, k, rot, alive, e, s)
            own[p] |= 1 << i
            if alive:
                live[p] |= 1 << i
        st.cells = tuple(cells)
        st.own = (own[0], own[1])
        st.live = (live[0], live[1])
        ground = [(0, 0)] * t.size
        for sq, g in data["ground"].items():
            ground[t.index[sq]] = (_int(g["energy"]), _int(g["spirit"]))
        st.ground = tuple(ground)
        relics = 0
        for sq in data["relics"]:
            relics |= 1 << t.index[sq]
        if relics & (own[0] | own[1]):
            raise _fail("a relic lies under a warrior")
        st.relics = relics
        sto = data["storage"]
        st.storage = (
            (_int(sto["balan"]["energy"]), _int(sto["balan"]["spirit"])),
            (_int(sto["wazu"]["energy"]), _int(sto["wazu"]["spirit"])),
        )
        st.taken = tuple((_pl(x["tribe"]), t.index[x["square"]]) for x in data["taken"])
        st.track = _int(data["track"], 0, 2 * t.tiles_per_tribe)
        st.stream = tuple(sorted((t.kind_index[x["wazu"]], t.kind_index[x["balan"]]) for x in data["stream"]))
        pair = data["pair"]
        st.pair = None if pair is None else (t.kind_index[pair["wazu"]], t.kind_index[pair["balan"]])
        st.first = _pl_or_none(data["first"])
        st.placed = _int(data["placed"], 0, 1)
        st.pending = -1 if data["pending"] is None else t.index[data["pending"]]
        st.favour = tuple(CRYSTALS.index(c) for c in data["favour"])
        d = data["draft"]
        st.draft = _int(d["step"], 0, len(t.data["standard"]["draft"]))
        st.draft_got = (_int(d["taken"]["balan"]), _int(d["taken"]["wazu"]))
        ended = data["ended"]
        st.ended = None if ended is None else (_pl_or_none(ended["winner"]), str(ended["reason"]))
    except StateFormatError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise _fail("%s: %s" % (type(error).__name__, error)) from error
    if st.phase in ("first", "place", "finish") and (st.pair is None):
        raise _fail("no picked pair while placing")
    if st.phase in ("place", "finish") and st.first is None:
        raise _fail("nobody places first")
    if (st.phase == "finish") != (st.pending >= 0):
        raise _fail("a pending Shrine belongs to the finish phase only")
    return st


def from_json(data: Mapping[str, Any]) -> State:
    """Inverse of ``to_json`` (StateFormatError when the data is not a valid state)."""
    st = _read_public(data, SCHEMA)
    t = st.t
    try:
        piles = data["piles"]
        st.piles = (tuple(t.kind_index[k] for k in piles["balan"]), tuple(t.kind_index[k] for k in piles["wazu"]))
        st.bag = tuple(CRYSTALS.index(c) for c in data["bag"])
    except (KeyError, TypeError, ValueError) as error:
        raise _fail("%s: %s" % (type(error).__name__, error)) from error
    seen = _seen(st)
    for p in (0, 1):
        for k in range(len(t.kinds)):
            if seen[p][k] + st.piles[p].count(k) != t.counts[k]:
                raise _fail("%s does not have exactly %d %s" % (PLAYERS[p], t.counts[k], t.kinds[k]))
    return st


def sample_state(data: Mapping[str, Any], stream: SeedStream) -> State:
    """A full state consistent with a view, the unknown order drawn from ``stream``.

    The legal moves of the result are exactly those of the real state.
    """
    st = _read_public(data, VIEW_SCHEMA)
    t = st.t
    seen = _seen(st)
    piles = []
    for p in (0, 1):
        left = [t.counts[k] - seen[p][k] for k in range(len(t.kinds))]
        if min(left) < 0:
            raise _fail("%s has more tiles turned up than exist" % PLAYERS[p])
        tiles = [k for k in range(len(t.kinds)) for _ in range(left[k])]
        lower_n, upper_set, lower_set = _lower_size(t)
        up = len(tiles) - lower_n
        if st.variant == "first" and up > 0:
            fixed_up = [k for k in tiles if k in upper_set]
            fixed_low = [k for k in tiles if k in lower_set]
            free = [k for k in tiles if k not in upper_set and k not in lower_set]
            stream.shuffle(free)
            cut = up - len(fixed_up)
            upper = free[:cut] + fixed_up
            lower = free[cut:] + fixed_low
            stream.shuffle(upper)
            stream.shuffle(lower)
            piles.append(tuple(upper + lower))
        else:
            stream.shuffle(tiles)
            piles.append(tuple(tiles))
    st.piles = (piles[0], piles[1])
    try:
        bag = [0] * _int(data["bag"]["energy"]) + [1] * _int(data["bag"]["spirit"])
    except (KeyError, TypeError) as error:
        raise _fail("bag counts: %s" % error) from error
    stream.shuffle(bag)
    st.bag = tuple(bag)
    return st


def summary(state: State) -> str:
    """A short picture of the table (Balan below, rank 1 at the bottom)."""
    t = state.t
    lines = [
        "maatatahay %s game%s, data %s, round %d, %s"
        % (
            state.variant,
            "" if state.opening is None else " (opening %d)" % state.opening,
            state.data_version,
            state.round,
            "over"
            if state.phase == "over"
            else "%s: %s" % (PLAYERS[state.turn], state.phase)
            if state.turn is not None
            else state.phase,
        )
    ]
    lines.append(("    " + "".join("%-15s" % f for f in t.files)).rstrip())
    for r in range(t.ranks, 0, -1):
        row = []
        for f in t.files:
            i = t.index[f + str(r)]
            c = state.cells[i]
            if c is not None:
                mark = (
                    "%s%s r%d" % ("B" if c[OWNER] == 0 else "W", t.kinds[c[KIND]][:4], c[ROT])
                    if c[ALIVE]
                    else "(%s %s)" % ("b" if c[OWNER] == 0 else "w", t.kinds[c[KIND]][:4])
                )
                if c[EN] or c[SP]:
                    mark += " " + ("%de" % c[EN] if c[EN] else "") + ("%ds" % c[SP] if c[SP] else "")
            elif state.relics >> i & 1:
                mark = "relic"
            else:
                e, s = state.ground[i]
                mark = ("%de" % e if e else "") + ("%ds" % s if s else "") or "."
            row.append("%-15s" % mark)
        lines.append("%d   %s" % (r, "".join(row).rstrip()))
    sc = scores(state)
    for p in (0, 1):
        e, s = state.storage[p]
        relics = [t.names[sq] for q, sq in state.taken if q == p]
        lines.append("%s: storage %de %ds, relics %s, score %d" % (PLAYERS[p], e, s, ",".join(relics) or "none", sc[p]))
    lines.append(
        "spirit track %d/%d, stream: %s"
        % (
            state.track,
            t.spirit_track,
            ", ".join("%s/%s" % (t.kinds[w], t.kinds[b]) for w, b in state.stream) or "empty",
        )
    )
    return "\n".join(lines)
