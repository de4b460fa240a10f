"""Refusals of the analysis services: games' error classes (status, code, params) with analysis's messages."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from games.errors import Conflict, NotAllowed, NotFound

ANALYSIS_MESSAGES: dict[str, Any] = {
    "analysis_game_running": _(
        "This game is still running: its analysis can be asked for once it is over, rated or not."
    ),
    "analysis_no_moves": _("This game has no moves to analyse."),
    "analysis_not_a_player": _("Only the players of this game can ask for its analysis."),
    "analysis_not_found": _("Nobody has asked for the analysis of this game yet."),
}


class AnalysisMessages:
    """The analysis messages come first."""

    app_messages: Mapping[str, Any] = ANALYSIS_MESSAGES


class AnalysisConflict(AnalysisMessages, Conflict):
    pass


class AnalysisNotAllowed(AnalysisMessages, NotAllowed):
    pass


class AnalysisNotFound(AnalysisMessages, NotFound):
    pass
