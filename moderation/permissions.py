"""The ``moderators`` group: exactly what moderation needs, nothing that edits play.

Views of players, matches, games, their records and messages, vacations, the
notification outbox and time-out warnings, reports, warnings, suspensions and the audit
log; chouettes, their seats, games and messages; tournaments, their entries and pairings;
changing reports (resolve or dismiss); running tournaments (creating, cancelling,
replacing a player; the repeating schedules are an administrator's, in the admin);
and the custom permissions for the actions. No change permission on users, groups or permissions,
and none on matches, games or their record: moderators change those only through
the moderation services (adjudicate, extend a deadline, hide a message, remove a
player from a chouette).

The group is set to this list by migrations (``0002_moderators_group``, then
``0003_moderators_chouettes`` and ``0004_moderators_tournaments`` once those apps'
permissions exist): a change to
the list needs a migration that sets it again (``set_group_permissions``).
"""

MODERATORS_GROUP = "moderators"

#: ``app_label.codename`` of every permission the group holds.
MODERATOR_PERMISSIONS = (
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
    "chouettes.view_chouette",
    "chouettes.view_seat",
    "chouettes.view_chouettegame",
    "chouettes.view_message",
    "chouettes.moderate_chouette",
    "chouettes.hide_message",
    "tournaments.view_tournament",
    "tournaments.view_entry",
    "tournaments.view_pairing",
    "tournaments.view_schedule",
    "tournaments.manage_tournament",
)
