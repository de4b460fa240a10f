"""The one staff audit log (accounts.StaffAction): its writer's rules, and the read-only admin
page that shows every app's rows, filtered by kind and by target."""

from __future__ import annotations

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import IntegrityError, transaction
from django.urls import reverse

from accounts.audit import staff_action_record
from accounts.models import StaffAction, StaffActionKind
from fairplay import services as fairplay_services
from games import services as game_services
from games.models import Game
from ops import services as ops_services
from tests.factories import make_staff, make_user, start_game
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(db):
    return make_staff("referee")


def test_a_staff_decision_needs_a_known_kind_and_a_reason(staff):
    with pytest.raises(ValueError, match="unknown staff action"):
        staff_action_record(staff=staff, action="shrug", reason="Why not.")  # type: ignore[arg-type]
    for reason in ("", "  "):
        with pytest.raises(ValueError, match="needs a reason"):
            staff_action_record(staff=staff, action=StaffActionKind.SUSPEND, reason=reason)
    with transaction.atomic(), pytest.raises(IntegrityError):  # and the database refuses it too
        StaffAction.objects.create(staff=staff, action=StaffActionKind.VOID, reason="")
    assert not StaffAction.objects.exists()


def test_tournament_management_is_logged_without_a_reason_and_names_the_tournament(staff):
    tournament = tournament_services.tournament_create(actor=staff, name="Cup", kind="onitama", format="swiss")
    entry = StaffAction.objects.get()
    assert (entry.staff, entry.action, entry.target, entry.reason, entry.details) == (
        staff,
        StaffActionKind.TOURNAMENT_CREATE,
        tournament,
        "",
        {"detail": "swiss, onitama"},
    )
    player = make_user("alice")
    tournament_services.participant_add(tournament_id=tournament.pk, user=player, actor=None)
    added = StaffAction.objects.get(action=StaffActionKind.TOURNAMENT_ADD_PLAYER)
    assert (added.staff, added.player, added.target) == (None, player, tournament)


def test_the_admin_shows_every_apps_rows_filtered_by_kind_and_target(client, staff):
    alice, bob = make_user("alice"), make_user("bob")
    game = start_game(alice, bob)
    game_services.game_resign(game_id=game.pk, user=bob)
    ops_services.game_void(game_id=game.pk, staff=staff, reason="Shared account")
    report = fairplay_services.report_create(reporter=alice, player=bob, kind="abuse", reason="Rude.")
    fairplay_services.report_review(report_id=report.pk, staff=staff, status="dismissed", reason="Banter.")
    tournament = tournament_services.tournament_create(actor=staff, name="Spring cup", kind="onitama", format="swiss")
    client.force_login(staff)
    changelist = reverse("admin:accounts_staffaction_changelist")

    everything = client.get(changelist).content.decode()
    assert all(text in everything for text in ("Shared account", "Banter.", "Spring cup"))
    assert reverse("admin:games_game_change", args=[game.pk]) in everything  # the target, linked

    voids = client.get(changelist, {"action__exact": StaffActionKind.VOID}).content.decode()
    assert "Shared account" in voids and "Banter." not in voids
    game_type = ContentType.objects.get_for_model(Game)
    about_games = client.get(changelist, {"target_type__id__exact": game_type.pk}).content.decode()
    assert "Shared account" in about_games and "Banter." not in about_games and "Spring cup" not in about_games
    one_target = client.get(changelist, {"target_type__id__exact": game_type.pk, "target_id": game.pk})
    assert one_target.status_code == 200 and "Shared account" in one_target.content.decode()

    # The report's and the tournament's pages show their own rows of the log.
    report_page = client.get(reverse("admin:fairplay_report_change", args=[report.pk])).content.decode()
    assert "Banter." in report_page and "Shared account" not in report_page
    tournament_page = client.get(reverse("admin:tournaments_tournament_change", args=[tournament.pk]))
    assert str(StaffActionKind.TOURNAMENT_CREATE.label) in tournament_page.content.decode()

    # Read-only: no row is added, changed or deleted there.
    entry = StaffAction.objects.filter(action=StaffActionKind.VOID).get()
    assert client.get(reverse("admin:accounts_staffaction_add")).status_code == 403
    assert (
        client.post(reverse("admin:accounts_staffaction_change", args=[entry.pk]), {"reason": "rewritten"}).status_code
        == 403
    )
    assert client.post(reverse("admin:accounts_staffaction_delete", args=[entry.pk])).status_code == 403
    entry.refresh_from_db()
    assert entry.reason == "Shared account"
