"""Staff's fair-play checks: request one, saying why (the add form calls
``fairplay.services.fairplay_check_request``, which writes the staff audit log), see
the player's share of the bot's first choices beside honest players of similar
rating, and each game behind it.

Checks are read-only once requested: a task fills them in. They are a signal for
staff, not proof; nothing acts on a player because of them.
"""

from django import forms
from django.conf import settings
from django.contrib import admin
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from maatasite.admin_readonly import ReadOnlyTabularInline

from . import services
from .models import FairPlayCheck, FairPlayCheckGame, GameAgreement

SIGNAL_NOTE = _(
    "How often a player chose the strongest bot's first choice, beside honest players "
    "of similar rating. This is a signal for staff to look closer, not proof of "
    "cheating: no action is ever taken automatically."
)


def share_text(matches: int, decisions: int) -> str:
    """ "62.5 % (25 of 40)", or a dash when no decision was counted."""
    if not decisions:
        return "-"
    return gettext("%(share).1f %% (%(matches)d of %(decisions)d)") % {
        "share": 100.0 * matches / decisions,
        "matches": matches,
        "decisions": decisions,
    }


def rating_text(rating: float | None) -> str:
    return "-" if rating is None else "%d" % round(rating)


class FairPlayCheckForm(forms.ModelForm):
    games_limit = forms.IntegerField(
        label=_("recent games"),
        min_value=1,
        max_value=settings.FAIRPLAY_MAX_GAMES,
        initial=settings.FAIRPLAY_DEFAULT_GAMES,
        help_text=_("How many of the player's latest finished rated games to read."),
    )
    reason = forms.CharField(label=_("Why"), widget=forms.Textarea(attrs={"rows": 3}))

    class Meta:
        model = FairPlayCheck
        fields = ("player", "kind", "games_limit")


class _CheckGameInline(ReadOnlyTabularInline):
    model = FairPlayCheckGame
    fk_name = "fairplay_check"
    reference = False

    def get_queryset(self, request):
        return super().get_queryset(request).filter(reference=self.reference).select_related("game", "player")

    @admin.display(description=_("game"))
    def game_link(self, row):
        return format_html('<a href="{}">{}</a>', row.game.get_absolute_url(), row.game)

    @admin.display(description=_("bot's first choice"))
    def agreement(self, row):
        return share_text(row.matches, row.decisions)

    @admin.display(description=_("rating before"))
    def rating(self, row):
        return rating_text(row.rating_before)


class PlayerGameInline(_CheckGameInline):
    fields = ("game_link", "side", "rating", "agreement")
    verbose_name = _("game of the player")
    verbose_name_plural = _("games of the player")


class ReferenceGameInline(_CheckGameInline):
    reference = True
    fields = ("game_link", "player", "side", "rating", "agreement")
    verbose_name = _("game of a reference player")
    verbose_name_plural = _("games of the reference players")


DETAIL_FIELDS = (
    "player",
    "kind",
    "games_limit",
    "bot_level",
    "bot_version",
    "status",
    "requested_by",
    "requested_at",
    "started_at",
    "finished_at",
    "rating",
    "player_agreement",
    "reference_agreement",
    "reference_players",
    "error",
)


@admin.register(FairPlayCheck)
class FairPlayCheckAdmin(admin.ModelAdmin):
    form = FairPlayCheckForm
    change_list_template = "fairplay/admin/change_list.html"
    list_display = (
        "requested_at",
        "player",
        "kind",
        "player_agreement",
        "reference_agreement",
        "status",
        "requested_by",
    )
    list_filter = ("status", "kind")
    search_fields = ("player__username",)
    autocomplete_fields = ("player",)
    list_select_related = ("player", "requested_by")

    def get_fieldsets(self, request, obj=None):
        fields = ("player", "kind", "games_limit", "reason") if obj is None else DETAIL_FIELDS
        return [(None, {"fields": fields, "description": SIGNAL_NOTE})]

    def get_readonly_fields(self, request, obj=None):
        return () if obj is None else DETAIL_FIELDS

    def get_inlines(self, request, obj):
        return [] if obj is None else [PlayerGameInline, ReferenceGameInline]

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False  # who checked whom, and what it found, stays on record

    def changelist_view(self, request, extra_context=None):
        return super().changelist_view(request, {**(extra_context or {}), "signal_note": SIGNAL_NOTE})

    def save_model(self, request, obj, form, change):
        """Requests go through the service (which enqueues the task), never a bare save."""
        check = services.fairplay_check_request(
            staff=request.user,
            player=form.cleaned_data["player"],
            kind=form.cleaned_data["kind"],
            reason=form.cleaned_data["reason"],
            games=form.cleaned_data["games_limit"],
        )
        obj.pk = check.pk
        obj.refresh_from_db()

    @admin.display(description=_("player's rating"))
    def rating(self, check):
        return rating_text(check.player_rating)

    @admin.display(description=_("player's agreement"))
    def player_agreement(self, check):
        return share_text(check.matches, check.decisions)

    @admin.display(description=_("honest players of similar rating"))
    def reference_agreement(self, check):
        return share_text(check.reference_matches, check.reference_decisions)


@admin.register(GameAgreement)
class GameAgreementAdmin(admin.ModelAdmin):
    """The cache of per-game figures, to look at (and delete, to have one recomputed)."""

    list_display = ("game", "side", "user", "bot_level", "bot_version", "decisions", "matches", "computed_at")
    list_filter = ("bot_level", "bot_version")
    search_fields = ("user__username",)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
