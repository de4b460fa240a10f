"""Refusals of the webhooks services: games' error classes (status, code, params) with these messages."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from games.errors import Conflict, InvalidInput, NotFound

WEBHOOK_MESSAGES: dict[str, Any] = {
    "url_invalid": _("Enter a full web address, such as https://example.com/hooks/maatasite."),
    "url_not_https": _("The address must start with https://."),
    "url_credentials": _("The address may not carry a user name, a password or a #fragment."),
    "url_unresolved": _("The name %(host)s cannot be found: check the address."),
    "url_private": _(
        "%(host)s points to a private, local or reserved network address: webhooks go only to public addresses."
    ),
    "events_invalid": _("Choose at least one of the events your_turn, challenge_received, game_over and message."),
    "too_many_endpoints": _("You may register at most %(limit)s webhook addresses."),
    "endpoint_not_found": _("This webhook does not exist."),
}


class WebhookMessages:
    app_messages: Mapping[str, Any] = WEBHOOK_MESSAGES


class WebhookInvalid(WebhookMessages, InvalidInput):
    pass


class WebhookConflict(WebhookMessages, Conflict):
    pass


class WebhookNotFound(WebhookMessages, NotFound):
    pass
