"""Reports move to fairplay (fairplay 0002 takes them over): the table is renamed
fairplay_report, its rows kept; ops forgets the model."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("ops", "0007_staff_action_without_game_and_report"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.AlterModelTable(name="report", table="fairplay_report")],
            state_operations=[migrations.DeleteModel(name="report")],
        ),
    ]
