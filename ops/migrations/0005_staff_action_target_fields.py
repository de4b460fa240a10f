"""The staff audit log gets a generic target (content type and id), filled by ops 0006,
in place of its foreign keys to games and reports (removed by ops 0007)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("ops", "0004_bot_release"),
    ]

    operations = [
        migrations.AddField(
            model_name="staffaction",
            name="target_type",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="contenttypes.contenttype",
                verbose_name="target type",
            ),
        ),
        migrations.AddField(
            model_name="staffaction",
            name="target_id",
            field=models.PositiveBigIntegerField(blank=True, null=True, verbose_name="target id"),
        ),
    ]
