"""The picture of a position for mail: one SVG drawn from a player's own view, then a palette PNG,
stored once per game, ply and player (``MailPicture``) for the mail sweep to read.

``picture_svg`` lays out, turned to the viewer (their side at the bottom), the board of
games.boards with the last move marked, and what a decision depends on:

- Onitama: the opponent's hand above the board, the viewer's below, the side card beside
  the hand of the player to move (the cards of games.boards.onitama, as on the page);
- Maatatahay: below the map, the Spirit Track, each tribe's storage, relics and score, the
  Tile Stream (its face-up pairs) and the picked pair.

It reads only the ``view`` the engine gives one player (``rules.view``), never the game's
state: what that view hides (the bag's order, face-down piles, the seed) cannot be drawn.
The bag is left out even as counts: the picture shows what a move depends on.

``position_png`` rasterises it with CairoSVG and quantises it with Pillow to a palette
PNG of at most 64 colours: the boards are flat colours, so a picture stays far under
20 KB (a full-colour PNG of the same board is about 40 KB).

Storage: ``mail_pictures_render`` (the task of the same name, enqueued after commit by the
``games.signals.position_changed`` and ``game_finished`` receivers) draws the current position
for each player of the game who gets mail, once, and replaces that player's previous picture,
so a game keeps one picture per player (about 10 KB each). The outbox's renderers read them
in one query per batch (``mail_pictures_for``); one missing or out of date (its task not run
yet, the player changed language) is drawn and stored then. ``mail_pictures_purge`` deletes
the pictures of games over for more than a day (their game-over mail has gone).
"""

from __future__ import annotations

import io
import json
import re
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import cairosvg
from django.conf import settings
from django.db import connection
from django.db.models import Count, Prefetch, Sum
from django.utils import timezone, translation
from django.utils.html import escape
from django.utils.translation import gettext as _
from PIL import Image

import engine
from games.boards import board_svg
from games.boards import maatatahay as maatatahay_board
from games.boards import onitama as onitama_board
from games.labels import side_label
from games.models import Game, GameStatus, Move, Seat
from games.rules import game_state
from games.sealing import seal, unseal
from games.selectors import last_move_of

from .models import MailPicture
from .turn_text import TurnParts, turn_parts

WIDTH = 400  # pixels of the PNG: fits a phone's mail view
COLOURS = 64  # the palette: flat boards need few

_SVG_OPEN = re.compile(r"^<svg ")


def _nested(svg: str, *, x: float, y: float, width: float, height: float) -> str:
    """``svg`` (a root element with a viewBox) placed as a nested SVG at x, y in width x height."""
    return _SVG_OPEN.sub('<svg x="%.1f" y="%.1f" width="%.1f" height="%.1f" ' % (x, y, width, height), svg, count=1)


def _strip_size(svg: str) -> str:
    """A card's own width and height removed, so that ``_nested`` sets them."""
    return re.sub(r'^(<svg[^>]*?) width="\d+" height="\d+"', r"\1", svg, count=1)


def _text(x: float, y: float, text: str, *, size: int = 14, anchor: str = "start", colour: str = "#222") -> str:
    return '<text x="%.1f" y="%.1f" font-family="sans-serif" font-size="%d" text-anchor="%s" fill="%s">%s</text>' % (
        x,
        y,
        size,
        anchor,
        colour,
        escape(text),
    )


def _document(width: float, height: float, body: Sequence[str]) -> str:
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %.0f %.0f" width="%.0f" height="%.0f">'
        '<rect width="100%%" height="100%%" fill="#ffffff"/>%s</svg>' % (width, height, width, height, "".join(body))
    )


# ---------------------------------------------------------------- Onitama


