"""Staff adjudication: void, award, reverse a timeout, suspend; each writes one audit row."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from accounts.models import StaffAction, StaffActionKind
from accounts.selectors import staff_actions_on
from api import services as api_services
from api.models import ApiToken
from games import adjudication, services
from games.errors import GameActionError
from games.models import Alarm, Challenge, ChallengeStatus, Game, GameStatus, Move
from games.rules import side_other
from ops import services as ops
from ratings.models import Rating, RatingChange
from tests.factories import first_legal, make_staff, make_user, running_deadline, start_game, to_move, turn_start
from tournaments import services as tournament_services
from tournaments.models import Pairing, Result, Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(db):
    return make_staff("referee")


def move(game: Game) -> Game:
    """The player to move plays their first legal decision."""
    game = Game.objects.get(pk=game.pk)
    services.move_submit(game_id=game.pk, user=to_move(game), move_text=first_legal(game), expected_ply=game.ply)
    return Game.objects.get(pk=game.pk)


def play_until_both_moved(game: Game) -> Game:
    while len(set(Move.objects.filter(game=game).values_list("seat__side", flat=True))) < 2:
        game = move(game)
    return game


def time_out(game: Game) -> Game:
    """End a game on time as the timeout sweep does (the side to move loses, or the game
    is aborted when that side has not moved yet)."""
    with transaction.atomic():
        game = services.game_lock(game_id=game.pk)
        loser = game.to_move_side
        if not Move.objects.filter(game=game, seat__side=loser).exists():
            services.game_finish(
                game, status=GameStatus.ABORTED, winner_side="", reason=services.REASON_ABORTED_TIMEOUT, scores=None
            )
        else:
            winner = side_other(kind=game.kind, side=loser)
            services.game_state_terminate(game=game, reason=services.REASON_TIMEOUT, winner=winner)
            services.game_finish(
                game, status=GameStatus.FINISHED, winner_side=winner, reason=services.REASON_TIMEOUT, scores=None
            )
    return Game.objects.get(pk=game.pk)


def seat_side(game: Game, user) -> str:
    return game.seats.get(user=user).side


# ---------------------------------------------------------------- who and why


def test_every_action_needs_staff_and_a_reason(alice, bob, staff):
    game = start_game(alice, bob)
    services.game_resign(game_id=game.pk, user=bob)
    with pytest.raises(GameActionError) as refused:
        ops.game_void(game_id=game.pk, staff=staff, reason="   ")
    assert (refused.value.code, refused.value.status) == ("reason_required", 400)
    with pytest.raises(GameActionError) as refused:
        ops.game_void(game_id=game.pk, staff=alice, reason="I lost")
    assert (refused.value.code, refused.value.status) == ("not_staff", 403)
    with pytest.raises(GameActionError) as refused:
        ops.player_suspend(player_id=bob.pk, staff=staff, reason="")
    assert refused.value.code == "reason_required"
    assert not StaffAction.objects.exists()
    assert Game.objects.get(pk=game.pk).result_reason == services.REASON_RESIGNATION


# ---------------------------------------------------------------- void


def test_voiding_a_game_keeps_it_finished_without_winner_and_logs_who_when_why(alice, bob, staff):
    game = start_game(alice, bob)
    services.game_resign(game_id=game.pk, user=bob)
    ops.game_void(game_id=game.pk, staff=staff, reason="Bob's account was shared")
    game.refresh_from_db()
    assert (game.status, game.winner_side, game.result_reason) == (GameStatus.FINISHED, "", adjudication.REASON_VOID)
    assert game.revealed_seed  # the seed stays public
    assert not RatingChange.objects.filter(game=game).exists()
    assert Rating.objects.get(user=alice, kind="onitama").games_played == 0
    action = StaffAction.objects.get()
    assert (action.staff, action.action, action.target, action.reason) == (
        staff,
        StaffActionKind.VOID,
        game,
        "Bob's account was shared",
    )
    assert action.details["previous"]["winner"] == seat_side(game, alice)
    assert action.details["previous"]["reason"] == services.REASON_RESIGNATION
    assert action.at is not None
    with pytest.raises(GameActionError) as again:
        ops.game_void(game_id=game.pk, staff=staff, reason="twice")
    assert again.value.code == "already_void"
    assert StaffAction.objects.count() == 1


def test_the_game_page_says_voided_by_staff(client, alice, bob, staff):
    game = start_game(alice, bob)
    services.game_resign(game_id=game.pk, user=bob)
    ops.game_void(game_id=game.pk, staff=staff, reason="void")
    client.force_login(alice)
    assert "Voided by staff" in client.get(reverse("games:game", args=[game.pk])).content.decode()


def test_a_running_game_cannot_be_voided(alice, bob, staff):
    game = start_game(alice, bob)
    with pytest.raises(GameActionError) as refused:
        ops.game_void(game_id=game.pk, staff=staff, reason="void")
    assert (refused.value.code, refused.value.status) == ("game_running", 409)
    assert Game.objects.get(pk=game.pk).status == GameStatus.ACTIVE


# ---------------------------------------------------------------- award


def test_awarding_a_running_game_ends_it_like_any_game(alice, bob, staff):
    game = start_game(alice, bob)
    ops.game_award(game_id=game.pk, staff=staff, reason="Bob insulted Alice", winner_side=seat_side(game, alice))
    game.refresh_from_db()
    assert (game.status, game.winner_side, game.result_reason) == (
        GameStatus.FINISHED,
        seat_side(game, alice),
        adjudication.REASON_ADJUDICATED,
    )
    assert game.revealed_seed and game.deadline is None
    assert RatingChange.objects.get(game=game, user=alice).score == 1.0
    assert Alarm.objects.filter(game=game, kind=Alarm.Kind.GAME_OVER).count() == 2
    action = StaffAction.objects.get()
    assert action.action == StaffActionKind.AWARD and action.details["previous"] == {"status": "active"}


def test_awarding_a_finished_game_rewrites_its_result_and_ratings(alice, bob, staff):
    game = start_game(alice, bob)
    services.game_resign(game_id=game.pk, user=bob)
    ops.game_award(game_id=game.pk, staff=staff, reason="Alice used an engine", winner_side=seat_side(game, bob))
    game.refresh_from_db()
    assert (game.winner_side, game.result_reason) == (seat_side(game, bob), adjudication.REASON_ADJUDICATED)
    assert RatingChange.objects.get(game=game, user=bob).score == 1.0
    assert Rating.objects.get(user=bob, kind="onitama").rating > 1500
    assert Rating.objects.get(user=alice, kind="onitama").games_played == 1
    assert StaffAction.objects.get().details["previous"]["winner"] == seat_side(game, alice)


def test_awarding_a_draw_and_refusing_a_side_the_game_has_not(alice, bob, staff):
    game = start_game(alice, bob)
    with pytest.raises(GameActionError) as refused:
        ops.game_award(game_id=game.pk, staff=staff, reason="why", winner_side="wazu")
    assert refused.value.code == "bad_winner"
    ops.game_award(game_id=game.pk, staff=staff, reason="Both agreed by mail", winner_side="")
    game.refresh_from_db()
    assert (game.status, game.winner_side) == (GameStatus.FINISHED, "")
    assert set(RatingChange.objects.filter(game=game).values_list("score", flat=True)) == {0.5}


def test_an_aborted_game_can_be_awarded(alice, bob, staff):
    game = start_game(alice, bob)
    services.game_abort(game_id=game.pk, user=alice)
    ops.game_award(game_id=game.pk, staff=staff, reason="Alice aborted to dodge", winner_side=seat_side(game, bob))
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    assert RatingChange.objects.filter(game=game).count() == 2


# ---------------------------------------------------------------- reverse a timeout


def test_reversing_an_onitama_timeout_resumes_the_game_with_a_fresh_turn(alice, bob, staff):
    game = play_until_both_moved(start_game(alice, bob))
    game = move(game)
    before = Game.objects.get(pk=game.pk)
    loser = before.to_move_user
    game = time_out(game)
    assert game.result_reason == services.REASON_TIMEOUT
    assert RatingChange.objects.filter(game=game).count() == 2
    ops.game_timeout_reverse(game_id=game.pk, staff=staff, reason="Mail outage on the 3rd")
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    assert (game.winner_side, game.result_reason, game.finished_at) == ("", "", None)
    assert (game.revealed_salt, game.revealed_seed) == ("", "")
    assert services.rules_for(game.kind).to_json(services.game_state(game)) == services.rules_for(game.kind).to_json(
        services.game_state(before)
    )  # rebuilt from the seed and the moves
    assert (game.to_move_side, game.to_move_user, game.ply, game.turn) == (
        before.to_move_side,
        loser,
        before.ply,
        before.turn,
    )
    assert game.turn_paused == timedelta(0)
    assert timezone.now() - turn_start(game) < timedelta(minutes=1)
    assert game.deadline == services.game_deadline(game)
    assert running_deadline(game) > timezone.now() + timedelta(days=game.days_per_move - 1)
    assert not RatingChange.objects.filter(game=game).exists()
    assert Rating.objects.get(user=alice, kind="onitama").games_played == 0
    action = StaffAction.objects.get()
    assert action.action == StaffActionKind.TIMEOUT_REVERSE
    assert action.details["previous"]["reason"] == services.REASON_TIMEOUT
    # Playable again, and rated when it ends.
    game = move(game)
    assert game.ply == before.ply + 1
    services.game_resign(game_id=game.pk, user=alice)
    assert RatingChange.objects.filter(game=game).count() == 2


def test_reversing_a_first_move_timeout_resumes_the_aborted_game(alice, bob, staff):
    game = start_game(alice, bob)
    game = time_out(game)
    assert (game.status, game.result_reason) == (GameStatus.ABORTED, services.REASON_ABORTED_TIMEOUT)
    ops.game_timeout_reverse(game_id=game.pk, staff=staff, reason="outage")
    game = move(Game.objects.get(pk=game.pk))
    assert game.status == GameStatus.ACTIVE and game.ply == 1


def test_a_maatatahay_timeout_is_not_reversed_its_hidden_order_is_public(alice, bob, staff):
    game = play_until_both_moved(start_game(alice, bob, kind="maatatahay"))
    game = time_out(game)
    assert game.revealed_seed
    with pytest.raises(GameActionError) as refused:
        ops.game_timeout_reverse(game_id=game.pk, staff=staff, reason="outage")
    assert (refused.value.code, refused.value.status) == ("hidden_information", 409)
    assert Game.objects.get(pk=game.pk).status == GameStatus.FINISHED
    assert not StaffAction.objects.exists()
    assert adjudication.has_hidden_information("maatatahay")
    assert not adjudication.has_hidden_information("onitama")
    ops.game_void(game_id=game.pk, staff=staff, reason="outage: void instead")


def test_only_a_timeout_is_reversed(alice, bob, staff):
    game = start_game(alice, bob)
    services.game_resign(game_id=game.pk, user=bob)
    with pytest.raises(GameActionError) as refused:
        ops.game_timeout_reverse(game_id=game.pk, staff=staff, reason="outage")
    assert refused.value.code == "not_a_timeout"


# ---------------------------------------------------------------- tournaments


def tournament_of(players):
    tournament = tournament_services.tournament_create(actor=None, name="Cup", kind="onitama", format="round_robin")
    tournament_services.tournament_open_registration(tournament_id=tournament.pk, actor=None)
    for user in players:
        tournament_services.tournament_register(tournament_id=tournament.pk, user=user)
    tournament_services.tournament_start(tournament_id=tournament.pk, actor=None)
    return tournament


def round_games(tournament, number):
    return [
        p.game
        for p in Pairing.objects.filter(tournament=tournament, round__number=number)
        .select_related("game")
        .order_by("board")
    ]


# Transactional: the pairing task runs when each service commits (on_commit), as in production.
@pytest.mark.django_db(transaction=True)
def test_a_tournament_follows_void_and_award_and_refuses_a_reversal_after_the_next_round(alice, bob, carol, staff):
    tournament = tournament_of([alice, bob, carol, make_user("dave")])
    first, second = round_games(tournament, 1)
    first = time_out(play_until_both_moved(first))
    services.game_resign(game_id=second.pk, user=second.seats.get(position=0).user)
    assert Round.objects.filter(tournament=tournament, number=2).exists()

    with pytest.raises(GameActionError) as refused:
        ops.game_timeout_reverse(game_id=first.pk, staff=staff, reason="outage")
    assert (refused.value.code, refused.value.status) == ("result_used", 409)
    assert Game.objects.get(pk=first.pk).status == GameStatus.FINISHED

    ops.game_void(game_id=first.pk, staff=staff, reason="void")
    assert Pairing.objects.get(game=first).result == Result.VOID
    ops.game_award(game_id=second.pk, staff=staff, reason="award", winner_side="red")
    assert Pairing.objects.get(game=second).result == Result.FIRST_WINS
    assert staff_actions_on(target=tournament).filter(action=StaffActionKind.TOURNAMENT_RESULT_CHANGED).count() == 2


@pytest.mark.django_db(transaction=True)
def test_a_tournament_game_reversed_before_the_next_round_is_pending_again(alice, bob, carol, staff):
    tournament = tournament_of([alice, bob, carol, make_user("dave")])
    first, _second = round_games(tournament, 1)
    first = time_out(play_until_both_moved(first))
    assert Pairing.objects.get(game=first).result != Result.PENDING
    ops.game_timeout_reverse(game_id=first.pk, staff=staff, reason="outage")
    assert Pairing.objects.get(game=first).result == Result.PENDING


# ---------------------------------------------------------------- suspension


def test_suspending_resolves_games_by_the_rule_and_locks_the_account(client, alice, bob, carol, staff):
    against_bob = play_until_both_moved(start_game(alice, bob))
    against_carol = start_game(carol, alice)
    if against_carol.to_move_user == carol:
        against_carol = move(against_carol)  # Carol moved, Alice never did
    against_bot = services.game_create_solo(user=alice, kind="onitama", bot_level=1)
    mine = services.challenge_create(challenger=alice, opponent=carol, kind="onitama")
    theirs = services.challenge_create(challenger=bob, opponent=alice, kind="onitama")
    _token, secret = api_services.token_create(user=alice, name="phone", scopes=["read"])
    client.force_login(alice)
    assert client.get(reverse("games:lobby")).status_code == 200

    ops.player_suspend(player_id=alice.pk, staff=staff, reason="Abuse in chat, three reports")

    alice.refresh_from_db()
    assert not alice.is_active and alice.suspended_at is not None
    assert alice.suspension_reason == "Abuse in chat, three reports"
    lost = Game.objects.get(pk=against_bob.pk)
    assert (lost.status, lost.winner_side, lost.result_reason) == (
        GameStatus.FINISHED,
        seat_side(lost, bob),
        adjudication.REASON_FORFEIT,
    )
    assert RatingChange.objects.get(game=lost, user=bob).score == 1.0
    for game in (against_carol, against_bot):
        assert Game.objects.get(pk=game.pk).status == GameStatus.ABORTED
    # the one path of account deletion too: made ones cancelled, received ones declined
    assert Challenge.objects.get(pk=mine.pk).status == ChallengeStatus.CANCELLED
    assert Challenge.objects.get(pk=theirs.pk).status == ChallengeStatus.DECLINED
    assert ApiToken.objects.get(user=alice).revoked_at is not None
    assert client.get(reverse("games:lobby")).status_code == 302  # session ended
    assert not client.login(username="alice", password="pw-alice-123456")
    assert client.get("/api/v1/games/", HTTP_AUTHORIZATION="Bearer " + secret).status_code == 401
    action = StaffAction.objects.get()
    assert (action.action, action.player, action.staff) == (StaffActionKind.SUSPEND, alice, staff)
    assert action.details["forfeited"] == [against_bob.pk]
    assert sorted(action.details["aborted"]) == sorted([against_carol.pk, against_bot.pk])
    assert (action.details["challenges_cancelled"], action.details["challenges_declined"]) == (1, 1)

    with pytest.raises(GameActionError) as again:
        ops.player_suspend(player_id=alice.pk, staff=staff, reason="again")
    assert again.value.code == "already_suspended"
    ops.player_unsuspend(player_id=alice.pk, staff=staff, reason="Appeal accepted")
    alice.refresh_from_db()
    assert alice.is_active and alice.suspended_at is None and alice.suspension_reason == ""
    assert client.login(username="alice", password="pw-alice-123456")
    assert list(StaffAction.objects.values_list("action", flat=True)) == [
        StaffActionKind.UNSUSPEND,
        StaffActionKind.SUSPEND,
    ]


@pytest.mark.django_db(transaction=True)
def test_a_suspended_player_leaves_ladders_and_tournaments(alice, bob, carol, staff):
    from ladder import services as ladder_services
    from ladder.models import Ladder, LadderMember
    from tournaments.models import Participant, ParticipantStatus

    ladder = Ladder.objects.get_or_create(kind="onitama", defaults={"name": "Onitama ladder"})[0]
    ladder_services.ladder_join(ladder_id=ladder.pk, user=alice)
    running = tournament_of([alice, bob, carol])
    upcoming = tournament_services.tournament_create(actor=None, name="Next cup", kind="onitama", format="round_robin")
    tournament_services.tournament_open_registration(tournament_id=upcoming.pk, actor=None)
    tournament_services.tournament_register(tournament_id=upcoming.pk, user=alice)

    ops.player_suspend(player_id=alice.pk, staff=staff, reason="Second account")

    assert LadderMember.objects.get(ladder=ladder, user=alice).position is None
    entry = Participant.objects.get(tournament=running, user=alice)
    assert entry.status == ParticipantStatus.WITHDRAWN
    assert not Participant.objects.filter(tournament=upcoming, user=alice, status=ParticipantStatus.ACTIVE).exists()
    assert not Game.objects.filter(seats__user=alice, status=GameStatus.ACTIVE).exists()
    details = StaffAction.objects.get(action=StaffActionKind.SUSPEND).details
    assert details["ladders_left"] == [ladder.pk]
    assert sorted(details["tournaments_left"]) == sorted([running.pk, upcoming.pk])


def test_staff_cannot_suspend_themselves(staff):
    with pytest.raises(GameActionError) as refused:
        ops.player_suspend(player_id=staff.pk, staff=staff, reason="oops")
    assert refused.value.code == "suspend_self"


# ---------------------------------------------------------------- admin


def test_admin_actions_ask_why_then_act_and_log(client, alice, bob, staff):
    client.force_login(staff)
    finished = start_game(alice, bob)
    services.game_resign(game_id=finished.pk, user=bob)
    running = start_game(alice, bob)
    url = reverse("admin:ops_gameadjudication_changelist")
    assert client.get(url).status_code == 200

    asked = client.post(url, {"action": "void", "_selected_action": [finished.pk]})
    assert asked.status_code == 200 and "Why" in asked.content.decode()
    no_reason = client.post(url, {"action": "void", "_selected_action": [finished.pk], "apply": "1", "reason": ""})
    assert no_reason.status_code == 200 and not StaffAction.objects.exists()
    done = client.post(
        url, {"action": "void", "_selected_action": [finished.pk], "apply": "1", "reason": "Shared account"}
    )
    assert done.status_code == 302
    assert Game.objects.get(pk=finished.pk).result_reason == adjudication.REASON_VOID

    client.post(
        url,
        {"action": "award", "_selected_action": [running.pk], "apply": "1", "reason": "Abandoned", "side": "second"},
    )
    running.refresh_from_db()
    assert (running.status, running.winner_side) == (GameStatus.FINISHED, "blue")

    refused = client.post(
        url,
        {"action": "reverse_timeout", "_selected_action": [running.pk], "apply": "1", "reason": "outage"},
        follow=True,
    )
    assert "did not end on time" in refused.content.decode()

    users = reverse("admin:ops_playersuspension_changelist")
    asked = client.post(users, {"action": "suspend", "_selected_action": [bob.pk]})
    assert "lost by them (forfeit)" in asked.content.decode()
    client.post(users, {"action": "suspend", "_selected_action": [bob.pk], "apply": "1", "reason": "Cheating"})
    bob.refresh_from_db()
    assert bob.suspended_at is not None and not bob.is_active
    client.post(users, {"action": "unsuspend", "_selected_action": [bob.pk], "apply": "1", "reason": "Appeal"})
    bob.refresh_from_db()
    assert bob.is_active

    log = client.get(reverse("admin:accounts_staffaction_changelist")).content.decode()
    assert "Shared account" in log and "Cheating" in log and "Appeal" in log
    assert list(StaffAction.objects.order_by("pk").values_list("action", "staff", "reason")) == [
        ("void", staff.pk, "Shared account"),
        ("award", staff.pk, "Abandoned"),
        ("suspend", staff.pk, "Cheating"),
        ("unsuspend", staff.pk, "Appeal"),
    ]
    # The log is read-only.
    action = StaffAction.objects.first()
    assert action is not None
    assert client.post(reverse("admin:accounts_staffaction_delete", args=[action.pk])).status_code == 403
