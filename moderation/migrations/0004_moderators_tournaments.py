"""The ``moderators`` group gets the tournaments' permissions: it is set again to exactly
``moderation.permissions.MODERATOR_PERMISSIONS``, now that the tournaments app's exist."""

from django.db import migrations

from moderation.migrations._group import PERMISSIONS_0003, set_group_permissions
from moderation.permissions import MODERATOR_PERMISSIONS


def set_group(apps, schema_editor):
    set_group_permissions(apps, MODERATOR_PERMISSIONS)


def back(apps, schema_editor):
    set_group_permissions(apps, PERMISSIONS_0003)


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0003_moderators_chouettes"),
        ("tournaments", "0001_initial"),
    ]

    operations = [migrations.RunPython(set_group, back)]
