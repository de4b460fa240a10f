"""A game's record, for download from its page and the API, in the engine's two formats
(engine/records.py: the JSON replay record and the PGN-like text record).

Only a game that is over has a record: it carries the seed and the salt, which stay secret
until the end (games.rules.game_secret). Anyone who may see the game may download it.

Apps built on games add header tags of their own (ratings: ``<Side>Rating``; tournaments and
ladders: ``Event``) through :func:`record_tags_register`, called from their
``AppConfig.ready``: games never imports them, and a record is complete whichever apps are
installed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import UTC

from django.conf import settings
from django.db.models import Prefetch

from engine.records import GameRecord, option_tag, result_token, side_tag

from .errors import Conflict, NotFound
from .models import Game, GameStatus, Seat
from .rules import rules_for

RecordTags = Callable[[Game], Mapping[str, str]]
_TAG_PROVIDERS: list[RecordTags] = []


def record_tags_register(provider: RecordTags) -> None:
    """Add ``provider``'s tags to every record (a later provider's tag replaces an earlier one)."""
    if provider not in _TAG_PROVIDERS:
        _TAG_PROVIDERS.append(provider)


def game_record_get(*, game_id: int) -> tuple[GameRecord, str]:
    """The record of a game that is over, and its revealed salt.

    Raises NotFound for an unknown game and Conflict while it runs (its seed is secret)."""
    try:
        game = Game.objects.prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user"))).get(
            pk=game_id
        )
    except Game.DoesNotExist:
        raise NotFound("game_not_found") from None
    if game.status == GameStatus.ACTIVE or not game.revealed_seed:
        raise Conflict("record_not_ready")
    rules = rules_for(game.kind)
    seats = sorted(game.seats.all(), key=lambda seat: seat.position)
    site = settings.SITE_URL.rstrip("/")
    tags: dict[str, str] = {
        "Event": "Rated game" if game.rated else "Casual game",
        "Site": site + game.get_absolute_url(),
        "Date": game.created_at.astimezone(UTC).strftime("%Y.%m.%d"),
        "Game": game.kind,
    }
    for seat in seats:
        tags[side_tag(seat.side)] = seat.player_name
    for provider in _TAG_PROVIDERS:
        tags.update(provider(game))
    tags["Result"] = result_token(rules, game.winner_side or None, game.status == GameStatus.FINISHED)
    tags["Reason"] = game.result_reason or ("aborted" if game.status == GameStatus.ABORTED else "")
    if game.status == GameStatus.ABORTED:
        tags["Result"] = "*"
    if game.finished_at:
        tags["EndDate"] = game.finished_at.astimezone(UTC).strftime("%Y.%m.%d")
    options = rules.normalize_options(game.options)
    for option, value in options.items():
        if value is not None and value != "":
            tags[option_tag(option)] = str(value)
    tags["Seed"] = game.revealed_seed
    tags["Salt"] = game.revealed_salt
    tags["SeedCommitment"] = game.seed_commitment
    if game.data_version:
        tags["DataVersion"] = game.data_version
    moves = list(game.moves.order_by("ply").values_list("text", flat=True))
    record = GameRecord(
        game=game.kind,
        seed=int(game.revealed_seed),
        options={k: v for k, v in options.items() if isinstance(v, str | int) or v is None},
        moves=moves,
        data_version=game.data_version or None,
        tags=tags,
    )
    return record, game.revealed_salt
