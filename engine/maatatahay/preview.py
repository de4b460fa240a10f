"""Previews of the legal Maatatahay decisions, from the public table only.

Before a player confirms a decision, the board shows what it would do. The
rules are not written again anywhere else: a placement's settlement comes from
the same ``rules.settlement`` that ``apply`` uses. The previews are computed on a
blinded copy of the state (no face-down piles, the bag reduced to its counts),
so they cannot depend on the hidden order; ``tests/engine/test_maatatahay_preview.py``
proves it and checks every preview against ``apply``.

``previews(state)`` gives ``[(move, effects), ...]`` in ``legal_moves`` order.
Crystal counts are ``{"energy": n, "spirit": n}``, squares and tiles their
names, players ``balan``/``wazu``. ``effects`` by ``"type"``:

- ``place`` and ``finish`` (``finish``: the second half of a Shrine
  placement, on the Shrine's ``square``): ``square``, ``tribe``, ``tile``,
  ``rotation``, ``put`` (crystals moved from storage onto the Hot Tile),
  ``collected`` (crystals lying on the space, taken into storage),
  ``strength`` (the Hot Tile's Strength at its settlement: ``claws``,
  ``support`` = Energy from friendly and map arrows, ``put`` = Energy moved
  from storage, ``ability`` = Elder/Convert bonus, ``total``), ``settled``
  (the warriors settled before the Hot Tile, as squares), ``order`` (the
  settlement order the move names, [] when it cannot matter), ``deaths``
  (``[{"square", "tribe", "tile"}]`` in square order, the Hot Tile included
  when it dies; friends and enemies alike), ``hot_survives``, ``hot_crystals``
  (on the Hot Tile afterwards; its Spirit includes ``loot``), ``loot`` (Spirit
  Crystals of the dead moved onto the Hot Tile; to the supply when it dies),
  ``storage`` (the placer's afterwards), ``scores`` (afterwards) and
  ``score_change`` (per player).
- ``shrine``: ``square``, ``tribe``, ``tile`` (the tile that will stand
  there), ``cost``, ``pay``, ``relic_points`` (what the relic scores),
  ``storage`` (after paying, before the favour), ``favour_draws`` (how many
  crystals are then drawn from the bag: the crystals themselves are unknown
  until drawn, so this move has a second confirm, ``finish``), ``bag`` (its
  counts before the draw), ``scores``, ``score_change``.
- ``draft``: ``square``, ``collected``, ``storage`` (afterwards).
- ``pick``: ``wazu``, ``balan`` (the pair's tiles), ``chooser`` (who then
  names the first placer).
- ``first``: ``player`` (places first), ``second``.

The previews of moves that differ only in rotation share their inner objects:
read them, do not change them. Moves other than placements are previewed by
``apply`` itself on the blinded state, read only where it shows public results
(the Shrine's favour drawn there is the blinded bag's, and is never shown).
"""

from __future__ import annotations

from ..core import JSONObject, JSONValue
from .board import ALIVE, KIND, OWNER, PLAYERS, SP, Tables, bits
from .moves import Draft, Finish, First, Move, Pick, Place, Shrine
from .rules import (
    _ORDERED,
    Settlement,
    Spot,
    _plan,
    _spot_moves,
    apply,
    arrow_bonus,
    legal_moves,
    scores,
    settlement,
    tile_of,
)
from .state import State


def blind(state: State) -> State:
    """A copy of ``state`` without the hidden order: no face-down piles, the bag's
    crystals sorted (only their counts stay, as in the view)."""
    new = state.copy()
    new.piles = ((), ())
    new.bag = tuple(sorted(state.bag))
    return new


_ALL = "*"


def previews(state: State) -> list[tuple[Move, JSONObject]]:
    """Every legal decision of the player to move with its preview (module docstring)."""
    return previews_at(state, _ALL)


