"""The moderation panel: the Django admin, with moderators' actions as forms on services.

Who may do what is the permission matrix of ``moderation.permissions``: moderators
(``moderators`` group, ``is_staff``) view players, matches, games and their records,
act through the forms here (each checks its own permission and calls a service that
writes the audit entry), and change only reports. The record of play and the audit log
are read-only for everyone; superusers may change the rest.

Each app registers the admin of its own models (``accounts``, ``matches``,
``challenges``, ``notifications``). The moderators' actions write the audit log
(``moderation.players``, ``rulings`` and ``reports``), and the apps below may not import
``moderation``. So this
module takes the User, Match and GameMessage admins they registered and registers a
subclass of each in their place (``admin.site.unregister`` + ``register``), adding the
action forms, the reports and the moderation history. The arrows stay one way:
moderation imports the apps' admins, never the reverse.

The panel is in modules by what they hold: ``actions`` (the action forms' views),
``people`` (players), ``play`` (matches, messages, chouettes, vacations, tournaments) and
``rows`` (reports and the moderation log). Importing them registers their admins.
"""

from . import people, play, rows  # noqa: F401  (each registers its admins)
