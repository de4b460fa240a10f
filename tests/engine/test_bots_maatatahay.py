"""The Maatatahay bot sees a player's view only: it cannot reach the hidden order, it is
deterministic for a seed, and its moves are legal in every phase (small budgets)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from engine.bots import choose_move
from engine.bots import maatatahay as mb
from engine.errors import StateFormatError
from engine.fair import SeedStream
from engine.maatatahay import RULES  # get_game("maatatahay"), typed as its own class (sample_state)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CAP = 0.05  # wall-time cap for the bigger levels in tests


def states_by_phase(seeds=range(1, 7)):
    """Running states from random games of both variants, grouped by phase."""
    found: dict[str, list] = {}
    for seed in seeds:
        options = {"variant": "first", "opening": 1 + seed % 4} if seed % 2 else {"variant": "standard"}
        state = RULES.new_game(seed, options)
        stream = SeedStream(seed, "test-bots-maatatahay")
        while RULES.outcome(state) is None:
            found.setdefault(state.phase, []).append(state)
            state = RULES.apply(state, RULES.random_move(state, stream))
    return found


PHASES = states_by_phase()


def pick(phase, i=0):
    states = PHASES[phase]
    return states[(i * 7) % len(states)]


def bot(state, level, seed=0):
    view = RULES.view(state, RULES.to_move(state))
    return choose_move("maatatahay", view, level=level, seed=seed, seconds=CAP if level >= 3 else None)


def with_hidden_order_changed(state):
    """The same game with the face-down piles and the bag in another order."""
    data = RULES.to_json(state)
    changed = json.loads(json.dumps(data))
    for tribe in changed["piles"]:
        changed["piles"][tribe] = list(reversed(changed["piles"][tribe]))
    changed["bag"] = sorted(changed["bag"], reverse=changed["bag"][:1] == ["energy"])
    other = RULES.from_json(changed)
    assert RULES.to_json(other) != data or (
        all(len(set(p)) <= 1 for p in data["piles"].values()) and len(set(data["bag"])) <= 1
    )
    return other


# --- the view is all the bot gets ---------------------------------------------------------------


def test_a_full_state_is_refused():
    state = pick("place")
    with pytest.raises(StateFormatError):
        choose_move("maatatahay", RULES.to_json(state), level=2, seed=1)


def test_the_view_holds_no_hidden_order():
    view = RULES.view(pick("place"), "balan")
    assert "piles" not in view
    assert set(view["bag"]) == {"energy", "spirit"} and all(isinstance(n, int) for n in view["bag"].values())


def test_hidden_order_cannot_change_the_move():
    """Two full states that differ only in the hidden order have equal views, so the bot
    (which takes the view and samples its own futures) plays the same move for a seed."""
    checked = 0
    for phase in ("pick", "place", "first"):
        state = pick(phase, 1)
        other = with_hidden_order_changed(state)
        player = RULES.to_move(state)
        assert RULES.view(state, player) == RULES.view(other, player)
        for level in (2, 3):
            a = choose_move("maatatahay", RULES.view(state, player), level=level, seed=11)
            b = choose_move("maatatahay", RULES.view(other, player), level=level, seed=11)
            assert a == b
            checked += 1
    assert checked == 6


def test_search_states_come_only_from_sample_state(monkeypatch):
    """Every state the search looks at is built by sample_state from the view."""
    calls = []
    real = RULES.sample_state

    def spy(view, stream):
        assert "piles" not in view and isinstance(view["bag"], dict)
        calls.append(1)
        return real(view, stream)

    monkeypatch.setattr(type(RULES), "sample_state", lambda self, v, s: spy(v, s))
    state = pick("place", 2)
    choose_move("maatatahay", RULES.view(state, RULES.to_move(state)), level=2, seed=3)
    assert len(calls) >= mb.LEVELS[2].iterations


# --- determinism and legality -------------------------------------------------------------------


def test_same_seed_same_move():
    for phase in ("pick", "place", "finish"):
        if phase not in PHASES:
            continue
        state = pick(phase, 3)
        for level in (1, 2, 3):
            view = RULES.view(state, RULES.to_move(state))
            a = choose_move("maatatahay", view, level=level, seed=5)
            b = choose_move("maatatahay", view, level=level, seed=5)
            assert a == b


@pytest.mark.parametrize("phase", ["draft", "pick", "first", "place", "finish"])
def test_moves_are_legal_in_every_phase_and_level(phase):
    if phase not in PHASES:
        pytest.skip("no %s state in the sample games" % phase)
    for i in range(2):
        state = pick(phase, i)
        for level in range(1, 6):
            RULES.parse_move(state, bot(state, level, seed=i))


def test_a_game_between_bots_is_legal_to_the_end():
    state = RULES.new_game(21, {"variant": "standard"})
    ply = 0
    while RULES.outcome(state) is None:
        text = bot(state, 1 + ply % 2, seed=ply)
        state = RULES.apply(state, RULES.parse_move(state, text))
        ply += 1
    assert ply > 10


def test_command_line_takes_a_view_file_and_refuses_a_full_state(tmp_path):
    state = pick("place", 4)
    view_file = tmp_path / "view.json"
    view_file.write_text(json.dumps(RULES.view(state, RULES.to_move(state))))
    full_file = tmp_path / "full.json"
    full_file.write_text(json.dumps(RULES.to_json(state)))
    cmd = [sys.executable, "-m", "engine", "bot-move", "maatatahay", "--level", "2", "--seed", "4", "--position"]
    ok = subprocess.run(cmd + [str(view_file)], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert ok.returncode == 0, ok.stderr
    RULES.parse_move(state, ok.stdout.strip().splitlines()[-1])
    refused = subprocess.run(cmd + [str(full_file)], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert refused.returncode != 0 and "view" in refused.stderr


# --- issue 18: wins at once, the stronger level 5, its version ----------------------------------


def states_with_a_win_at_once(count=4):
    """Running states where some legal moves end the game with a win for the mover and some
    do not (from random games of both variants)."""
    from engine.maatatahay import rules as R

    out: list = []
    seed = 100
    while len(out) < count and seed < 400:
        seed += 1
        options = {"variant": "first", "opening": 1 + seed % 4} if seed % 2 else {"variant": "standard"}
        state = RULES.new_game(seed, options)
        stream = SeedStream(seed, "test-bots-maatatahay-win")
        while RULES.outcome(state) is None:
            me = state.turn
            wins = [
                after.phase == "over" and R.winner(after)[0] == me
                for after in (R.apply(state, m) for m in R.legal_moves(state))
            ]
            if any(wins) and not all(wins):
                out.append(state)
            state = RULES.apply(state, RULES.random_move(state, stream))
    return out


def test_takes_a_win_at_once_at_every_level():
    states = states_with_a_win_at_once()
    assert len(states) >= 3
    for i, state in enumerate(states):
        player = RULES.to_move(state)
        for level in range(1, 6):
            text = choose_move("maatatahay", RULES.view(state, player), level=level, seed=i)
            outcome = RULES.outcome(RULES.apply(state, RULES.parse_move(state, text)))
            assert outcome is not None and outcome.winner == player, (level, text)


def test_evaluation_of_a_win_at_once_is_a_sure_win():
    from engine.bots import evaluate_position

    state = states_with_a_win_at_once(1)[0]
    found = evaluate_position("maatatahay", RULES.view(state, RULES.to_move(state)), level=5, seed=2)
    assert found.value == 1.0


def test_level_table_grows_and_only_level_five_changed_its_search():
    """Levels 1 to 4 keep the search of bot version maatatahay-1 (the ladder measured then);
    level 5 searches more, with its own settings (README, "Maatatahay bot")."""
    iterations = [mb.LEVELS[k].iterations for k in range(1, 6)]
    assert iterations == sorted(iterations) and len(set(iterations)) == 5
    for k in range(1, 5):
        assert (mb.LEVELS[k].inner_widen, mb.LEVELS[k].best_of) == (0.0, 1)


def test_level_five_search_is_deterministic_and_blind_to_the_hidden_order():
    """Level 5's own settings (short rollouts, widening below the root ...) on a smaller
    budget: the same view and seed give the same move, and the hidden order changes nothing."""
    from dataclasses import replace

    level = replace(mb.LEVELS[5], iterations=120)
    for phase in ("pick", "place", "first"):
        state = pick(phase, 2)
        other = with_hidden_order_changed(state)
        player = RULES.to_move(state)
        a = mb.search_view(RULES.view(state, player), level=level, seed=7)
        b = mb.search_view(RULES.view(state, player), level=level, seed=7)
        c = mb.search_view(RULES.view(other, player), level=level, seed=7)
        assert a.text == b.text == c.text and a.visits == b.visits == c.visits


def test_level_five_at_full_budget_is_deterministic():
    state = pick("place", 5)
    view = RULES.view(state, RULES.to_move(state))
    assert choose_move("maatatahay", view, level=5, seed=3) == choose_move("maatatahay", view, level=5, seed=3)


def test_the_bot_version_names_the_new_search():
    from engine.bots import BOT_VERSIONS, bot_version

    assert BOT_VERSIONS["maatatahay"] == "maatatahay-2"
    assert bot_version("maatatahay").startswith("maatatahay-2+")
