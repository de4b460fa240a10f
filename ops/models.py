"""Heartbeats of the beat-scheduled tasks, and the staff's views of games and players
(proxies the ops admin adjudicates and suspends through). Reports live in fairplay, the
staff audit log in accounts (``accounts.models.StaffAction``)."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.models import Game


class Heartbeat(models.Model):
    """When the task called ``name`` last ran on a worker (written by ``heartbeat_record``)."""

    name = models.CharField(max_length=100, unique=True)
    seen_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.name} @ {self.seen_at:%Y-%m-%d %H:%M:%S}"


class GameAdjudication(Game):
    """Games as staff adjudicate them in the admin (void, award, reverse a timeout)."""

    class Meta:
        proxy = True
        verbose_name = _("game adjudication")
        verbose_name_plural = _("game adjudications")


class PlayerSuspension(User):
    """Players as staff suspend them in the admin."""

    class Meta:
        proxy = True
        verbose_name = _("player suspension")
        verbose_name_plural = _("player suspensions")
