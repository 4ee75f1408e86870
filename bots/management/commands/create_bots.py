from django.core.management.base import BaseCommand

from bots import services


class Command(BaseCommand):
    help = "Create the GNU Backgammon bot accounts, one per level (idempotent)."

    def handle(self, *args: object, **options: object) -> None:
        for bot in services.bots_create():
            self.stdout.write(f"{bot.user.username}: {bot.gnubg_level.title}")
        if not services.bots_available():
            self.stdout.write("gnubg is not installed here: the bots are shown as unavailable.")
