"""/api/v1/account/export/ and /api/v1/account/delete/: a player's own data (privacy app).

The export is the same document as the file downloaded from the settings page. Deleting
needs the password again; afterwards every token of the account is gone (401)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import logout
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework.response import Response

from accounts.serializers import MessageSerializer
from api.base import ApiView
from api.docs import errors
from api.throttling import AuthRateThrottle, IPRateThrottle, UserRateThrottle

from . import serializers as sp
from . import services as privacy_services


class AccountExportView(ApiView):
    @extend_schema(
        tags=["me"],
        responses={200: sp.AccountExportSerializer, **errors(401, 403, 429)},
        summary="Everything the site holds about you, as one JSON document "
        "(profile, games with their moves, ratings, blocks, reports, ladders, tournaments, "
        "game messages)",
    )
    def get(self, request: Any) -> Response:
        return Response(privacy_services.account_export(user=request.user))


class AccountDeleteView(ApiView):
    # A password check: it spends the budget of the sign-in endpoints too.
    throttle_classes = [UserRateThrottle, IPRateThrottle, AuthRateThrottle]

    @extend_schema(
        tags=["me"],
        request=sp.AccountDeleteSerializer,
        responses={200: MessageSerializer, **errors(400, 401, 403, 409, 429)},
        summary="Delete your account: your running games are resigned, your data removed, "
        'your games kept under "deleted player" (403: wrong password)',
    )
    def post(self, request: Any) -> Response:
        data = sp.AccountDeleteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        privacy_services.account_delete(user=request.user, password=data.validated_data["password"])
        if request.auth is None:  # signed in with the site's session: end it too
            logout(request._request)
        return Response({"message": _("Your account is deleted. Your games stay, under the name deleted player.")})
