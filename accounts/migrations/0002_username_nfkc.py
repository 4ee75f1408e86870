"""Usernames NFKC-normalised and unique in any case, before 0003 holds it in the database.

allauth's sign-up stored a username as typed: ``ｂｏｂ`` in fullwidth letters stayed so, next
to a ``bob``. Each username is now normalised (what the log-in does to what is typed, so
its owner still signs in with it). Where two accounts would then share a name, in any case,
the first keeps it: a bot, else the oldest account; each other one becomes
``<name>-<id>`` (its owner signs in with their e-mail address, and a moderator may rename
them). allauth has refused a sign-up with another's name in any case since the first
release, so on a site that only ever signed players up through it this renames no one.
Each rename is printed.
"""

import unicodedata

from django.db import migrations

MAX_LENGTH = 150


def normalise_usernames(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    rows = list(User.objects.order_by("-is_bot", "pk").values_list("pk", "username"))
    taken: set[str] = set()
    renamed: list[tuple[int, str, str]] = []
    for pk, username in rows:
        name = unicodedata.normalize("NFKC", username)[:MAX_LENGTH]
        if name.lower() in taken:
            suffix = f"-{pk}"
            name = name[: MAX_LENGTH - len(suffix)] + suffix
            while name.lower() in taken:
                name = name[: MAX_LENGTH - 1] + "_"
        taken.add(name.lower())
        if name != username:
            renamed.append((pk, username, name))
    # Names are freed before they are given: "bob" may be renamed to make room for "ｂｏｂ".
    for pk, _old, _new in renamed:
        User.objects.filter(pk=pk).update(username=f"\x1f{pk}")
    for pk, old, new in renamed:
        User.objects.filter(pk=pk).update(username=new)
        print(f"\n  accounts: user {pk} renamed from {old!r} to {new!r}", end="")


class Migration(migrations.Migration):
    dependencies = [("accounts", "0001_initial")]

    operations = [migrations.RunPython(normalise_usernames, migrations.RunPython.noop)]
