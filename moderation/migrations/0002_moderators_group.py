"""Create the ``moderators`` group with exactly ``moderation.permissions.MODERATOR_PERMISSIONS``."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

from moderation.permissions import MODERATORS_GROUP, MODERATOR_PERMISSIONS


def create_group(apps, schema_editor):
    # Permissions are normally created after all migrations (post_migrate): make them now.
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _created = Group.objects.get_or_create(name=MODERATORS_GROUP)
    wanted = []
    for name in MODERATOR_PERMISSIONS:
        app_label, codename = name.split(".")
        wanted.append(
            Permission.objects.get(content_type__app_label=app_label, codename=codename)
        )
    group.permissions.set(wanted)


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
