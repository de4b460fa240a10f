"""Joining, challenging and its limits, results and positions, leaving, timeouts."""

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from correspondence.services import vacation_end, vacation_start
from games import services as games_services
from games.errors import GameActionError
from games.models import Game, GameStatus
from ladder import constants, selectors, services
from ladder.models import ChallengeState, EventKind, Ladder, LadderEvent, Outcome
from ratings.models import RatingChange
from tests.factories import to_move

from .conftest import make_user, order, position, resign

pytestmark = pytest.mark.django_db

NAMES = ["p%d" % i for i in range(1, 11)]


def refused(code, status, fn, **kwargs):
    with pytest.raises(GameActionError) as caught:
        fn(**kwargs)
    assert (caught.value.code, caught.value.status) == (code, status), caught.value
    assert caught.value.message and caught.value.message != code
    return caught.value


def challenge(ladder, challenger, defender, now=None):
    return services.ladder_challenge_create(ladder_id=ladder.pk, challenger=challenger, defender=defender, now=now)


# ---------------------------------------------------------------- joining


def test_the_data_migration_makes_a_ladder_per_game():
    from importlib import import_module

    from django.apps import apps

    Ladder.objects.all().delete()
    import_module("ladder.migrations.0002_default_ladders").create_default_ladders(apps, None)
    assert sorted(Ladder.objects.values_list("kind", flat=True)) == ["maatatahay", "onitama"]
    assert set(Ladder.objects.values_list("max_places_up", flat=True)) == {constants.DEFAULT_MAX_PLACES_UP}


def test_players_join_at_the_bottom(ladder, players):
    assert order(ladder) == NAMES
    newcomer = make_user("newcomer")
    member = services.ladder_join(ladder_id=ladder.pk, user=newcomer)
    assert member.position == 11
    refused("already_member", 409, services.ladder_join, ladder_id=ladder.pk, user=newcomer)


def test_a_closed_or_unknown_ladder_refuses(ladder, players):
    Ladder.objects.filter(pk=ladder.pk).update(is_open=False)
    refused("ladder_closed", 409, services.ladder_join, ladder_id=ladder.pk, user=make_user("late"))
    refused("ladder_closed", 409, challenge, ladder=ladder, challenger=players[5], defender=players[4])
    refused("ladder_not_found", 404, services.ladder_join, ladder_id=999999, user=players[0])


# ---------------------------------------------------------------- challenging


def test_a_challenge_starts_a_rated_game_at_once_with_the_ladders_days(ladder, players):
    Ladder.objects.filter(pk=ladder.pk).update(days_per_move=7)
    made = challenge(ladder, players[9], players[4])
    game = made.game
    assert game.status == GameStatus.ACTIVE and game.rated and game.days_per_move == 7
    assert game.kind == "onitama"
    assert {s.user_id for s in game.seats.all()} == {players[9].pk, players[4].pk}
    assert (made.challenger_position, made.defender_position) == (10, 5)
    assert made.state == ChallengeState.PLAYING


def test_only_up_to_n_places_above(ladder, players):
    refused("too_far", 400, challenge, ladder=ladder, challenger=players[9], defender=players[3])
    refused("not_above", 400, challenge, ladder=ladder, challenger=players[3], defender=players[9])
    refused("self_challenge", 400, challenge, ladder=ladder, challenger=players[3], defender=players[3])
    Ladder.objects.filter(pk=ladder.pk).update(max_places_up=9)
    assert challenge(ladder, players[9], players[0]).defender_position == 1


def test_members_only(ladder, players):
    outsider = make_user("outsider")
    refused("not_a_member", 403, challenge, ladder=ladder, challenger=outsider, defender=players[0])
    refused("defender_not_member", 400, challenge, ladder=ladder, challenger=players[1], defender=outsider)


def test_at_most_three_outgoing_challenges(ladder, players):
    for defender in players[5:8]:
        challenge(ladder, players[9], defender)
    refused("too_many_outgoing", 409, challenge, ladder=ladder, challenger=players[9], defender=players[8])


