"""One analysis per game (``GameAnalysis``): the bot's evaluation of each position, cached.

The row is made when a player of a finished game asks for it (analysis.services), and
filled by the task ``analysis.tasks.game_analysis_run`` on the queue ``analysis``. It is
computed again only when it no longer matches the game (more moves after staff reversed a
time-out) or the bot (another version or level): ``GameAnalysis.matches``. It holds no
personal data: who asked is counted only in the rate-limit budget (the cache).
"""

from __future__ import annotations

from typing import Any

from django.db import models
from django.utils.translation import gettext_lazy as _


class AnalysisStatus(models.TextChoices):
    PENDING = "pending", _("queued")
    RUNNING = "running", _("running")
    DONE = "done", _("done")
    FAILED = "failed", _("failed")


class GameAnalysis(models.Model):
    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="analysis")
    status = models.CharField(
        _("status"), max_length=10, choices=AnalysisStatus.choices, default=AnalysisStatus.PENDING
    )
    bot_level = models.PositiveSmallIntegerField(_("bot level"))
    bot_version = models.CharField(_("bot version"), max_length=64)
    game_ply = models.PositiveIntegerField(_("decisions analysed"))
    # engine.analysis.GameAnalysis.as_dict(): the positions with their values and the marks.
    result = models.JSONField(_("result"), null=True, blank=True)
    error = models.CharField(_("error"), max_length=300, blank=True)
    requested_at = models.DateTimeField(_("requested"))
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("game analysis")
        verbose_name_plural = _("game analyses")
        indexes = [
            # The sweep's due rows: those queued or running (a small share of all).
            models.Index(
                fields=["requested_at"],
                name="analysis_undone",
                condition=models.Q(status__in=["pending", "running"]),
            )
        ]

    def __str__(self) -> str:
        return "analysis of game %s (%s)" % (self.game_id, self.status)

    def matches(self, *, game: Any, level: int, version: str) -> bool:
        """Whether this row is the analysis of ``game`` as it stands, by this bot."""
        return (self.game_ply, self.bot_level, self.bot_version) == (game.ply, level, version)

    @property
    def marks(self) -> list[dict[str, Any]]:
        return list((self.result or {}).get("marks") or [])

    @property
    def positions(self) -> list[dict[str, Any]]:
        return list((self.result or {}).get("positions") or [])
