"""``User.vacations_until`` goes: the clock reads ``matches.Vacation`` (issue 13)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0002_vacations_until"),
        # The matches migration that filled the field runs before it goes.
        ("matches", "0006_vacations_until_fill"),
    ]

    operations = [
        migrations.RemoveField(model_name="user", name="vacations_until"),
    ]
