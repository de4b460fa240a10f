"""One ladder per game to start with; staff add more in the admin."""

from django.db import migrations

DEFAULTS = (("onitama", "Onitama ladder"), ("maatatahay", "Maatatahay ladder"))


def create_default_ladders(apps, schema_editor):
    Ladder = apps.get_model("ladder", "Ladder")
    for kind, name in DEFAULTS:
        if not Ladder.objects.filter(kind=kind).exists():
            Ladder.objects.create(kind=kind, name=name, days_per_move=3, max_places_up=5)


class Migration(migrations.Migration):
    dependencies = [("ladder", "0001_initial")]
    operations = [migrations.RunPython(create_default_ladders, migrations.RunPython.noop)]
