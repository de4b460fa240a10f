"""The one kind of inline the staff pages use: rows shown, never added, edited or deleted
from the parent's page (history, seats, members and audit rows change only through services).

    class MoveInline(ReadOnlyTabularInline):
        model = Move
        fields = ("ply", "text")
"""
from django.contrib import admin


class ReadOnlyTabularInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def get_readonly_fields(self, request, obj=None):
        return self.get_fields(request, obj)

    def has_add_permission(self, request, obj=None):
        return False
