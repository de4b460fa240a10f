"""The API's own endpoints: ping/, and the 404 of a path under /api/v1/ that names nothing."""

from __future__ import annotations

from typing import Any

from django.http import JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.response import Response

from .base import ApiView
from .docs import errors


class PingSerializer(serializers.Serializer):
    ok = serializers.BooleanField()


class PingView(ApiView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        tags=["meta"],
        responses={200: PingSerializer, **errors(429)},
        summary="A trivial answer (for monitoring and benchmarks)",
    )
    def get(self, request: Any) -> Response:
        return Response(PingSerializer({"ok": True}).data)


@csrf_exempt
def unknown_path(request: Any, *args: Any, **kwargs: Any) -> JsonResponse:
    """A path under /api/v1/ that names nothing: 404 in the error shape (it changes nothing,
    so it needs no CSRF check, whatever the method)."""
    return JsonResponse(
        {"code": "not_found", "message": _("Not found."), "details": {"path": request.path[:200]}}, status=404
    )
