"""The ``moderators`` group gets the chouettes' permissions: it is set again to exactly
``moderation.permissions.MODERATOR_PERMISSIONS``, now that the chouettes app's exist."""

from django.db import migrations

from moderation.migrations._group import PERMISSIONS_0002, set_group_permissions
from moderation.permissions import MODERATOR_PERMISSIONS


def set_group(apps, schema_editor):
    set_group_permissions(apps, MODERATOR_PERMISSIONS)


def back(apps, schema_editor):
    set_group_permissions(apps, PERMISSIONS_0002)


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0002_moderators_group"),
        ("chouettes", "0002_message_hide_permission"),
    ]

    operations = [migrations.RunPython(set_group, back)]
