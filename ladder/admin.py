"""Staff create ladders (each with its own days per move and reach) and watch them."""

from django.contrib import admin

from maatasite.admin_readonly import ReadOnlyTabularInline

from .models import Ladder, LadderChallenge, LadderEvent, LadderMember


class MemberInline(ReadOnlyTabularInline):
    model = LadderMember
    fields = ("position", "user", "joined_at", "left_at")
    ordering = ("position",)


@admin.register(Ladder)
class LadderAdmin(admin.ModelAdmin):
    list_display = ("name", "kind", "days_per_move", "max_places_up", "is_open", "created_at")
    list_filter = ("kind", "is_open")
    inlines = [MemberInline]

    def get_readonly_fields(self, request, obj=None):
        return ("kind",) if obj is not None else ()  # a ladder's game never changes

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(LadderChallenge)
class LadderChallengeAdmin(admin.ModelAdmin):
    list_display = ("id", "ladder", "challenger", "defender", "game", "state", "outcome", "created_at", "finished_at")
    list_filter = ("ladder", "state", "outcome")
    readonly_fields = (
        "ladder",
        "challenger",
        "defender",
        "game",
        "challenger_position",
        "defender_position",
        "state",
        "outcome",
        "timed_out",
        "created_at",
        "finished_at",
    )

    def has_add_permission(self, request):
        return False


@admin.register(LadderEvent)
class LadderEventAdmin(admin.ModelAdmin):
    list_display = ("id", "ladder", "kind", "user", "other", "position_before", "position_after", "created_at")
    list_filter = ("ladder", "kind")
    readonly_fields = list_display + ("challenge",)

    def has_add_permission(self, request):
        return False