def test_at_most_three_incoming_challenges(ladder, players):
    for challenger in players[1:4]:
        challenge(ladder, challenger, players[0])
    refused("too_many_incoming", 409, challenge, ladder=ladder, challenger=players[4], defender=players[0])
    assert constants.MAX_INCOMING == constants.MAX_OUTGOING == 3


def test_one_game_at_a_time_per_pair(ladder, players):
    made = challenge(ladder, players[5], players[4])
    refused("pair_busy", 409, challenge, ladder=ladder, challenger=players[5], defender=players[4])
    resign(made.game, players[5])  # the defender wins: nobody moves
    later = timezone.now() + timedelta(days=constants.REMATCH_DAYS, minutes=1)
    assert challenge(ladder, players[5], players[4], now=later).pk != made.pk


def test_seven_days_before_challenging_the_same_player_again(ladder, players):
    start = timezone.now()
    first = challenge(ladder, players[5], players[4], now=start)
    resign(first.game, players[5])
    refused(
        "too_soon",
        409,
        challenge,
        ladder=ladder,
        challenger=players[5],
        defender=players[4],
        now=start + timedelta(days=6, hours=23),
    )
    assert challenge(ladder, players[5], players[3], now=start + timedelta(days=1))  # others: fine
    assert challenge(ladder, players[5], players[4], now=start + timedelta(days=7, minutes=1))


def test_no_challenging_a_player_on_vacation(ladder, players):
    assert selectors.player_is_on_vacation(user=players[4]) is False
    vacation_start(user=players[4], days=2)
    players[4].refresh_from_db()
    assert selectors.player_is_on_vacation(user=players[4]) is True
    refused("on_vacation", 409, challenge, ladder=ladder, challenger=players[5], defender=players[4])
    assert [m.user for m in selectors.challengeable_members(ladder=ladder, user=players[5])] == players[0:4]
    vacation_end(user=players[4])
    assert challenge(ladder, players[5], players[4])


def test_an_inactive_account_cannot_be_challenged(ladder, players):
    players[4].is_active = False
    players[4].save()
    refused("inactive_user", 400, challenge, ladder=ladder, challenger=players[5], defender=players[4])


def test_who_can_be_challenged(ladder, players):
    assert [m.user for m in selectors.challengeable_members(ladder=ladder, user=players[9])] == players[4:9]
    challenge(ladder, players[9], players[6])
    assert [m.user for m in selectors.challengeable_members(ladder=ladder, user=players[9])] == [
        players[4],
        players[5],
        players[7],
        players[8],
    ]
    assert selectors.challengeable_members(ladder=ladder, user=players[0]) == []
    assert selectors.challengeable_members(ladder=ladder, user=make_user("outsider")) == []


# ---------------------------------------------------------------- results


def test_a_winning_challenger_takes_the_defenders_place(ladder, players):
    made = challenge(ladder, players[7], players[3])  # p8 challenges p4
    resign(made.game, players[3])
    assert order(ladder) == ["p1", "p2", "p3", "p8", "p4", "p5", "p6", "p7", "p9", "p10"]
    made.refresh_from_db()
    assert made.state == ChallengeState.DONE and made.outcome == Outcome.CLIMBED
    event = LadderEvent.objects.get(kind=EventKind.CLIMBED)
    assert (event.user, event.other, event.position_before, event.position_after) == (players[7], players[3], 8, 4)
    assert RatingChange.objects.filter(game=made.game).count() == 2  # and it was rated


def test_a_defender_win_or_a_draw_moves_nobody(ladder, players):
    lost = challenge(ladder, players[7], players[3])
    resign(lost.game, players[7])
    drawn = challenge(ladder, players[5], players[4])
    games_services.draw_offer(game_id=drawn.game_id, user=players[5])
    games_services.draw_accept(game_id=drawn.game_id, user=players[4])
    assert order(ladder) == NAMES
    lost.refresh_from_db()
    drawn.refresh_from_db()
    assert (lost.outcome, drawn.outcome) == (Outcome.DEFENDED, Outcome.DRAWN)


def test_an_aborted_game_moves_nobody(ladder, players):
    made = challenge(ladder, players[7], players[3])
    games_services.game_abort(game_id=made.game_id, user=players[3])
    made.refresh_from_db()
    assert order(ladder) == NAMES and made.outcome == Outcome.ABORTED


