"""The staff's report queue: filter by status and kind; the actions go through
``ops.services.report_review``, which logs who did what, when and why.

Staff adjudication: "Game adjudications" (void, award, reverse a timeout) and
"Player suspensions" (suspend, lift) ask why (and, to award, which side), call
ops.services, and each action writes one row of the read-only "Staff
adjudications" log."""
from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from games.errors import GameActionError
from games.services import rules_for

from maatasite.admin_inlines import ReadOnlyTabularInline

from . import services
from .models import (GameAdjudication, Heartbeat, PlayerSuspension, Report, ReportAction,
                     ReportStatus, StaffAction)

SUSPENSION_RULE = _(
    "Suspending a player: they cannot log in (their sessions end, their API tokens are "
    "revoked); every running game against a person is lost by them (forfeit), or aborted "
    "if they have not moved in it yet; games against bots are aborted; their open "
    "challenges are cancelled. Lifting the suspension lets them log in again; ended games "
    "stay ended.")


class ReviewNoteForm(forms.Form):
    note = forms.CharField(label=_("Why"), widget=forms.Textarea(attrs={"rows": 3}))


class ReportActionInline(ReadOnlyTabularInline):
    model = ReportAction
    fields = ("acted_at", "staff", "status", "note")


def _review(modeladmin, request, queryset, status, title):
    """Ask why, then mark every selected report (one audit entry each)."""
    form = ReviewNoteForm(request.POST if "apply" in request.POST else None)
    if "apply" in request.POST and form.is_valid():
        for report in queryset:
            services.report_review(report_id=report.pk, staff=request.user, status=status,
                                   note=form.cleaned_data["note"])
        count = queryset.count()
        modeladmin.message_user(request, ngettext("%(count)d report marked.", "%(count)d reports marked.",
                                                  count) % {"count": count}, messages.SUCCESS)
        return None
    return TemplateResponse(request, "ops/admin_review.html", {
        **modeladmin.admin_site.each_context(request), "title": title, "form": form,
        "reports": queryset, "action": request.POST.get("action"),
        "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME, "opts": modeladmin.model._meta})


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ("created_at", "kind", "status", "reporter", "player", "game")
    list_filter = ("status", "kind")
    search_fields = ("reporter__username", "player__username", "reason")
    readonly_fields = ("reporter", "player", "game", "kind", "reason", "status", "created_at")
    inlines = [ReportActionInline]
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


@admin.register(ReportAction)
class ReportActionAdmin(admin.ModelAdmin):
    list_display = ("acted_at", "staff", "report", "status", "note")
    list_filter = ("status",)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Heartbeat)
class HeartbeatAdmin(admin.ModelAdmin):
    list_display = ("name", "seen_at")


# ---------------------------------------------------------------- staff adjudication

class AdjudicationForm(forms.Form):
    reason = forms.CharField(label=_("Why"), widget=forms.Textarea(attrs={"rows": 3}))


class AwardForm(AdjudicationForm):
    side = forms.ChoiceField(label=_("Winner"), choices=[
        ("first", _("First seat")), ("second", _("Second seat")), ("draw", _("Draw (no winner)"))])


def _adjudicate(modeladmin, request, queryset, *, title, apply, form_class=AdjudicationForm,
                help_text=""):
    """Ask why (and what), then apply the service to every selected row; one audit row
    each. A refusal is shown for its row and the others go on."""
    form = form_class(request.POST if "apply" in request.POST else None)
    if "apply" in request.POST and form.is_valid():
        done = 0
        for obj in queryset:
            try:
                apply(obj, form.cleaned_data)
            except GameActionError as error:
                modeladmin.message_user(request, "%s: %s" % (obj, error.message), messages.ERROR)
                continue
            done += 1
        if done:
            modeladmin.message_user(request, ngettext("%(count)d done.", "%(count)d done.", done)
                                    % {"count": done}, messages.SUCCESS)
        return None
    return TemplateResponse(request, "ops/admin_adjudicate.html", {
        **modeladmin.admin_site.each_context(request), "title": title, "form": form,
        "objects": queryset, "help_text": help_text, "action": request.POST.get("action"),
        "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME, "opts": modeladmin.model._meta})


def _winner(game, side: str) -> str:
    if side == "draw":
        return ""
    first, second = rules_for(game.kind).players
    return first if side == "first" else second


class ReadOnlyAdmin(admin.ModelAdmin):
    """Lists and shows rows; changes only through the actions."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(GameAdjudication)
class GameAdjudicationAdmin(ReadOnlyAdmin):
    list_display = ("id", "kind", "status", "players", "winner_side", "result_reason", "rated",
                    "finished_at")
    list_filter = ("kind", "status", "result_reason", "rated")
    search_fields = ("seats__user__username",)
    fields = ("kind", "status", "rated", "bot_level", "ply", "winner_side", "result_reason",
              "created_at", "finished_at")
    actions = ["void", "award", "reverse_timeout"]

    def get_queryset(self, request):
        return super().get_queryset(request).defer("state", "sealed_seed").prefetch_related(
            "seats__user")

    @admin.display(description=_("players"))
    def players(self, obj) -> str:
        return " - ".join("%s: %s" % (s.side, s.player_name) for s in obj.seats.all())

    @admin.action(description=_("Void (no result, no rating change)"),
                  permissions=["view"])
    def void(self, request, queryset):
        return _adjudicate(self, request, queryset, title=_("Void games"), apply=lambda game, data:
                           services.game_void(game_id=game.pk, staff=request.user,
                                              reason=data["reason"]))

    @admin.action(description=_("Award to a side"), permissions=["view"])
    def award(self, request, queryset):
        return _adjudicate(self, request, queryset, title=_("Award games"), form_class=AwardForm,
                           apply=lambda game, data: services.game_award(
                               game_id=game.pk, staff=request.user, reason=data["reason"],
                               winner_side=_winner(game, data["side"])))

    @admin.action(description=_("Reverse a timeout (the game runs again)"), permissions=["view"])
    def reverse_timeout(self, request, queryset):
        return _adjudicate(self, request, queryset, title=_("Reverse timeouts"),
                           apply=lambda game, data: services.game_timeout_reverse(
                               game_id=game.pk, staff=request.user, reason=data["reason"]))


@admin.register(PlayerSuspension)
class PlayerSuspensionAdmin(ReadOnlyAdmin):
    list_display = ("username", "email", "is_active", "suspended_at", "suspension_reason")
    list_filter = ("is_active",)
    search_fields = ("username", "email")
    fields = ("username", "email", "is_active", "suspended_at", "suspension_reason", "last_login")
    actions = ["suspend", "unsuspend"]

    @admin.action(description=_("Suspend"), permissions=["view"])
    def suspend(self, request, queryset):
        return _adjudicate(self, request, queryset, title=_("Suspend players"),
                           help_text=SUSPENSION_RULE, apply=lambda player, data:
                           services.player_suspend(player_id=player.pk, staff=request.user,
                                                   reason=data["reason"]))

    @admin.action(description=_("Lift the suspension"), permissions=["view"])
    def unsuspend(self, request, queryset):
        return _adjudicate(self, request, queryset, title=_("Lift suspensions"),
                           help_text=SUSPENSION_RULE, apply=lambda player, data:
                           services.player_unsuspend(player_id=player.pk, staff=request.user,
                                                     reason=data["reason"]))


@admin.register(StaffAction)
class StaffActionAdmin(ReadOnlyAdmin):
    list_display = ("at", "staff", "action", "game", "player", "reason")
    list_filter = ("action",)
    search_fields = ("staff__username", "player__username", "reason")
    fields = ("at", "staff", "action", "game", "player", "reason", "details")
