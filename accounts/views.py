from functools import wraps
from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib import admin, messages
from django.contrib.auth import REDIRECT_FIELD_NAME, login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from api.ratelimits import RateLimited, form_initial, rate_limited_page

from . import selectors, services
from .forms import AdminLoginForm, EmailChangeForm, LoginForm, PasswordResetForm, ProfileForm, ResendForm, SignupForm
from .ratelimits import page_attempt_spend

if TYPE_CHECKING:  # what the mixin is mixed into
    from django.views.generic.edit import FormView

    _FormViewBase = FormView
else:
    _FormViewBase = object


def page_budget(*, template_name, form_class):
    """A credential page's POSTs spend the client address's budget (accounts/ratelimits.py);
    any budget refusal renders the form again, unbound, with the message and 429."""

    def decorate(view):
        @wraps(view)
        def limited(request, *args, **kwargs):
            try:
                if request.method == "POST":
                    page_attempt_spend(request=request)
                return view(request, *args, **kwargs)
            except RateLimited as limit:
                form = form_class(initial=form_initial(form_class, request.POST))
                return rate_limited_page(request, limit, template_name=template_name, context={"form": form})

        return limited

    return decorate


class PageBudgetMixin(_FormViewBase):
    """``page_budget`` for Django's class-based form views (login, password reset)."""

    def post(self, request, *args, **kwargs):
        try:
            page_attempt_spend(request=request)
            return super().post(request, *args, **kwargs)
        except RateLimited as limit:
            form_kwargs = {k: v for k, v in self.get_form_kwargs().items() if k not in ("data", "files")}
            form_class = self.get_form_class()
            form = form_class(**{**form_kwargs, "initial": form_initial(form_class, request.POST)})
            return rate_limited_page(
                request, limit, template_name=self.get_template_names()[0], context=self.get_context_data(form=form)
            )


@require_http_methods(["GET", "POST"])
@page_budget(template_name="accounts/signup.html", form_class=SignupForm)
def signup(request):
    if request.user.is_authenticated:
        return redirect("games:home")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.user_signup(
                username=form.cleaned_data["username"],
                email=form.cleaned_data["email"],
                password=form.cleaned_data["password1"],
                language=request.LANGUAGE_CODE if request.LANGUAGE_CODE != "en" else "",
            )
        except ValidationError as exc:
            fields_by_code = {"username_taken": "username", "email_taken": "email"}
            field = fields_by_code.get(getattr(exc, "code", None) or "", "password1")
            form.add_error(field, exc)
        else:
            return redirect("accounts:signup_done")
    return render(request, "accounts/signup.html", {"form": form})


def signup_done(request):
    return render(request, "accounts/signup_done.html")


@require_http_methods(["GET", "POST"])
def confirm(request, token):
    """The sign-up confirmation link. GET shows a button and uses nothing (mail scanners open
    links); its POST confirms the address, once, and signs the player in. A used link says the
    address is confirmed and links to the login page, signing nobody in."""
    try:
        if request.method == "POST":
            user = services.user_confirm_email(token=token)
        else:
            user = selectors.email_confirmation_link_user(token=token)
    except ValidationError as exc:
        if exc.code == "already_confirmed":
            return render(request, "accounts/confirm.html", {"already_confirmed": True, "message": exc.messages[0]})
        return render(request, "accounts/confirm_failed.html", {"error": exc.messages[0]}, status=400)
    if request.method == "GET":
        return render(request, "accounts/confirm.html", {"player": user})
    login(request, user, backend=settings.AUTHENTICATION_BACKENDS[0])
    messages.success(request, _("Your email address is confirmed. Welcome, %(name)s!") % {"name": user.public_name})
    return redirect("accounts:profile")


