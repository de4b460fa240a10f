"""The events feed reads a game's moves of a time window: an index on (game, created_at)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0012_records_imported"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="move",
            index=models.Index(fields=["game", "created_at"], name="games_move_game_created"),
        ),
    ]
