"""The staff's pages of ops. Every staff decision here asks why, goes through a
service (ops.services; fairplay.services for reports) and writes one row of the
read-only "Staff audit log":

* the report queue (filter by status and kind; mark reviewed or dismissed);
* "Game adjudications" (void, award, reverse a timeout, let a failed bot play
  again: filter "bot failed since") and "Player suspensions" (suspend, lift);
* the time-outs a sweep held back (games.TimeoutBatch): time them out, or extend
  them as after an outage.

Reports are fairplay's (fairplay.models.Report, reviewed through
fairplay.services.report_review); the log is accounts' (accounts.admin shows it), and
fair-play checks (fairplay.admin) and tournament management write to it too."""

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts.admin import StaffActionInline
from fairplay import services as fairplay_services
from fairplay.models import Report, ReportStatus
from games import end_adjudication
from games.errors import GameActionError
from games.models import BotAdjudication, TimeoutBatch, TimeoutHold
from games.rules import rules_for
from maatasite.admin_readonly import ReadOnlyModelAdmin, ReadOnlyTabularInline

from . import services
from .models import GameAdjudication, Heartbeat, PlayerSuspension

SUSPENSION_RULE = _(
    "Suspending a player: they cannot log in (their sessions end, their API tokens are "
    "revoked); every running game against a person is lost by them (forfeit), or aborted "
    "if they have not moved in it yet; games against bots are aborted; their open "
    "challenges are cancelled; they leave their ladders and are withdrawn from their "
    "tournaments. Lifting the suspension lets them log in again; ended games stay ended."
)

BOT_FAILURE_RULE = _(
    "A bot that fails on every try of its turn plays no stand-in move: its game is flagged "
    "(bot failed since) and its clock held. Once the bot is fixed, letting it play again "
    "clears the flag, lets the clock run and enqueues the bot's turn."
)


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Why"), widget=forms.Textarea(attrs={"rows": 3}))


class AwardForm(ReasonForm):
    side = forms.ChoiceField(
        label=_("Winner"),
        choices=[("first", _("First seat")), ("second", _("Second seat")), ("draw", _("Draw (no winner)"))],
    )


def _ask_why(modeladmin, request, queryset, *, title, apply, form_class=ReasonForm, help_text=""):
    """The one way staff act from the admin: ask why (and what), then call ``apply(obj,
    cleaned_data)`` - a service that writes the audit row - for every selected row. A
    refusal is shown for its row and the others go on; a text ``apply`` returns is shown."""
    form = form_class(request.POST if "apply" in request.POST else None)
    if "apply" in request.POST and form.is_valid():
        done = 0
        for obj in queryset:
            try:
                note = apply(obj, form.cleaned_data)
            except GameActionError as error:
                modeladmin.message_user(request, "%s: %s" % (obj, error.message), messages.ERROR)
                continue
            done += 1
            if isinstance(note, str):
                modeladmin.message_user(request, "%s: %s" % (obj, note), messages.SUCCESS)
        if done:
            modeladmin.message_user(
                request, ngettext("%(count)d done.", "%(count)d done.", done) % {"count": done}, messages.SUCCESS
            )
        return None
    return TemplateResponse(
        request,
        "ops/admin_ask_why.html",
        {
            **modeladmin.admin_site.each_context(request),
            "title": title,
            "form": form,
            "objects": queryset,
            "help_text": help_text,
            "action": request.POST.get("action"),
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
            "opts": modeladmin.model._meta,
        },
    )


def _review(modeladmin, request, queryset, status, title):
    return _ask_why(
        modeladmin,
        request,
        queryset,
        title=title,
        apply=lambda report, data: fairplay_services.report_review(
            report_id=report.pk, staff=request.user, status=status, reason=data["reason"]
        ),
    )


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ("created_at", "kind", "status", "reporter", "player", "game")
    list_filter = ("status", "kind")
    search_fields = ("reporter__username", "player__username", "reason")
    readonly_fields = ("reporter", "player", "game", "kind", "reason", "status", "created_at")
    inlines = [StaffActionInline]  # the report's rows of the audit log
    actions = ["mark_reviewed", "mark_dismissed"]

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.action(description=_("Mark reviewed"))
    def mark_reviewed(self, request, queryset):
        return _review(self, request, queryset, ReportStatus.REVIEWED, _("Mark reviewed"))

    @admin.action(description=_("Mark dismissed"))
    def mark_dismissed(self, request, queryset):
        return _review(self, request, queryset, ReportStatus.DISMISSED, _("Mark dismissed"))


