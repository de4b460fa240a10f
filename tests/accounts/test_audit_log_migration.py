"""The migrations that move the staff audit log from ops to accounts and reports from ops
to fairplay, and merge tournaments' log into the one log: every row is kept, names the same
thing by its target, staff keep their permissions (the content types move), and they reverse."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from accounts.models import StaffAction, StaffActionKind
from accounts.selectors import staff_actions_on
from fairplay.models import FairPlayCheck, Report
from games.models import TimeoutBatch
from tests.factories import make_staff, make_user, start_game
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [
    ("accounts", "0006_outbox"),
    ("ops", "0004_bot_release"),
    ("fairplay", "0001_initial"),
    ("tournaments", "0002_pairing_result_void"),
]


def migrate(target):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)
    executor.loader.build_graph()
    return executor.loader.project_state(target).apps


def after():
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def content_types(apps):
    """Where the content types of reports and of the log are: (app of report, app of staffaction)."""
    ContentType = apps.get_model("contenttypes", "ContentType")
    return tuple(
        sorted(ContentType.objects.filter(model=model).values_list("app_label", flat=True))
        for model in ("report", "staffaction")
    )


def old_rows(apps, *, staff, alice, bob, game, batch, check, tournament):
    """The rows of both logs, and two reports, as the previous version stored them."""
    OldReport = apps.get_model("ops", "Report")
    OpsAction = apps.get_model("ops", "StaffAction")
    TournamentAction = apps.get_model("tournaments", "StaffAction")
    at = timezone.now() - timedelta(days=3)
    player_report = OldReport.objects.create(
        reporter_id=alice.pk, player_id=bob.pk, kind="abuse", reason="Rude.", created_at=at
    )
    game_report = OldReport.objects.create(
        reporter_id=alice.pk, game_id=game.pk, kind="engine", reason="Too perfect.", status="reviewed", created_at=at
    )
    ops_rows = {
        "void": OpsAction.objects.create(
            staff_id=staff.pk,
            action="void",
            game_id=game.pk,
            reason="Shared account",
            details={"previous": {"status": "active"}},
            at=at,
        ),
        "review": OpsAction.objects.create(
            staff_id=staff.pk,
            action="report_reviewed",
            report_id=game_report.pk,
            game_id=game.pk,
            reason="Warned.",
            at=at,
        ),
        "suspend": OpsAction.objects.create(
            staff_id=staff.pk,
            action="suspend",
            player_id=bob.pk,
            reason="Cheating",
            details={"forfeited": [game.pk]},
            at=at,
        ),
        "batch": OpsAction.objects.create(
            staff_id=staff.pk,
            action="timeouts_confirmed",
            reason="Logs checked.",
            details={"batch": batch.pk, "games": [], "games_changed": 0},
            at=at,
        ),
        "check": OpsAction.objects.create(
            staff_id=staff.pk,
            action="fairplay_check",
            player_id=alice.pk,
            reason="Reported.",
            details={"check": check.pk, "kind": "onitama"},
            at=at,
        ),
    }
    tournament_rows = [
        TournamentAction.objects.create(
            tournament_id=tournament.pk, actor_id=staff.pk, action="start", detail="4 players. "
        ),
        TournamentAction.objects.create(
            tournament_id=tournament.pk,
            actor_id=None,
            action="result_changed",
            detail="game 5: 1-0 -> void (was resignation)",
        ),
        TournamentAction.objects.create(
            tournament_id=tournament.pk, actor_id=staff.pk, action="open_registration", detail=""
        ),
    ]
    tournament_log = [(row.pk, row.actor_id, row.action, row.detail, row.created_at) for row in tournament_rows]
    return (player_report.pk, game_report.pk), {name: row.pk for name, row in ops_rows.items()}, tournament_log


def test_the_logs_and_reports_move_with_their_rows_and_the_migrations_reverse():
    staff, alice, bob = make_staff("referee"), make_user("alice"), make_user("bob")
    game = start_game(alice, bob)
    batch = TimeoutBatch.objects.create(created_at=timezone.now(), since=timezone.now(), active_games=1)
    check = FairPlayCheck.objects.create(player=alice, kind="onitama", games_limit=5, bot_level=5, requested_by=staff)
    tournament = Tournament.objects.create(name="Cup", created_by=staff)
    report_permission = Permission.objects.get(content_type__app_label="fairplay", codename="view_report")
    log_permission = Permission.objects.get(content_type__app_label="accounts", codename="view_staffaction")
    try:
        apps = migrate(BEFORE)
        assert content_types(apps) == (["ops"], ["ops"])  # as an install from before the move had them
        reports, ops_rows, tournament_log = old_rows(
            apps, staff=staff, alice=alice, bob=bob, game=game, batch=batch, check=check, tournament=tournament
        )
        apps = migrate(after())
        ContentType.objects.clear_cache()

        # Reports are fairplay's, with their rows; the content type moved with its permissions.
        player_report, game_report = (Report.objects.get(pk=pk) for pk in reports)
        assert (player_report.player, player_report.game, player_report.kind) == (bob, None, "abuse")
        assert (game_report.game, game_report.status, game_report.reason) == (game, "reviewed", "Too perfect.")
        assert content_types(apps) == (["fairplay"], ["accounts"])
        assert Permission.objects.get(pk=report_permission.pk).content_type == ContentType.objects.get_for_model(Report)
        assert Permission.objects.get(pk=log_permission.pk).content_type == ContentType.objects.get_for_model(
            StaffAction
        )

        # The ops rows keep staff, kind, reason, details and time, and name their target.
        rows = {name: StaffAction.objects.get(pk=pk) for name, pk in ops_rows.items()}
        assert (rows["void"].staff, rows["void"].action, rows["void"].target, rows["void"].reason) == (
            staff,
            StaffActionKind.VOID,
            game,
            "Shared account",
        )
        assert rows["void"].details == {"previous": {"status": "active"}}
        reviewed = rows["review"].target
        assert reviewed is not None
        assert (reviewed, reviewed.game) == (game_report, game)
        assert (rows["suspend"].target, rows["suspend"].player) == (None, bob)
        assert rows["batch"].target == batch and rows["check"].target == check
        assert rows["check"].player == alice
        assert all(timezone.now() - row.at > timedelta(days=2) for row in rows.values())

        # Tournaments' rows are the one log's rows about the tournament.
        merged = list(staff_actions_on(target=tournament).order_by("pk"))
        assert [(row.staff_id, row.action, row.details, row.reason, row.at) for row in merged] == [
            (staff.pk, StaffActionKind.TOURNAMENT_START, {"detail": "4 players. "}, "", tournament_log[0][4]),
            (
                None,
                StaffActionKind.TOURNAMENT_RESULT_CHANGED,
                {"detail": "game 5: 1-0 -> void (was resignation)"},
                "",
                tournament_log[1][4],
            ),
            (staff.pk, StaffActionKind.TOURNAMENT_OPEN_REGISTRATION, {}, "", tournament_log[2][4]),
        ]
        assert StaffAction.objects.count() == len(ops_rows) + len(tournament_log)

        # Back: every row is where, and as, the previous version had it.
        apps = migrate(BEFORE)
        OpsAction = apps.get_model("ops", "StaffAction")
        back = {name: OpsAction.objects.get(pk=pk) for name, pk in ops_rows.items()}
        assert (back["void"].game_id, back["void"].report_id) == (game.pk, None)
        assert (back["review"].game_id, back["review"].report_id) == (game.pk, reports[1])
        assert (back["suspend"].game_id, back["suspend"].player_id) == (None, bob.pk)
        assert sorted(apps.get_model("ops", "Report").objects.values_list("pk", flat=True)) == sorted(reports)
        TournamentAction = apps.get_model("tournaments", "StaffAction")
        assert [
            (row.actor_id, row.action, row.detail, row.created_at)
            for row in TournamentAction.objects.filter(tournament_id=tournament.pk).order_by("pk")
        ] == [(actor, action, detail, created) for _pk, actor, action, detail, created in tournament_log]
        assert OpsAction.objects.count() == len(ops_rows)
    finally:
        migrate(after())
        ContentType.objects.clear_cache()
    # And forward again.
    assert StaffAction.objects.count() == len(ops_rows) + len(tournament_log)
    assert staff_actions_on(target=tournament).count() == len(tournament_log)


def test_back_and_forth_on_an_empty_log_makes_no_rows_and_keeps_one_content_type_each():
    try:
        assert content_types(migrate(BEFORE)) == (["ops"], ["ops"])
        assert content_types(migrate(after())) == (["fairplay"], ["accounts"])
        ContentType.objects.clear_cache()
        assert not StaffAction.objects.exists() and not Report.objects.exists()
    finally:
        migrate(after())
        ContentType.objects.clear_cache()


def test_a_report_row_keeps_its_target_when_both_content_types_of_reports_exist():
    """``migrate`` run part of the way once (its post_migrate made fairplay's content type of
    reports beside ops' one): the log's rows are pointed at fairplay's."""
    staff, alice, bob = make_staff("referee"), make_user("alice"), make_user("bob")
    try:
        apps = migrate(BEFORE)
        apps.get_model("contenttypes", "ContentType").objects.create(app_label="fairplay", model="report")
        report = apps.get_model("ops", "Report").objects.create(
            reporter_id=alice.pk, player_id=bob.pk, kind="abuse", reason="Rude."
        )
        row = apps.get_model("ops", "StaffAction").objects.create(
            staff_id=staff.pk, action="report_dismissed", report_id=report.pk, reason="Banter."
        )
        migrate(after())
        ContentType.objects.clear_cache()
        assert StaffAction.objects.get(pk=row.pk).target == Report.objects.get(pk=report.pk)
    finally:
        migrate(after())
        ContentType.objects.clear_cache()
