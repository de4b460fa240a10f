"""Onitama rules, notation, options, deal, JSON, views and site terminations."""

from __future__ import annotations

import doctest
import hashlib
import importlib
import json
import os

import pytest

from engine import get_game
from engine.core import Outcome, replay
from engine.errors import IllegalMoveError, MoveSyntaxError, OptionsError, StateFormatError
from engine.fair import SeedStream
from engine.onitama import CARD_NAMES, DATA_VERSION, POOLS, RULES, Move, perft, position_from_text, position_text
from engine.onitama.cards import BLUE, CARD_ID, DEST, RED, square_index, square_name, squares_of

CARDS_JSON = os.path.join(os.path.dirname(__file__), "..", "..", "engine", "onitama", "cards.json")
SHARED_CARDS = os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "rules", "onitama-cards.json")
START = "bbBbb/5/5/5/rrRrr boar,ox elephant,horse crab r"


def sq(name: str) -> int:
    return square_index(name)


def play(state, *texts: str):
    for text in texts:
        state = RULES.apply(state, RULES.parse_move(state, text))
    return state


def card_data() -> dict:
    with open(CARDS_JSON, encoding="utf-8") as handle:
        return json.load(handle)


# -- card data ------------------------------------------------------------------


def test_registry_and_card_data() -> None:
    assert get_game("onitama") is RULES
    assert RULES.players == ("red", "blue")
    assert len(POOLS["base"]) == len(POOLS["senseis_path"]) == 16
    assert len(POOLS["mixed"]) == 32 == len(CARD_NAMES)
    assert list(CARD_NAMES) == sorted(CARD_NAMES)


@pytest.mark.skipif(not os.path.exists(SHARED_CARDS), reason="no ../shared checkout")
def test_packaged_cards_are_the_shared_cards() -> None:
    with open(SHARED_CARDS, encoding="utf-8") as handle:
        assert json.load(handle) == card_data()


def test_blue_offsets_are_negated() -> None:
    data = card_data()
    for pool in ("base", "senseis_path"):
        for name, card in data[pool].items():
            for square in range(25):
                x, y = square % 5, square // 5
                for colour, sign in ((RED, 1), (BLUE, -1)):
                    expect = {
                        tx + 5 * ty
                        for tx, ty in ((x + sign * dx, y + sign * dy) for dx, dy in card["moves"])
                        if 0 <= tx < 5 and 0 <= ty < 5
                    }
                    assert set(squares_of(DEST[colour][CARD_ID[name]][square])) == expect
    # tiger (0,2),(0,-1): red c1 -> c3 only; blue c5 -> c3 only; blue c3 -> c1 and c4
    tiger = CARD_ID["tiger"]
    assert set(squares_of(DEST[RED][tiger][sq("c1")])) == {sq("c3")}
    assert set(squares_of(DEST[BLUE][tiger][sq("c5")])) == {sq("c3")}
    assert set(squares_of(DEST[BLUE][tiger][sq("c3")])) == {sq("c1"), sq("c4")}
    state = position_from_text("bbBbb/5/5/5/rrRrr boar,ox tiger,horse crab b")
    assert Move("tiger", sq("c5"), sq("c3")) in RULES.legal_moves(state)
    assert "tiger:c5c7" not in [RULES.move_text(m) for m in RULES.legal_moves(state)]


# -- winning ----------------------------------------------------------------------


def test_capturing_the_master_wins() -> None:
    state = position_from_text("5/5/2B2/2r2/R4 boar,ox crab,horse tiger r")
    after = play(state, "boar:c2c3")
    assert RULES.outcome(after) == Outcome("red", "master_captured")
    assert after.blue_master == -1
    assert RULES.to_move(after) is None and RULES.legal_moves(after) == []
    assert RULES.result_line(after) == "result: red"
    with pytest.raises(IllegalMoveError) as info:
        RULES.apply(after, Move("tiger", sq("a1"), sq("a3")))
    assert info.value.code == "game_over"
    with pytest.raises(IllegalMoveError) as info:
        RULES.parse_move(after, "tiger:a1a3")
    assert info.value.code == "game_over"
    # the finished position reads back as finished
    assert position_from_text(position_text(after)).outcome == Outcome("red", "master_captured")


