"""Create the demo accounts (idempotent: running it again resets their passwords)."""

from django.core.management.base import BaseCommand

from accounts.services import user_demo_ensure

DEMO_PASSWORD = "maata-demo-2026"
SUPERUSER = ("admin", "admin@example.com", "maata-admin-2026")
PLAYERS = [("alice", "alice@example.com"), ("bob", "bob@example.com")]


class Command(BaseCommand):
    help = "Create a superuser and demo players with known passwords, and print their credentials."

    def handle(self, *args, **options):
        username, email, password = SUPERUSER
        _, created = user_demo_ensure(username=username, email=email, password=password, is_superuser=True)
        rows = [("superuser", username, password, created)]
        for username, email in PLAYERS:
            _, created = user_demo_ensure(username=username, email=email, password=DEMO_PASSWORD)
            rows.append(("player", username, DEMO_PASSWORD, created))
        self.stdout.write("Demo accounts (local development only):")
        for role, username, password, created in rows:
            state = "created" if created else "exists"
            self.stdout.write(f"  {role:<9} username={username:<6} password={password}  ({state})")
        self.stdout.write("Admin: /admin/")
