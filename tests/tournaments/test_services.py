"""Tournament services on the database: registration, start, whole tournaments
through the games services, withdrawals, knockout replays, staff actions."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core import mail
from django.core.management import call_command

from accounts.models import StaffActionKind
from accounts.selectors import staff_actions_on
from games.errors import GameActionError
from games.models import Game
from ratings import constants as rating_constants
from tests.factories import to_move
from tournaments import selectors, services
from tournaments.checks import tournament_invariant_errors
from tournaments.models import Pairing, Participant, Result, Round, Tournament, TournamentStatus

from .conftest import finish, make_user, play_out, running_games, started

# Transactional: the pairing task and the mail run when each service commits (on_commit), as in production.
pytestmark = pytest.mark.django_db(transaction=True)


def users(n, prefix="p", email=True):
    return [make_user("%s%d" % (prefix, i), email=email) for i in range(n)]


def test_registration_rules(staff):
    alice, bob, carol = users(3)
    t = services.tournament_create(actor=staff, name="Cup", kind="onitama", format="swiss", max_players=2)
    with pytest.raises(GameActionError) as closed:
        services.tournament_register(tournament_id=t.pk, user=alice)
    assert closed.value.status == 409 and closed.value.code == "registration_closed"
    services.tournament_open_registration(tournament_id=t.pk, actor=staff)
    services.tournament_register(tournament_id=t.pk, user=alice)
    with pytest.raises(GameActionError) as twice:
        services.tournament_register(tournament_id=t.pk, user=alice)
    assert twice.value.code == "already_registered"
    services.tournament_register(tournament_id=t.pk, user=bob)
    with pytest.raises(GameActionError) as full:
        services.tournament_register(tournament_id=t.pk, user=carol)
    assert full.value.code == "tournament_full" and "2" in full.value.message
    services.tournament_withdraw(tournament_id=t.pk, user=bob)
    services.tournament_register(tournament_id=t.pk, user=carol)
    assert set(t.participants.values_list("user__username", flat=True)) == {"p0", "p2"}


def test_rating_limits_use_the_ratings_app(staff):
    (alice,) = users(1)
    start = rating_constants.INITIAL_RATING
    t = services.tournament_create(
        actor=staff, name="Strong", kind="onitama", format="swiss", rating_min=int(start) + 100
    )
    services.tournament_open_registration(tournament_id=t.pk, actor=staff)
    with pytest.raises(GameActionError) as low:
        services.tournament_register(tournament_id=t.pk, user=alice)
    assert low.value.code == "rating_too_low" and low.value.status == 400
    services.tournament_update(
        tournament_id=t.pk, actor=staff, changes={"rating_min": None, "rating_max": int(start) - 100}
    )
    with pytest.raises(GameActionError) as high:
        services.tournament_register(tournament_id=t.pk, user=alice)
    assert high.value.code == "rating_too_high"


def test_start_needs_min_players_and_settings_freeze(staff):
    alice, bob = users(2)
    t = services.tournament_create(actor=staff, name="Cup", kind="onitama", format="round_robin", min_players=3)
    services.tournament_open_registration(tournament_id=t.pk, actor=staff)
    for u in (alice, bob):
        services.tournament_register(tournament_id=t.pk, user=u)
    with pytest.raises(GameActionError) as few:
        services.tournament_start(tournament_id=t.pk, actor=staff)
    assert few.value.code == "too_few_players"
    services.tournament_update(tournament_id=t.pk, actor=staff, changes={"min_players": 2})
    services.tournament_start(tournament_id=t.pk, actor=staff)
    with pytest.raises(GameActionError) as frozen:
        services.tournament_update(tournament_id=t.pk, actor=staff, changes={"days_per_move": 7})
    assert frozen.value.status == 409
    with pytest.raises(GameActionError):
        services.tournament_withdraw(tournament_id=t.pk, user=alice)
    actions = list(staff_actions_on(target=t).values_list("action", flat=True))
    assert set(actions) >= {
        StaffActionKind.TOURNAMENT_CREATE,
        StaffActionKind.TOURNAMENT_OPEN_REGISTRATION,
        StaffActionKind.TOURNAMENT_UPDATE,
        StaffActionKind.TOURNAMENT_START,
    }


def test_bad_settings_are_refused():
    with pytest.raises(GameActionError) as bad:
        services.tournament_create(actor=None, name="x", kind="chess", format="swiss")
    assert bad.value.status == 400
    with pytest.raises(GameActionError):
        services.tournament_create(actor=None, name="x", kind="onitama", format="swiss", min_players=4, max_players=3)


def test_round_one_games_and_mail(staff):
    players = users(4)
    mail.outbox.clear()
    t = started(players, actor=staff, days_per_move=5, rated=False)
    games = running_games(t)
    assert len(games) == 2 and all(g.days_per_move == 5 and not g.rated for g in games)
    paired_mail = [m for m in mail.outbox if "round 1" in m.subject]
    assert sorted(m.to[0] for m in paired_mail) == sorted(u.email for u in players)
    # The task is idempotent: running it again pairs nothing.
    assert services.tournament_advance(tournament_id=t.pk) == "waiting"
    assert Round.objects.filter(tournament=t).count() == 1
    assert Game.objects.filter(tournament_pairing__tournament=t).count() == 2


@pytest.mark.parametrize("n", [3, 4, 5, 8, 12])
def test_round_robin_to_the_end(n):
    t = started(users(n), format="round_robin")
    play_out(t, pick=lambda g: ("first" if g.pk % 3 else "second", g.pk % 5 == 0))
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    assert tournament_invariant_errors(tournament=t) == []
    standings = selectors.tournament_standings(tournament=t)
    assert sum(r.points for r in standings) == n * (n - 1) / 2
    assert all(r.games == n - 1 for r in standings)
    crosstable = selectors.tournament_crosstable(tournament=t)
    assert all(sum(c is None for c in line["cells"]) == 1 for line in crosstable["rows"])


def test_double_round_robin_swaps_seats():
    t = started(users(4), format="round_robin", cycles=2)
    play_out(t)
    t.refresh_from_db()
    assert t.rounds.count() == 6 and tournament_invariant_errors(tournament=t) == []


@pytest.mark.parametrize("n", [3, 4, 5, 8, 13])
def test_swiss_to_the_end(n):
    t = started(users(n), format="swiss")
    play_out(t, pick=lambda g: ("first" if g.pk % 2 else "second", g.pk % 7 == 0))
    t.refresh_from_db()
    rounds = max(1, (n - 1).bit_length())
    assert t.status == TournamentStatus.FINISHED and t.rounds.count() == rounds
    assert tournament_invariant_errors(tournament=t) == []
    byes = Pairing.objects.filter(tournament=t, result=Result.BYE)
    assert byes.count() == (rounds if n % 2 else 0)
    assert len(set(byes.values_list("first", flat=True))) == byes.count()
    standings = selectors.tournament_standings(tournament=t)
    assert sum(r.points for r in standings) == rounds * (n // 2) + byes.count()


def test_swiss_beyond_the_limit_warns_staff(staff):
    players = users(4)
    t = services.tournament_create(actor=staff, name="Long", kind="onitama", format="swiss", swiss_rounds=4)
    services.tournament_open_registration(tournament_id=t.pk, actor=staff)
    for u in players:
        services.tournament_register(tournament_id=t.pk, user=u)
    result = services.tournament_start(tournament_id=t.pk, actor=staff)
    assert len(result.warnings) == 1 and "round 4" in result.warnings[0]
    assert "round 4" in staff_actions_on(target=t).get(action=StaffActionKind.TOURNAMENT_START).details["detail"]
    play_out(t)
    t.refresh_from_db()
    assert t.rounds.count() == 4 and tournament_invariant_errors(tournament=t) == []


@pytest.mark.parametrize("n", [3, 4, 5, 8, 13])
def test_knockout_to_the_end(n):
    t = started(users(n), format="knockout")
    play_out(t, pick=lambda g: ("second" if g.pk % 3 == 0 else "first", False))
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    assert tournament_invariant_errors(tournament=t) == []
    bracket = selectors.tournament_bracket(tournament=t)
    assert len(bracket) == (n - 1).bit_length() and len(bracket[-1]) == 1
    assert bracket[-1][0].winner is not None
    standings = selectors.tournament_standings(tournament=t)
    final = bracket[-1][0]
    assert standings[0].participant == final.winner
    assert {standings[1].participant} == {final.first, final.second} - {final.winner}
    assert Game.objects.filter(tournament_pairing__tournament=t).count() == n - 1


def test_knockout_seeds_by_rating_and_byes_the_top_seeds():
    from ratings.models import Rating

    players = users(3)
    Rating.objects.create(
        user=players[2],
        kind="onitama",
        rating=rating_constants.INITIAL_RATING + 300,
        deviation=60,
        volatility=rating_constants.INITIAL_VOLATILITY,
        games_played=20,
    )
    t = started(players, format="knockout")
    seeds = dict(t.participants.values_list("user__username", "seed"))
    assert seeds["p2"] == 1
    bye = Pairing.objects.get(tournament=t, result=Result.BYE)
    assert bye.first.user == players[2]


def test_knockout_draw_is_replayed_with_seats_swapped_then_the_higher_seed_advances():
    a, b = users(2)
    t = started([a, b], format="knockout")
    for leg in range(3):
        (game,) = running_games(t)
        pairing = game.tournament_pairing
        assert pairing.leg == leg
        if leg:
            previous = Pairing.objects.get(tournament=t, leg=leg - 1)
            assert (pairing.first_id, pairing.second_id) == (previous.second_id, previous.first_id)
        finish(game, draw=True)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED and running_games(t) == []
    (final,) = selectors.tournament_bracket(tournament=t)[0]
    assert final.winner is not None
    assert final.winner.seed == 1 and len(final.games) == 3


def test_maatatahay_knockout_runs():
    t = started(users(4), format="knockout", kind="maatatahay")
    play_out(t)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED and tournament_invariant_errors(tournament=t) == []


def test_withdrawal_mid_round_robin_forfeits_the_rest(staff):
    players = users(4)
    t = started(players, format="round_robin")
    games = running_games(t)
    finish(games[0], winner=games[0].seats.get(position=0).user)
    leaver = Participant.objects.get(tournament=t, user=games[1].seats.get(position=0).user)
    services.participant_withdraw(participant_id=leaver.pk, actor=staff)
    games[1].refresh_from_db()
    assert games[1].status == "finished"
    play_out(t)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED and tournament_invariant_errors(tournament=t) == []
    forfeits = Pairing.objects.filter(tournament=t, result__in=[Result.FIRST_WINS_FORFEIT, Result.SECOND_WINS_FORFEIT])
    assert forfeits.count() == 2 and all(p.game_id is None for p in forfeits)
    standings = {r.participant.user.username: r for r in selectors.tournament_standings(tournament=t)}
    assert standings[leaver.user.username].withdrawn and standings[leaver.user.username].points == 0
    assert sum(r.points for r in standings.values()) == 6
    assert staff_actions_on(target=t).filter(action=StaffActionKind.TOURNAMENT_WITHDRAW_PLAYER).exists()


@pytest.mark.parametrize("format", ["swiss", "knockout"])
def test_withdrawal_mid_swiss_or_knockout(staff, format):
    t = started(users(8), format=format)
    for game in running_games(t)[:2]:
        finish(game, winner=game.seats.get(position=0).user)
    leaver = t.participants.order_by("seed").last()
    assert leaver is not None
    services.participant_withdraw(participant_id=leaver.pk, actor=staff)
    play_out(t)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED and tournament_invariant_errors(tournament=t) == []
    later = Pairing.objects.filter(tournament=t, round__number__gt=1)
    assert not later.filter(first=leaver).exists() and not later.filter(second=leaver).exists()


def test_pause_resume_end_and_replace(staff):
    players = users(4)
    spare = make_user("spare")
    t = services.tournament_create(actor=staff, name="Cup", kind="onitama", format="round_robin")
    services.tournament_open_registration(tournament_id=t.pk, actor=staff)
    for u in players:
        services.tournament_register(tournament_id=t.pk, user=u)
    entry = t.participants.get(user=players[0])
    services.participant_replace(participant_id=entry.pk, new_user=spare, actor=staff)
    assert t.participants.filter(user=spare).exists()
    services.tournament_start(tournament_id=t.pk, actor=staff)
    with pytest.raises(GameActionError):
        services.participant_replace(participant_id=entry.pk, new_user=players[0], actor=staff)
    services.tournament_pause(tournament_id=t.pk, actor=staff)
    for game in running_games(t):
        finish(game, draw=True)
    assert t.rounds.count() == 1  # paused: round 2 waits
    services.tournament_resume(tournament_id=t.pk, actor=staff)
    assert t.rounds.count() == 2
    services.tournament_end(tournament_id=t.pk, actor=staff)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED and t.ended_early
    for game in running_games(t):
        finish(game, draw=True)
    assert t.rounds.count() == 2
    logged = set(staff_actions_on(target=t).values_list("action", flat=True))
    assert logged >= {
        StaffActionKind.TOURNAMENT_REPLACE_PLAYER,
        StaffActionKind.TOURNAMENT_START,
        StaffActionKind.TOURNAMENT_PAUSE,
        StaffActionKind.TOURNAMENT_RESUME,
        StaffActionKind.TOURNAMENT_END_EARLY,
    }


def test_a_non_tournament_game_is_ignored():
    from games import services as game_services

    a, b = users(2)
    challenge = game_services.challenge_create(challenger=a, opponent=b, kind="onitama")
    game = game_services.challenge_accept(challenge_id=challenge.pk, user=b)
    finish(game, winner=a)
    assert not Pairing.objects.exists()


@pytest.mark.parametrize(
    "args",
    [
        ["--format", "swiss", "--players", "5"],
        ["--format", "knockout", "--players", "4", "--game", "maatatahay"],
        ["--format", "round_robin", "--players", "4"],
    ],
)
def test_simulate_tournament_command(args):
    out = StringIO()
    call_command("simulate_tournament", *args, "--seed", "3", stdout=out)
    text = out.getvalue()
    assert "invariants: ok" in text and "time:" in text
    assert Tournament.objects.get().status == TournamentStatus.FINISHED


def test_games_follow_the_tournament_vacation_setting():
    from django.utils import timezone

    away = users(4, "s")
    for user in away:
        user.vacation_since = timezone.now()
        user.save()
    strict = started(away[:2], format="round_robin", vacation_allowed=False)
    relaxed = started(away[2:], format="round_robin", vacation_allowed=True)
    (strict_game,) = running_games(strict)
    (relaxed_game,) = running_games(relaxed)
    assert not strict_game.vacation_allowed and strict_game.deadline is not None
    assert relaxed_game.vacation_allowed and relaxed_game.deadline is None  # clock stopped


def test_an_aborted_game_is_a_forfeit_of_whoever_never_moved():
    import engine
    from games import services as game_services

    t = started(users(2), format="round_robin")
    (game,) = running_games(t)
    rules = engine.get_game(game.kind)
    state = game_services.game_state(game)
    game_services.move_submit(
        game_id=game.pk, user=to_move(game), expected_ply=0, move_text=rules.move_text(rules.legal_moves(state)[0])
    )
    game.refresh_from_db()
    mover_side = game.seats.exclude(user=game.to_move_user).get().side
    game_services.game_abort(game_id=game.pk, user=to_move(game))
    pairing = Pairing.objects.get(tournament=t)
    expected = Result.FIRST_WINS_FORFEIT if mover_side == rules.players[0] else Result.SECOND_WINS_FORFEIT
    assert pairing.result == expected
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    winner = selectors.tournament_standings(tournament=t)[0]
    assert winner.points == 1 and winner.games == 1
