"""The staff's report queue: filter by status and kind; the actions go through
``ops.services.report_review``, which logs who did what, when and why."""
from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from maatasite.admin_inlines import ReadOnlyTabularInline

from . import services
from .models import Heartbeat, Report, ReportAction, ReportStatus


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