def test_capturing_a_student_does_not_win() -> None:
    after = play(position_from_text("4B/5/2b2/2r2/R4 boar,ox crab,horse tiger r"), "boar:c2c3")
    assert RULES.outcome(after) is None and RULES.to_move(after) == "blue"
    assert len(after.history) == 1  # a capture restarts the repetition history


def test_master_on_the_enemy_arch_wins_for_both_colours() -> None:
    red = play(position_from_text("b3B/2R2/5/5/5 boar,ox crab,horse tiger r"), "boar:c4c5")
    assert RULES.outcome(red) == Outcome("red", "temple_reached")
    blue = play(position_from_text("5/5/5/2B2/R4 crab,horse boar,ox tiger b"), "boar:c2c1")
    assert RULES.outcome(blue) == Outcome("blue", "temple_reached")
    assert RULES.result_line(blue) == "result: blue"


def test_master_capturing_the_master_on_its_arch_is_a_capture() -> None:
    after = play(position_from_text("2B2/2R2/5/5/5 boar,ox crab,horse tiger r"), "boar:c4c5")
    assert RULES.outcome(after) == Outcome("red", "master_captured")
    assert position_from_text(position_text(after)).outcome == RULES.outcome(after)


def test_student_on_the_enemy_arch_wins_nothing() -> None:
    after = play(position_from_text("b3B/2r2/5/5/R4 boar,ox crab,horse tiger r"), "boar:c4c5")
    assert RULES.outcome(after) is None
    own_arch = play(position_from_text("4B/5/5/5/R1R2 boar,ox crab,horse tiger r".replace("R1R2", "R4")), "boar:a1b1")
    assert RULES.outcome(own_arch) is None


# -- passing ------------------------------------------------------------------------


def test_pass_gives_a_card_when_no_move_exists() -> None:
    # dog and frog take Red's lone master on a1 nowhere
    state = position_from_text("4B/5/5/5/R4 dog,frog boar,ox crab r")
    assert RULES.legal_moves(state) == [Move("dog"), Move("frog")]
    assert perft(state, 1) == 2
    after = RULES.apply(state, RULES.parse_move(state, "frog:pass"))
    assert position_text(after) == "4B/5/5/5/R4 crab,dog boar,ox frog b"
    assert after.red == state.red and after.ply == 1
    assert RULES.move_text(Move("frog")) == "frog:pass"
    # passing while a move exists is refused
    with pytest.raises(IllegalMoveError) as info:
        RULES.parse_move(position_from_text(START), "boar:pass")
    assert info.value.code == "must_move" and "boar:" in info.value.message
    with pytest.raises(IllegalMoveError):
        RULES.apply(position_from_text(START), Move("boar"))
    # a pass still needs a card in hand
    with pytest.raises(IllegalMoveError) as info:
        RULES.parse_move(state, "crab:pass")
    assert info.value.code == "not_in_hand"


def test_exchange_with_the_side_card() -> None:
    after = play(position_from_text(START), "ox:c1c2")
    assert [CARD_NAMES[c] for c in after.red_hand] == ["boar", "crab"]
    assert CARD_NAMES[after.side] == "ox" and after.to_play == "blue"
    after = play(after, "horse:c5c4")
    assert [CARD_NAMES[c] for c in after.blue_hand] == ["elephant", "ox"]
    assert CARD_NAMES[after.side] == "horse"


# -- repetition ------------------------------------------------------------------------

CYCLE = "ox:c2d2 horse:c4c5 elephant:d2c3 ox:c5b5 horse:c3c2 elephant:b5c4".split()
CYCLE_START = "4B/2b2/5/2r2/R4 boar,ox crab,horse elephant r"


