"""Game messages for staff reviewing reports: searchable by game and author, read-only."""

from django.contrib import admin

from maatasite.admin_readonly import ReadOnlyModelAdmin

from .models import Message


@admin.register(Message)
class MessageAdmin(ReadOnlyModelAdmin):
    list_display = ("created_at", "game", "author", "ply", "text")
    list_select_related = ("game", "author")
    search_fields = ("=game__id", "author__username", "text")
    date_hierarchy = "created_at"
    readonly_fields = ("game", "author", "text", "ply", "created_at")