def _onitama(view: dict[str, Any], flip: bool, last: Sequence[str]) -> str:
    red, blue = onitama_board.RED, onitama_board.BLUE
    top, bottom = (red, blue) if flip else (blue, red)
    cards = view.get("cards", {})
    card_w, card_h, gap = 86, 104, 8
    board_w, board_h = 322, 326  # the board's viewBox
    width = board_w
    parts: list[str] = []
    y = 0.0

    def hand(colour: str, y: float) -> None:
        mover = view.get("to_move") == colour
        label = side_label(colour) + (" ●" if mover else "")
        parts.append(_text(4, y + 14, label, size=14, colour=onitama_board.COLOURS[colour][0]))
        x = 4.0
        for name in view.get("hands", {}).get(colour, []):
            svg = onitama_board.card_svg(name, cards.get(name, {}), holder=colour, flip=flip)
            parts.append(_nested(_strip_size(svg), x=x, y=y + 20, width=card_w, height=card_h))
            x += card_w + gap
        side = view.get("side")
        if side and (mover or (view.get("to_move") not in (red, blue) and colour == top)):
            x += 2 * gap
            parts.append(_text(x, y + 14, "↔ " + side.replace("_", " "), size=12, colour="#555"))
            svg = onitama_board.card_svg(side, cards.get(side, {}), holder=colour, flip=flip)
            parts.append(
                '<g opacity="0.85">%s</g>' % _nested(_strip_size(svg), x=x, y=y + 20, width=card_w, height=card_h)
            )

    hand(top, y)
    y += card_h + 26
    parts.append(
        _nested(
            str(board_svg("onitama", view, flip=flip, last=last)).replace(
                'class="space last-move"', 'class="space last-move" style="fill:#f2d55c"'
            ),
            x=0,
            y=y,
            width=board_w,
            height=board_h,
        )
    )
    y += board_h + 4
    hand(bottom, y)
    y += card_h + 26
    return _document(width, y, parts)


# ---------------------------------------------------------------- Maatatahay


def _diamond(x: float, y: float, colour: str, size: float = 6) -> str:
    return '<path d="M%.1f %.1f l%.1f %.1f l-%.1f %.1f l-%.1f -%.1f z" fill="%s" stroke="#333" stroke-width="0.8"/>' % (
        x,
        y - size,
        size,
        size,
        size,
        size,
        size,
        size,
        colour,
    )


def _mini_tile(x: float, y: float, name: str, tribe: str, data: dict[str, Any]) -> str:
    info = data.get("tiles", {}).get(name, {})
    stroke, fill = maatatahay_board.TRIBE.get(tribe, maatatahay_board.TRIBE[maatatahay_board.BALAN])
    return (
        '<rect x="%.1f" y="%.1f" width="88" height="34" rx="5" fill="%s" stroke="%s" stroke-width="2"/>'
        % (x, y, fill, stroke)
        + _text(x + 44, y + 14, maatatahay_board.tile_label(name), size=11, anchor="middle")
        + _text(x + 44, y + 29, "⚔%s ◆%s" % (info.get("claws", 0), info.get("sanity", 0)), size=11, anchor="middle")
    )