@admin.register(Heartbeat)
class HeartbeatAdmin(admin.ModelAdmin):
    list_display = ("name", "seen_at")


# ---------------------------------------------------------------- staff adjudication


def _winner(game, side: str) -> str:
    if side == "draw":
        return ""
    first, second = rules_for(game.kind).players
    return first if side == "first" else second


@admin.register(GameAdjudication)
class GameAdjudicationAdmin(ReadOnlyModelAdmin):
    list_display = (
        "id",
        "kind",
        "status",
        "players",
        "winner_side",
        "result_reason",
        "rated",
        "bot_failed_at",
        "finished_at",
    )
    list_filter = ("kind", "status", "result_reason", "rated", ("bot_failed_at", admin.EmptyFieldListFilter))
    search_fields = ("seats__user__username",)
    fields = (
        "kind",
        "status",
        "rated",
        "bot_level",
        "ply",
        "winner_side",
        "result_reason",
        "clock_held_since",
        "clock_hold_reason",
        "bot_failed_at",
        "bot_failure",
        "created_at",
        "finished_at",
    )
    actions = ["void", "award", "reverse_timeout", "release_bot"]

    def get_queryset(self, request):
        return super().get_queryset(request).defer("sealed_state", "sealed_seed").prefetch_related("seats__user")

    @admin.display(description=_("players"))
    def players(self, obj) -> str:
        return " - ".join("%s: %s" % (s.side, s.player_name) for s in obj.seats.all())

    @admin.action(description=_("Void (no result, no rating change)"), permissions=["view"])
    def void(self, request, queryset):
        return _ask_why(
            self,
            request,
            queryset,
            title=_("Void games"),
            apply=lambda game, data: services.game_void(game_id=game.pk, staff=request.user, reason=data["reason"]),
        )

    @admin.action(description=_("Award to a side"), permissions=["view"])
    def award(self, request, queryset):
        return _ask_why(
            self,
            request,
            queryset,
            title=_("Award games"),
            form_class=AwardForm,
            apply=lambda game, data: services.game_award(
                game_id=game.pk, staff=request.user, reason=data["reason"], winner_side=_winner(game, data["side"])
            ),
        )

    @admin.action(description=_("Reverse a timeout (the game runs again)"), permissions=["view"])
    def reverse_timeout(self, request, queryset):
        return _ask_why(
            self,
            request,
            queryset,
            title=_("Reverse timeouts"),
            apply=lambda game, data: services.game_timeout_reverse(
                game_id=game.pk, staff=request.user, reason=data["reason"]
            ),
        )

    @admin.action(description=_("Let the failed bot play again"), permissions=["view"])
    def release_bot(self, request, queryset):
        return _ask_why(
            self,
            request,
            queryset,
            title=_("Let the failed bots play again"),
            help_text=BOT_FAILURE_RULE,
            apply=lambda game, data: services.game_bot_release(
                game_id=game.pk, staff=request.user, reason=data["reason"]
            ),
        )


@admin.register(PlayerSuspension)
class PlayerSuspensionAdmin(ReadOnlyModelAdmin):
    list_display = ("username", "email", "is_active", "suspended_at", "suspension_reason")
    list_filter = ("is_active",)
    search_fields = ("username", "email")
    fields = ("username", "email", "is_active", "suspended_at", "suspension_reason", "last_login")
    actions = ["suspend", "unsuspend"]

    @admin.action(description=_("Suspend"), permissions=["view"])
    def suspend(self, request, queryset):
        return _ask_why(
            self,
            request,
            queryset,
            title=_("Suspend players"),
            help_text=SUSPENSION_RULE,
            apply=lambda player, data: services.player_suspend(
                player_id=player.pk, staff=request.user, reason=data["reason"]
            ),
        )

    @admin.action(description=_("Lift the suspension"), permissions=["view"])
    def unsuspend(self, request, queryset):
        return _ask_why(
            self,
            request,
            queryset,
            title=_("Lift suspensions"),
            help_text=SUSPENSION_RULE,
            apply=lambda player, data: services.player_unsuspend(
                player_id=player.pk, staff=request.user, reason=data["reason"]
            ),
        )


