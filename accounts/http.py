"""The request of a view behind ``login_required``: its ``user`` is a signed-in accounts.User.

Annotating such views with it lets the type checker see ``request.user`` as a User, which
the services take, instead of ``User | AnonymousUser`` (django-stubs' documented way)."""

from django.http import HttpRequest

from .models import User


class AuthenticatedHttpRequest(HttpRequest):
    user: User