def test_threefold_repetition_is_a_draw() -> None:
    state = position_from_text(CYCLE_START)
    once = play(state, *CYCLE)
    assert position_text(once) == CYCLE_START and RULES.outcome(once) is None
    almost = play(once, *CYCLE[:-1])
    assert RULES.outcome(almost) is None
    third = play(almost, CYCLE[-1])
    assert RULES.outcome(third) == Outcome(None, "repetition")
    assert third.ply == 12 and RULES.result_line(third) == "result: draw"
    assert RULES.to_move(third) is None
    # perft looks at the position only
    assert perft(third, 2) == perft(position_from_text(CYCLE_START), 2) > 1


def test_repetition_compares_hands_as_sets() -> None:
    a = position_from_text("4B/2b2/5/2r2/R4 ox,boar horse,crab elephant r")
    b = position_from_text(CYCLE_START)
    assert a == b and a.key == b.key and a.zobrist == b.zobrist


# -- deal ------------------------------------------------------------------------------


def _documented_deal(seed: int, pool: list[str]) -> list[str]:
    """The package docstring's deal, written from scratch (SHA-256 stream, Fisher-Yates)."""
    prefix = seed.to_bytes(32, "big") + b"onitama/deal"
    words: list[int] = []
    counter = 0

    def below(n: int) -> int:
        nonlocal counter
        limit = 2**64 - 2**64 % n
        while True:
            if not words:
                block = hashlib.sha256(prefix + counter.to_bytes(8, "big")).digest()
                counter += 1
                words.extend(int.from_bytes(block[i : i + 8], "big") for i in range(0, 32, 8))
            x = words.pop(0)
            if x < limit:
                return x % n

    items = sorted(pool)
    for i in range(len(items) - 1, 0, -1):
        j = below(i + 1)
        items[i], items[j] = items[j], items[i]
    return items[:5]


@pytest.mark.parametrize("cards", ["base", "senseis_path", "mixed"])
@pytest.mark.parametrize("seed", [0, 1, 7, 2**256 - 1, 123456789])
def test_deal_follows_the_documented_contract(cards: str, seed: int) -> None:
    data = card_data()
    pool = list(data["base"]) * (cards != "senseis_path") + list(data["senseis_path"]) * (cards != "base")
    dealt = _documented_deal(seed, pool)
    stamps = {**data["base"], **data["senseis_path"]}
    revealed = RULES.reveal(seed, {"cards": cards})
    assert revealed == {
        "red": sorted(dealt[:2]),
        "blue": sorted(dealt[2:4]),
        "side": dealt[4],
        "first": stamps[dealt[4]]["stamp"],
    }
    assert list(revealed) == ["red", "blue", "side", "first"]
    assert RULES.reveal(seed, {"cards": cards}) == revealed  # deterministic
    state = RULES.new_game(seed, {"cards": cards})
    assert state.hand_names(RED) == revealed["red"] and state.hand_names(BLUE) == revealed["blue"]
    assert CARD_NAMES[state.side] == revealed["side"]
    assert RULES.to_move(state) == revealed["first"] == stamps[dealt[4]]["stamp"]
    assert position_text(state).startswith("bbBbb/5/5/5/rrRrr ")
    assert state.cards == cards and state.data_version == DATA_VERSION


def test_first_player_follows_the_stamp_over_many_seeds() -> None:
    stamps = {name: card["stamp"] for pool in ("base", "senseis_path") for name, card in card_data()[pool].items()}
    firsts = set()
    for seed in range(60):
        state = RULES.new_game(seed, {"cards": "mixed"})
        assert RULES.to_move(state) == stamps[CARD_NAMES[state.side]]
        firsts.add(RULES.to_move(state))
    assert firsts == {"red", "blue"}


