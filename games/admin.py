"""Staff views of games. The engine's full state, the seed and the salt never
appear here while a game runs: staff see the public view and the commitment,
and the revealed salt and seed once the game is over."""
from __future__ import annotations

import json

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.template.response import TemplateResponse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from maatasite.admin_inlines import ReadOnlyTabularInline

from . import outages
from .errors import GameActionError
from .models import (Alarm, Challenge, ClockOutage, ClockSweep, DrawOffer, Game, Move, Seat,
                     TimeoutBatch, TimeoutHold)

PRIVATE_FIELDS = ("state", "sealed_seed")


class SeatInline(ReadOnlyTabularInline):
    model = Seat
    fields = ("side", "position", "user", "bot_level")


class MoveInline(ReadOnlyTabularInline):
    model = Move
    fields = ("ply", "turn", "seat", "text", "bot_seed", "created_at")


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "kind", "status", "players", "ply", "turn", "to_move_side", "deadline",
                    "rated", "created_at")
    list_filter = ("kind", "status", "rated")
    search_fields = ("seats__user__username",)
    date_hierarchy = "created_at"
    exclude = PRIVATE_FIELDS
    readonly_fields = ("kind", "options", "status", "days_per_move", "rated", "bot_level",
                       "data_version", "ply", "turn", "to_move_side", "to_move_user",
                       "turn_started_at", "deadline", "seed_commitment", "revealed_salt",
                       "revealed_seed", "winner_side", "result_reason", "scores", "created_at",
                       "finished_at", "public_view")
    inlines = [SeatInline, MoveInline]

    def get_queryset(self, request):
        return super().get_queryset(request).defer(*PRIVATE_FIELDS).prefetch_related("seats__user")

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description=_("players"))
    def players(self, obj: Game) -> str:
        return " - ".join(s.player_name for s in obj.seats.all())

    @admin.display(description=_("public view"))
    def public_view(self, obj: Game) -> str:
        from .services import rules_for, game_state
        view = rules_for(obj.kind).view(game_state(obj), None)
        return format_html("<pre style='white-space: pre-wrap'>{}</pre>",
                           json.dumps(view, indent=1, sort_keys=True))


@admin.register(Challenge)
class ChallengeAdmin(admin.ModelAdmin):
    list_display = ("id", "kind", "challenger", "opponent", "status", "days_per_move", "rated",
                    "created_at", "expires_at")
    list_filter = ("kind", "status", "rated")
    search_fields = ("challenger__username", "opponent__username")
    raw_id_fields = ("challenger", "opponent", "accepted_by", "game")
    readonly_fields = ("game", "accepted_by", "responded_at", "created_at")


@admin.register(DrawOffer)
class DrawOfferAdmin(admin.ModelAdmin):
    list_display = ("id", "game", "seat", "ply", "status", "created_at")
    list_filter = ("status",)
    readonly_fields = ("game", "seat", "ply", "status", "created_at", "responded_at")


@admin.register(Alarm)
class AlarmAdmin(admin.ModelAdmin):
    list_display = ("id", "game", "user", "kind", "turn", "due_at", "sent_at", "outcome")
    list_filter = ("kind", "outcome")
    readonly_fields = ("game", "user", "kind", "turn", "due_at", "claimed_at", "sent_at", "outcome")


class _ReadOnlyAdmin(admin.ModelAdmin):
    """Records written only by the timeout sweep."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(ClockSweep)
class ClockSweepAdmin(_ReadOnlyAdmin):
    list_display = ("swept_at", "finished_at", "games_timed_out", "games_extended", "games_held")


@admin.register(ClockOutage)
class ClockOutageAdmin(_ReadOnlyAdmin):
    list_display = ("started_at", "ended_at", "length", "games_count")
    fields = ("started_at", "ended_at", "length", "games")
    readonly_fields = fields
    date_hierarchy = "started_at"

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("games")

    @admin.display(description=_("length"))
    def length(self, obj: ClockOutage):
        return obj.length

    @admin.display(description=_("games extended"))
    def games_count(self, obj: ClockOutage) -> int:
        return len(obj.games.all())


class TimeoutDecisionForm(forms.Form):
    reason = forms.CharField(label=_("Why"), widget=forms.Textarea(attrs={"rows": 3}))


class TimeoutHoldInline(ReadOnlyTabularInline):
    model = TimeoutHold
    fields = ("game", "turn", "deadline")


def _decide(modeladmin, request, queryset, decide, title):
    """Ask why, then decide each selected batch through ``decide`` (a service)."""
    form = TimeoutDecisionForm(request.POST if "apply" in request.POST else None)
    if "apply" in request.POST and form.is_valid():
        for batch in queryset:
            try:
                decided = decide(batch_id=batch.pk, staff=request.user,
                                 reason=form.cleaned_data["reason"])
            except GameActionError as error:
                modeladmin.message_user(request, "%s: %s" % (batch, error.message), messages.ERROR)
                continue
            modeladmin.message_user(request, ngettext(
                "%(count)d game changed.", "%(count)d games changed.",
                decided.games_changed) % {"count": decided.games_changed}, messages.SUCCESS)
        return None
    return TemplateResponse(request, "games/admin_timeout_batch.html", {
        **modeladmin.admin_site.each_context(request), "title": title, "form": form,
        "batches": queryset, "action": request.POST.get("action"),
        "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME, "opts": modeladmin.model._meta})


@admin.register(TimeoutBatch)
class TimeoutBatchAdmin(admin.ModelAdmin):
    """Time-outs a sweep held back; staff time them out or extend them, saying why."""

    list_display = ("created_at", "status", "games_count", "active_games", "since", "decided_by",
                    "decided_at", "games_changed")
    list_filter = ("status",)
    fields = ("status", "created_at", "since", "active_games", "decided_by", "decided_at",
              "reason", "games_changed")
    readonly_fields = fields
    inlines = [TimeoutHoldInline]
    actions = ["confirm_timeouts", "extend_timeouts"]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("decided_by").prefetch_related("holds")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        """Staff with the permission decide through the actions; no row is edited."""
        return obj is None and super().has_change_permission(request)

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description=_("games held"))
    def games_count(self, obj: TimeoutBatch) -> int:
        return len(obj.holds.all())

    @admin.action(description=_("Time the held games out"), permissions=["change"])
    def confirm_timeouts(self, request, queryset):
        return _decide(self, request, queryset, outages.timeout_batch_confirm,
                       _("Time the held games out"))

    @admin.action(description=_("Extend the held games as after an outage"), permissions=["change"])
    def extend_timeouts(self, request, queryset):
        return _decide(self, request, queryset, outages.timeout_batch_extend,
                       _("Extend the held games as after an outage"))
