"""Reports of games and players by players, fair-play checks requested by staff, their
per-game rows, and the cached agreement of one side of one finished game with the bot.

A check's figures are a signal for staff to look closer, never proof: nothing here acts on
a player. Written only by fairplay.services.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import Game, GameKind


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
    """A player's report of another player, or of a game (then ``player`` is empty).
    Staff review them in the ops admin queue; a reviewed report of engine help keeps a
    player out of the honest reference players of fair-play checks."""

    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_made")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="reports_received",
        verbose_name=_("reported player"),
    )
    game = models.ForeignKey(
        "games.Game",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="reports",
        verbose_name=_("reported game"),
    )
    kind = models.CharField(_("kind"), max_length=16, choices=ReportKind.choices)
    reason = models.TextField(_("reason"), max_length=2000)
    status = models.CharField(_("status"), max_length=16, choices=ReportStatus.choices, default=ReportStatus.OPEN)
    created_at = models.DateTimeField(_("reported at"), default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["reporter", "created_at"])]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(player__isnull=False) | models.Q(game__isnull=False),
                name="fairplay_report_has_target",
            )
        ]

    def __str__(self) -> str:
        target = f"game {self.game_id}" if self.game_id else str(self.player)
        return f"{self.get_kind_display()}: {target} ({self.reporter})"


def _share(matches: int, decisions: int) -> float | None:
    return matches / decisions if decisions else None


class GameAgreement(models.Model):
    """How often one side of one finished game chose the bot's first choice (a cache).

    One row per game, side, bot level and bot version (``engine.bots.bot_version``): a
    figure of another version of the bot is never reused. The other parameters of the
    computation are kept so that a row computed with another opening skip, or before
    staff sent the game back into play (a reversed timeout), is recomputed."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    side = models.CharField(_("side"), max_length=20)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    bot_level = models.PositiveSmallIntegerField(_("bot level"))
    bot_version = models.CharField(_("bot version"), max_length=40, default="")
    skip_opening = models.PositiveSmallIntegerField(_("opening decisions skipped"))
    game_ply = models.PositiveIntegerField(_("decisions played"))
    decisions = models.PositiveIntegerField(_("decisions considered"))
    matches = models.PositiveIntegerField(_("bot's first choice"))
    computed_at = models.DateTimeField(_("computed"), default=timezone.now)

    class Meta:
        verbose_name = _("agreement with the bot")
        verbose_name_plural = _("agreements with the bot")
        constraints = [
            models.UniqueConstraint(
                fields=["game", "side", "bot_level", "bot_version"], name="fairplay_agreement_once_per_version"
            )
        ]

    def __str__(self) -> str:
        return "game %s %s: %s/%s" % (self.game_id, self.side, self.matches, self.decisions)


class CheckStatus(models.TextChoices):
    QUEUED = "queued", _("Queued")
    RUNNING = "running", _("Running")
    DONE = "done", _("Done")
    FAILED = "failed", _("Failed")


class FairPlayCheck(models.Model):
    """A staff request: the player's agreement with the bot over their recent rated games
    of one kind, beside the pooled agreement of honest players of similar rating."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("player")
    )
    kind = models.CharField(_("game"), max_length=20, choices=GameKind.choices)
    games_limit = models.PositiveSmallIntegerField(_("recent games"))
    bot_level = models.PositiveSmallIntegerField(_("bot level"))
    bot_version = models.CharField(_("bot version"), max_length=40, default="")
    status = models.CharField(
        _("status"), max_length=10, choices=CheckStatus.choices, default=CheckStatus.QUEUED, db_index=True
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("requested by")
    )
    requested_at = models.DateTimeField(_("requested"), default=timezone.now)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    player_rating = models.FloatField(_("player's rating"), null=True, blank=True)
    decisions = models.PositiveIntegerField(_("decisions considered"), default=0)
    matches = models.PositiveIntegerField(_("bot's first choice"), default=0)
    reference_players = models.PositiveIntegerField(_("reference players"), default=0)
    reference_decisions = models.PositiveIntegerField(_("reference decisions"), default=0)
    reference_matches = models.PositiveIntegerField(_("reference matches"), default=0)
    error = models.TextField(_("why it failed"), blank=True)

    class Meta:
        ordering = ["-requested_at", "-pk"]
        verbose_name = _("fair-play check")
        verbose_name_plural = _("fair-play checks")

    def __str__(self) -> str:
        return "%s, %s (#%s)" % (self.player, self.get_kind_display(), self.pk)

    @property
    def share(self) -> float | None:
        return _share(self.matches, self.decisions)

    @property
    def reference_share(self) -> float | None:
        return _share(self.reference_matches, self.reference_decisions)


class FairPlayCheckGame(models.Model):
    """One game of a check: the checked player's, or a reference player's (``reference``)."""

    fairplay_check = models.ForeignKey(
        FairPlayCheck, on_delete=models.CASCADE, related_name="rows", verbose_name=_("fair-play check")
    )
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+", verbose_name=_("game"))
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("player")
    )
    side = models.CharField(_("side"), max_length=20)
    reference = models.BooleanField(_("reference player"), default=False)
    rating_before = models.FloatField(_("rating before"), null=True, blank=True)
    decisions = models.PositiveIntegerField(_("decisions considered"))
    matches = models.PositiveIntegerField(_("bot's first choice"))

    class Meta:
        ordering = ["reference", "player_id", "-game__finished_at", "-game_id"]
        verbose_name = _("game of a check")
        verbose_name_plural = _("games of a check")
        constraints = [
            models.UniqueConstraint(fields=["fairplay_check", "game", "player"], name="fairplay_check_game_once")
        ]

    def __str__(self) -> str:
        return "%s: %s" % (self.game, self.player)

    @property
    def share(self) -> float | None:
        return _share(self.matches, self.decisions)
