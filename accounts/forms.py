from typing import TYPE_CHECKING

from django import forms
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import forms as auth_forms
from django.contrib.auth.password_validation import password_validators_help_text_html
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from api.client_address import client_address_bucket

from .models import User, time_zone_choices
from .outbox import outbox_add
from .ratelimits import account_mail_spend, login_failure_record, login_failures_check, login_failures_clear

if TYPE_CHECKING:  # what the mixin is mixed into
    _LoginFormBase = auth_forms.AuthenticationForm
else:
    _LoginFormBase = object


class SignupForm(forms.Form):
    username = forms.CharField(
        label=_("Username"),
        max_length=30,
        help_text=User._meta.get_field("username").help_text,
        validators=User._meta.get_field("username").validators,
        widget=forms.TextInput(attrs={"autocomplete": "username", "autofocus": True}),
    )
    email = forms.EmailField(label=_("Email address"), widget=forms.EmailInput(attrs={"autocomplete": "email"}))
    password1 = forms.CharField(
        label=_("Password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=password_validators_help_text_html(),
    )
    password2 = forms.CharField(
        label=_("Password again"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def clean(self):
        cleaned = super().clean() or {}
        if cleaned.get("password1") and cleaned.get("password1") != cleaned.get("password2"):
            self.add_error("password2", _("The two passwords differ."))
        return cleaned


class LoginLimitMixin(_LoginFormBase):
    """Counts failed sign-ins per account and client address (accounts/ratelimits.py): over
    the budget the password is not even checked and RateLimited is raised, which the view
    answers with 429. Other addresses, the owner's among them, are not held back."""

    def clean(self):
        account = self.cleaned_data.get("username") or ""
        address = client_address_bucket(self.request) if self.request is not None else "unknown"
        login_failures_check(account=account, address=address)
        try:
            cleaned = super().clean()
        except forms.ValidationError:
            login_failure_record(account=account, address=address)
            raise
        if self.get_user() is not None:  # signed in (not merely a form without a password)
            login_failures_clear(account=account, address=address)
        return cleaned


class LoginForm(LoginLimitMixin, auth_forms.AuthenticationForm):
    """Django's login form, which also tells an unconfirmed user what to do."""

    def clean(self):
        try:
            return super().clean()
        except forms.ValidationError:
            username = self.cleaned_data.get("username")
            password = self.cleaned_data.get("password")
            user = User.objects.filter(username__iexact=username or "", email_confirmed=False).first()
            if user is not None and password and user.check_password(password):
                raise forms.ValidationError(
                    format_html(
                        '{} <a href="{}">{}</a>',
                        _("Please confirm your email address first: follow the link we mailed you."),
                        reverse("accounts:resend"),
                        _("Send the link again"),
                    ),
                    code="unconfirmed",
                ) from None
            raise


class AdminLoginForm(LoginLimitMixin, AdminAuthenticationForm):
    """The admin's login form, with the same budget of failed sign-ins as the site's."""


class ResendForm(forms.Form):
    email = forms.EmailField(label=_("Email address"))


class EmailChangeForm(forms.Form):
    new_email = forms.EmailField(
        label=_("New email address"), widget=forms.EmailInput(attrs={"autocomplete": "email", "autofocus": True})
    )
    password = forms.CharField(
        label=_("Your password"), strip=False, widget=forms.PasswordInput(attrs={"autocomplete": "current-password"})
    )


class PasswordResetForm(auth_forms.PasswordResetForm):
    """Django's form; the mail goes out through the outbox, rendered when it is sent
    (accounts.mail_kinds: the link uses SITE_URL and a token made then)."""

    def save(self, *args, **kwargs):
        """Spend the target address's mail budget first (pages and API alike), known or not."""
        account_mail_spend(email=self.cleaned_data["email"])
        return super().save(*args, **kwargs)

    def send_mail(
        self, subject_template_name, email_template_name, context, from_email, to_email, html_email_template_name=None
    ):
        outbox_add(kind="password_reset", user=context["user"], to=to_email)


class ProfileForm(forms.ModelForm):
    language = forms.ChoiceField(
        label=_("Language"),
        required=False,
        choices=[("", _("Follow my browser"))] + list(settings.LANGUAGES),
    )
    time_zone = forms.ChoiceField(label=_("Time zone"), required=False, choices=time_zone_choices)

    class Meta:
        model = User
        fields = ["display_name", "language", "time_zone", "email_on_your_turn", "email_on_game_over"]