def test_a_challenger_already_above_moves_nobody(ladder, players):
    slow = challenge(ladder, players[7], players[5])  # p8 challenges p6
    fast = challenge(ladder, players[7], players[3])  # p8 challenges p4 and wins first
    resign(fast.game, players[3])
    assert position(ladder, players[7]) == 4
    resign(slow.game, players[5])
    slow.refresh_from_db()
    assert slow.outcome == Outcome.UNCHANGED
    assert order(ladder) == ["p1", "p2", "p3", "p8", "p4", "p5", "p6", "p7", "p9", "p10"]


def test_a_departed_defender_moves_nobody(ladder, players):
    made = challenge(ladder, players[7], players[3])
    other = challenge(ladder, players[4], players[3])
    services.ladder_leave(ladder_id=ladder.pk, user=players[3])
    made.refresh_from_db()
    other.refresh_from_db()
    assert made.game.status == other.game.status == GameStatus.FINISHED  # resigned on leaving
    assert made.outcome == other.outcome == Outcome.UNCHANGED
    assert order(ladder) == ["p1", "p2", "p3", "p5", "p6", "p7", "p8", "p9", "p10"]


def _finish_on_time(game: Game, winner_side: str) -> Game:
    """End a game as the timeout sweep would: the side to move ran out of time."""
    with transaction.atomic():
        locked = Game.objects.select_for_update().get(pk=game.pk)
        return games_services.game_finish(
            locked, status=GameStatus.FINISHED, winner_side=winner_side, reason="timeout", scores=None
        )


def test_a_game_won_because_the_opponent_never_moved_moves_nobody(ladder, players):
    made = challenge(ladder, players[7], players[3])
    game = made.game
    defender_side = game.seats.get(user=players[3]).side
    challenger_side = game.seats.get(user=players[7]).side
    if game.to_move_side == challenger_side:  # let the challenger move once
        games_services.move_submit(game_id=game.pk, user=players[7], expected_ply=0, move_text=_first_legal(game))
    game.refresh_from_db()
    assert game.to_move_side == defender_side
    _finish_on_time(game, challenger_side)
    made.refresh_from_db()
    assert made.outcome == Outcome.UNPLAYED and made.timed_out == players[3]
    assert order(ladder) == NAMES


def _first_legal(game):
    game.refresh_from_db()
    rules = games_services.rules_for(game.kind)
    return rules.move_text(rules.legal_moves(games_services.game_state(game))[0])


def _time_out(game: Game, loser) -> Game:
    """Play until ``loser`` is to move having moved once, then let the real sweep end the game."""
    while True:
        game.refresh_from_db()
        if game.to_move_user_id == loser.pk and game.moves.filter(user=loser).exists():
            break
        games_services.move_submit(
            game_id=game.pk, user=to_move(game), move_text=_first_legal(game), expected_ply=game.ply
        )
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    assert games_services.games_time_out() == 1
    game.refresh_from_db()
    return game


def test_a_win_on_time_after_moves_counts(ladder, players):
    made = challenge(ladder, players[7], players[3])
    game = _time_out(made.game, players[3])
    assert game.result_reason == "timeout"
    made.refresh_from_db()
    assert made.outcome == Outcome.CLIMBED and made.timed_out == players[3]
    assert position(ladder, players[7]) == 4


def test_three_timeouts_in_thirty_days_leave_the_ladder(ladder, players, django_capture_on_commit_callbacks):
    slow = players[3]
    running = challenge(ladder, slow, players[1])  # a game of the slow player that is still running
    for challenger in players[4:6]:
        made = challenge(ladder, challenger, slow)
        _time_out(made.game, slow)
    assert position(ladder, slow) is not None  # two timeouts: still there
    made = challenge(ladder, slow, players[2])
    with django_capture_on_commit_callbacks(execute=True):
        _time_out(made.game, slow)
    assert position(ladder, slow) is None
    assert LadderEvent.objects.filter(kind=EventKind.REMOVED, user=slow).count() == 1
    assert selectors.positions_are_a_permutation(ladder_id=ladder.pk)
    running.refresh_from_db()
    assert running.game.status == GameStatus.FINISHED and running.game.result_reason == "resign"


