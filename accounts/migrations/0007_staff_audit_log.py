"""The one staff audit log comes from ops (ops 0009 renamed its table accounts_staffaction):
accounts takes the model over with its rows, below every app that writes to it. The
content type moves too, so that staff keep their permissions on the log.

Then it takes the rows of tournaments' log (tournaments 0003): their actions have no staff
member when the site or the player did them, and no reason (tournament management never
asked for one); kinds are longer."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


def content_type_move(apps, schema_editor, old, new):
    ContentType = apps.get_model("contenttypes", "ContentType")
    before = ContentType.objects.filter(app_label=old, model="staffaction").first()
    if before is not None and not ContentType.objects.filter(app_label=new, model="staffaction").exists():
        before.app_label = new
        before.save(update_fields=["app_label"])


def forwards(apps, schema_editor):
    content_type_move(apps, schema_editor, "ops", "accounts")


def backwards(apps, schema_editor):
    content_type_move(apps, schema_editor, "accounts", "ops")


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0006_outbox"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("ops", "0009_staff_action_to_accounts"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="StaffAction",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        (
                            "action",
                            models.CharField(
                                choices=[
                                    ("void", "Void a game"),
                                    ("award", "Award a game"),
                                    ("timeout_reverse", "Reverse a timeout"),
                                    ("suspend", "Suspend a player"),
                                    ("unsuspend", "Lift a suspension"),
                                    ("report_reviewed", "Mark a report reviewed"),
                                    ("report_dismissed", "Dismiss a report"),
                                    ("timeouts_confirmed", "Time held games out"),
                                    ("timeouts_extended", "Extend held games"),
                                    ("fairplay_check", "Request a fair-play check"),
                                    ("bot_release", "Let a failed bot play again"),
                                ],
                                max_length=20,
                                verbose_name="action",
                            ),
                        ),
                        ("reason", models.TextField(verbose_name="why")),
                        ("details", models.JSONField(blank=True, default=dict, verbose_name="details")),
                        (
                            "at",
                            models.DateTimeField(db_index=True, default=django.utils.timezone.now, verbose_name="at"),
                        ),
                        (
                            "player",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                                verbose_name="player",
                            ),
                        ),
                        (
                            "staff",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                                verbose_name="staff member",
                            ),
                        ),
                        (
                            "target_type",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to="contenttypes.contenttype",
                                verbose_name="target type",
                            ),
                        ),
                        ("target_id", models.PositiveBigIntegerField(blank=True, null=True, verbose_name="target id")),
                    ],
                    options={
                        "verbose_name": "staff action",
                        "verbose_name_plural": "staff audit log",
                        "ordering": ["-at", "-pk"],
                        "constraints": [
                            models.CheckConstraint(
                                condition=models.Q(("reason", ""), _negated=True), name="ops_staff_action_has_reason"
                            )
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RemoveConstraint(
            model_name="staffaction",
            name="ops_staff_action_has_reason",
        ),
        migrations.AlterField(
            model_name="staffaction",
            name="action",
            field=models.CharField(
                choices=[
                    ("void", "Void a game"),
                    ("award", "Award a game"),
                    ("timeout_reverse", "Reverse a timeout"),
                    ("suspend", "Suspend a player"),
                    ("unsuspend", "Lift a suspension"),
                    ("report_reviewed", "Mark a report reviewed"),
                    ("report_dismissed", "Dismiss a report"),
                    ("timeouts_confirmed", "Time held games out"),
                    ("timeouts_extended", "Extend held games"),
                    ("fairplay_check", "Request a fair-play check"),
                    ("bot_release", "Let a failed bot play again"),
                    ("tournament_create", "Create a tournament"),
                    ("tournament_update", "Change a tournament"),
                    ("tournament_open_registration", "Open a tournament's registration"),
                    ("tournament_add_player", "Add a player to a tournament"),
                    ("tournament_replace_player", "Replace a tournament player"),
                    ("tournament_withdraw_player", "Withdraw a tournament player"),
                    ("tournament_start", "Start a tournament"),
                    ("tournament_pause", "Pause a tournament"),
                    ("tournament_resume", "Resume a tournament"),
                    ("tournament_end_early", "End a tournament early"),
                    ("tournament_result_changed", "A tournament result changed"),
                ],
                max_length=40,
                verbose_name="action",
            ),
        ),
        migrations.AlterField(
            model_name="staffaction",
            name="reason",
            field=models.TextField(blank=True, verbose_name="why"),
        ),
        migrations.AlterField(
            model_name="staffaction",
            name="staff",
            field=models.ForeignKey(
                blank=True,
                help_text="Empty: the site itself, or the player, did it.",
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
                verbose_name="staff member",
            ),
        ),
        migrations.AddIndex(
            model_name="staffaction",
            index=models.Index(fields=["target_type", "target_id"], name="accounts_staffaction_target"),
        ),
        migrations.AddConstraint(
            model_name="staffaction",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("reason", ""), _negated=True),
                    (
                        "action__in",
                        (
                            "tournament_create",
                            "tournament_update",
                            "tournament_open_registration",
                            "tournament_add_player",
                            "tournament_replace_player",
                            "tournament_withdraw_player",
                            "tournament_start",
                            "tournament_pause",
                            "tournament_resume",
                            "tournament_end_early",
                            "tournament_result_changed",
                        ),
                    ),
                    _connector="OR",
                ),
                name="accounts_staffaction_has_reason",
            ),
        ),
        migrations.AddConstraint(
            model_name="staffaction",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("target_id__isnull", True), ("target_type__isnull", True)),
                    models.Q(("target_id__isnull", False), ("target_type__isnull", False)),
                    _connector="OR",
                ),
                name="accounts_staffaction_whole_target",
            ),
        ),
        migrations.RunPython(forwards, backwards),
    ]