def previews_at(state: State, square: str | None) -> list[tuple[Move, JSONObject]]:
    """The items of ``previews`` whose move names ``square`` (None: the moves that name no
    square: picks, who places first, the second half of a Shrine placement), computing
    only those: a placement's spaces other than ``square`` are not planned at all."""
    public = blind(state)
    placements = None
    if public.phase in ("place", "finish"):
        # legal_moves, spot by spot, keeping the settlements the listing built
        placements = _Placements(public)
        moves: list[Move] = []
        finish = public.phase == "finish"
        if square == _ALL or (square is None) == finish:
            only = None if finish or square in (_ALL, None) else public.t.index.get(square, -1)
            for spot in _plan(public, only):
                moves.extend(_spot_moves(public, spot))
                placements.know(spot)
    else:
        moves = [m for m in legal_moves(public) if square == _ALL or _square_of(m) == square]
    out: list[tuple[Move, JSONObject]] = []
    for move in moves:
        if isinstance(move, (Place, Finish)):
            assert placements is not None
            out.append((move, placements.preview(move)))
        else:
            out.append((move, _other(public, move)))
    return out


def _square_of(move: Move) -> str | None:
    """The space a decision names (Draft, Place, Shrine), or None."""
    return move.square if isinstance(move, (Draft, Place, Shrine)) else None


def _crystals(energy: int, spirit: int) -> JSONObject:
    return {"energy": energy, "spirit": spirit}


def _per_player(values: tuple[int, int] | list[int]) -> JSONObject:
    return {PLAYERS[0]: values[0], PLAYERS[1]: values[1]}


