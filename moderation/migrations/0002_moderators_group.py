"""Create the ``moderators`` group with its first permissions (``_group.PERMISSIONS_0002``)."""

from django.db import migrations

from moderation.migrations._group import PERMISSIONS_0002, set_group_permissions
from moderation.permissions import MODERATORS_GROUP


def create_group(apps, schema_editor):
    set_group_permissions(apps, PERMISSIONS_0002)


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=MODERATORS_GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0001_initial"),
        ("accounts", "0001_initial"),
        ("matches", "0001_initial"),
        ("challenges", "0001_initial"),
        ("notifications", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_group, remove_group)]
