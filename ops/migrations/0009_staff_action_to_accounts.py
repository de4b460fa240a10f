"""The staff audit log moves to accounts (accounts 0007 takes it over), below every app
that writes to it: the table is renamed accounts_staffaction, its rows kept; ops forgets
the model."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("ops", "0008_report_to_fairplay"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.AlterModelTable(name="staffaction", table="accounts_staffaction")],
            state_operations=[migrations.DeleteModel(name="staffaction")],
        ),
    ]
