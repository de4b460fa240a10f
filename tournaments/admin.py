"""Staff run tournaments here. Every write goes through tournaments.services (which
logs it in the staff audit log, accounts.StaffAction): creating and editing, the actions open registration,
start, pause, resume and end early, and on participants add, withdraw and replace."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _

from accounts.admin import StaffActionInline
from games.errors import GameActionError
from maatasite.admin_readonly import ReadOnlyTabularInline

from . import services
from .models import Pairing, Participant, Round, Tournament, TournamentStatus


class TournamentForm(forms.ModelForm):
    class Meta:
        model = Tournament
        fields = services.EDITABLE_FIELDS

    def clean(self):
        cleaned = super().clean() or {}
        values = {f: cleaned.get(f, getattr(self.instance, f)) for f in services.EDITABLE_FIELDS}
        try:
            services.tournament_settings_check(values)
        except GameActionError as error:
            raise ValidationError(error.message) from error
        return cleaned


class ParticipantInline(ReadOnlyTabularInline):
    model = Participant
    fields = ("user", "seed", "rating", "status", "registered_at", "withdrawn_at")


def _run(modeladmin, request, queryset, action, done):
    for tournament in queryset:
        try:
            result = action(tournament_id=tournament.pk, actor=request.user)
        except GameActionError as error:
            modeladmin.message_user(request, "%s: %s" % (tournament, error.message), messages.ERROR)
            continue
        for warning in getattr(result, "warnings", []):
            modeladmin.message_user(request, "%s: %s" % (tournament, warning), messages.WARNING)
        modeladmin.message_user(request, "%s: %s" % (tournament, done), messages.SUCCESS)


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    form = TournamentForm
    list_display = (
        "id",
        "name",
        "kind",
        "format",
        "status",
        "players",
        "days_per_move",
        "rated",
        "ends_at",
        "created_at",
    )
    list_filter = ("status", "format", "kind")
    search_fields = ("name",)
    inlines = [ParticipantInline, StaffActionInline]  # the tournament's rows of the audit log
    actions = ["open_registration", "start", "pause", "resume", "end_early"]

    def get_readonly_fields(self, request, obj=None):
        if obj is not None and obj.status == TournamentStatus.FINISHED:
            return [*services.EDITABLE_FIELDS, "paused_at", "end_date_reached_at"]
        if obj is not None and obj.status not in services.BEFORE_START:
            return [
                *(f for f in services.EDITABLE_FIELDS if f not in services.ANY_TIME_FIELDS),
                "paused_at",
                "end_date_reached_at",
            ]
        return ["paused_at", "end_date_reached_at"]

    @admin.display(description=_("players"))
    def players(self, obj: Tournament) -> int:
        return obj.participants.count()

    def save_model(self, request, obj, form, change):
        values = {f: form.cleaned_data[f] for f in services.EDITABLE_FIELDS if f in form.cleaned_data}
        if change:
            services.tournament_update(tournament_id=obj.pk, actor=request.user, changes=values)
        else:
            created = services.tournament_create(actor=request.user, **values)
            obj.pk = created.pk
            obj._state.adding = False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.action(description=_("Open registration"))
    def open_registration(self, request, queryset):
        _run(self, request, queryset, services.tournament_open_registration, _("registration open"))

    @admin.action(description=_("Start (pair round 1)"))
    def start(self, request, queryset):
        _run(self, request, queryset, services.tournament_start, _("started"))

    @admin.action(description=_("Pause (game clocks stop, no new round)"))
    def pause(self, request, queryset):
        _run(self, request, queryset, services.tournament_pause, _("paused"))

    @admin.action(description=_("Resume (game clocks run again)"))
    def resume(self, request, queryset):
        _run(self, request, queryset, services.tournament_resume, _("resumed"))

    @admin.action(description=_("End early (running games cancelled)"))
    def end_early(self, request, queryset):
        """Asks for confirmation first: ending early cannot be undone."""
        if "apply" not in request.POST:
            return render(
                request,
                "tournaments/admin_end_early.html",
                {
                    **self.admin_site.each_context(request),
                    "tournaments": list(queryset),
                    "title": _("End tournaments early"),
                },
            )
        _run(self, request, queryset, services.tournament_end, _("ended"))
        return None


class ReplaceForm(forms.Form):
    username = forms.CharField(label=_("Replace with (username)"))

    def clean_username(self):
        user = get_user_model().objects.filter(username__iexact=self.cleaned_data["username"]).first()
        if user is None:
            raise ValidationError(_("There is no such player."))
        return user


class ParticipantAddForm(forms.ModelForm):
    class Meta:
        model = Participant
        fields = ("tournament", "user")


@admin.register(Participant)
class ParticipantAdmin(admin.ModelAdmin):
    list_display = ("id", "user", "tournament", "seed", "rating", "status", "registered_at")
    list_filter = ("status", "tournament")
    search_fields = ("user__username", "tournament__name")
    raw_id_fields = ("user",)
    actions = ["withdraw", "replace"]

    def get_form(self, request, obj=None, change=False, **kwargs):
        if obj is None:
            kwargs["form"] = ParticipantAddForm
        return super().get_form(request, obj, change=change, **kwargs)

    def get_readonly_fields(self, request, obj=None):
        return (
            () if obj is None else ("tournament", "user", "seed", "rating", "status", "registered_at", "withdrawn_at")
        )

    def save_model(self, request, obj, form, change):
        if change:
            return
        created = services.participant_add(
            tournament_id=form.cleaned_data["tournament"].pk, user=form.cleaned_data["user"], actor=request.user
        )
        obj.pk = created.pk
        obj._state.adding = False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.action(description=_("Withdraw from the tournament (running games forfeited)"))
    def withdraw(self, request, queryset):
        for participant in queryset:
            try:
                services.participant_withdraw(participant_id=participant.pk, actor=request.user)
            except GameActionError as error:
                self.message_user(request, "%s: %s" % (participant, error.message), messages.ERROR)
            else:
                self.message_user(request, _("%s withdrawn") % participant, messages.SUCCESS)

    @admin.action(description=_("Replace by another player (before round 1)"))
    def replace(self, request, queryset):
        if queryset.count() != 1:
            self.message_user(request, _("Choose exactly one participant to replace."), messages.ERROR)
            return None
        participant = queryset.get()
        form = ReplaceForm(request.POST if "apply" in request.POST else None)
        if form.is_valid():
            try:
                services.participant_replace(
                    participant_id=participant.pk, new_user=form.cleaned_data["username"], actor=request.user
                )
            except GameActionError as error:
                self.message_user(request, error.message, messages.ERROR)
            else:
                self.message_user(request, _("Replaced."), messages.SUCCESS)
            return None
        return render(
            request,
            "tournaments/admin_replace.html",
            {
                **self.admin_site.each_context(request),
                "participant": participant,
                "form": form,
                "title": _("Replace a player"),
            },
        )


@admin.register(Pairing)
class PairingAdmin(admin.ModelAdmin):
    list_display = ("id", "tournament", "round", "board", "leg", "first", "second", "game", "result", "end_adjudicated")
    list_filter = ("tournament",)
    readonly_fields = ("tournament", "round", "board", "leg", "first", "second", "game", "result", "end_adjudicated")

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("tournament", "number", "created_at", "completed_at")
    readonly_fields = ("tournament", "number", "created_at", "completed_at")

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
