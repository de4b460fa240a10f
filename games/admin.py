"""Staff views of games. The engine's full state, the seed and the salt never
appear here while a game runs: staff see the public view and the commitment,
and the revealed salt and seed once the game is over. The held time-outs
(TimeoutBatch), which staff decide, and the release of a game whose bot failed
(filter "bot failed since") are in ops.admin: each decision is written to the
staff audit log."""

from __future__ import annotations

import json

from django.contrib import admin
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from accounts.selectors import outbox_mail_state, outbox_rows_of
from maatasite.admin_readonly import ReadOnlyModelAdmin, ReadOnlyTabularInline

from .models import Alarm, Challenge, ClockOutage, ClockSweep, DrawOffer, Game, Move, Seat
from .rules import game_state, rules_for

PRIVATE_FIELDS = ("sealed_state", "sealed_seed")


class SeatInline(ReadOnlyTabularInline):
    model = Seat
    fields = ("side", "position", "user", "bot_level")


class MoveInline(ReadOnlyTabularInline):
    model = Move
    fields = ("ply", "turn", "seat", "text", "bot_seed", "created_at")


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "kind",
        "status",
        "players",
        "ply",
        "turn",
        "to_move_side",
        "deadline",
        "rated",
        "bot_failed_at",
        "created_at",
    )
    list_filter = ("kind", "status", "rated", ("bot_failed_at", admin.EmptyFieldListFilter))
    search_fields = ("seats__user__username",)
    date_hierarchy = "created_at"
    exclude = PRIVATE_FIELDS
    readonly_fields = (
        "kind",
        "options",
        "status",
        "days_per_move",
        "rated",
        "bot_level",
        "data_version",
        "ply",
        "turn",
        "to_move_side",
        "to_move_user",
        "turn_started_at",
        "deadline",
        "clock_held_since",
        "clock_hold_reason",
        "bot_failed_at",
        "bot_failure",
        "seed_commitment",
        "revealed_salt",
        "revealed_seed",
        "winner_side",
        "result_reason",
        "scores",
        "created_at",
        "finished_at",
        "rematch_of",
        "public_view",
    )
    inlines = [SeatInline, MoveInline]

    class Media:
        css = {"all": ["games/admin.css"]}  # styles of public_view (no inline style under the CSP)

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
        view = rules_for(obj.kind).view(game_state(obj), None)
        return format_html('<pre class="game-public-view">{}</pre>', json.dumps(view, indent=1, sort_keys=True))


@admin.register(Challenge)
class ChallengeAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "kind",
        "challenger",
        "opponent",
        "status",
        "days_per_move",
        "rated",
        "created_at",
        "expires_at",
    )
    list_filter = ("kind", "status", "rated")
    search_fields = ("challenger__username", "opponent__username")
    raw_id_fields = ("challenger", "opponent", "accepted_by", "game")
    readonly_fields = ("game", "accepted_by", "responded_at", "created_at", "rematch_of")


@admin.register(DrawOffer)
class DrawOfferAdmin(admin.ModelAdmin):
    list_display = ("id", "game", "seat", "ply", "status", "created_at")
    list_filter = ("status",)
    readonly_fields = ("game", "seat", "ply", "status", "created_at", "responded_at")


@admin.register(Alarm)
class AlarmAdmin(admin.ModelAdmin):
    """The alarms; an alarm ``queued`` in the outbox shows where its mail stands (column
    "mail"): sent or why not, or still waiting, e.g. deferred to the end of the player's night."""

    list_display = ("id", "game", "user", "kind", "turn", "due_at", "sent_at", "outcome", "mail")
    list_filter = ("kind", "outcome")
    readonly_fields = ("game", "user", "kind", "turn", "due_at", "claimed_at", "sent_at", "outcome", "mail")

    def get_changelist_instance(self, request):
        """The page's alarms with their outbox rows, read in one query."""
        changelist = super().get_changelist_instance(request)
        alarms = list(changelist.result_list)  # evaluated once: the page shows these very objects
        rows = outbox_rows_of(kind="alarm", object_ids=[alarm.pk for alarm in alarms])
        for alarm in alarms:
            alarm.__dict__["outbox_row"] = rows.get(alarm.pk)
        return changelist

    @admin.display(description=_("mail"))
    def mail(self, alarm: Alarm) -> str:
        if "outbox_row" not in alarm.__dict__:  # the alarm's own page
            alarm.__dict__["outbox_row"] = outbox_rows_of(kind="alarm", object_ids=[alarm.pk]).get(alarm.pk)
        row = alarm.__dict__["outbox_row"]
        return outbox_mail_state(row, now=timezone.now()) if row is not None else "-"


@admin.register(ClockSweep)
class ClockSweepAdmin(ReadOnlyModelAdmin):
    list_display = ("swept_at", "finished_at", "games_timed_out", "games_extended", "games_held")


@admin.register(ClockOutage)
class ClockOutageAdmin(ReadOnlyModelAdmin):
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