# ---------------------------------------------------------------- held time-outs


class TimeoutHoldInline(ReadOnlyTabularInline):
    model = TimeoutHold
    fields = ("game", "turn", "deadline")


def _decide(modeladmin, request, queryset, decide, title):
    def apply(batch, data):
        changed = decide(batch_id=batch.pk, staff=request.user, reason=data["reason"]).games_changed
        return ngettext("%(count)d game changed.", "%(count)d games changed.", changed) % {"count": changed}

    return _ask_why(
        modeladmin,
        request,
        queryset,
        title=title,
        apply=apply,
        help_text=_("Games that moved on or ended since they were held are left alone."),
    )


@admin.register(TimeoutBatch)
class TimeoutBatchAdmin(admin.ModelAdmin):
    """Time-outs a sweep held back; staff time them out or extend them, saying why."""

    list_display = (
        "created_at",
        "status",
        "games_count",
        "active_games",
        "since",
        "decided_by",
        "decided_at",
        "games_changed",
    )
    list_filter = ("status",)
    fields = ("status", "created_at", "since", "active_games", "decided_by", "decided_at", "reason", "games_changed")
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
        return _decide(self, request, queryset, services.timeout_batch_confirm, _("Time the held games out"))

    @admin.action(description=_("Extend the held games as after an outage"), permissions=["change"])
    def extend_timeouts(self, request, queryset):
        return _decide(
            self, request, queryset, services.timeout_batch_extend, _("Extend the held games as after an outage")
        )


OVERTURN_RULE = _(
    "Overturning an end-date adjudication gives the game the result you choose, with your "
    "reason, in the staff audit log; ratings and standings follow. The bot's verdict stays "
    "on record. Run it again first to check that the bot gives the same answer."
)


@admin.register(BotAdjudication)
class BotAdjudicationAdmin(ReadOnlyModelAdmin):
    """Games adjudicated when their tournament's end date passed (games.end_adjudication)."""

    list_display = ("game", "method", "winner_side", "result_now", "level", "nodes", "bot_version", "decided_at")
    list_filter = ("method", "game__kind")
    search_fields = ("game__seats__user__username",)
    fields = (
        "game",
        "method",
        "ply",
        "side_to_move",
        "position",
        "evaluation",
        "winner_side",
        "result_now",
        "bot_version",
        "level",
        "nodes",
        "seed",
        "reason",
        "decided_at",
    )
    readonly_fields = fields
    actions = ["overturn", "run_again"]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("game")

    @admin.display(description=_("result now"))
    def result_now(self, obj) -> str:
        game = obj.game
        return "%s (%s)" % (game.winner_side or _("draw"), game.result_reason)

    @admin.action(description=_("Overturn the result (with a reason)"), permissions=["view"])
    def overturn(self, request, queryset):
        return _ask_why(
            self,
            request,
            queryset,
            title=_("Overturn end-date adjudications"),
            form_class=AwardForm,
            help_text=OVERTURN_RULE,
            apply=lambda row, data: services.game_award(
                game_id=row.game_id,
                staff=request.user,
                reason=data["reason"],
                winner_side=_winner(row.game, data["side"]),
            ),
        )

    @admin.action(description=_("Run the adjudication again (changes nothing)"), permissions=["view"])
    def run_again(self, request, queryset):
        for row in queryset:
            again = end_adjudication.adjudication_repeat(adjudication=row)
            if again.winner == row.winner_side and again.evaluation == row.evaluation:
                self.message_user(request, _("%s: the same answer.") % row, messages.SUCCESS)
            else:
                self.message_user(
                    request,
                    _("%(row)s: a different answer: %(reason)s") % {"row": row, "reason": again.reason},
                    messages.WARNING,
                )
