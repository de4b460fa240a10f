"""Agreement with the bot of one side of one finished game: copying the bot scores 100 %,
random play less; forced decisions and the skipped opening are not counted; the bot is
only ever shown the player's view."""

from __future__ import annotations

from datetime import timedelta

import pytest

import engine
import engine.bots
import engine.fair
from fairplay import agreement, services
from fairplay.models import GameAgreement
from games import services as games_services
from games.adjudication import game_result_timeout_reverse
from games.models import Game, Move
from tests.factories import running_deadline, to_move

from .conftest import LEVEL, bot_copier, play, random_player, start_game

pytestmark = pytest.mark.django_db

KINDS = [("onitama", {"cards": "base"}), ("maatatahay", {"variant": "standard"})]


def _total(games, user) -> tuple[int, int]:
    rows = [services.game_agreement_compute(game=game, user=user, level=LEVEL) for game in games]
    return sum(r.decisions for r in rows), sum(r.matches for r in rows)


@pytest.mark.parametrize("kind, options", KINDS)
def test_copying_the_bot_agrees_every_time_and_random_play_does_not(alice, bob, kind, options):
    # The copier may beat the random player quickly: play games until each side took 8 decisions.
    games: list[Game] = []
    while len(games) < 5 and min(Move.objects.filter(game__in=games, user=u).count() for u in (alice, bob)) < 8:
        game = start_game(alice, bob, kind, options=options)
        games.append(play(game, {alice.pk: bot_copier(), bob.pk: random_player(len(games))}, decisions=20, resign=bob))
    assert all(game.status == "finished" for game in games)
    decisions, matches = _total(games, alice)
    alice_moves = Move.objects.filter(game__in=games, user=alice).count()
    assert decisions >= alice_moves - len(games) and decisions >= 7  # at most one forced a game
    assert matches == decisions
    decisions, matches = _total(games, bob)
    assert decisions >= 7 and matches < decisions


def _forced_game(monkeypatch, alice, bob):
    """A Maatatahay game from seed 6, whose decision 45 (of 46) has a single legal move."""
    monkeypatch.setattr(engine.fair, "new_seed", lambda: 6)
    rules = engine.get_game("maatatahay")
    texts, _final = engine.random_game(rules, 6, {"variant": "standard"})
    game = start_game(alice, bob, "maatatahay", options={"variant": "standard"})
    for text in texts:
        game.refresh_from_db()
        games_services.move_submit(game_id=game.pk, user=to_move(game), move_text=text, expected_ply=game.ply)
    game.refresh_from_db()
    assert game.status == "finished" and game.revealed_seed == "6"
    forced = Move.objects.get(game=game, ply=45)
    state = engine.replay(rules, 6, game.options, texts[:44])
    assert len(rules.legal_moves(state)) == 1
    return game, forced


def test_forced_decisions_and_the_skipped_opening_are_not_counted(monkeypatch, settings, alice, bob):
    game, forced = _forced_game(monkeypatch, alice, bob)
    asked = []
    real = agreement.choose_move

    def spy(kind, view, *, level, seed):  # no time cap: the level's budget decides
        asked.append(seed)
        return real(kind, view, level=level, seed=seed)

    monkeypatch.setattr(agreement, "choose_move", spy)
    player = forced.user
    own_moves = Move.objects.filter(game=game, user=player).count()
    row = services.game_agreement_compute(game=game, user=player, level=LEVEL)
    assert row.decisions == own_moves - 1 == len(asked)
    assert agreement.decision_seed(game.pk, 45) not in asked
    # Skipping the first two decisions recomputes the cached row in place.
    settings.FAIRPLAY_SKIP_OPENING = 2
    again = services.game_agreement_compute(game=game, user=player, level=LEVEL)
    assert (again.pk, again.decisions, again.skip_opening) == (row.pk, own_moves - 3, 2)
    assert GameAgreement.objects.filter(game=game).count() == 1


