"""The ``moderators`` group gets the chouettes' permissions (``PERMISSIONS_0003``)."""

from django.db import migrations

from moderation.migrations._group import PERMISSIONS_0002, PERMISSIONS_0003, set_group_permissions


def set_group(apps, schema_editor):
    set_group_permissions(apps, PERMISSIONS_0003)


def back(apps, schema_editor):
    set_group_permissions(apps, PERMISSIONS_0002)


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0002_moderators_group"),
        ("chouettes", "0002_message_hide_permission"),
    ]

    operations = [migrations.RunPython(set_group, back)]