def test_old_timeouts_do_not_count(ladder, players):
    slow = players[3]
    for challenger in players[4:6]:
        _time_out(challenge(ladder, challenger, slow).game, slow)
    from ladder.models import LadderChallenge

    LadderChallenge.objects.filter(timed_out=slow).update(
        finished_at=timezone.now() - timedelta(days=constants.TIMEOUT_WINDOW_DAYS + 1)
    )
    _time_out(challenge(ladder, players[6], slow).game, slow)
    assert position(ladder, slow) is not None


def test_a_result_is_applied_once(ladder, players):
    made = challenge(ladder, players[7], players[3])
    game = resign(made.game, players[3])
    after = order(ladder)
    services.ladder_record_result(game=Game.objects.get(pk=game.pk))
    assert order(ladder) == after
    assert LadderEvent.objects.filter(kind=EventKind.CLIMBED).count() == 1


def test_games_outside_the_ladder_move_nobody(ladder, players):
    rules = games_services.rules_for("onitama")
    outside = games_services.game_create(
        kind="onitama", rated=True, seats={rules.players[0]: players[9], rules.players[1]: players[0]}
    )
    resign(outside, players[0])
    assert order(ladder) == NAMES


# ---------------------------------------------------------------- leaving


def test_leaving_closes_the_gap_and_resigns_the_ladder_games(ladder, players):
    attack = challenge(ladder, players[4], players[2])
    defence = challenge(ladder, players[6], players[4])
    resigned = services.ladder_leave(ladder_id=ladder.pk, user=players[4])
    assert resigned == 2
    assert order(ladder) == ["p1", "p2", "p3", "p4", "p6", "p7", "p8", "p9", "p10"]
    for made in (attack, defence):
        made.refresh_from_db()
        assert made.game.status == GameStatus.FINISHED and made.game.result_reason == "resign"
        assert made.outcome in (Outcome.DEFENDED, Outcome.UNCHANGED)
    refused("not_a_member", 403, services.ladder_leave, ladder_id=ladder.pk, user=players[4])
    assert services.ladder_join(ladder_id=ladder.pk, user=players[4]).position == 10


def test_rejoining_keeps_nothing_of_the_old_place(ladder, players):
    services.ladder_leave(ladder_id=ladder.pk, user=players[0])
    services.ladder_join(ladder_id=ladder.pk, user=players[0])
    assert order(ladder) == NAMES[1:] + ["p1"]
    kinds = list(LadderEvent.objects.filter(user=players[0]).order_by("pk").values_list("kind", flat=True))
    assert kinds == [EventKind.JOINED, EventKind.LEFT, EventKind.JOINED]


def test_departed_games_resign_is_idempotent(ladder, players):
    made = challenge(ladder, players[4], players[2])
    services.ladder_leave(ladder_id=ladder.pk, user=players[4])
    assert services.ladder_departed_games_resign(ladder_id=ladder.pk, user_id=players[4].pk) == 0
    made.refresh_from_db()
    assert made.state == ChallengeState.DONE
    # A member's games are never resigned by it.
    kept = challenge(ladder, players[5], players[3])
    assert services.ladder_departed_games_resign(ladder_id=ladder.pk, user_id=players[5].pk) == 0
    kept.game.refresh_from_db()
    assert kept.game.status == GameStatus.ACTIVE


def test_a_first_move_never_made_aborts_moves_nobody_and_counts_as_a_timeout(ladder, players):
    made = challenge(ladder, players[7], players[3])
    game = made.game
    if game.to_move_user_id != players[3].pk:  # the challenger moves first; the defender never does
        games_services.move_submit(game_id=game.pk, user=players[7], expected_ply=0, move_text=_first_legal(game))
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    assert games_services.games_time_out() == 1
    made.refresh_from_db()
    assert made.game.status == GameStatus.ABORTED
    assert made.outcome == Outcome.ABORTED and made.timed_out == players[3]
    assert order(ladder) == NAMES
    assert selectors.timeouts_count(ladder_id=ladder.pk, user=players[3], now=timezone.now()) == 1