def test_options_and_data_version() -> None:
    assert RULES.normalize_options(None) == {"cards": "base"}
    assert RULES.normalize_options({}) == {"cards": "base"}
    assert RULES.normalize_options({"cards": "mixed"}) == {"cards": "mixed"}
    for bad, code in (
        ({"cards": "all"}, "bad_cards"),
        ({"variant": "first"}, "unknown_option"),
        ({"cards": None}, "bad_cards"),
        ([("cards", "base")], "bad_options"),
    ):
        with pytest.raises(OptionsError) as info:
            RULES.normalize_options(bad)  # type: ignore[arg-type]
        assert info.value.code == code and info.value.message
    with pytest.raises(OptionsError) as info:
        RULES.new_game(1, None, data_version="onitama-0")
    assert info.value.code == "bad_data_version"
    assert RULES.new_game(1, None, data_version=DATA_VERSION) == RULES.new_game(1)
    with pytest.raises(OptionsError):
        RULES.new_game(-1)
    with pytest.raises(OptionsError):
        RULES.reveal(1, {"cards": "mixed", "extra": 1})


# -- notation -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text,code",
    [
        ("boar c1c2", "bad_syntax"),
        ("", "bad_syntax"),
        ("Boar:c1c2", "bad_syntax"),
        ("boar:c1c2:x", "bad_square"),
        ("wolf:c1c2", "unknown_card"),
        ("boar:c1", "bad_square"),
        ("boar:f1c2", "bad_square"),
        ("boar:c0c2", "bad_square"),
        ("boar:c1c2c3", "bad_square"),
        ("boar:passes", "bad_square"),
        ("boar:", "bad_square"),
    ],
)
def test_parse_move_syntax_errors(text: str, code: str) -> None:
    with pytest.raises(MoveSyntaxError) as info:
        RULES.parse_move(position_from_text(START), text)
    assert info.value.code == code and info.value.message


def test_parse_move_not_text() -> None:
    with pytest.raises(MoveSyntaxError) as info:
        RULES.parse_move(position_from_text(START), 3)  # type: ignore[arg-type]
    assert info.value.code == "not_text"


@pytest.mark.parametrize(
    "text,code,words",
    [
        ("crab:c1c2", "not_in_hand", "you hold boar and ox"),
        ("boar:c3c4", "not_your_piece", "no piece on c3"),
        ("boar:c1c3", "unreachable", "boar cannot move a piece from c1 to c3"),
        ("boar:c1b1", "own_piece", "b1 holds one of your own pieces"),
        ("boar:c1c1", "unreachable", "from c1 to c1"),
        ("boar:c5c4", "not_your_piece", "no piece on c5"),
        ("ox:a1b2", "unreachable", "(from there it can go to a2)"),
        ("ox:e1e3", "unreachable", "(from there it can go to e2)"),
    ],
)
def test_parse_move_illegal(text: str, code: str, words: str) -> None:
    state = position_from_text(START)
    with pytest.raises(IllegalMoveError) as info:
        RULES.parse_move(state, text)
    assert info.value.code == code and words in info.value.message
    card, rest = text.split(":")
    with pytest.raises(IllegalMoveError) as info2:
        RULES.apply(state, Move(card, sq(rest[:2]), sq(rest[2:])))
    assert info2.value.code == code


@pytest.mark.parametrize(
    "move",
    [
        Move("boar", 25, 3),
        Move("boar", -1, -1),
        Move("boar", 2, None),
        Move("boar", True, 7),
        Move("wolf", 2, 7),
        ("boar", 2),
        "boar:c1c2",
        None,
        Move(3, 2, 7),  # type: ignore[arg-type]
    ],
)
def test_apply_refuses_values_that_are_not_moves(move: object) -> None:
    with pytest.raises(IllegalMoveError):
        RULES.apply(position_from_text(START), move)


def test_apply_accepts_a_plain_tuple_and_does_not_change_its_input() -> None:
    state = position_from_text(START)
    before = RULES.to_json(state)
    after = RULES.apply(state, ("boar", sq("c1"), sq("c2")))
    assert RULES.to_json(state) == before and after != state
    assert position_text(after) == "bbBbb/5/5/2R2/rr1rr crab,ox elephant,horse boar b"


