"""The staff audit log names what an action was on by a generic target (content type and
id) instead of foreign keys to games and reports, so that it can move below the apps it
names (to accounts, ops 0009). A report's row targets the report (which names its game),
a game's row the game, a held time-out's row its batch and a fair-play check's row the check.

Data only: on PostgreSQL a table whose rows changed cannot be altered in the same
transaction, so the fields come (ops 0005) and go (ops 0007) in migrations of their own."""

from django.db import migrations


def _content_type(apps, cache, app_label, model):
    if (app_label, model) not in cache:
        ContentType = apps.get_model("contenttypes", "ContentType")
        cache[app_label, model] = ContentType.objects.get_or_create(app_label=app_label, model=model)[0]
    return cache[app_label, model]


def foreign_keys_to_target(apps, schema_editor):
    StaffAction = apps.get_model("ops", "StaffAction")
    types = {}
    for row in StaffAction.objects.order_by("pk").iterator():
        if row.report_id is not None:
            target = ("ops", "report"), row.report_id
        elif row.game_id is not None:
            target = ("games", "game"), row.game_id
        elif row.action in ("timeouts_confirmed", "timeouts_extended") and row.details.get("batch"):
            target = ("games", "timeoutbatch"), row.details["batch"]
        elif row.action == "fairplay_check" and row.details.get("check"):
            target = ("fairplay", "fairplaycheck"), row.details["check"]
        else:
            continue
        row.target_type = _content_type(apps, types, *target[0])
        row.target_id = target[1]
        row.save(update_fields=["target_type", "target_id"])


def target_to_foreign_keys(apps, schema_editor):
    """Back: a report's row names the report and its game again, a game's row the game."""
    StaffAction = apps.get_model("ops", "StaffAction")
    Report = apps.get_model("ops", "Report")
    for row in StaffAction.objects.filter(target_type__isnull=False).select_related("target_type").iterator():
        kind = (row.target_type.app_label, row.target_type.model)
        if kind in (("ops", "report"), ("fairplay", "report")):
            row.report_id = row.target_id
            row.game_id = Report.objects.filter(pk=row.target_id).values_list("game_id", flat=True).first()
        elif kind == ("games", "game"):
            row.game_id = row.target_id
        row.save(update_fields=["report", "game"])


class Migration(migrations.Migration):
    dependencies = [
        ("ops", "0005_staff_action_target_fields"),
    ]

    operations = [
        migrations.RunPython(foreign_keys_to_target, target_to_foreign_keys),
    ]
