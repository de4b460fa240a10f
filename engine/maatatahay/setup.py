"""Setting up a Maatatahay game from a seed: every random draw, documented.

All setup randomness reads ONE stream, ``SeedStream(seed, "maatatahay/setup")``
(see ``engine.fair`` for how a stream turns into numbers), in this order:

1. Start player: ``below(2)``; 0 = balan, 1 = wazu. The start player is the
   active player of round 1 (in the Standard Game the other player drafts first).
2. First Game only, when the option ``opening`` is not given:
   ``below(4) + 1`` is the opening.
3. The bag: the list of its crystals, all Energy first then all Spirit
   (First Game 13 + 13, Standard Game 15 + 15), is shuffled (``shuffle``).
   Draws always take from the front of this list.
4. The piles, Balan's first, then Wazu's; each pile is listed top first (the
   order in which tiles are turned up).
   - First Game: the 8 tiles other than Champion, Berserk, Convert and Elder,
     listed in the data table's tile order (bravery x3, rookie x2, elite x2,
     support) are shuffled; the first 4 with Convert and Elder (in that
     order) form the lower pile, which is shuffled; the last 4 with Champion
     and Berserk form the upper pile, which is shuffled. Pile = upper + lower.
   - Standard Game: the 12 tiles in table order are shuffled.
5. No randomness: one crystal is drawn from the bag onto each Crystal Niche
   (First Game: each niche without a relic) in square order a1, a2, .., a5,
   b1, .., e5; then the top 3 tiles of each pile are turned up, the i-th of
   Wazu's and the i-th of Balan's forming a pair (Standard Game: after the
   draft). Every later bag draw (a Shrine's favour) takes the next crystals.

``reveal(seed, options)`` prints exactly these results.

>>> from engine.maatatahay.setup import reveal
>>> r = reveal(7, {"variant": "first", "opening": 2})
>>> r["opening"], r["relics"], len(r["piles"]["balan"]), len(r["bag"])
(2, ['a3', 'c1', 'c3', 'c5', 'e3'], 12, 14)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import OptionsError
from ..fair import SeedStream, check_seed
from .board import CRYSTALS, PLAYERS, Tables, tables
from .data import CURRENT
from .state import State

LABEL = "maatatahay/setup"
VARIANTS = ("first", "standard")


def normalize_options(options: Mapping[str, Any] | None) -> dict[str, Any]:
    """``{"variant": "first"|"standard", "opening": 1..4 or None}`` with defaults.

    >>> normalize_options(None)
    {'variant': 'first', 'opening': None}
    """
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise OptionsError("bad_options", "Options must be a mapping", value=repr(options))
    unknown = sorted(set(options) - {"variant", "opening"})
    if unknown:
        raise OptionsError("unknown_option", "Maatatahay has no option %r" % unknown[0], option=str(unknown[0]))
    variant = options.get("variant", "first")
    if variant is None:
        variant = "first"
    if variant not in VARIANTS:
        raise OptionsError("bad_variant", "The variant must be 'first' or 'standard'", variant=str(variant))
    opening = options.get("opening")
    if opening is not None:
        if variant != "first":
            raise OptionsError(
                "opening_in_standard",
                "Openings belong to the First Game; the Standard Game drafts its Shrines",
                opening=str(opening),
            )
        if isinstance(opening, bool) or not isinstance(opening, int) or not 1 <= opening <= 4:
            raise OptionsError("bad_opening", "The opening must be 1, 2, 3 or 4", opening=str(opening))
    return {"variant": variant, "opening": opening}


def _deal(t: Tables, seed: int, options: dict[str, Any]) -> dict[str, Any]:
    """Run the documented draws; returns start, opening, bag (full), piles."""
    stream = SeedStream(check_seed(seed), LABEL)
    variant = options["variant"]
    setup = t.data[variant]
    start = stream.below(2)
    opening = options["opening"]
    if variant == "first" and opening is None:
        opening = stream.below(4) + 1
    bag = [0] * int(setup["bag"]["energy"]) + [1] * int(setup["bag"]["spirit"])
    stream.shuffle(bag)
    piles = []
    for _tribe in PLAYERS:
        if variant == "first":
            upper_group = [t.kind_index[k] for k in setup["upper"]]
            lower_group = [t.kind_index[k] for k in setup["lower"]]
            special = set(upper_group) | set(lower_group)
            basics = [k for k in range(len(t.kinds)) if k not in special for _ in range(t.counts[k])]
            stream.shuffle(basics)
            half = len(basics) // 2
            lower = basics[:half] + lower_group
            stream.shuffle(lower)
            upper = basics[half:] + upper_group
            stream.shuffle(upper)
            piles.append(tuple(upper + lower))
        else:
            pile = [k for k in range(len(t.kinds)) for _ in range(t.counts[k])]
            stream.shuffle(pile)
            piles.append(tuple(pile))
    if variant == "first":
        relic_squares = [t.index[s] for s in setup["openings"][str(opening)]["relics"]]
    else:
        relic_squares = []
    relics = 0
    for i in relic_squares:
        relics |= 1 << i
    ground = [(0, 0)] * t.size
    pos = 0
    for i in t.niche_list:
        if relics >> i & 1 or pos >= len(bag):
            continue
        ground[i] = (1, 0) if bag[pos] == 0 else (0, 1)
        pos += 1
    return {
        "start": start,
        "opening": opening if variant == "first" else None,
        "bag": tuple(bag[pos:]),
        "piles": tuple(piles),
        "relics": relics,
        "ground": tuple(ground),
    }


def turn_up(state: State, count: int) -> None:
    """Turn up ``count`` pairs from the piles onto the stream (in place, on a fresh copy)."""
    balan, wazu = state.piles
    n = min(count, len(balan), len(wazu))
    if n <= 0:
        return
    state.stream = tuple(sorted(state.stream + tuple(zip(wazu[:n], balan[:n], strict=True))))
    state.piles = (balan[n:], wazu[n:])


def new_game(seed: int, options: Mapping[str, Any] | None = None, *, data_version: str | None = None) -> State:
    """The state before the first decision.

    >>> s = new_game(7, {"variant": "standard"})
    >>> s.phase, s.turn == 1 - s.start, s.stream
    ('draft', True, ())
    """
    opts = normalize_options(options)
    t = tables(data_version or CURRENT)
    deal = _deal(t, seed, opts)
    variant = opts["variant"]
    setup = t.data[variant]
    st = State.__new__(State)
    st.t = t
    st.data_version = t.version
    st.variant = variant
    st.opening = deal["opening"]
    st.start = deal["start"]
    st.round = 1
    st.active = st.start
    st.cells = (None,) * t.size
    st.own = (0, 0)
    st.live = (0, 0)
    st.ground = deal["ground"]
    st.relics = deal["relics"]
    held = (int(setup["storage"]["energy"]), int(setup["storage"]["spirit"]))
    st.storage = (held, held)
    st.taken = ()
    st.track = 0
    st.stream = ()
    st.pair = None
    st.first = None
    st.placed = 0
    st.pending = -1
    st.favour = ()
    st.draft = 0
    st.draft_got = (0, 0)
    st.piles = deal["piles"]
    st.bag = deal["bag"]
    st.ended = None
    if variant == "first":
        st.phase = "pick"
        st.turn = st.start
        turn_up(st, int(setup["stream"]))
    else:
        st.phase = "draft"
        st.turn = draft_player(st, 0)
    return st


def draft_player(state: State, step: int) -> int:
    """Who places the ``step``-th relic of the Standard Game draft."""
    who = state.t.data["standard"]["draft"][step]
    return state.start if who == "start" else 1 - state.start


def reveal(seed: int, options: Mapping[str, Any] | None = None, *, data_version: str | None = None) -> dict[str, Any]:
    """Everything the seed decides, as JSON data (see the module docstring)."""
    opts = normalize_options(options)
    t = tables(data_version or CURRENT)
    deal = _deal(t, seed, opts)
    return {
        "variant": opts["variant"],
        "opening": deal["opening"],
        "start": PLAYERS[deal["start"]],
        "relics": [t.names[i] for i in range(t.size) if deal["relics"] >> i & 1],
        "niches": {t.names[i]: ("energy" if e else "spirit") for i, (e, s) in enumerate(deal["ground"]) if e or s},
        "piles": {PLAYERS[p]: [t.kinds[k] for k in deal["piles"][p]] for p in (0, 1)},
        "bag": [CRYSTALS[c] for c in deal["bag"]],
        "data_version": t.version,
    }