class _Placements:
    """Previews of the placements of one decision, sharing the work that several moves
    have in common: a placement's settlement depends on its square, the Energy put and
    the order only (the Spirit put changes neither Strength nor who dies, the rotation only
    the arrows later Hot Tiles receive), and one ``Settlement`` per square and Energy put
    serves all its orders, as in ``legal_moves``. The settlement is the engine's own
    (``rules.settlement``, which ``apply`` uses)."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.t: Tables = state.t
        self.p = state.placer
        self.kind = tile_of(state, self.p)
        self.scores = scores(state)
        self.settlements: dict[tuple[int, int], Settlement] = {}
        self.by_order: dict[tuple[int, int, tuple[str, ...]], tuple[int, bool, int, list[int], list[JSONValue]]] = {}
        self.by_result: dict[tuple[int, int, int, tuple[str, ...]], JSONObject] = {}
        self.support: dict[int, int] = {}

    def know(self, spot: Spot) -> None:
        """Keep the settlements ``legal_moves`` built for one spot (rules._plan)."""
        _weight, s, how, data = spot
        if how == _ORDERED:
            for put_e, st in data[1].items():
                self.settlements[(s, put_e)] = st

    def preview(self, move: Place | Finish) -> JSONObject:
        state, t = self.state, self.t
        s = t.index[move.square] if isinstance(move, Place) else state.pending
        key = (s, move.put_energy, move.put_spirit, move.order)
        found = self.by_result.get(key)
        if found is None:
            found = self.by_result[key] = self._effects(move, s)
        effects = dict(found)
        effects["rotation"] = move.rotation
        return effects

    def _settlement(self, s: int, put_e: int) -> Settlement:
        found = self.settlements.get((s, put_e))
        if found is None:
            found = self.settlements[(s, put_e)] = settlement(self.state, s, put_e)
        return found

    def _settled(self, s: int, put_e: int, order: tuple[str, ...]) -> tuple[int, bool, int, list[int], list[JSONValue]]:
        """(dead mask, Hot Tile dies, loot, score change by the deaths, deaths) of one order."""
        key = (s, put_e, order)
        found = self.by_order.get(key)
        if found is None:
            state, t, p = self.state, self.t, self.p
            st = self._settlement(s, put_e)
            dead = st.result(0) if st.n == 1 else st.dead_of_order(t.index[x] for x in order)
            hot_dead = st.hot_dies(dead)
            change = [0, 0]
            loot = 0
            for c in bits(dead):
                cell = state.cells[c]
                assert cell is not None and cell[ALIVE]
                loot += cell[SP]
                change[cell[OWNER]] -= t.sanity[cell[KIND]] + cell[SP]
            deaths: list[JSONValue] = []
            for c in bits(dead | 1 << s if hot_dead else dead):
                owner, kind = (p, self.kind) if c == s else _owner_kind(state, c)
                deaths.append({"square": t.names[c], "tribe": PLAYERS[owner], "tile": t.kinds[kind]})
            found = self.by_order[key] = (dead, hot_dead, loot, change, deaths)
        return found

    def _effects(self, move: Place | Finish, s: int) -> JSONObject:
        """Everything but the rotation (which changes nothing in this placement)."""
        state, t, p = self.state, self.t, self.p
        put_e, put_s = move.put_energy, move.put_spirit
        st = self._settlement(s, put_e)
        _dead, hot_dead, loot, by_deaths, deaths = self._settled(s, put_e, move.order)
        support = self.support.get(s)
        if support is None:
            support = self.support[s] = arrow_bonus(t, state.cells, p, s)
        claws = t.claws[self.kind]
        change = list(by_deaths)
        if hot_dead:
            hot_crystals = _crystals(0, 0)
        else:
            hot_crystals = _crystals(support + put_e, put_s + loot)
            change[p] += t.sanity[self.kind] + put_s + loot
        ground_e, ground_s = state.ground[s]
        held_e, held_s = state.storage[p]
        after = (self.scores[0] + change[0], self.scores[1] + change[1])
        return {
            "type": "place" if isinstance(move, Place) else "finish",
            "square": t.names[s],
            "tribe": PLAYERS[p],
            "tile": t.kinds[self.kind],
            "put": _crystals(put_e, put_s),
            "collected": _crystals(ground_e, ground_s),
            "strength": {
                "claws": claws,
                "support": support,
                "put": put_e,
                "ability": st.hot_str - claws - support - put_e,
                "total": st.hot_str,
            },
            "settled": [t.names[c] for c in st.cands],
            "order": list(move.order),
            "deaths": list(deaths),
            "hot_survives": not hot_dead,
            "hot_crystals": hot_crystals,
            "loot": loot,
            "storage": _crystals(held_e + ground_e - put_e, held_s + ground_s - put_s),
            "scores": _per_player(after),
            "score_change": _per_player(change),
        }


def _owner_kind(state: State, square: int) -> tuple[int, int]:
    cell = state.cells[square]
    assert cell is not None
    return cell[OWNER], cell[KIND]


def _other(state: State, move: Move) -> JSONObject:
    """The preview of a decision other than a placement: the engine's own ``apply`` on the
    blinded state, read where it shows only public results."""
    t = state.t
    after = apply(state, move)
    if isinstance(move, Shrine):
        p = state.placer
        drawn_s = sum(after.favour)
        held_e, held_s = after.storage[p]
        before, now = scores(state), scores(after)
        change = [now[0] - before[0], now[1] - before[1]]
        spirit_in_bag = sum(state.bag)
        return {
            "type": "shrine",
            "square": move.square,
            "tribe": PLAYERS[p],
            "tile": t.kinds[tile_of(state, p)],
            "cost": move.pay_energy + move.pay_spirit,
            "pay": _crystals(move.pay_energy, move.pay_spirit),
            "relic_points": change[p],
            "storage": _crystals(held_e - (len(after.favour) - drawn_s), held_s - drawn_s),
            "favour_draws": len(after.favour),
            "bag": _crystals(len(state.bag) - spirit_in_bag, spirit_in_bag),
            "scores": _per_player(now),
            "score_change": _per_player(change),
        }
    if isinstance(move, Draft):
        drafter = state.turn
        assert drafter is not None
        ground_e, ground_s = state.ground[t.index[move.square]]
        held_e, held_s = after.storage[drafter]
        return {
            "type": "draft",
            "square": move.square,
            "collected": _crystals(ground_e, ground_s),
            "storage": _crystals(held_e, held_s),
        }
    if isinstance(move, Pick):
        assert after.turn is not None
        return {"type": "pick", "wazu": move.wazu, "balan": move.balan, "chooser": PLAYERS[after.turn]}
    if isinstance(move, First):
        first = PLAYERS.index(move.player)
        return {"type": "first", "player": move.player, "second": PLAYERS[1 - first]}
    raise TypeError("not a Maatatahay decision: %r" % (move,))


__all__ = ["previews", "blind"]
