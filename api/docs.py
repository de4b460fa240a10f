"""What every endpoint's schema shares: the error shape, the error responses by status, and
the headers of idempotent writes and conditional reads. Each app's endpoints import these."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="A stable machine-readable code, e.g. `stale_ply`, `illegal_move`.")
    message = serializers.CharField(help_text="A human-readable message in the caller's language.")
    details = serializers.DictField(
        help_text="Parameters of the error; for `stale_ply`, `game` holds "
        "the current game; for `invalid`, `fields` lists field errors."
    )


ERRORS = {
    code: OpenApiResponse(ErrorSerializer, description=text)
    for code, text in {
        400: "Bad input, or an illegal move (with the engine's message).",
        401: "Not signed in, or the token is not valid.",
        403: "Not allowed (not your game, not your turn, token lacks the scope).",
        404: "Unknown game, challenge, player or token.",
        409: "Conflict: a stale ply (`details.game` holds the current game), a game that is over.",
        422: "The Idempotency-Key was used with a different request.",
        429: "Too many requests: wait the Retry-After header's seconds.",
    }.items()
}


def errors(*codes: int) -> dict[int, OpenApiResponse]:
    """The documented error responses of an endpoint, by status code."""
    return {code: ERRORS[code] for code in codes}


IDEMPOTENCY = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description="Any unique string (e.g. a UUID): a repeat with the same key returns the first answer "
    "(header `Idempotent-Replayed: true`) and changes nothing.",
)
CONDITIONAL = [
    OpenApiParameter(
        "If-None-Match",
        OpenApiTypes.STR,
        OpenApiParameter.HEADER,
        required=False,
        description="The ETag of your copy: 304 when it is still current.",
    ),
]
NOT_MODIFIED = {304: OpenApiResponse(description="Not modified: your copy is current.")}
