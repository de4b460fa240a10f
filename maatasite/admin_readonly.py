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
from django.contrib.contenttypes.admin import GenericInlineModelAdmin


class ReadOnlyTabularInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def get_readonly_fields(self, request, obj=None):
        return self.get_fields(request, obj)

    def has_add_permission(self, request, obj=None):
        return False


class ReadOnlyGenericTabularInline(GenericInlineModelAdmin, ReadOnlyTabularInline):
    """A read-only inline of rows that name their parent by a generic foreign key
    (``ct_field`` and ``ct_fk_field``), e.g. the staff audit log's rows about a report."""

    template = "admin/edit_inline/tabular.html"


class ReadOnlyModelAdmin(admin.ModelAdmin):
    """A list and detail pages to look at; changes only through the admin's actions."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