@require_http_methods(["GET", "POST"])
@page_budget(template_name="accounts/resend.html", form_class=ResendForm)
def resend(request):
    form = ResendForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        services.user_confirmation_resend(email=form.cleaned_data["email"])
        messages.info(request, _("If an unconfirmed account uses that address, we have mailed it a new link."))
        return redirect("accounts:login")
    return render(request, "accounts/resend.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def profile(request):
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            services.profile_update(user=request.user, **form.cleaned_data)
        except ValidationError as exc:
            form.add_error("display_name" if (exc.code or "").startswith("display_name") else None, exc)
        else:
            messages.success(request, _("Your profile is saved."))
            return redirect("accounts:profile")
    return render(request, "accounts/profile.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def email_change(request):
    """Ask for a new address (or the failing one again): a link goes to it."""
    form = EmailChangeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.email_change_request(
                user=request.user, new_email=form.cleaned_data["new_email"], password=form.cleaned_data["password"]
            )
        except ValidationError as exc:
            form.add_error("password" if exc.code == "password" else "new_email", exc)
        else:
            messages.info(
                request,
                _("We have mailed a link to %(email)s: follow it to use that address.")
                % {"email": form.cleaned_data["new_email"]},
            )
            return redirect("accounts:profile")
    return render(request, "accounts/email_change.html", {"form": form})


@require_http_methods(["GET", "POST"])
def email_change_confirm(request, token):
    """The address-change link. GET shows a button and changes nothing; its POST makes the
    address the account's, once. No login needed: the link proves the mailbox, and it signs
    nobody in."""
    try:
        if request.method == "POST":
            services.email_change_confirm(token=token)
        else:
            new_email = selectors.email_change_link_address(token=token)
    except ValidationError as exc:
        if exc.code == "used":
            return render(request, "accounts/email_change_confirm.html", {"used": True, "message": exc.messages[0]})
        return render(request, "accounts/email_change_confirm.html", {"error": exc.messages[0]}, status=400)
    if request.method == "GET":
        return render(request, "accounts/email_change_confirm.html", {"new_email": new_email})
    messages.success(request, _("Your email address is changed."))
    return redirect("accounts:profile")


def player_detail(request, username):
    player = selectors.user_get_public(username=username)
    if player is None:
        raise Http404(_("No such player."))
    if player.username != username:
        return redirect(player, permanent=True)
    # The apps above accounts add their parts in the template, through their own tags
    # (games' finished games, ratings, staff actions): accounts imports none of them.
    return render(request, "accounts/player_detail.html", {"player": player})


class LoginView(PageBudgetMixin, auth_views.LoginView):
    template_name = "accounts/login.html"
    authentication_form = LoginForm
    redirect_authenticated_user = True


class LogoutView(auth_views.LogoutView):
    def post(self, request, *args, **kwargs):
        response = super().post(request, *args, **kwargs)
        messages.info(request, _("You are logged out. See you at the next move."))
        return response


class PasswordChangeView(auth_views.PasswordChangeView):
    template_name = "accounts/password_change.html"
    success_url = reverse_lazy("accounts:password_change_done")


class PasswordChangeDoneView(auth_views.PasswordChangeDoneView):
    template_name = "accounts/password_change_done.html"


class PasswordResetView(PageBudgetMixin, auth_views.PasswordResetView):
    template_name = "accounts/password_reset.html"
    form_class = PasswordResetForm
    email_template_name = "accounts/email/password_reset_body.txt"
    subject_template_name = "accounts/email/password_reset_subject.txt"
    success_url = reverse_lazy("accounts:password_reset_done")


class PasswordResetDoneView(auth_views.PasswordResetDoneView):
    template_name = "accounts/password_reset_done.html"


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    template_name = "accounts/password_reset_confirm.html"
    success_url = reverse_lazy("accounts:password_reset_complete")


class PasswordResetCompleteView(auth_views.PasswordResetCompleteView):
    template_name = "accounts/password_reset_complete.html"


def admin_login(request, extra_context=None):
    """``/admin/login/``: Django admin's own login view (its form is AdminLoginForm, set in
    accounts/admin.py) under the credential pages' budgets, refused like the site's pages."""
    try:
        if request.method == "POST":
            page_attempt_spend(request=request)
        return admin.site.login(request, extra_context)
    except RateLimited as limit:
        context = {
            **admin.site.each_context(request),
            "title": _("Log in"),
            "subtitle": None,
            "app_path": request.get_full_path(),
            "username": request.user.get_username(),
            "form": AdminLoginForm(request, initial=form_initial(AdminLoginForm, request.POST)),
            REDIRECT_FIELD_NAME: request.POST.get(REDIRECT_FIELD_NAME) or reverse("admin:index"),
        }
        return rate_limited_page(request, limit, template_name="admin/login.html", context=context)
