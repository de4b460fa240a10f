"""Reports of games and players: one per reporter, target and day; never oneself;
the staff queue marks them reviewed or dismissed and logs who, when and why."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.urls import reverse
from django.utils import timezone, translation

from accounts.models import StaffAction, StaffActionKind
from fairplay import services
from fairplay.forms import ReportForm
from fairplay.models import Report
from fairplay.templatetags.fairplay_tags import _report_form_drawn
from games.errors import GameActionError
from tests.factories import start_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(alice, bob):
    return start_game(alice, bob, seat_choice="random")


def _refusal(**kwargs) -> GameActionError:
    with pytest.raises(GameActionError) as refused:
        services.report_create(**kwargs)
    return refused.value


def test_one_report_per_target_per_day(alice, bob, game):
    now = timezone.now()
    services.report_create(reporter=alice, player=bob, kind="abuse", reason="Rude chat.", now=now)
    repeat = _refusal(reporter=alice, player=bob, kind="other", reason="Again.", now=now + timedelta(hours=23))
    assert (repeat.status, repeat.code) == (409, "report_repeated")
    assert repeat.message == "You have already reported this today."
    # Another target the same day, and the same target the next day, are fine.
    services.report_create(reporter=alice, game_id=game.pk, kind="stalling", reason="Slow.", now=now)
    services.report_create(
        reporter=alice, player=bob, kind="abuse", reason="Still rude.", now=now + timedelta(days=1, seconds=1)
    )
    assert Report.objects.filter(reporter=alice).count() == 3


def test_bad_reports_are_refused_with_a_reason(alice, bob):
    assert _refusal(reporter=alice, player=alice, kind="abuse", reason="me").code == "report_self"
    assert _refusal(reporter=alice, player=bob, kind="cheese", reason="x").code == "report_bad_kind"
    assert _refusal(reporter=alice, player=bob, kind="abuse", reason="   ").code == "report_no_reason"
    assert _refusal(reporter=alice, kind="abuse", reason="x").code == "report_bad_target"
    missing = _refusal(reporter=alice, game_id=999999, kind="abuse", reason="x")
    assert (missing.status, missing.code) == (404, "game_not_found")
    assert not Report.objects.exists()


def test_report_forms_on_the_game_and_player_pages(client, alice, bob, game):
    client.force_login(alice)
    game_page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert reverse("ops:report_game", args=[game.pk]) in game_page
    assert reverse("ops:report_player", args=["bob"]) in client.get(bob.get_absolute_url()).content.decode()
    response = client.post(
        reverse("ops:report_game", args=[game.pk]), {"kind": "engine", "reason": "Too perfect."}, follow=True
    )
    assert "Thank you" in response.content.decode()
    response = client.post(
        reverse("ops:report_game", args=[game.pk]), {"kind": "engine", "reason": "Again."}, follow=True
    )
    assert "You have already reported this today." in response.content.decode()
    client.post(reverse("ops:report_player", args=["bob"]), {"kind": "abuse", "reason": "Insults."})
    assert sorted(Report.objects.values_list("kind", flat=True)) == ["abuse", "engine"]
    response = client.post(reverse("ops:report_player", args=["bob"]), {"kind": "nonsense", "reason": ""}, follow=True)
    assert response.status_code == 200 and Report.objects.count() == 2


def test_the_game_pages_report_form_is_drawn_once_per_language_and_process(client, alice, game):
    """The form's markup is kept in the process per language (no cache round trip on a page):
    each language gets its own translation, and a second page draws nothing again."""
    _report_form_drawn.cache_clear()
    client.force_login(alice)
    forms: dict[str, set[str]] = {}
    for language in ("en", "ar", "en", "ar"):
        page = client.get(reverse("games:game", args=[game.pk]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
        found = re.search(
            r'<form method="post" action="%s">(.*?)</form>' % reverse("ops:report_game", args=[game.pk]), page, re.S
        )
        assert found is not None
        forms.setdefault(language, set()).add(
            re.sub(r'<input type="hidden" name="csrfmiddlewaretoken"[^>]*>', "", found.group(1))
        )
        with translation.override(language):
            label = str(ReportForm.base_fields["kind"].label)
        assert label in found.group(1) and 'id="id_game_report_kind"' in found.group(1)
    assert all(len(drawn) == 1 for drawn in forms.values()) and forms["en"] != forms["ar"]
    assert _report_form_drawn.cache_info().misses == 2 and _report_form_drawn.cache_info().hits == 2


def test_anonymous_visitors_see_no_forms_and_cannot_report(client, bob, game):
    assert "Report this game" not in client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "Report this player" not in client.get(bob.get_absolute_url()).content.decode()
    response = client.post(reverse("ops:report_player", args=["bob"]), {"kind": "abuse", "reason": "x"})
    assert response.status_code == 302 and not Report.objects.exists()


def test_staff_review_reports_and_every_action_is_logged(client, alice, bob):
    admin = type(alice).objects.create_superuser("staffer", "staff@example.org", "pw-staff-123456")
    report = services.report_create(reporter=alice, player=bob, kind="abuse", reason="Rude.")
    client.force_login(admin)
    queue = client.get(reverse("admin:fairplay_report_changelist") + "?status__exact=open&kind__exact=abuse")
    assert queue.status_code == 200 and str(report) in queue.content.decode()
    asked = client.post(
        reverse("admin:fairplay_report_changelist"), {"action": "mark_dismissed", ACTION_CHECKBOX_NAME: [report.pk]}
    )
    assert asked.status_code == 200 and "Why" in asked.content.decode()
    done = client.post(
        reverse("admin:fairplay_report_changelist"),
        {
            "action": "mark_dismissed",
            ACTION_CHECKBOX_NAME: [report.pk],
            "apply": "1",
            "reason": "Banter between friends.",
        },
    )
    assert done.status_code == 302
    report.refresh_from_db()
    assert report.status == "dismissed"
    too_long = client.post(
        reverse("admin:fairplay_report_changelist"),
        {"action": "mark_reviewed", ACTION_CHECKBOX_NAME: [report.pk], "apply": "1", "reason": "x" * 2001},
        follow=True,
    )
    assert too_long.status_code == 200 and "The reason is too long" in too_long.content.decode()
    report.refresh_from_db()
    assert report.status == "dismissed"
    entry = StaffAction.objects.get()
    assert (entry.staff, entry.action, entry.reason, entry.player, entry.target) == (
        admin,
        StaffActionKind.REPORT_DISMISSED,
        "Banter between friends.",
        bob,
        report,
    )
    assert timezone.now() - entry.at < timedelta(minutes=1)
    page = client.get(reverse("admin:fairplay_report_change", args=[report.pk])).content.decode()
    assert "Banter between friends." in page
    log = client.get(reverse("admin:accounts_staffaction_changelist")).content.decode()
    assert "Staff audit log" in log and "Banter between friends." in log


def test_a_review_of_a_game_report_names_the_game_and_needs_a_reason(alice, bob, game):
    staff = type(alice).objects.create_user("staffer", password="pw-staff-123456", is_staff=True)
    report = services.report_create(reporter=alice, game_id=game.pk, kind="stalling", reason="Slow.")
    for reason in ("", "  "):
        with pytest.raises(GameActionError) as refused:
            services.report_review(report_id=report.pk, staff=staff, status="reviewed", reason=reason)
        assert (refused.value.status, refused.value.code) == (400, "reason_required")
    report.refresh_from_db()
    assert report.status == "open" and not StaffAction.objects.exists()
    services.report_review(report_id=report.pk, staff=staff, status="reviewed", reason=" Warned. ")
    entry = StaffAction.objects.get()
    assert entry.target is not None
    assert (entry.staff, entry.action, entry.target, entry.target.game, entry.player, entry.reason) == (
        staff,
        StaffActionKind.REPORT_REVIEWED,
        report,
        game,
        None,
        "Warned.",
    )


def test_only_staff_review(alice, bob):
    report = services.report_create(reporter=alice, player=bob, kind="abuse", reason="Rude.")
    with pytest.raises(GameActionError) as refused:
        services.report_review(report_id=report.pk, staff=bob, status="reviewed", reason="Rude indeed.")
    assert refused.value.status == 403
    assert not StaffAction.objects.exists()
