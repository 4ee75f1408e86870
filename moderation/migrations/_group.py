"""What the migrations of the ``moderators`` group share (the loader skips ``_`` modules)."""

from collections.abc import Iterable

from django.contrib.auth.management import create_permissions

from moderation.permissions import MODERATORS_GROUP


#: The group's permissions as 0002_moderators_group set them (later ones set the list again:
#: moderation.permissions.MODERATOR_PERMISSIONS holds the current one).
PERMISSIONS_0002 = (
    "accounts.view_user",
    "challenges.view_challenge",
    "matches.view_match",
    "matches.view_game",
    "matches.view_gameevent",
    "matches.view_gamemessage",
    "notifications.view_notification",
    "notifications.view_timeoutwarning",
    "matches.view_vacation",
    "matches.adjudicate_match",
    "matches.extend_deadline",
    "matches.hide_gamemessage",
    "moderation.view_report",
    "moderation.change_report",
    "moderation.view_auditentry",
    "moderation.view_suspension",
    "moderation.view_warning",
    "moderation.suspend_user",
    "moderation.warn_user",
)


#: The group's permissions as 0003_moderators_chouettes set them.
PERMISSIONS_0003 = (
    *PERMISSIONS_0002,
    "chouettes.view_chouette",
    "chouettes.view_seat",
    "chouettes.view_chouettegame",
    "chouettes.view_message",
    "chouettes.moderate_chouette",
    "chouettes.hide_message",
)


def set_group_permissions(apps, names: Iterable[str]) -> None:
    """Create the group if needed and give it exactly the permissions ``names``."""
    # Permissions are normally created after all migrations (post_migrate): make them now.
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _created = Group.objects.get_or_create(name=MODERATORS_GROUP)
    wanted = []
    for name in names:
        app_label, codename = name.split(".")
        wanted.append(Permission.objects.get(content_type__app_label=app_label, codename=codename))
    group.permissions.set(wanted)
