"""The mails of correspondence, built through accounts.mail (the one path for mail).

Every mail has a plain-text and an HTML part in the recipient's language, a PNG
of the current position (the recipient's own view), a signed link that opens
the game, and one-click unsubscribe headers (RFC 8058) that turn off that kind
of mail only. "Your turn" and reminder mails carry a reply address for moves
by mail (see correspondence.tokens.ReplyAddress).
"""
from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Any, Iterable

from django.core.mail import EmailMultiAlternatives
from django.urls import reverse

import engine
from accounts.mail import absolute_url, user_email_build
from games.models import Alarm, Game, Seat
from games.services import game_state

from . import tokens
from .pictures import position_png

# Which unsubscribe link each alarm kind carries.
UNSUBSCRIBE_KIND = {Alarm.Kind.YOUR_TURN: "turn", Alarm.Kind.REMINDER: "reminders",
                    Alarm.Kind.LAST_CALL: "reminders", Alarm.Kind.GAME_OVER: "game_over"}


def open_url(*, game_id: int, user_id: int) -> str:
    return absolute_url(reverse("correspondence:open", args=[tokens.open_token(game_id=game_id,
                                                                                user_id=user_id)]))


def unsubscribe_url(*, user_id: int, kind: str) -> str:
    return absolute_url(reverse("correspondence:unsubscribe",
                                args=[tokens.unsubscribe_token(user_id=user_id, kind=kind)]))


def unsubscribe_headers(*, user_id: int, kind: str) -> dict[str, str]:
    return {"List-Unsubscribe": "<%s>" % unsubscribe_url(user_id=user_id, kind=kind),
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}


def seat_of(game: Game, user_id: int, seats: Iterable[Seat] | None = None) -> Seat | None:
    for seat in (seats if seats is not None else game.seats.all()):
        if seat.user_id == user_id:
            return seat
    return None


def player_view(game: Game, seat: Seat | None) -> dict[str, Any]:
    """What ``seat``'s player may see of the game (the public view; everything once it is over)."""
    rules = engine.get_game(game.kind)
    side = seat.side if seat is not None else rules.players[0]
    return rules.view(game_state(game), side)


def game_picture(game: Game, seat: Seat | None, cache: dict | None = None) -> bytes:
    """The PNG of the position as ``seat``'s player sees it. ``cache`` (one per sweep)
    shares the picture between mails showing the same view (e.g. opening positions)."""
    view = player_view(game, seat)
    flip = bool(seat and seat.position == 1)
    key = (game.kind, flip, hashlib.sha256(json.dumps(view, sort_keys=True, default=str).encode()).hexdigest())
    if cache is not None and key in cache:
        return cache[key]
    png = position_png(kind=game.kind, view=view, flip=flip)
    if cache is not None:
        cache[key] = png
    return png


def opponents_of(game: Game, user_id: int) -> str:
    return ", ".join(seat.player_name for seat in game.seats.all() if seat.user_id != user_id)


def outcome_for(game: Game, seat: Seat | None) -> str:
    if game.status == "aborted":
        return "aborted"
    if not game.winner_side:
        return "draw"
    return "won" if seat is not None and game.winner_side == seat.side else "lost"


def reply_address(*, game: Game, user_id: int, attempt: int = 0) -> str:
    return tokens.ReplyAddress(game_id=game.pk, user_id=user_id, ply=game.ply, attempt=attempt).address


def alarm_message(alarm: Alarm, *, now: datetime, pictures: dict | None = None) -> EmailMultiAlternatives:
    """The mail for one due alarm (its game and user loaded, seats prefetched)."""
    game, user = alarm.game, alarm.user
    seat = seat_of(game, user.pk)
    unsubscribe_kind = UNSUBSCRIBE_KIND[alarm.kind]
    headers = unsubscribe_headers(user_id=user.pk, kind=unsubscribe_kind)
    reply = None
    if alarm.kind != Alarm.Kind.GAME_OVER:
        reply = reply_address(game=game, user_id=user.pk)
        headers["Reply-To"] = reply
    context = {
        "kind": alarm.kind, "game": game, "opponent": opponents_of(game, user.pk),
        "deadline": game.deadline, "time_left": (game.deadline - now) if game.deadline else None,
        "open_url": open_url(game_id=game.pk, user_id=user.pk),
        "unsubscribe_url": unsubscribe_url(user_id=user.pk, kind=unsubscribe_kind),
        "reply_address": reply, "outcome": outcome_for(game, seat), "time_zone": user.time_zone or "UTC",
    }
    return user_email_build(user=user, subject_template="correspondence/email/alarm_subject.txt",
                            body_template="correspondence/email/alarm.txt",
                            html_template="correspondence/email/alarm.html", context=context,
                            headers=headers, images={"board": game_picture(game, seat, pictures)})


def digest_message(user: Any, games: list[Game], *, now: datetime,
                   pictures: dict | None = None) -> EmailMultiAlternatives:
    """The daily digest: every game waiting for ``user``'s move, with the time left."""
    entries = []
    images = {}
    for game in games:
        seat = seat_of(game, user.pk)
        name = "board-%d" % game.pk
        images[name] = game_picture(game, seat, pictures)
        entries.append({"game": game, "opponent": opponents_of(game, user.pk), "deadline": game.deadline,
                        "time_left": (game.deadline - now) if game.deadline else None,
                        "open_url": open_url(game_id=game.pk, user_id=user.pk), "image": name,
                        "reply_address": reply_address(game=game, user_id=user.pk)})
    context = {"entries": entries, "unsubscribe_url": unsubscribe_url(user_id=user.pk, kind="turn"),
               "time_zone": user.time_zone or "UTC"}
    return user_email_build(user=user, subject_template="correspondence/email/digest_subject.txt",
                            body_template="correspondence/email/digest.txt",
                            html_template="correspondence/email/digest.html", context=context,
                            headers=unsubscribe_headers(user_id=user.pk, kind="turn"), images=images)
