"""Staff decide the time-outs a sweep held back (ops.services over games.outages): in
the admin, saying why; the batch keeps the decision and the staff audit log gets one
row, or none when the decision is refused."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.urls import reverse
from django.utils import timezone

from accounts.models import StaffAction, StaffActionKind
from games.errors import GameActionError
from games.models import GameStatus, TimeoutBatch, TimeoutBatchStatus
from ops import services

# The outage settings (autouse fixture) and the held batch of the games' outage tests.
from tests.games.test_outages import _outage_settings, fresh, held_batch, sweep  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "action, status, kind",
    [
        ("confirm_timeouts", TimeoutBatchStatus.CONFIRMED, StaffActionKind.TIMEOUTS_CONFIRMED),
        ("extend_timeouts", TimeoutBatchStatus.EXTENDED, StaffActionKind.TIMEOUTS_EXTENDED),
    ],
)
def test_staff_decide_in_the_admin_and_the_audit_log_keeps_who_and_why(client, alice, bob, action, status, kind):
    t0 = timezone.now() - timedelta(hours=1)
    due, _running = held_batch(alice, bob, t0)
    sweep(t0 + timedelta(minutes=5))
    batch = TimeoutBatch.objects.get()
    admin = type(alice).objects.create_superuser("boss", "boss@example.org", "pw-boss-123456")
    client.force_login(admin)
    changelist = reverse("admin:games_timeoutbatch_changelist")
    assert client.get(changelist).status_code == 200
    assert client.get(reverse("admin:games_timeoutbatch_change", args=[batch.pk])).status_code == 200
    asked = client.post(changelist, {"action": action, ACTION_CHECKBOX_NAME: [batch.pk]})
    assert asked.status_code == 200 and "Why" in asked.content.decode()
    assert fresh(batch).status == TimeoutBatchStatus.PENDING and not StaffAction.objects.exists()
    done = client.post(
        changelist, {"action": action, ACTION_CHECKBOX_NAME: [batch.pk], "apply": "1", "reason": "Checked the logs."}
    )
    assert done.status_code == 302
    batch.refresh_from_db()
    assert (batch.status, batch.decided_by, batch.reason) == (status, admin, "Checked the logs.")
    assert batch.decided_at is not None and timezone.now() - batch.decided_at < timedelta(minutes=1)
    ended = [fresh(g).status != GameStatus.ACTIVE for g in due]
    assert ended == [status == TimeoutBatchStatus.CONFIRMED] * 4
    entry = StaffAction.objects.get()
    assert (entry.staff, entry.action, entry.reason, entry.target, entry.player) == (
        admin,
        kind,
        "Checked the logs.",
        batch,
        None,
    )
    assert entry.details == {"batch": batch.pk, "games": sorted(g.pk for g in due), "games_changed": 4}
    assert timezone.now() - entry.at < timedelta(minutes=1)
    # A second decision is refused with a message, not an error page, and is not logged.
    again = client.post(
        changelist, {"action": action, ACTION_CHECKBOX_NAME: [batch.pk], "apply": "1", "reason": "Twice."}, follow=True
    )
    assert again.status_code == 200 and "already decided" in again.content.decode()
    assert fresh(batch).reason == "Checked the logs." and StaffAction.objects.count() == 1


def test_a_refused_decision_leaves_no_audit_row(alice, bob, carol):
    t0 = timezone.now() - timedelta(hours=1)
    held_batch(alice, bob, t0)
    sweep(t0 + timedelta(minutes=5))
    batch = TimeoutBatch.objects.get()
    staff = type(alice).objects.create_user("staffer", password="pw-staff-123456", is_staff=True)
    refusals = [
        (services.timeout_batch_confirm, carol, "Real timeouts.", 403),
        (services.timeout_batch_extend, staff, "   ", 400),
        (services.timeout_batch_confirm, staff, "", 400),
    ]
    for decide, who, reason, status in refusals:
        with pytest.raises(GameActionError) as refused:
            decide(batch_id=batch.pk, staff=who, reason=reason)
        assert refused.value.status == status
    with pytest.raises(GameActionError) as missing:
        services.timeout_batch_extend(batch_id=batch.pk + 1, staff=staff, reason="Mail was down.")
    assert missing.value.status == 404
    assert fresh(batch).status == TimeoutBatchStatus.PENDING and not StaffAction.objects.exists()
    services.timeout_batch_extend(batch_id=batch.pk, staff=staff, reason=" Mail was down. ")
    assert StaffAction.objects.get().reason == "Mail was down."