def test_legal_move_order_and_texts() -> None:
    state = position_from_text(START)
    moves = RULES.legal_moves(state)
    assert moves == sorted(moves, key=lambda m: (m.card, m.src, m.dst))
    assert [RULES.move_text(m) for m in moves] == [
        "boar:a1a2",
        "boar:b1b2",
        "boar:c1c2",
        "boar:d1d2",
        "boar:e1e2",
        "ox:a1a2",
        "ox:b1b2",
        "ox:c1c2",
        "ox:d1d2",
        "ox:e1e2",
    ]
    for move in moves:
        assert RULES.parse_move(state, RULES.move_text(move)) == move
    assert RULES.parse_move(state, "  boar:c1c2\n") == Move("boar", 2, 7)


# -- position text ----------------------------------------------------------------------


def test_position_text_round_trip_with_either_hand_order() -> None:
    for text in ("bbBbb/5/5/5/rrRrr ox,boar horse,elephant crab b", "bbBbb/5/5/5/rrRrr boar,ox elephant,horse crab b"):
        state = position_from_text(text)
        assert position_text(state) == "bbBbb/5/5/5/rrRrr boar,ox elephant,horse crab b"
        assert position_from_text(position_text(state)) == state
    odd = "1b1B1/r3b/2R2/5/3r1 sea_snake,kirin fox,bear mouse r"
    state = position_from_text(odd)
    assert position_text(state) == "1b1B1/r3b/2R2/5/3r1 kirin,sea_snake bear,fox mouse r"
    assert state.cards == "senseis_path" and state.red_master == sq("c3")


@pytest.mark.parametrize(
    "text,words",
    [
        ("bbBbb/5/5/5/rrRrr boar,ox elephant,horse crab", "five parts"),
        ("bbBbb/5/5/5 boar,ox elephant,horse crab r", "five ranks"),
        ("bbBbb/5/5/5/rrRr boar,ox elephant,horse crab r", "Rank 1"),
        ("bbBbb/6/5/5/rrRrr boar,ox elephant,horse crab r", "Unexpected '6'"),
        ("bbBbb/4/5/5/rrRrr boar,ox elephant,horse crab r", "Rank 4"),
        ("bbBbb/5/5/5/rrRrrr boar,ox elephant,horse crab r", "more than five squares"),
        ("bbBbb/5/5/5/rrRxr boar,ox elephant,horse crab r", "Unexpected 'x'"),
        ("bbBbb/5/5/r4/rrRrr boar,ox elephant,horse crab r", "at most five pieces"),
        ("bbBbb/5/5/R4/rrRr1 boar,ox elephant,horse crab r", "two masters"),
        ("bbbb1/5/5/5/rrrr1 boar,ox elephant,horse crab r", "Both masters"),
        ("bbbbb/5/5/5/rrRrr boar,ox elephant,horse crab r", "four students"),
        ("bbBbb/5/5/5/rrRrr boar elephant,horse crab r", "two card names"),
        ("bbBbb/5/5/5/rrRrr boar,ox,tiger elephant,horse crab r", "two card names"),
        ("bbBbb/5/5/5/rrRrr boar,wolf elephant,horse crab r", "Unknown card 'wolf'"),
        ("bbBbb/5/5/5/rrRrr boar,ox elephant,horse ox r", "all be different"),
        ("bbBbb/5/5/5/rrRrr boar,ox elephant,horse crab x", "r or b"),
        ("bbRbb/5/5/5/rr1rr boar,ox elephant,horse crab r", "already won"),
        ("bbRbb/5/5/5/rrBrr boar,ox elephant,horse crab r", "both sides"),
    ],
)
def test_malformed_positions(text: str, words: str) -> None:
    with pytest.raises(StateFormatError) as info:
        position_from_text(text)
    assert words in info.value.message and info.value.code == "bad_position"


