"""What the API holds about a user (registered in maatasite.personal_data; privacy runs
it): their tokens and the stored answers of their idempotent writes, deleted with the
account. Neither is part of the export."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from maatasite.personal_data import ErasePhase, EraseStep, PersonalData, registry

from .models import ApiToken, IdempotencyRecord

if TYPE_CHECKING:
    from django.contrib.auth.models import _User as User  # settings.AUTH_USER_MODEL (api is below accounts)


def _tokens_delete(user: User, now: datetime) -> None:
    ApiToken.objects.filter(user=user).delete()
    IdempotencyRecord.objects.filter(user=user).delete()


def register() -> None:
    registry.register(
        PersonalData(
            app="api",
            models={"api.ApiToken": "deleted", "api.IdempotencyRecord": "deleted"},
            erase=(EraseStep(name="api.tokens", phase=ErasePhase.REMAINDER, run=_tokens_delete),),
        )
    )
