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
from dataclasses import dataclass
from datetime import UTC
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Prefetch

from engine import GameState
from engine.records import GameRecord, RecordError, option_tag, record_read, record_states, result_token, side_tag

from .errors import Conflict, InvalidInput, NotFound
from .models import Game, GameStatus, ImportedRecord, Seat
from .rules import LegalMove, move_of_text, rules_for

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


# ---------------------------------------------------------------- imported records

IMPORT_MAX_CHARS = 200_000
"""An imported record's largest size (a Maatatahay game of 200 decisions is about 8 KB)."""
IMPORTS_KEPT = 100
"""Each player keeps their latest imports; an older one goes when a new one comes."""


@dataclass(frozen=True)
class ImportedPosition:
    """One position of an imported record, as the analysis board shows it: the public view of
    the state after ``ply`` decisions, and the decision that led there."""

    imported: ImportedRecord
    record: GameRecord
    ply: int
    view: dict[str, Any]
    last: LegalMove | None


def _checked(text: str, *, upto: int | None = None) -> tuple[GameRecord, list[GameState]]:
    """The record and its states (up to ``upto`` decisions), or InvalidInput naming the line."""
    if len(text) > IMPORT_MAX_CHARS:
        raise InvalidInput("record_too_long", limit=IMPORT_MAX_CHARS)
    try:
        record = record_read(text)
        return record, record_states(record, upto=upto)
    except RecordError as error:
        raise InvalidInput(
            "record_invalid_line" if error.line else "record_invalid", line=error.line, problem=error.message
        ) from None


def record_import(*, owner: Any, text: str) -> ImportedRecord:
    """Check ``text`` (either record format) with the engine and keep it for ``owner``'s
    analysis board. Raises InvalidInput naming the line of a malformed record or illegal move."""
    record, states = _checked(text)
    with transaction.atomic():
        imported = ImportedRecord.objects.create(owner=owner, kind=record.game, text=text, plies=len(states) - 1)
        stale = ImportedRecord.objects.filter(owner=owner).order_by("-created_at", "-pk")[IMPORTS_KEPT:]
        ImportedRecord.objects.filter(pk__in=list(stale.values_list("pk", flat=True))).delete()
    return imported


def imported_record_position(*, record_id: int, owner: Any, ply: int | None = None) -> ImportedPosition:
    """The position after ``ply`` decisions (the last one by default) of ``owner``'s import.
    Raises NotFound for an unknown record or someone else's."""
    imported = ImportedRecord.objects.filter(pk=record_id, owner_id=getattr(owner, "pk", None)).first()
    if imported is None:
        raise NotFound("record_not_found")
    # Checked whole when imported: replay only as far as the position shown.
    shown = imported.plies if ply is None else max(0, min(ply, imported.plies))
    record, states = _checked(imported.text, upto=shown)
    rules = rules_for(record.game)
    last = None
    if shown:
        last = move_of_text(kind=record.game, state=states[shown - 1], text=record.moves[shown - 1])
    return ImportedPosition(
        imported=imported, record=record, ply=shown, view=rules.view(states[shown], None), last=last
    )


def imported_records_of(*, owner: Any, limit: int = 20) -> list[ImportedRecord]:
    """``owner``'s latest imports, newest first (without their texts)."""
    return list(ImportedRecord.objects.filter(owner=owner).defer("text").order_by("-created_at", "-pk")[:limit])