def test_the_bot_is_shown_the_players_view_never_the_hidden_order(monkeypatch, alice, bob):
    game = start_game(alice, bob, "maatatahay", options={"variant": "standard"})
    game = play(game, {alice.pk: random_player(3), bob.pk: random_player(4)}, decisions=25, resign=bob)
    side = game.seats.get(user=alice).side
    rules = engine.get_game("maatatahay")
    hidden_piles = games_services.game_state(game)  # the full state the server keeps
    assert "piles" in rules.to_json(hidden_piles)
    views = []
    real = agreement.choose_move

    def spy(kind, view, *, level, seed):
        views.append(view)
        return real(kind, view, level=level, seed=seed)

    monkeypatch.setattr(agreement, "choose_move", spy)
    row = services.game_agreement_compute(game=game, user=alice, level=LEVEL)
    assert views and len(views) == row.decisions
    for view in views:
        assert view["schema"] == "maatatahay-view/1" and view["you"] == side
        assert "piles" not in view  # the order of the tile piles stays hidden
        assert set(view["bag"]) == {"energy", "spirit"}  # counts only, not the bag's order
        assert all(isinstance(n, int) for n in view["bag"].values())


def test_the_decision_seed_is_fixed_per_game_and_ply():
    assert agreement.decision_seed(7, 3) == agreement.decision_seed(7, 3)
    assert len({agreement.decision_seed(g, p) for g in (1, 2) for p in (1, 2)}) == 4
    assert 0 <= agreement.decision_seed(10**9, 500) < 2**63


def test_a_game_sent_back_into_play_is_measured_again(alice, bob, staff):
    game = play(start_game(alice, bob), {alice.pk: random_player(5), bob.pk: random_player(6)}, decisions=2)
    games_services.games_time_out(now=running_deadline(game) + timedelta(seconds=1))
    game.refresh_from_db()
    assert (game.status, game.result_reason) == ("finished", "timeout")
    first = services.game_agreement_compute(game=game, user=alice, level=LEVEL)
    assert first.decisions == 1
    game_result_timeout_reverse(game_id=game.pk, staff=staff, reason="Outage of the mail server.")
    game = play(game, {alice.pk: random_player(7), bob.pk: random_player(8)}, decisions=4, resign=bob)
    again = services.game_agreement_compute(game=game, user=alice, level=LEVEL)
    assert (again.pk, again.game_ply) == (first.pk, game.ply)
    assert again.decisions == Move.objects.filter(game=game, user=alice).count() > 1


def test_a_figure_of_another_bot_version_is_computed_again(monkeypatch, alice, bob):
    """The cache is per bot version: today's figure is reused, one computed by another
    version of the bot never is (a new version computes its own row)."""
    game = play(
        start_game(alice, bob), {alice.pk: random_player(9), bob.pk: random_player(10)}, decisions=8, resign=bob
    )
    asked = []
    real = agreement.choose_move

    def spy(kind, view, *, level, seed):
        asked.append(seed)
        return real(kind, view, level=level, seed=seed)

    monkeypatch.setattr(agreement, "choose_move", spy)
    first = services.game_agreement_compute(game=game, user=alice, level=LEVEL)
    assert first.bot_version == engine.bots.bot_version("onitama") and first.decisions == len(asked) > 0
    assert services.game_agreement_compute(game=game, user=alice, level=LEVEL).pk == first.pk
    assert len(asked) == first.decisions  # reused: the bot was not asked again
    monkeypatch.setattr(services, "bot_version", lambda kind: "onitama-next")
    newer = services.game_agreement_compute(game=game, user=alice, level=LEVEL)
    assert newer.pk != first.pk and newer.bot_version == "onitama-next"
    assert len(asked) == 2 * first.decisions  # computed again
    # A row cached before versions were kept (the empty version) is never reused either.
    GameAgreement.objects.filter(pk=first.pk).update(bot_version="")
    monkeypatch.setattr(services, "bot_version", engine.bots.bot_version)
    fresh = services.game_agreement_compute(game=game, user=alice, level=LEVEL)
    assert fresh.bot_version == engine.bots.bot_version("onitama") and fresh.pk not in (first.pk, newer.pk)
    assert len(asked) == 3 * first.decisions
