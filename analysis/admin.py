"""Post-game analyses for staff: their state, bot and error, searchable by game; read-only."""

from django.contrib import admin

from maatasite.admin_readonly import ReadOnlyModelAdmin

from .models import GameAnalysis


@admin.register(GameAnalysis)
class GameAnalysisAdmin(ReadOnlyModelAdmin):
    list_display = ("game", "status", "bot_level", "bot_version", "game_ply", "requested_at", "finished_at")
    list_filter = ("status",)
    list_select_related = ("game",)
    search_fields = ("=game__id",)
    date_hierarchy = "requested_at"
    fields = readonly_fields = (
        "game",
        "status",
        "bot_level",
        "bot_version",
        "game_ply",
        "error",
        "requested_at",
        "started_at",
        "finished_at",
    )
