from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from maatasite.admin_readonly import ReadOnlyGenericTabularInline, ReadOnlyModelAdmin

from .forms import AdminLoginForm
from .models import OutgoingMail, StaffAction, User
from .selectors import outbox_mail_state, users_with_bad_display_names


class BadDisplayNameFilter(admin.SimpleListFilter):
    """The accounts whose display name breaks the rule (accounts.names), for staff to look at:
    names saved before the rule are never changed by the site."""

    title = _("display name")
    parameter_name = "display_name_rules"

    def lookups(self, request, model_admin):
        return [("broken", _("display name breaks the rules"))]

    def queryset(self, request, queryset):
        if self.value() == "broken":
            return queryset.filter(pk__in=users_with_bad_display_names())
        return queryset


# /admin/login/ counts failed sign-ins like the site's login (accounts/ratelimits.py).
admin.site.login_form = AdminLoginForm


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    list_display = ("username", "email", "display_name", "email_confirmed", "is_active", "is_staff", "date_joined")
    list_filter = ("email_confirmed", "is_active", "is_staff", "is_superuser", BadDisplayNameFilter)
    search_fields = ("username", "email", "display_name")
    fieldsets = (
        *(DjangoUserAdmin.fieldsets or ()),
        (
            _("Profile"),
            {
                "fields": (
                    "email_confirmed",
                    "display_name",
                    "language",
                    "time_zone",
                    "email_on_your_turn",
                    "email_on_game_over",
                )
            },
        ),
    )
    add_fieldsets = (
        (None, {"classes": ("wide",), "fields": ("username", "email", "usable_password", "password1", "password2")}),
    )


@admin.register(OutgoingMail)
class OutgoingMailAdmin(ReadOnlyModelAdmin):
    """The outbox (accounts.outbox), to look at: what is waiting, retried, or why a mail ended."""

    list_display = ("pk", "kind", "user", "created_at", "due_at", "attempts", "state", "done_at")
    list_filter = ("kind", "outcome")
    search_fields = ("user__username", "user__email")
    list_select_related = ("user",)
    fields = (
        "kind",
        "user",
        "object_id",
        "params",
        "to",
        "created_at",
        "due_at",
        "claimed_at",
        "attempts",
        "last_error",
        "done_at",
        "outcome",
        "state",
    )
    readonly_fields = ("state",)

    @admin.display(description=_("state"))
    def state(self, row: OutgoingMail) -> str:
        """Sent or why not, or still waiting: due, being sent, retried or deferred (until when)."""
        return outbox_mail_state(row, now=timezone.now())


class StaffActionInline(ReadOnlyGenericTabularInline):
    """The staff audit log's rows about the object of the page (a report, a tournament)."""

    model = StaffAction
    ct_field = "target_type"
    ct_fk_field = "target_id"
    fields = ("at", "staff", "action", "player", "reason", "details")


@admin.register(StaffAction)
class StaffActionAdmin(ReadOnlyModelAdmin):
    """The one staff audit log, read-only. Filter by kind and by the type of target; the rows
    about one target are the list's ``?target_type__id__exact=<type>&target_id=<id>``."""

    list_display = ("at", "staff", "action", "target_link", "player", "reason")
    list_filter = ("action", ("target_type", admin.RelatedOnlyFieldListFilter))
    search_fields = ("staff__username", "player__username", "reason")
    list_select_related = ("staff", "player", "target_type")
    fields = ("at", "staff", "action", "target_type", "target_id", "target_link", "player", "reason", "details")
    readonly_fields = ("target_link",)

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("target")

    @admin.display(description=_("target"))
    def target_link(self, obj: StaffAction) -> str:
        """The target, linked to its admin page when it has one; its type and id once it is gone."""
        kind = obj.target_type
        if kind is None:
            return "-"
        target = obj.target
        if target is None:
            return "%s %s" % (kind.name, obj.target_id)
        try:
            url = reverse("admin:%s_%s_change" % (kind.app_label, kind.model), args=[obj.target_id])
        except NoReverseMatch:
            return "%s: %s" % (kind.name, target)
        return format_html('<a href="{}">{}: {}</a>', url, kind.name, target)
