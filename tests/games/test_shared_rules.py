"""Rules with one home (issue 14): every caller of a rule sees the same answer for the
same game — "has this side moved", "may draws be offered", "close a leaving player's
challenges"."""

from __future__ import annotations

import pytest
from django.db import transaction

from games import adjudication, selectors, services
from games.errors import GameActionError
from games.models import Challenge, ChallengeStatus, Game, GameStatus
from ladder import services as ladder_services
from ladder.models import Ladder, LadderChallenge, Outcome
from ops import services as ops_services
from privacy import services as privacy_services
from tests.factories import first_legal, make_staff, make_user, start_game
from tournaments import services as tournament_services
from tournaments.models import Result

pytestmark = pytest.mark.django_db


class _Rollback(Exception):
    """Ends a savepoint, so that each caller is asked about the same untouched game."""


def _each_alone(check):
    """Run ``check`` in a savepoint that is rolled back afterwards; return its answer."""
    answer = []
    try:
        with transaction.atomic():
            answer.append(check())
            raise _Rollback
    except _Rollback:
        pass
    return answer[0]


def _ladder_game(mover: str):
    """A ladder game in which only one side has moved: the challenger's or the defender's.
    (Who moves first comes from the game's seed: new pairs are tried until it fits.)"""
    ladder = Ladder.objects.get_or_create(kind="onitama", defaults={"name": "Onitama ladder"})[0]
    for attempt in range(40):
        defender, challenger = make_user("defender%d" % attempt), make_user("challenger%d" % attempt)
        for user in (defender, challenger):
            ladder_services.ladder_join(ladder_id=ladder.pk, user=user)
        made = ladder_services.ladder_challenge_create(ladder_id=ladder.pk, challenger=challenger, defender=defender)
        wanted, other = (challenger, defender) if mover == "challenger" else (defender, challenger)
        game = made.game
        if game.to_move_user_id == wanted.pk:
            services.move_submit(game_id=game.pk, user=wanted, move_text=first_legal(game), expected_ply=0)
            game.refresh_from_db()
            return made, game, wanted, other
    raise AssertionError("the %s never moved first" % mover)


@pytest.mark.parametrize("mover", ["challenger", "defender"])
def test_every_caller_sees_the_same_has_moved(mover):
    made, game, moved_user, idle_user = _ladder_game(mover)
    moved_side = game.seats.get(user=moved_user).side
    assert game.sides_moved() == {moved_side}
    staff = make_staff("referee")

    # abort: allowed, one side has not moved yet
    assert services.game_can_abort(game)
    assert selectors.game_for_viewer(game_id=game.pk, user=moved_user).can_abort

    # time-out of the idle side (to move): aborted, it never moved
    def timed_out():
        locked = services.game_lock(game_id=game.pk)
        assert locked.deadline is not None
        return services.game_time_out(locked, now=locked.deadline).result_reason

    assert game.to_move_user_id == idle_user.pk
    assert _each_alone(timed_out) == services.REASON_ABORTED_TIMEOUT

    # suspension: the idle player's game is aborted, the mover's is forfeited
    def suspended(user):
        done = adjudication.player_games_resolve(user=user, staff=staff, reason="test")
        return (game.pk in done.aborted, game.pk in done.forfeited)

    assert _each_alone(lambda: suspended(idle_user)) == (True, False)
    assert _each_alone(lambda: suspended(moved_user)) == (False, True)

    # tournaments: an aborted game is forfeited by the side that never moved
    first_side = services.rules_for(game.kind).players[0]

    def tournament_result():
        services.game_abort(game_id=game.pk, user=moved_user)
        return tournament_services._played_result(Game.objects.get(pk=game.pk))

    expected = Result.FIRST_WINS_FORFEIT if moved_side == first_side else Result.SECOND_WINS_FORFEIT
    assert _each_alone(tournament_result) == expected

    # ladder: a challenger's win on time counts only when the defender moved
    def ladder_outcome():
        challenger_side = game.seats.get(user=made.challenger).side
        locked = services.game_lock(game_id=game.pk)
        services.game_finish(
            locked, status=GameStatus.FINISHED, winner_side=challenger_side, reason=services.REASON_TIMEOUT, scores=None
        )
        return LadderChallenge.objects.get(pk=made.pk).outcome

    defender_moved = mover == "defender"
    assert _each_alone(ladder_outcome) == (Outcome.CLIMBED if defender_moved else Outcome.UNPLAYED)
    assert (game.seats.get(user=made.defender).side in game.sides_moved()) == defender_moved


@pytest.mark.parametrize(
    "kind, bot, allowed", [("onitama", False, True), ("onitama", True, False), ("maatatahay", False, False)]
)
def test_the_page_offers_a_draw_exactly_when_the_service_accepts_one(kind, bot, allowed):
    alice = make_user("alice")
    if bot:
        game = services.game_create_solo(user=alice, kind=kind, bot_level=1)
    else:
        game = start_game(alice, make_user("bob"), kind=kind)
    assert game.allows_draws == allowed
    page = selectors.game_for_viewer(game_id=game.pk, user=alice)
    assert page.can_offer_draw == allowed
    if allowed:
        assert services.draw_offer(game_id=game.pk, user=alice).pk
    else:
        with pytest.raises(GameActionError) as refused:
            services.draw_offer(game_id=game.pk, user=alice)
        assert refused.value.code == "draw_not_available"


def _open_challenges(player):
    name = player.username
    made = services.challenge_create(challenger=player, opponent=make_user(name + "-to"), kind="onitama")
    received = services.challenge_create(challenger=make_user(name + "-from"), opponent=player, kind="onitama")
    return made, received


def _statuses(made, received):
    return (Challenge.objects.get(pk=made.pk).status, Challenge.objects.get(pk=received.pk).status)


def test_suspension_cancels_made_and_declines_received_challenges_as_deletion_does():
    staff = make_staff("referee")
    suspended = make_user("suspended")
    made, received = _open_challenges(suspended)
    ops_services.player_suspend(player_id=suspended.pk, staff=staff, reason="abuse")
    assert _statuses(made, received) == (ChallengeStatus.CANCELLED, ChallengeStatus.DECLINED)

    deleted = make_user("deleted")
    made, received = _open_challenges(deleted)
    privacy_services.account_delete(user=deleted, password="pw-deleted-123456")
    assert _statuses(made, received) == (ChallengeStatus.CANCELLED, ChallengeStatus.DECLINED)
