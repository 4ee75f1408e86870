"""Demo data for local development (``manage.py demo_data``)."""

from allauth.account.models import EmailAddress
from django.db import transaction

from accounts.models import User

DEMO_PASSWORD = "backgammon"
DEMO_USERS = [
    ("alice", "Alice", "en"),
    ("bob", "Bob", "es"),
    ("carol", "Carol", "ca"),
]


@transaction.atomic
def demo_users_create() -> list[User]:
    """Create (or reset) the demo players, with verified e-mail addresses. Idempotent."""
    users = []
    for username, display_name, language in DEMO_USERS:
        email = f"{username}@example.com"
        user, _ = User.objects.get_or_create(
            username=username,
            defaults={"email": email, "display_name": display_name, "language": language},
        )
        user.set_password(DEMO_PASSWORD)
        user.save(update_fields=["password"])
        EmailAddress.objects.update_or_create(
            user=user, email=user.email, defaults={"verified": True, "primary": True}
        )
        users.append(user)
    return users
