"""Game messages for staff reviewing reports: searchable by game and author, read-only."""
from django.contrib import admin

from .models import Message


@admin.register(Message)
class MessageAdmin(admin.ModelAdmin):
    list_display = ("created_at", "game", "author", "ply", "text")
    list_select_related = ("game", "author")
    search_fields = ("=game__id", "author__username", "text")
    date_hierarchy = "created_at"
    readonly_fields = ("game", "author", "text", "ply", "created_at")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
