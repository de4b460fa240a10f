"""A tournament's end date: when it passes, the games still running are adjudicated
(games.end_adjudication: Onitama by the level-5 bot at a fixed node budget, Maatatahay by
the engine's scoring rule), the tournament ends with the results as they stand, a knockout
draw goes to the higher seed, a pause moves the end date on, the same position gives the
same answer on appeal, and staff overturn a verdict in the one audit log."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import StaffAction, StaffActionKind
from accounts.selectors import staff_actions_on
from engine.bots import Evaluation
from engine.onitama import position_from_text
from games import end_adjudication
from games import services as game_services
from games.models import BotAdjudication, Game, GameStatus, ResultReason
from games.rules import game_state, rules_for
from ops import services as ops
from ratings.models import RatingChange
from tests.factories import play
from tournaments import selectors, services, tasks
from tournaments.errors import Conflict
from tournaments.models import Pairing, Result, Round, Tournament, TournamentStatus

from .conftest import make_user, running_games, started

pytestmark = pytest.mark.django_db(transaction=True)

# Red to move takes Blue's master with the boar at once: a proven win (win_in 1).
RED_WINS = "bb3/5/5/1B3/rrRrr boar,tiger elephant,horse crab r"


def users(n: int, prefix: str = "e") -> list:
    return [make_user("%s%d" % (prefix, i)) for i in range(n)]


def with_end_date(tournament: Tournament, ends_at, staff) -> Tournament:
    services.tournament_update(tournament_id=tournament.pk, actor=staff, changes={"ends_at": ends_at})
    tournament.refresh_from_db()
    return tournament


def plant(game: Game, position: str) -> None:
    """Put an Onitama game in ``position`` (the game's engine state, as games.services keeps it)."""
    game_services.game_state_keep(game=game, state=position_from_text(position))
    game.save(update_fields=["sealed_state"])


def test_the_thresholds_are_the_documented_rule():
    assert end_adjudication.ADJUDICATION_LEVEL == 5 and end_adjudication.ADJUDICATION_NODES == 1_000_000
    verdict = end_adjudication.onitama_verdict
    assert verdict(side_to_move="red", evaluation=Evaluation("m", 1.0, 3))[0] == "red"
    assert verdict(side_to_move="red", evaluation=Evaluation("m", -1.0, -4))[0] == "blue"
    assert verdict(side_to_move="blue", evaluation=Evaluation("m", 0.6))[0] == "blue"
    assert verdict(side_to_move="blue", evaluation=Evaluation("m", -0.6))[0] == "red"
    assert verdict(side_to_move="red", evaluation=Evaluation("m", 0.59))[0] == ""
    assert verdict(side_to_move="red", evaluation=Evaluation("m", -0.59))[0] == ""
    assert verdict(side_to_move="red", evaluation=Evaluation("m", None))[0] == ""


def test_onitama_games_running_at_the_end_date_are_adjudicated_and_the_tournament_ends(staff):
    t = started(users(4), format="round_robin", actor=staff)
    won, balanced = running_games(t)
    plant(won, RED_WINS)
    ends = timezone.now() + timedelta(days=30)
    t = with_end_date(t, ends, staff)

    assert services.tournament_end_date_reach(tournament_id=t.pk, now=ends - timedelta(seconds=1)) == "not_due"
    assert len(running_games(t)) == 2
    assert services.tournament_end_date_reach(tournament_id=t.pk, now=ends) == "adjudicated 2"

    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED and not t.ended_early and t.finished_at == ends
    won.refresh_from_db()
    balanced.refresh_from_db()
    assert (won.status, won.winner_side, won.result_reason) == (GameStatus.FINISHED, "red", ResultReason.ADJUDICATED)
    assert (balanced.status, balanced.winner_side, balanced.result_reason) == (
        GameStatus.FINISHED,
        "",
        ResultReason.ADJUDICATED,
    )
    proven = BotAdjudication.objects.get(game=won)
    assert proven.method == "bot" and proven.evaluation["win_in"] == 1 and proven.winner_side == "red"
    assert (proven.level, proven.nodes, proven.seed) == (5, 1_000_000, won.pk)
    assert proven.bot_version.startswith("onitama") and proven.decided_at == ends
    assert "forced win for red" in proven.reason and "end date" in proven.reason
    drawn = BotAdjudication.objects.get(game=balanced)
    assert drawn.evaluation["win_in"] is None and abs(drawn.evaluation["value"]) < end_adjudication.WIN_THRESHOLD
    assert drawn.winner_side == "" and "a draw" in drawn.reason
    # Ratings and standings follow the results, as for any game.
    red = won.seats.get(side="red").user
    assert RatingChange.objects.get(game=won, user=red).score == 1.0
    assert set(RatingChange.objects.filter(game=balanced).values_list("score", flat=True)) == {0.5}
    assert Pairing.objects.get(game=won).result in (Result.FIRST_WINS, Result.SECOND_WINS)
    assert Pairing.objects.get(game=balanced).result == Result.DRAW
    assert sum(row.points for row in selectors.tournament_standings(tournament=t)) == 2.0
    assert services.tournament_advance(tournament_id=t.pk) == "not_running"  # nothing more is paired
    assert staff_actions_on(target=t).filter(action=StaffActionKind.TOURNAMENT_END_DATE).count() == 1

    # Idempotent: once more changes nothing.
    assert services.tournament_end_date_reach(tournament_id=t.pk, now=ends + timedelta(days=1)) == "not_running"
    assert BotAdjudication.objects.count() == 2

    # Appeal: the same answer when run again.
    for row in BotAdjudication.objects.all():
        again = end_adjudication.adjudication_repeat(adjudication=row)
        assert (again.winner, again.evaluation, again.bot_version) == (row.winner_side, row.evaluation, row.bot_version)


def test_a_maatatahay_game_is_scored_by_the_engines_rule(staff):
    t = started(users(2, "m"), format="round_robin", actor=staff, kind="maatatahay")
    (game,) = running_games(t)
    game = play(game, 12)
    assert game.status == GameStatus.ACTIVE
    scores = rules_for("maatatahay").scores(game_state(game))  # type: ignore[attr-defined]
    ends = timezone.now()
    t = with_end_date(t, ends, staff)

    assert services.tournament_end_date_reach(tournament_id=t.pk, now=ends) == "adjudicated 1"
    game.refresh_from_db()
    row = BotAdjudication.objects.get(game=game)
    assert row.method == "scoring" and row.evaluation["scores"] == scores and game.scores == scores
    assert game.result_reason == ResultReason.ADJUDICATED and game.winner_side == row.winner_side
    balan, wazu = scores["balan"], scores["wazu"]
    if balan != wazu:
        assert game.winner_side == ("balan" if balan > wazu else "wazu")
        assert row.evaluation["rule"] == "score"
    assert not row.position and row.level is None  # no bot: the table's public score
    again = end_adjudication.adjudication_repeat(adjudication=row)
    assert (again.winner, again.evaluation) == (row.winner_side, row.evaluation)


def test_a_knockout_draw_at_the_end_date_is_not_replayed_the_higher_seed_advances(staff):
    t = started(users(4, "k"), format="knockout", actor=staff)
    games = running_games(t)
    assert len(games) == 2
    ends = timezone.now()
    t = with_end_date(t, ends, staff)

    assert services.tournament_end_date_reach(tournament_id=t.pk, now=ends) == "adjudicated 2"
    for game in games:
        game.refresh_from_db()
        assert game.winner_side == ""  # the start is balanced: a draw
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    assert not Pairing.objects.filter(tournament=t, leg__gt=0).exists()  # no replay
    (first_round,) = selectors.tournament_bracket(tournament=t)
    for match in first_round:
        assert match.first is not None and match.second is not None and match.winner is not None
        assert match.games[-1].end_adjudicated
        assert match.winner.seed == min(match.first.seed or 99, match.second.seed or 99)


def test_a_pause_moves_the_end_date_on_by_its_length(staff):
    t = started(users(2, "p"), format="round_robin", actor=staff)
    t0 = timezone.now()
    t = with_end_date(t, t0 + timedelta(days=10), staff)
    services.tournament_pause(tournament_id=t.pk, actor=staff, now=t0 + timedelta(days=1))
    assert services.tournament_end_date_reach(tournament_id=t.pk, now=t0 + timedelta(days=11)) == "not_running"
    services.tournament_resume(tournament_id=t.pk, actor=staff, now=t0 + timedelta(days=4, hours=2))
    t.refresh_from_db()
    assert t.ends_at == t0 + timedelta(days=13, hours=2) and t.paused_at is None
    resumed = staff_actions_on(target=t).get(action=StaffActionKind.TOURNAMENT_RESUME)
    assert "end date moved on by 3 days, 2:00:00" in resumed.details["detail"]

    assert services.tournaments_end_date_due(now=t0 + timedelta(days=13)) == 0
    assert services.tournament_end_date_reach(tournament_id=t.pk, now=t0 + timedelta(days=13)) == "not_due"
    assert services.tournament_end_date_reach(tournament_id=t.pk, now=t0 + timedelta(days=13, hours=2)) == (
        "adjudicated 1"
    )


def test_the_sweep_and_the_task_are_idempotent(staff):
    due = started(users(2, "s"), format="round_robin", actor=staff)
    later = started(users(2, "l"), format="round_robin", actor=staff)
    now = timezone.now()
    due = with_end_date(due, now - timedelta(minutes=1), staff)
    later = with_end_date(later, now + timedelta(days=5), staff)

    assert services.tournaments_end_date_due(now=now) == 1  # the task ran (eager) when the sweep committed
    assert services.tournaments_end_date_due(now=now) == 0
    due.refresh_from_db()
    later.refresh_from_db()
    assert due.status == TournamentStatus.FINISHED and later.status == TournamentStatus.RUNNING
    assert BotAdjudication.objects.filter(game__tournament_pairing__tournament=due).count() == 1
    assert tasks.tournament_end_date.delay(due.pk).get() == "not_running"
    assert tasks.tournament_end_date.delay(later.pk).get() == "not_due"
    assert tasks.tournaments_end_date_sweep.delay().get() == 0
    assert BotAdjudication.objects.count() == 1

    other = started(users(2, "o"), format="round_robin", actor=staff)
    other = with_end_date(other, now - timedelta(minutes=1), staff)
    assert tasks.tournament_end_date.delay(other.pk).get() == "adjudicated 1"
    assert tasks.tournament_end_date.delay(other.pk).get() == "not_running"
    assert BotAdjudication.objects.count() == 2


def test_a_run_stopped_half_way_is_completed_by_the_next_without_judging_a_game_twice(staff):
    t = started(users(6, "h"), format="round_robin", actor=staff)
    games = running_games(t)
    assert len(games) == 3
    ends = timezone.now()
    t = with_end_date(t, ends, staff)

    # The first run stops after one game (batch=1, as a worker that died after its first
    # game's transaction): that game is decided, the others still run, nothing is paired.
    assert services.tournament_end_date_reach(tournament_id=t.pk, now=ends, batch=1) == "adjudicated 1, 2 still running"
    first = BotAdjudication.objects.get()
    assert first.game_id == games[0].pk and first.decided_at == ends
    assert Pairing.objects.get(game=games[0]).end_adjudicated
    t.refresh_from_db()
    assert t.status == TournamentStatus.RUNNING and t.end_date_reached_at == ends
    assert len(running_games(t)) == 2
    assert services.tournament_advance(tournament_id=t.pk) == "end_date_reached"  # no round is paired meanwhile
    with pytest.raises(Conflict):
        services.tournament_pause(tournament_id=t.pk, actor=staff)
    assert not staff_actions_on(target=t).filter(action=StaffActionKind.TOURNAMENT_END_DATE).exists()

    # The sweep takes it again: the two games left are judged, the decided one is not.
    later = ends + timedelta(minutes=5)
    assert services.tournaments_end_date_due(now=later) == 1  # the task ran (eager) when the sweep committed
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED and t.finished_at is not None
    assert BotAdjudication.objects.count() == 3 and BotAdjudication.objects.get(game=games[0]) == first
    assert BotAdjudication.objects.get(game=games[0]).decided_at == ends
    assert all(Pairing.objects.get(game=game).end_adjudicated for game in games)
    assert Round.objects.filter(tournament=t).count() == 1
    (logged,) = staff_actions_on(target=t).filter(action=StaffActionKind.TOURNAMENT_END_DATE)
    assert logged.details["detail"] == "3 running game(s) adjudicated"
    assert services.tournament_end_date_reach(tournament_id=t.pk, now=later) == "not_running"


def test_staff_overturn_a_verdict_in_the_audit_log_and_ratings_follow(client, staff):
    t = started(users(2, "v"), format="round_robin", actor=staff)
    (game,) = running_games(t)
    plant(game, RED_WINS)
    ends = timezone.now()
    t = with_end_date(t, ends, staff)
    services.tournament_end_date_reach(tournament_id=t.pk, now=ends)
    game.refresh_from_db()
    red, blue = game.seats.get(side="red").user, game.seats.get(side="blue").user
    assert game.winner_side == "red" and RatingChange.objects.get(game=game, user=blue).score == 0.0
    row = BotAdjudication.objects.get(game=game)

    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert 'id="end-adjudication"' in page and "forced win for red" in page

    client.force_login(staff)
    url = reverse("admin:games_botadjudication_changelist")
    assert client.get(url).status_code == 200
    assert client.get(reverse("admin:games_botadjudication_change", args=[row.pk])).status_code == 200
    rerun = client.post(url, {"action": "run_again", "_selected_action": [row.pk]}, follow=True)
    assert "the same answer" in rerun.content.decode()
    asked = client.post(url, {"action": "overturn", "_selected_action": [row.pk]})
    assert asked.status_code == 200 and not StaffAction.objects.filter(action=StaffActionKind.AWARD).exists()
    done = client.post(
        url,
        {
            "action": "overturn",
            "_selected_action": [row.pk],
            "apply": "1",
            "reason": "Appeal: blue's clock was held by an outage",
            "side": "draw",
        },
    )
    assert done.status_code == 302
    game.refresh_from_db()
    assert game.winner_side == "" and game.result_reason == ResultReason.ADJUDICATED
    audit = staff_actions_on(target=game).get(action=StaffActionKind.AWARD)
    assert audit.staff == staff and audit.reason.startswith("Appeal")
    assert set(RatingChange.objects.filter(game=game).values_list("score", flat=True)) == {0.5}
    assert Pairing.objects.get(game=game).result == Result.DRAW
    assert {r.participant.user: r.points for r in selectors.tournament_standings(tournament=t)} == {
        red: 0.5,
        blue: 0.5,
    }
    assert BotAdjudication.objects.get(game=game).winner_side == "red"  # the verdict stays on record
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "changed this result on appeal" in page

    # Through the service too: the staff action of the one audit log.
    ops.game_award(game_id=game.pk, staff=staff, reason="Second look: red was winning", winner_side="red")
    assert staff_actions_on(target=game).filter(action=StaffActionKind.AWARD).count() == 2
    assert RatingChange.objects.get(game=game, user=red).score == 1.0
