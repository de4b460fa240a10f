"""/api/v1/webhooks/: a player's outbound webhook endpoints (README "Outbound webhooks").

Only the owner sees or changes an endpoint: another player's is a 404, like a missing one.
A bad or private address is a 400 (webhooks.targets), a sixth endpoint a 409."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from api.base import ApiView
from api.docs import errors

from . import selectors, services
from . import serializers as s


class EndpointsView(ApiView):
    """Your endpoints: each receives the events it asked for, POSTed and signed (README "Outbound webhooks")."""

    @extend_schema(
        tags=["webhooks"],
        responses={200: s.EndpointSerializer(many=True), **errors(401, 403, 429)},
        summary="Your webhook endpoints",
    )
    def get(self, request: Any) -> Response:
        return Response(s.EndpointSerializer(selectors.endpoints_of(user=request.user), many=True).data)

    @extend_schema(
        tags=["webhooks"],
        request=s.EndpointCreateSerializer,
        responses={201: s.EndpointCreatedSerializer, **errors(400, 401, 403, 409, 429)},
        summary="Register an https endpoint for your events (its secret is in this answer only)",
    )
    def post(self, request: Any) -> Response:
        data = s.EndpointCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        endpoint, secret = services.endpoint_create(user=request.user, **data.validated_data)
        body = {**s.EndpointSerializer(endpoint).data, "secret": secret}
        return Response(body, status=status.HTTP_201_CREATED)


class EndpointView(ApiView):
    """One of your endpoints (another player's is a 404)."""

    @extend_schema(
        tags=["webhooks"],
        responses={200: s.EndpointSerializer, **errors(401, 403, 404, 429)},
        summary="One of your webhook endpoints",
    )
    def get(self, request: Any, endpoint_id: int) -> Response:
        return Response(s.EndpointSerializer(selectors.endpoint_of(user=request.user, endpoint_id=endpoint_id)).data)

    @extend_schema(
        tags=["webhooks"],
        request=s.EndpointUpdateSerializer,
        responses={200: s.EndpointSerializer, **errors(400, 401, 403, 404, 429)},
        summary="Change the address or events, or switch the endpoint off or on",
    )
    def patch(self, request: Any, endpoint_id: int) -> Response:
        data = s.EndpointUpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        endpoint = services.endpoint_update(user=request.user, endpoint_id=endpoint_id, **data.validated_data)
        return Response(s.EndpointSerializer(endpoint).data)

    @extend_schema(
        tags=["webhooks"],
        responses={204: None, **errors(401, 403, 404, 429)},
        summary="Delete the endpoint and its delivery log",
    )
    def delete(self, request: Any, endpoint_id: int) -> Response:
        services.endpoint_delete(user=request.user, endpoint_id=endpoint_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class EndpointSecretView(ApiView):
    """The endpoint's signing secret, replaced: deliveries from now on are signed with the new one."""

    @extend_schema(
        tags=["webhooks"],
        request=None,
        responses={200: s.SecretSerializer, **errors(401, 403, 404, 429)},
        summary="Rotate the signing secret (the new one is in this answer only)",
    )
    def post(self, request: Any, endpoint_id: int) -> Response:
        _endpoint, secret = services.secret_rotate(user=request.user, endpoint_id=endpoint_id)
        return Response({"secret": secret})


class EndpointDeliveriesView(ApiView):
    """The endpoint's delivery log."""

    @extend_schema(
        tags=["webhooks"],
        responses={200: s.AttemptSerializer(many=True), **errors(401, 403, 404, 429)},
        summary="The delivery log: the endpoint's last 50 attempts, newest first",
    )
    def get(self, request: Any, endpoint_id: int) -> Response:
        endpoint = selectors.endpoint_of(user=request.user, endpoint_id=endpoint_id)
        return Response(s.AttemptSerializer(selectors.delivery_log(endpoint=endpoint), many=True).data)