def test_position_must_be_text() -> None:
    with pytest.raises(StateFormatError):
        position_from_text(None)  # type: ignore[arg-type]


# -- JSON, view, summary ------------------------------------------------------------------


def test_json_round_trip_including_history() -> None:
    state = play(position_from_text(CYCLE_START), *CYCLE, *CYCLE[:3])
    data = RULES.to_json(state)
    assert data["schema"] == "onitama/1" and len(data["history"]) == 10
    assert json.loads(json.dumps(data)) == data
    back = RULES.from_json(json.loads(json.dumps(data)))
    assert back == state and back.history == state.history and back.zobrist == state.zobrist
    # the history is what makes the next cycle a draw
    assert RULES.outcome(play(back, *CYCLE[3:4])) is None
    assert RULES.outcome(play(back, *CYCLE[3:])) == Outcome(None, "repetition")
    for finished in (
        play(back, *CYCLE[3:]),
        RULES.terminate(state, reason="agreement", winner=None),
        RULES.terminate(state, reason="resign", winner="blue"),
        play(position_from_text("5/5/2B2/2r2/R4 boar,ox crab,horse tiger r"), "boar:c2c3"),
    ):
        assert RULES.from_json(RULES.to_json(finished)) == finished


def _broken(change) -> dict:
    data = RULES.to_json(play(RULES.new_game(7), *[]))
    change(data)
    return data


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.update(schema="onitama/2"),
        lambda d: d.pop("history"),
        lambda d: d.update(extra=1),
        lambda d: d.update(data_version="onitama-0"),
        lambda d: d.update(options={"cards": "none"}),
        lambda d: d.update(position="nonsense"),
        lambda d: d.update(ply=-1),
        lambda d: d.update(ply="3"),
        lambda d: d.update(history=[]),
        lambda d: d.update(history=["bbBbb/5/5/5/rrRrr boar,ox elephant,horse crab r"]),
        lambda d: d.update(outcome={"winner": "red", "reason": "master_captured", "scores": None}),
        lambda d: d.update(outcome={"winner": None, "reason": "repetition", "scores": None}),
        lambda d: d.update(outcome="red"),
        lambda d: d.update(outcome={"winner": "red", "reason": "agreement", "scores": None}),
        lambda d: d.update(outcome={"winner": "red", "reason": "resign", "scores": {"red": 1}}),
        lambda d: d.update(history="bbBbb/5/5/5/rrRrr boar,ox elephant,horse crab r"),
        lambda d: d.update(options={"cards": "senseis_path"}),
    ],
)
def test_from_json_refuses_bad_data(change) -> None:
    with pytest.raises(StateFormatError):
        RULES.from_json(_broken(change))
    with pytest.raises(StateFormatError):
        RULES.from_json([])  # type: ignore[arg-type]


def test_view_summary_and_result_line() -> None:
    state = RULES.new_game(7, {"cards": "mixed"})
    view = RULES.view(state, "red")
    assert RULES.view(state, "blue") == {**view, "player": "blue"}
    assert view["position"] == position_text(state)
    assert view["board"] == ["bbBbb", ".....", ".....", ".....", "rrRrr"]
    assert view["hands"] == {"red": state.hand_names(RED), "blue": state.hand_names(BLUE)}
    assert view["to_move"] == RULES.to_move(state) and view["ply"] == 0
    assert view["outcome"] is None and len(view["cards"]) == 5
    text = json.dumps(view)
    assert "seed" not in text and '"7"' not in text
    with pytest.raises(OptionsError):
        RULES.view(state, "green")
    summary = RULES.summary(state)
    assert "5  b b B b b" in summary and "1  r r R r r" in summary
    assert CARD_NAMES[state.side] in summary and "to move:" in summary
    assert RULES.result_line(state) == "result: unfinished"


