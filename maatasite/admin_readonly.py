"""The read-only building blocks of the staff pages: rows shown, never added, edited or
deleted there (history, seats, members, sweeps and audit rows change only through services;
staff change things through admin actions that call them).

    class MoveInline(ReadOnlyTabularInline):
        model = Move
        fields = ("ply", "text")

    @admin.register(ClockSweep)
    class ClockSweepAdmin(ReadOnlyModelAdmin):
        list_display = ("swept_at", "games_timed_out")
"""
from django.contrib import admin


class ReadOnlyTabularInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def get_readonly_fields(self, request, obj=None):
        return self.get_fields(request, obj)

    def has_add_permission(self, request, obj=None):
        return False


class ReadOnlyModelAdmin(admin.ModelAdmin):
    """A list and detail pages to look at; changes only through the admin's actions."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
