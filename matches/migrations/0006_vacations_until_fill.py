"""Set ``User.vacations_until`` from the vacations already stored (the latest end)."""

from django.db import migrations
from django.db.models import Max, OuterRef, Subquery


def fill(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    Vacation = apps.get_model("matches", "Vacation")
    latest = (
        Vacation.objects.filter(user=OuterRef("pk"))
        .values("user")
        .annotate(latest=Max("ends_at"))
        .values("latest")
    )
    User.objects.filter(vacations__isnull=False).update(vacations_until=Subquery(latest))


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0002_vacations_until"),
        ("matches", "0005_notification_message_received"),
    ]

    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
