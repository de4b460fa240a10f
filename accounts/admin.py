from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.utils.translation import gettext_lazy as _

from .forms import AdminLoginForm
from .models import User

# /admin/login/ counts failed sign-ins like the site's login (accounts/ratelimits.py).
admin.site.login_form = AdminLoginForm


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    list_display = ("username", "email", "display_name", "email_confirmed", "is_active", "is_staff", "date_joined")
    list_filter = ("email_confirmed", "is_active", "is_staff", "is_superuser")
    search_fields = ("username", "email", "display_name")
    fieldsets = DjangoUserAdmin.fieldsets + (
        (_("Profile"), {"fields": ("email_confirmed", "display_name", "language", "time_zone",
                                    "email_on_your_turn", "email_on_game_over")}),
    )
    add_fieldsets = (
        (None, {"classes": ("wide",), "fields": ("username", "email", "usable_password", "password1", "password2")}),
    )