def test_terminate() -> None:
    state = play(position_from_text(START), "boar:c1c2")
    drawn = RULES.terminate(state, reason="agreement", winner=None)
    assert RULES.outcome(drawn) == Outcome(None, "agreement")
    assert RULES.result_line(drawn) == "result: draw" and RULES.legal_moves(drawn) == []
    assert RULES.to_move(drawn) is None and position_text(drawn) == position_text(state)
    resigned = RULES.terminate(state, reason="resign", winner="red")
    assert RULES.outcome(resigned) == Outcome("red", "resign")
    timed_out = RULES.outcome(RULES.terminate(state, reason="timeout", winner="blue"))
    assert timed_out is not None and timed_out.winner == "blue"
    with pytest.raises(IllegalMoveError):
        RULES.terminate(drawn, reason="agreement", winner=None)
    for reason, winner in (
        ("agreement", "red"),
        ("resign", "green"),
        ("repetition", None),
        ("Bad Reason", None),
        ("master_captured", "red"),
    ):
        with pytest.raises(OptionsError):
            RULES.terminate(state, reason=reason, winner=winner)


def test_random_move_is_uniform_over_legal_moves() -> None:
    class Fixed(SeedStream):
        """A stream whose ``below`` returns a chosen value, and records what it was asked."""

        def __init__(self, value: int) -> None:
            super().__init__(0, "fixed")
            self.value = value
            self.asked: list[int] = []

        def below(self, n: int) -> int:
            self.asked.append(n)
            return self.value

    state = position_from_text(START)
    moves = RULES.legal_moves(state)
    for i in range(len(moves)):
        stream = Fixed(i)
        assert RULES.random_move(state, stream) == moves[i]
        assert stream.asked == [len(moves)]


def test_replay_of_texts() -> None:
    state = RULES.new_game(11, {"cards": "base"})
    texts = []
    for _ in range(6):
        move = RULES.legal_moves(state)[-1]
        texts.append(RULES.move_text(move))
        state = RULES.apply(state, move)
    assert replay(RULES, 11, {"cards": "base"}, texts) == state


@pytest.mark.parametrize(
    "module",
    ["engine.onitama", "engine.onitama.cards", "engine.onitama.fast", "engine.onitama.rules", "engine.onitama.state"],
)
def test_docstring_examples(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0


def test_previews_say_what_each_move_captures_and_ends() -> None:
    """The preview of every legal move agrees with the state ``apply`` returns."""
    captures = wins = passes = 0
    for seed in range(30):
        state = RULES.new_game(seed, {"cards": "mixed"})
        stream = SeedStream(seed, "test/previews")
        while RULES.outcome(state) is None:
            red = state.turn == RED
            for preview in RULES.move_previews(state):
                move, e = preview.move, preview.effects
                assert isinstance(move, Move)
                after = RULES.apply(state, move)
                assert e["card"] == move.card and e["receives"] == CARD_NAMES[state.side]
                assert after.side == CARD_ID[move.card]
                assert e["ends"] == (after.outcome.as_dict() if after.outcome else None)
                wins += e["ends"] is not None
                if move.src is None or move.dst is None:
                    passes += 1
                    assert e == {"type": "pass", "card": move.card, "receives": e["receives"], "ends": e["ends"]}
                    continue
                assert (e["from"], e["to"]) == (square_name(move.src), square_name(move.dst))
                master = state.red_master if red else state.blue_master
                assert (e["piece"] == "master") is (move.src == master)
                enemy_before = state.blue if red else state.red
                enemy_after = after.blue if red else after.red
                lost = enemy_before & ~enemy_after
                captured = e["captures"]
                if captured is None:
                    assert lost == 0
                else:
                    captures += 1
                    assert isinstance(captured, dict)
                    assert lost == 1 << move.dst and captured["square"] == e["to"]
                    enemy_master = state.blue_master if red else state.red_master
                    assert (captured["piece"] == "master") is (move.dst == enemy_master)
            state = RULES.apply(state, RULES.random_move(state, stream))
    assert captures > 0 and wins > 0
