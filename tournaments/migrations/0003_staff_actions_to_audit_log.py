"""Tournaments' own log of staff actions merges into the one staff audit log (accounts):
each row becomes a row targeting its tournament, of kind ``tournament_<action>``, by the
same staff member (none when the site or the player did it), at the same time, its
detail kept in ``details["detail"]``. Then tournaments' model goes."""

from django.db import migrations

PREFIX = "tournament_"


def _tournament_type(apps):
    ContentType = apps.get_model("contenttypes", "ContentType")
    return ContentType.objects.get_or_create(app_label="tournaments", model="tournament")[0]


def tournament_log_to_audit_log(apps, schema_editor):
    TournamentAction = apps.get_model("tournaments", "StaffAction")
    StaffAction = apps.get_model("accounts", "StaffAction")
    rows = list(TournamentAction.objects.order_by("created_at", "pk"))
    if not rows:
        return
    target_type = _tournament_type(apps)
    StaffAction.objects.bulk_create(
        [
            StaffAction(
                staff_id=row.actor_id,
                action=PREFIX + row.action,
                target_type=target_type,
                target_id=row.tournament_id,
                reason="",
                details={"detail": row.detail} if row.detail else {},
                at=row.created_at,
            )
            for row in rows
        ]
    )


def audit_log_to_tournament_log(apps, schema_editor):
    """Back: the audit log's rows about tournaments become tournaments' rows again."""
    TournamentAction = apps.get_model("tournaments", "StaffAction")
    StaffAction = apps.get_model("accounts", "StaffAction")
    rows = StaffAction.objects.filter(target_type=_tournament_type(apps)).order_by("at", "pk")
    for row in rows.iterator():
        copy = TournamentAction.objects.create(
            tournament_id=row.target_id,
            actor_id=row.staff_id,
            action=row.action.removeprefix(PREFIX),
            detail=row.details.get("detail", ""),
        )
        TournamentAction.objects.filter(pk=copy.pk).update(created_at=row.at)  # auto_now_add
    rows.delete()


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0007_staff_audit_log"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("tournaments", "0002_pairing_result_void"),
    ]

    operations = [
        migrations.RunPython(tournament_log_to_audit_log, audit_log_to_tournament_log),
        migrations.DeleteModel(
            name="StaffAction",
        ),
    ]
