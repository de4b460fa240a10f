"""Pausing a tournament holds its games' clocks (and gives the time back on resume,
composing with vacations); ending it early cancels the running games, which
count for nobody, leaves final, consistent standings and mails every player."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.core import mail

from accounts.models import StaffActionKind
from accounts.selectors import staff_actions_on
from correspondence import services as correspondence
from games import services as game_services
from games.errors import GameActionError
from games.models import Game, GameStatus
from ratings.models import RatingChange
from tests.factories import first_legal, running_deadline, to_move, turn_start
from tournaments import selectors, services
from tournaments.checks import tournament_invariant_errors
from tournaments.models import Pairing, Result, TournamentStatus
from tournaments.serializers import tournament_standings_data

from .conftest import finish, make_user, running_games, started

# Transactional: the pairing task and the mail run when each service commits (on_commit), as in production.
pytestmark = pytest.mark.django_db(transaction=True)


def users(n, prefix="p"):
    return [make_user("%s%d" % (prefix, i)) for i in range(n)]


def move_once(game: Game, *, now: datetime | None = None) -> Game:
    """The player to move makes their first legal decision (at ``now``, by default the current time)."""
    game_services.move_submit(
        game_id=game.pk, user=to_move(game), move_text=first_legal(game), expected_ply=game.ply, now=now
    )
    game.refresh_from_db()
    return game


def test_a_paused_tournament_holds_every_clock_and_resume_gives_the_time_back(staff):
    t = started(users(4), format="round_robin", actor=staff)
    first, second = running_games(t)
    first = move_once(first)  # a time-out there would be a loss, not an abort
    start = max(turn_start(g) for g in (first, second))
    deadlines = {g.pk: running_deadline(g) for g in (first, second)}

    paused_at = start + timedelta(days=1, hours=3)
    services.tournament_pause(tournament_id=t.pk, actor=staff, now=paused_at)
    t.refresh_from_db()
    assert t.status == TournamentStatus.PAUSED
    for game in running_games(t):
        assert game.deadline is None and game.clock_held_since == paused_at
    paused = staff_actions_on(target=t).get(action=StaffActionKind.TOURNAMENT_PAUSE)
    assert paused.details["detail"] == "2 game clock(s) stopped"
    # Nobody loses on time while paused, however late the sweep runs; no round is paired.
    assert game_services.games_time_out(now=paused_at + timedelta(days=60)) == 0
    assert len(running_games(t)) == 2
    assert services.tournament_advance(tournament_id=t.pk) == "not_running"

    resumed_at = paused_at + timedelta(days=6, minutes=41, seconds=7)
    services.tournament_resume(tournament_id=t.pk, actor=staff, now=resumed_at)
    t.refresh_from_db()
    assert t.status == TournamentStatus.RUNNING
    for game in running_games(t):
        assert game.clock_held_since is None
        assert running_deadline(game) - resumed_at == deadlines[game.pk] - paused_at  # exactly the time left
    resumed = staff_actions_on(target=t).get(action=StaffActionKind.TOURNAMENT_RESUME)
    assert resumed.details["detail"] == "2 game clock(s) running again"
    earliest = min(running_deadline(g) for g in running_games(t))
    assert game_services.games_time_out(now=earliest - timedelta(seconds=1)) == 0
    assert game_services.games_time_out(now=earliest + timedelta(seconds=1)) >= 1


def test_a_turn_that_starts_during_the_pause_gets_its_full_time_after_resume(staff):
    t = started(users(2), format="round_robin", actor=staff)
    (game,) = running_games(t)
    paused_at = turn_start(game) + timedelta(hours=5)
    services.tournament_pause(tournament_id=t.pk, actor=staff, now=paused_at)
    moved_at = paused_at + timedelta(hours=2)
    game = move_once(game, now=moved_at)  # players may still move while paused
    assert game.turn == 2 and game.turn_started_at == moved_at and game.deadline is None
    resumed_at = moved_at + timedelta(days=4)
    services.tournament_resume(tournament_id=t.pk, actor=staff, now=resumed_at)
    game.refresh_from_db()
    assert game.deadline == resumed_at + timedelta(days=game.days_per_move)


def test_vacations_and_the_tournament_pause_compose(staff):
    t = started(users(4), format="round_robin", actor=staff)
    a, b = running_games(t)
    a_mover, b_mover = to_move(a), to_move(b)
    start = max(turn_start(a), turn_start(b))
    b_away = start + timedelta(hours=1)
    correspondence.vacation_start(user=b_mover, days=2, now=b_away)  # before the pause
    paused_at = start + timedelta(hours=2)
    services.tournament_pause(tournament_id=t.pk, actor=staff, now=paused_at)
    # A vacation inside the pause: its end does not restart the held clock.
    correspondence.vacation_start(user=a_mover, days=1, now=paused_at + timedelta(hours=1))
    correspondence.vacation_end(user=a_mover, now=paused_at + timedelta(hours=3))
    a.refresh_from_db()
    assert a.deadline is None and a.clock_held_since == paused_at and a.clock_paused_at == paused_at
    assert game_services.games_time_out(now=paused_at + timedelta(days=30)) == 0

    resumed_at = paused_at + timedelta(days=1)
    services.tournament_resume(tournament_id=t.pk, actor=staff, now=resumed_at)
    a.refresh_from_db()
    b.refresh_from_db()
    assert running_deadline(a) - resumed_at == turn_start(a) + timedelta(days=3) - paused_at
    # The resume does not restart the clock of a player still on vacation.
    assert b.deadline is None and b.clock_held_since is None and b.clock_paused_at == b_away
    back = resumed_at + timedelta(hours=4)
    correspondence.vacation_end(user=b_mover, now=back)
    b.refresh_from_db()
    assert b.turn_paused == back - b_away
    assert b.deadline == turn_start(b) + timedelta(days=3) + (back - b_away)


@pytest.mark.parametrize("format, paused", [("round_robin", False), ("swiss", True), ("knockout", False)])
def test_end_early_cancels_the_running_games_and_the_standings_are_final(staff, format, paused):
    players = users(4)
    t = started(players, format=format, actor=staff, rated=True)
    decided, running = running_games(t)
    winner = decided.seats.get(position=0).user
    finish(decided, winner=winner)
    running = move_once(move_once(running))  # both sides moved: a player could no longer abort
    if paused:
        services.tournament_pause(tournament_id=t.pk, actor=staff)
    mail.outbox.clear()

    services.tournament_end(tournament_id=t.pk, actor=staff)

    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED and t.ended_early and t.finished_at is not None
    assert running_games(t) == []
    running.refresh_from_db()
    assert running.status == GameStatus.ABORTED and running.clock_held_since is None
    assert not RatingChange.objects.filter(game=running).exists()
    assert Pairing.objects.get(game=running).result == Result.VOID
    assert Pairing.objects.get(game=decided).result == Result.FIRST_WINS
    assert not Pairing.objects.filter(tournament=t, result=Result.PENDING).exists()
    assert t.rounds.count() == 1
    assert services.tournament_advance(tournament_id=t.pk) == "not_running"
    assert tournament_invariant_errors(tournament=t) == []

    standings = selectors.tournament_standings(tournament=t)
    by_user = {row.participant.user: row for row in standings}
    assert standings[0].participant.user == winner and standings[0].points == 1
    assert sum(row.points for row in standings) == 1  # the cancelled game counts for nobody
    for user in running.seats.values_list("user", flat=True):
        row = next(r for u, r in by_user.items() if u.pk == user)
        assert (row.points, row.games, row.wins, row.draws, row.losses) == (0, 0, 0, 0, 0)
    assert tournament_standings_data(tournament_id=t.pk)["status"] == "finished"

    log = staff_actions_on(target=t).get(action=StaffActionKind.TOURNAMENT_END_EARLY)
    assert log.staff == staff and log.details["detail"] == "1 running game(s) cancelled"
    ended = [m for m in mail.outbox if "ended early" in m.subject]
    assert sorted(m.to[0] for m in ended) == sorted(u.email for u in players)
    mine = next(m for m in ended if m.to == [winner.email])
    assert "1 of 4" in mine.body and "final" in mine.body

    with pytest.raises(GameActionError) as again:
        services.tournament_end(tournament_id=t.pk, actor=staff)
    assert again.value.status == 409 and again.value.code == "bad_status"
    assert staff_actions_on(target=t).filter(action=StaffActionKind.TOURNAMENT_END_EARLY).count() == 1


def test_end_early_before_the_start_tells_the_registered_players(staff):
    alice, bob = users(2, "r")
    t = services.tournament_create(actor=staff, name="Spring cup", kind="onitama", format="swiss")
    services.tournament_open_registration(tournament_id=t.pk, actor=staff)
    for user in (alice, bob):
        services.tournament_register(tournament_id=t.pk, user=user)
    mail.outbox.clear()
    services.tournament_end(tournament_id=t.pk, actor=staff)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED and t.ended_early and not t.rounds.exists()
    assert sorted(m.to[0] for m in mail.outbox) == [alice.email, bob.email]
    assert all("cancelled Spring cup before it started" in m.body for m in mail.outbox)


def test_admin_end_early_asks_for_confirmation_and_pause_holds_the_clocks(client, staff):
    t = started(users(2), format="round_robin", actor=staff)
    client.force_login(staff)
    changelist = "/admin/tournaments/tournament/"
    client.post(changelist, {"action": "pause", "_selected_action": [t.pk]})
    (game,) = running_games(t)
    assert game.clock_held_since is not None and game.deadline is None
    client.post(changelist, {"action": "resume", "_selected_action": [t.pk]})
    game.refresh_from_db()
    assert game.clock_held_since is None and game.deadline is not None

    confirm = client.post(changelist, {"action": "end_early", "_selected_action": [t.pk]})
    page = confirm.content.decode()
    assert confirm.status_code == 200 and "count for nobody" in page and "Test cup" in page
    t.refresh_from_db()
    assert t.status == TournamentStatus.RUNNING and running_games(t) == [game]
    done = client.post(changelist, {"action": "end_early", "_selected_action": [t.pk], "apply": "1"}, follow=True)
    assert done.status_code == 200
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED and t.ended_early and running_games(t) == []