def _maatatahay(view: dict[str, Any], flip: bool, last: Sequence[str]) -> str:
    mb = maatatahay_board
    data = mb.component_table(view)
    board_w, board_h = 422, 428
    width = board_w
    parts = [
        _nested(
            str(board_svg("maatatahay", view, flip=flip, last=last)).replace(
                'class="space last-move"', 'class="space last-move" style="fill:#f2d55c"'
            ),
            x=0,
            y=0,
            width=board_w,
            height=board_h,
        )
    ]
    y = board_h + 8.0
    # Spirit Track
    limit = int(data.get("spirit_track", 6))
    track = int(view.get("track", 0))
    parts.append(_text(4, y + 14, _("Spirit Track"), size=12))
    for i in range(max(limit, track)):
        cx = 100 + i * 24
        parts.append(
            '<circle cx="%d" cy="%.1f" r="9" fill="%s" stroke="%s" stroke-width="1.5"/>'
            % (cx, y + 9, mb.SPIRIT if i < track else "#ffffff", mb.SPIRIT)
        )
    parts.append(_text(92 + max(limit, track) * 24, y + 14, "%d/%d" % (track, limit), size=13))
    y += 26
    # One line per tribe: the opponent's on top, as on the board
    top, bottom = (mb.BALAN, mb.WAZU) if flip else (mb.WAZU, mb.BALAN)
    taken = view.get("taken", [])
    scores = view.get("scores") or {}
    for tribe in (top, bottom):
        stroke = mb.TRIBE.get(tribe, mb.TRIBE[mb.BALAN])[0]
        storage = view.get("storage", {}).get(tribe, {})
        label = side_label(tribe) + (" ●" if view.get("to_move") == tribe else "")
        parts.append(_text(4, y + 14, label, size=14, colour=stroke))
        x = 110.0
        if tribe in scores:
            parts.append(_text(x, y + 14, "%s" % scores[tribe], size=14, colour=stroke))
        x += 34
        for colour, count in ((mb.ENERGY, storage.get("energy", 0)), (mb.SPIRIT, storage.get("spirit", 0))):
            parts.append(_diamond(x + 6, y + 9, colour))
            parts.append(_text(x + 16, y + 14, str(count), size=14))
            x += 44
        relics = [i + 1 for i, t in enumerate(taken) if t.get("tribe") == tribe]
        for order in relics:
            parts.append(
                '<path d="M%.1f %.1f l10 -12 l10 12 z" fill="#c9a227" stroke="#5a4a1a"/>' % (x, y + 16)
                + _text(x + 22, y + 14, str(order), size=11)
            )
            x += 34
        y += 24
    # Tile Stream: each pair, Wazu's tile then Balan's, and the picked pair
    stream = list(view.get("stream", []))
    pair = view.get("pair")
    rows = [(p, False) for p in stream] + ([(pair, True)] if pair else [])
    y += 4
    for index, (p, picked) in enumerate(rows):
        column, row = index % 2, index // 2
        x = 4 + column * 208
        ty = y + row * 40
        if picked:
            parts.append(
                '<rect x="%.1f" y="%.1f" width="200" height="38" fill="none" stroke="#e76f51" '
                'stroke-width="2" stroke-dasharray="5 3"/>' % (x - 2, ty - 2)
            )
        parts.append(_mini_tile(x, ty, p.get(mb.WAZU, ""), mb.WAZU, data))
        parts.append(_mini_tile(x + 96, ty, p.get(mb.BALAN, ""), mb.BALAN, data))
    y += ((len(rows) + 1) // 2) * 40 + 4
    return _document(width, y, parts)


# ---------------------------------------------------------------- the picture


def picture_svg(*, kind: str, view: dict[str, Any], flip: bool = False, last: Sequence[str] = ()) -> str:
    """The whole picture of ``view`` as one SVG document (see the module docstring)."""
    if kind == "onitama":
        return _onitama(view, flip, last)
    return _maatatahay(view, flip, last)


def png_palette(png: bytes, *, colours: int = COLOURS) -> bytes:
    """``png`` quantised to a palette of at most ``colours`` colours (PNG mode P)."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    # Fast octree: a third of median cut's time on these flat boards, at the same size.
    quantised = image.quantize(colors=colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    quantised.save(out, format="PNG", compress_level=9)
    return out.getvalue()


def position_png(
    *, kind: str, view: dict[str, Any], flip: bool = False, last: Sequence[str] = (), width: int = WIDTH
) -> bytes:
    """The picture of ``view`` as a palette PNG ``width`` pixels wide on a white ground."""
    svg = picture_svg(kind=kind, view=view, flip=flip, last=last)
    return png_palette(cairosvg.svg2png(bytestring=svg.encode("utf-8"), output_width=width, background_color="white"))


# ---------------------------------------------------------------- one player's picture of a game


def player_view(game: Game, seat: Seat | None, state: Any = None) -> dict[str, Any]:
    """What ``seat``'s player may see of the game (the public view; everything once it is over)."""
    rules = engine.get_game(game.kind)
    side = seat.side if seat is not None else rules.players[0]
    return rules.view(state if state is not None else game_state(game), side)


def picture_language(user: Any) -> str:
    return user.language or settings.LANGUAGE_CODE


def picture_is_current(picture: MailPicture, *, game: Game, user: Any) -> bool:
    """Whether a stored picture shows the game as it is now, in the player's language."""
    return (
        picture.ply == game.ply
        and picture.finished == (game.status != GameStatus.ACTIVE)
        and picture.language == picture_language(user)
    )


def game_png(game: Game, seat: Seat, *, last: Sequence[str] = (), state: Any = None) -> bytes:
    """Draw the picture of the game's current position as ``seat``'s player sees it:
    their own view, turned to them (the second seat sees the board turned), in their language."""
    view = player_view(game, seat, state)
    language = picture_language(seat.user) if seat.user is not None else settings.LANGUAGE_CODE
    with translation.override(language):
        return position_png(kind=game.kind, view=view, flip=seat.position == 1, last=last)


@dataclass
class PicturesRendered:
    pngs: dict[tuple[int, int], bytes] = field(default_factory=dict)  # (game id, user id): current picture
    # (game id, user id of the player to move): the turn section of their "your turn" mail
    turns: dict[tuple[int, int], TurnParts] = field(default_factory=dict)
    rendered: int = 0
    milliseconds: float = 0.0  # drawing them, in all


def _mail_players(game: Game) -> dict[int, Seat]:
    """The seats of the players who may get mail about the game, by user id."""
    return {seat.user.pk: seat for seat in game.seats.all() if seat.user is not None and seat.user.email}


def mail_pictures_for(
    games: Iterable[Game], *, pairs: Iterable[tuple[int, int]] | None = None
) -> dict[tuple[int, int], MailPicture]:
    """The stored pictures of ``games`` (seats and users loaded), by (game id, user id), in one
    query: only the current ones; with ``pairs`` ((game id, user id)), only those pictures
    (a reminder needs its recipient's picture, not the opponent's)."""
    games = list(games)
    if not games:
        return {}
    by_id = {game.pk: game for game in games}
    users = {seat.user_id: seat.user for game in games for seat in game.seats.all() if seat.user_id}
    current = {}
    stored = MailPicture.objects.filter(game_id__in=list(by_id))
    wanted = sorted({(int(game_id), int(user_id)) for game_id, user_id in pairs or ()})
    if pairs is not None and wanted:
        columns = {
            field.name: connection.ops.quote_name(str(field.column)) for field in MailPicture._meta.concrete_fields
        }
        game_column, user_column = columns["game"], columns["user"]
        stored = stored.extra(  # noqa: S610  # row values: ((game, user), ...) as bound parameters
            where=["(%s, %s) IN (%s)" % (game_column, user_column, ", ".join(["(%s, %s)"] * len(wanted)))],
            params=[value for pair in wanted for value in pair],
        )
    for picture in stored:
        game, user = by_id[picture.game_id], users.get(picture.user_id)
        if user is not None and picture_is_current(picture, game=game, user=user):
            current[(picture.game_id, picture.user_id)] = picture
    return current


def mail_pictures_store(
    *,
    wanted: Sequence[tuple[Game, Iterable[int]]],
    now: datetime | None = None,
    turns: Iterable[tuple[int, int]] | None = None,
) -> PicturesRendered:
    """The current pictures of ``wanted`` (each a game, seats and users loaded, with the ids of
    the players whose picture is asked), drawing and storing those missing or out of date
    (idempotent: a second run draws nothing). Constant queries for any number of games: the
    stored pictures, then for what is drawn the games' moves (the last one is marked), the
    games' plies again, and one upsert of those whose game has not moved on. Nothing is
    locked: the drawing (tens of milliseconds) never holds up a move.

    The picture of the player to move is drawn with their turn section (turn_text). ``turns``
    ((game id, user id)): whose turn section is wanted (default: every player to move asked
    for); a stored picture without one (stored before turn sections were) is drawn again
    only for them, not for a reminder."""
    now = now or timezone.now()
    result = PicturesRendered()
    turns_wanted = None if turns is None else set(turns)
    merged: dict[int, tuple[Game, list[int]]] = {}
    for game, user_ids in wanted:
        merged.setdefault(game.pk, (game, []))[1].extend(user_ids)
    stored = mail_pictures_for(
        (game for game, _users in merged.values()),
        pairs=[(game.pk, user_id) for game, user_ids in merged.values() for user_id in user_ids],
    )
    todo: list[tuple[Game, list[tuple[int, Seat]]]] = []
    for game, user_ids in merged.values():
        players = _mail_players(game)
        need: list[tuple[int, Seat]] = []
        for user_id in dict.fromkeys(user_ids):
            picture = stored.get((game.pk, user_id))
            turn_wanted = _is_to_move(game, user_id) and (turns_wanted is None or (game.pk, user_id) in turns_wanted)
            if picture is not None and (picture.sealed_turn or not turn_wanted):
                result.pngs[(game.pk, user_id)] = bytes(picture.png)
                if picture.sealed_turn and turn_wanted:  # (a reminder does not open it)
                    parts = json.loads(unseal(picture.sealed_turn, purpose="mail_turn"))
                    result.turns[(game.pk, user_id)] = TurnParts.from_dict(parts)
            elif user_id in players:  # missing, out of date, or stored before turn sections were
                need.append((user_id, players[user_id]))
        if need:
            todo.append((game, need))
    if not todo:
        return result
    started = time.perf_counter()
    # the games read without their sealed state and seed (the mail sweep's, alarms_load): one query
    unsealed = [game for game, _n in todo if "sealed_state" in game.get_deferred_fields()]
    if unsealed:
        sealed = {
            pk: (state, seed)
            for pk, state, seed in Game.objects.filter(pk__in=[game.pk for game in unsealed]).values_list(
                "pk", "sealed_state", "sealed_seed"
            )
        }
        for game in unsealed:
            game.sealed_state, game.sealed_seed = sealed.get(game.pk, ("", ""))
    moves: dict[int, list[Move]] = {}
    for move in (
        Move.objects.filter(game_id__in=[game.pk for game, _n in todo])
        .select_related("seat__user")
        .order_by("game_id", "ply")
    ):
        moves.setdefault(move.game_id, []).append(move)
    rows, drawn_at = [], {}
    for game, need in todo:
        last = last_move_of(game=game, moves=moves.get(game.pk, []))
        state = game_state(game)
        drawn_at[game.pk] = (game.ply, game.status)
        for user_id, seat in need:
            begun = time.perf_counter()
            language = picture_language(seat.user)
            png = game_png(game, seat, last=last.squares if last is not None else (), state=state)
            sealed_turn = ""
            if _is_to_move(game, user_id):
                with translation.override(language):
                    parts = turn_parts(game, user_id, moves.get(game.pk, []), state=state)
                sealed_turn = seal(json.dumps(parts.as_dict()), purpose="mail_turn")
                result.turns[(game.pk, user_id)] = parts
            rows.append(
                MailPicture(
                    game_id=game.pk,
                    user_id=user_id,
                    ply=game.ply,
                    finished=game.status != GameStatus.ACTIVE,
                    language=language,
                    png=png,
                    size=len(png),
                    render_ms=round((time.perf_counter() - begun) * 1000),
                    rendered_at=now,
                    sealed_turn=sealed_turn,
                )
            )
            result.pngs[(game.pk, user_id)] = png
    result.rendered = len(rows)
    result.milliseconds = (time.perf_counter() - started) * 1000
    # Not stored for a game that moved on meanwhile (the newer position's task draws that one).
    # No row lock: should a move slip in after this read, the picture stored is of the older
    # ply, which ``picture_is_current`` never takes for the newer position.
    current = {
        pk: (ply, status)
        for pk, ply, status in Game.objects.filter(pk__in=list(drawn_at)).values_list("pk", "ply", "status")
    }
    keep = [row for row in rows if current.get(row.game_id) == drawn_at[row.game_id]]
    if keep:
        MailPicture.objects.bulk_create(
            keep,
            update_conflicts=True,
            unique_fields=["game", "user"],
            update_fields=["ply", "finished", "language", "png", "size", "render_ms", "rendered_at", "sealed_turn"],
        )
    return result


def _is_to_move(game: Game, user_id: int) -> bool:
    """Whether ``user_id`` decides next in the running game (their picture carries the turn section)."""
    return game.status == GameStatus.ACTIVE and game.to_move_user_id == user_id


def mail_pictures_render(*, game_id: int, now: datetime | None = None) -> PicturesRendered:
    """Draw and store the picture of the game's current position for each of its players
    who gets mail and has no current one (the task after each move)."""
    game = (
        Game.objects.filter(pk=game_id)
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .first()
    )
    if game is None:
        return PicturesRendered()
    return mail_pictures_store(wanted=[(game, list(_mail_players(game)))], now=now)


def mail_pictures_purge(*, now: datetime | None = None) -> int:
    """Delete the pictures of games over for more than a day (their game-over mail went out)."""
    now = now or timezone.now()
    return MailPicture.objects.filter(
        game__finished_at__lt=now - timedelta(days=1), game__status__in=[GameStatus.FINISHED, GameStatus.ABORTED]
    ).delete()[0]


def mail_pictures_storage() -> dict[str, float]:
    """What the stored pictures of running games take: pictures, bytes, bytes per game."""
    running = MailPicture.objects.filter(game__status=GameStatus.ACTIVE).aggregate(
        pictures=Count("pk"), games=Count("game_id", distinct=True), bytes=Sum("size")
    )
    games, size = running["games"] or 0, running["bytes"] or 0
    return {
        "running_games": games,
        "pictures": running["pictures"] or 0,
        "bytes": size,
        "bytes_per_running_game": size / games if games else 0.0,
    }


def mail_pictures_attach(wanted: Iterable[tuple[Game, int]], *, turns: Iterable[tuple[int, int]] = ()) -> None:
    """Give each game of ``wanted`` (pairs of a game, seats and users loaded, and the user a
    mail about it goes to) its current pictures as ``game.mail_pictures`` ({user id: PNG}),
    and the turn sections stored for the player to move as ``game.mail_turns`` ({user id:
    TurnParts}; ``turns``, (game id, user id): those that must be there, written when missing):
    the stored ones in one query, those missing drawn and stored now (``mail_pictures_store``)."""
    pairs = list(wanted)
    found = mail_pictures_store(wanted=[(game, [user_id]) for game, user_id in pairs], turns=turns)
    by_game: dict[int, dict[int, bytes]] = {}
    turns_by_game: dict[int, dict[int, TurnParts]] = {}
    for (game_id, user_id), png in found.pngs.items():
        by_game.setdefault(game_id, {})[user_id] = png
    for (game_id, user_id), parts in found.turns.items():
        turns_by_game.setdefault(game_id, {})[user_id] = parts
    for game, _user_id in pairs:
        game.mail_pictures = by_game.setdefault(game.pk, {})  # type: ignore[attr-defined]
        game.mail_turns = turns_by_game.setdefault(game.pk, {})  # type: ignore[attr-defined]


def mail_picture(game: Game, seat: Seat | None) -> bytes:
    """The picture of the game as ``seat``'s player sees it, for a mail: the one
    ``mail_pictures_attach`` gave the game, else the stored one, drawn and stored when missing."""
    if seat is None or seat.user_id is None:  # not a player's mail: drawn, never stored
        rules = engine.get_game(game.kind)
        first = next((s for s in game.seats.all() if s.side == rules.players[0]), None)
        return game_png(game, first) if first is not None else b""
    user_id: int = seat.user_id
    pngs: dict[int, bytes] | None = getattr(game, "mail_pictures", None)
    if pngs is None or user_id not in pngs:
        mail_pictures_attach([(game, user_id)])
        pngs = game.mail_pictures  # type: ignore[attr-defined]
    if user_id not in pngs:  # a player without an address of their own: drawn, not stored
        pngs[user_id] = game_png(game, seat)
    return pngs[user_id]


def mail_turn(game: Game, user_id: int) -> TurnParts:
    """The turn section of ``user_id``'s "your turn" mail about the game (they are to move):
    the one ``mail_pictures_attach`` gave the game, else the stored one, written and stored
    with their picture when missing; written now, unstored, for a player who gets no
    picture of their own."""
    turns: dict[int, TurnParts] | None = getattr(game, "mail_turns", None)
    if turns is None or user_id not in turns:
        mail_pictures_attach([(game, user_id)], turns=[(game.pk, user_id)])
        turns = game.mail_turns  # type: ignore[attr-defined]
    if user_id not in turns:
        moves = list(Move.objects.filter(game_id=game.pk).select_related("seat__user").order_by("ply"))
        turns[user_id] = turn_parts(game, user_id, moves)
    return turns[user_id]
