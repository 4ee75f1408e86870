"""Let moderators view vacations, the notification outbox and time-out warnings."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

ADDED = ("view_notification", "view_timeoutwarning", "view_vacation")


def add_permissions(apps, schema_editor):
    matches = apps.get_app_config("matches")
    matches.models_module = True
    create_permissions(matches, apps=apps, verbosity=0)
    matches.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _created = Group.objects.get_or_create(name="moderators")
    group.permissions.add(
        *Permission.objects.filter(content_type__app_label="matches", codename__in=ADDED)
    )


def remove_permissions(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for group in Group.objects.filter(name="moderators"):
        group.permissions.remove(
            *Permission.objects.filter(content_type__app_label="matches", codename__in=ADDED)
        )


class Migration(migrations.Migration):
    dependencies = [("moderation", "0002_moderators_group")]

    operations = [migrations.RunPython(add_permissions, remove_permissions)]
