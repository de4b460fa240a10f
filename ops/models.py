"""Heartbeats of the beat-scheduled tasks, reports of games and players, and the one
audit log of every staff decision (``StaffAction``)."""
from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.models import Game


class Heartbeat(models.Model):
    """When the task called ``name`` last ran on a worker (written by ``heartbeat_record``)."""

    name = models.CharField(max_length=100, unique=True)
    seen_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.name} @ {self.seen_at:%Y-%m-%d %H:%M:%S}"


class ReportKind(models.TextChoices):
    ABUSE = "abuse", _("Abuse")
    ENGINE = "engine", _("Suspected engine help")
    STALLING = "stalling", _("Stalling")
    OTHER = "other", _("Other")


class ReportStatus(models.TextChoices):
    OPEN = "open", _("Open")
    REVIEWED = "reviewed", _("Reviewed")
    DISMISSED = "dismissed", _("Dismissed")


class Report(models.Model):
    """A player's report of another player, or of a game (then ``player`` is empty)."""

    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                 related_name="reports_made")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True,
                               related_name="reports_received", verbose_name=_("reported player"))
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, null=True, blank=True,
                             related_name="reports", verbose_name=_("reported game"))
    kind = models.CharField(_("kind"), max_length=16, choices=ReportKind.choices)
    reason = models.TextField(_("reason"), max_length=2000)
    status = models.CharField(_("status"), max_length=16, choices=ReportStatus.choices,
                              default=ReportStatus.OPEN)
    created_at = models.DateTimeField(_("reported at"), default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["reporter", "created_at"])]
        constraints = [models.CheckConstraint(
            condition=models.Q(player__isnull=False) | models.Q(game__isnull=False),
            name="ops_report_has_target")]

    def __str__(self) -> str:
        target = f"game {self.game_id}" if self.game_id else str(self.player)
        return f"{self.get_kind_display()}: {target} ({self.reporter})"


class StaffActionKind(models.TextChoices):
    VOID = "void", _("Void a game")
    AWARD = "award", _("Award a game")
    TIMEOUT_REVERSE = "timeout_reverse", _("Reverse a timeout")
    SUSPEND = "suspend", _("Suspend a player")
    UNSUSPEND = "unsuspend", _("Lift a suspension")
    REPORT_REVIEWED = "report_reviewed", _("Mark a report reviewed")
    REPORT_DISMISSED = "report_dismissed", _("Dismiss a report")
    TIMEOUTS_CONFIRMED = "timeouts_confirmed", _("Time held games out")
    TIMEOUTS_EXTENDED = "timeouts_extended", _("Extend held games")
    FAIRPLAY_CHECK = "fairplay_check", _("Request a fair-play check")
    BOT_RELEASE = "bot_release", _("Let a failed bot play again")


class StaffAction(models.Model):
    """The one audit log of staff decisions (adjudication, suspension, report review,
    held time-outs, fair-play checks): who did what to which game, player or report,
    when and why. Written only by ``ops.services.staff_action_record``, in the
    transaction of the action; a batch or a check is named in ``details``."""

    staff = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                              verbose_name=_("staff member"))
    action = models.CharField(_("action"), max_length=20, choices=StaffActionKind.choices)
    game = models.ForeignKey("games.Game", on_delete=models.PROTECT, null=True, blank=True,
                             related_name="staff_adjudications", verbose_name=_("game"))
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True,
                               blank=True, related_name="+", verbose_name=_("player"))
    report = models.ForeignKey(Report, on_delete=models.PROTECT, null=True, blank=True,
                               related_name="staff_actions", verbose_name=_("report"))
    reason = models.TextField(_("why"))
    details = models.JSONField(_("details"), default=dict, blank=True)
    at = models.DateTimeField(_("at"), default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = _("staff action")
        verbose_name_plural = _("staff audit log")
        constraints = [models.CheckConstraint(
            condition=~models.Q(reason=""), name="ops_staff_action_has_reason")]

    def __str__(self) -> str:
        if self.report_id:
            target = f"report {self.report_id}"
        elif self.game_id:
            target = f"game {self.game_id}"
        elif self.player_id:
            target = f"player {self.player_id}"
        else:
            target = f"batch {self.details.get('batch')}"
        return f"{self.staff} {self.action} {target}"


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
