"""Reports come from ops (ops 0008 renamed their table fairplay_report): fairplay takes
the model over with its rows, so that fair-play checks read reports from their own app.
The content type moves too, so that staff keep their permissions on reports."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


def content_type_move(apps, schema_editor, old, new):
    """Rename the content type, or (when both exist already) point the audit log at the new one."""
    ContentType = apps.get_model("contenttypes", "ContentType")
    before = ContentType.objects.filter(app_label=old, model="report").first()
    after = ContentType.objects.filter(app_label=new, model="report").first()
    if before is None:
        return
    if after is None:
        before.app_label = new
        before.save(update_fields=["app_label"])
    else:
        apps.get_model("ops", "StaffAction").objects.filter(target_type=before).update(target_type=after)


def forwards(apps, schema_editor):
    content_type_move(apps, schema_editor, "ops", "fairplay")


def backwards(apps, schema_editor):
    content_type_move(apps, schema_editor, "fairplay", "ops")


class Migration(migrations.Migration):
    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("fairplay", "0001_initial"),
        ("games", "0004_clock_held_by_staff"),
        ("ops", "0008_report_to_fairplay"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]
    # The audit log is still ops' here (its content types are moved while it is).
    run_before = [
        ("ops", "0009_staff_action_to_accounts"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Report",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        (
                            "kind",
                            models.CharField(
                                choices=[
                                    ("abuse", "Abuse"),
                                    ("engine", "Suspected engine help"),
                                    ("stalling", "Stalling"),
                                    ("other", "Other"),
                                ],
                                max_length=16,
                                verbose_name="kind",
                            ),
                        ),
                        ("reason", models.TextField(max_length=2000, verbose_name="reason")),
                        (
                            "status",
                            models.CharField(
                                choices=[("open", "Open"), ("reviewed", "Reviewed"), ("dismissed", "Dismissed")],
                                default="open",
                                max_length=16,
                                verbose_name="status",
                            ),
                        ),
                        (
                            "created_at",
                            models.DateTimeField(default=django.utils.timezone.now, verbose_name="reported at"),
                        ),
                        (
                            "game",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="reports",
                                to="games.game",
                                verbose_name="reported game",
                            ),
                        ),
                        (
                            "player",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="reports_received",
                                to=settings.AUTH_USER_MODEL,
                                verbose_name="reported player",
                            ),
                        ),
                        (
                            "reporter",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="reports_made",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["-created_at", "-pk"],
                        "indexes": [
                            models.Index(fields=["reporter", "created_at"], name="ops_report_reporte_4583a1_idx")
                        ],
                        "constraints": [
                            models.CheckConstraint(
                                condition=models.Q(("player__isnull", False), ("game__isnull", False), _connector="OR"),
                                name="ops_report_has_target",
                            )
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
        # The names the index and the constraint had under ops become fairplay's.
        migrations.RemoveConstraint(
            model_name="report",
            name="ops_report_has_target",
        ),
        migrations.RenameIndex(
            model_name="report",
            new_name="fairplay_re_reporte_e8490d_idx",
            old_name="ops_report_reporte_4583a1_idx",
        ),
        migrations.AddConstraint(
            model_name="report",
            constraint=models.CheckConstraint(
                condition=models.Q(("player__isnull", False), ("game__isnull", False), _connector="OR"),
                name="fairplay_report_has_target",
            ),
        ),
        migrations.RunPython(forwards, backwards),
    ]
