"""The staff audit log's foreign keys to games and reports go: its target names them (ops 0006)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("ops", "0006_staff_action_targets_filled"),
    ]

    operations = [
        migrations.RemoveField(
            model_name="staffaction",
            name="game",
        ),
        migrations.RemoveField(
            model_name="staffaction",
            name="report",
        ),
    ]
