"""The season's cast, made on a cluster host before play (there is no API to sign up):
players with API tokens and every e-mail preference, a few with a password (they take a
vacation through the site's page), a tournament director, and the knock-out and the Swiss
they will enter through the API. Writes what the load script needs as JSON.

    python3 -m deploy.cluster.seed OUT.json --players 200 --start-in 60
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import timedelta
from typing import Any

PASSWORD = "season password 29"


def seed(players: int, start_in: int) -> dict[str, Any]:
    from allauth.account.models import EmailAddress
    from django.contrib.auth.hashers import make_password
    from django.utils import timezone
    from rest_framework.authtoken.models import Token

    from accounts.models import User
    from tournaments import creation

    now = timezone.now()
    notify = [User.Notify.EVERY, User.Notify.DIGEST, User.Notify.NONE]
    languages = ["en", "es", "ca"]
    hashed = make_password(PASSWORD)
    users = User.objects.bulk_create(
        User(
            username=f"s{i:03d}",
            email=f"s{i:03d}@season.example",
            password=hashed if i % 20 == 0 else "!",
            notify=notify[i % 3],
            language=languages[i % 3],
        )
        for i in range(players)
    )
    director = User.objects.create_superuser(
        username="director", email="director@season.example", password=PASSWORD
    )
    # Their addresses verified, as after sign-up: the log-in form lets them in.
    EmailAddress.objects.bulk_create(
        EmailAddress(user=u, email=u.email, verified=True, primary=True) for u in [*users, director]
    )
    tokens = {u.username: Token.objects.create(user=u).key for u in [*users, director]}
    starts_at = now + timedelta(seconds=start_in)
    knockout = creation.tournament_create(
        creator=director,
        now=now,
        name="Season knock-out",
        format="knockout",
        starts_at=starts_at,
        length=1,
        min_players=4,
        max_players=16,
        rounds=0,
        group_size=0,
        knockout_after=False,
        rating_min=None,
        rating_max=None,
    )
    swiss = creation.tournament_create(
        creator=director,
        now=now,
        name="Season Swiss",
        format="swiss",
        starts_at=starts_at,
        length=1,
        min_players=6,
        max_players=16,
        rounds=3,
        group_size=0,
        knockout_after=False,
        rating_min=None,
        rating_max=None,
    )
    bots = list(
        User.objects.filter(is_bot=True).order_by("username").values_list("username", flat=True)
    )
    return {
        "players": {u.username: {"token": tokens[u.username], "notify": u.notify} for u in users},
        "with_password": [u.username for u in users if u.password != "!"],
        "password": PASSWORD,
        "director": {"username": "director", "token": tokens["director"]},
        "bots": bots,
        "tournaments": {"knockout": knockout.pk, "swiss": swiss.pk},
        "tournaments_start": starts_at.isoformat(),
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--start-in", type=int, default=60)
    args = parser.parse_args(argv)
    import django

    django.setup()
    cast = seed(args.players, args.start_in)
    with open(args.out, "w", encoding="utf-8") as out:
        json.dump(cast, out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
