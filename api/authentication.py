"""Bearer authentication with personal access tokens (``Authorization: Bearer mta_...``).

The token's scopes travel on ``request.auth`` (an :class:`api.models.ApiToken`);
session authentication (the site's own pages) has every scope.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions

from . import selectors, services


class BearerTokenAuthentication(authentication.BaseAuthentication):
    keyword = "Bearer"

    def authenticate(self, request: Any) -> tuple[Any, Any] | None:
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].lower() != self.keyword.lower().encode():
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed(_("The Authorization header must be 'Bearer <token>'."))
        try:
            secret = header[1].decode("ascii")
        except UnicodeError:
            raise exceptions.AuthenticationFailed(_("This token is not valid.")) from None
        token = selectors.token_for_secret(secret=secret)
        if token is None or not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("This token is not valid or has been revoked."))
        services.token_mark_used(token=token)
        return token.user, token

    def authenticate_header(self, request: Any) -> str:
        return 'Bearer realm="api"'


class BearerTokenScheme(OpenApiAuthenticationExtension):
    target_class = "api.authentication.BearerTokenAuthentication"
    name = "bearerAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "A personal access token (`POST /api/v1/auth/token/` or "
            "`POST /api/v1/tokens/`), sent as `Authorization: Bearer <token>`. "
            "Scopes: `read` (every GET) and `play` (every other method).",
        }
