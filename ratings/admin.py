"""Staff views of ratings: read-only (ratings change only through rated games)."""

from django.contrib import admin

from .models import Rating, RatingChange


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ("user", "kind", "rating", "deviation", "volatility", "games_played", "last_played_at")
    list_filter = ("kind",)
    search_fields = ("user__username",)
    readonly_fields = list_display

    def has_add_permission(self, request):
        return False


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):
    list_display = ("user", "opponent", "game", "kind", "score", "rating_before", "rating_after", "created_at")
    list_filter = ("kind",)
    search_fields = ("user__username", "opponent__username")
    raw_id_fields = ("user", "opponent", "game")
    readonly_fields = (
        "user",
        "opponent",
        "game",
        "kind",
        "score",
        "rating_before",
        "rating_after",
        "deviation_before",
        "deviation_after",
        "volatility_after",
        "opponent_rating",
        "created_at",
    )

    def has_add_permission(self, request):
        return False
