from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.utils.translation import gettext_lazy as _

from maatasite.admin_readonly import ReadOnlyModelAdmin

from .forms import AdminLoginForm
from .models import OutgoingMail, User
from .selectors import users_with_bad_display_names


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
        (_("Profile"), {"fields": ("email_confirmed", "display_name", "language", "time_zone",
                                    "email_on_your_turn", "email_on_game_over")}),
    )
    add_fieldsets = (
        (None, {"classes": ("wide",), "fields": ("username", "email", "usable_password", "password1", "password2")}),
    )


@admin.register(OutgoingMail)
class OutgoingMailAdmin(ReadOnlyModelAdmin):
    """The outbox (accounts.outbox), to look at: what is waiting, retried, or why a mail ended."""
    list_display = ("pk", "kind", "user", "created_at", "due_at", "attempts", "outcome", "done_at")
    list_filter = ("kind", "outcome")
    search_fields = ("user__username", "user__email")
    list_select_related = ("user",)
    fields = ("kind", "user", "object_id", "params", "to", "created_at", "due_at", "claimed_at", "attempts",
              "last_error", "done_at", "outcome")
