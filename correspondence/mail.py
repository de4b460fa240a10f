"""The mails of correspondence, rendered when the outbox of accounts sends them.

An outbox row (accounts.OutgoingMail) holds only a kind and ids; the renderers
registered here (``register``, from CorrespondenceConfig.ready) build the mail at send
time, through accounts.mail, so signed links and reply addresses are never stored:

- ``alarm``: a due ``games.Alarm`` (``object_id``): your turn, reminders, game over;
  sent only if still true then (``selectors.alarm_outcome``), else e.g. ``stale``;
- ``digest``: the games waiting for the row's user when it is sent;
- ``vacation_notice``: an opponent's vacation (``object_id``: the Vacation);
- ``reply_answer``: the answer to a reply by mail (``object_id``: the game;
  ``params``: what was played or why nothing was), ``Auto-Submitted: auto-replied``;
- ``reply_notice``: the player's notice that a reply for their game came from another
  address or was not authenticated, and was not played (``params``: why, the sender).

Every mail has a plain-text and an HTML part in the recipient's language, a PNG
of the current position (the recipient's own view), a signed link that opens
the game, and one-click unsubscribe headers (RFC 8058) that turn off that kind
of mail only. "Your turn" and reminder mails, and answers while the turn goes on, carry
the reply address of the player's pending decision (see correspondence.tokens.ReplyAddress):
they share it until that decision is played.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db.models import Prefetch
from django.urls import get_urlconf, reverse
from django.utils import translation

import engine
from accounts.mail import absolute_url, user_email_build
from accounts.outbox import mail_kind_register
from games.errors import GameActionError, MoveRejected
from games.models import Alarm, Game, GameStatus, Seat
from games.rules import game_state

from . import selectors, tokens
from .models import Vacation
from .pictures import mail_picture, mail_pictures_attach

# Which unsubscribe link each alarm kind carries.
UNSUBSCRIBE_KIND: dict[str, str] = {
    Alarm.Kind.YOUR_TURN: "turn",
    Alarm.Kind.REMINDER: "reminders",
    Alarm.Kind.LAST_CALL: "reminders",
    Alarm.Kind.GAME_OVER: "game_over",
}


_TOKEN = "TOKEN0PLACE0HOLDER"


@functools.lru_cache(maxsize=32)
def _token_path_template(name: str, urlconf: str | None) -> str:
    return reverse(name, args=[_TOKEN], urlconf=urlconf)


def _token_path(name: str, token: str) -> str:
    """``reverse(name, args=[token])`` for a signed token (URL-safe characters and ``:``, never
    quoted): the pattern is reversed once per URLconf, not for each of thousands of mails."""
    return _token_path_template(name, get_urlconf() or settings.ROOT_URLCONF).replace(_TOKEN, token)


def open_url(*, game_id: int, user_id: int) -> str:
    return absolute_url(_token_path("correspondence:open", tokens.open_token(game_id=game_id, user_id=user_id)))


def unsubscribe_url(*, user_id: int, kind: str) -> str:
    return absolute_url(_token_path("correspondence:unsubscribe", tokens.unsubscribe_token(user_id=user_id, kind=kind)))


def unsubscribe_headers(*, user_id: int, kind: str) -> dict[str, str]:
    return {
        "List-Unsubscribe": "<%s>" % unsubscribe_url(user_id=user_id, kind=kind),
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    }


def seat_of(game: Game, user_id: int, seats: Iterable[Seat] | None = None) -> Seat | None:
    for seat in seats if seats is not None else game.seats.all():
        if seat.user_id == user_id:
            return seat
    return None


def game_picture(game: Game, seat: Seat | None, cache: dict | None = None) -> bytes:
    """The PNG of the position as ``seat``'s player sees it: the picture stored when the
    position was reached (correspondence.pictures), drawn now only if it is missing.
    ``cache`` is no longer used (each picture is drawn once, when the move is made)."""
    return mail_picture(game, seat)


def opponents_of(game: Game, user_id: int) -> str:
    return ", ".join(seat.player_name for seat in game.seats.all() if seat.user_id != user_id)


def outcome_for(game: Game, seat: Seat | None) -> str:
    if game.status == GameStatus.ABORTED:
        return "aborted"
    if not game.winner_side:
        return "draw"
    return "won" if seat is not None and game.winner_side == seat.side else "lost"


def reply_address(*, game: Game, user_id: int) -> str:
    """The reply address of ``user_id``'s decision pending at the game's current ply."""
    return tokens.ReplyAddress(game_id=game.pk, user_id=user_id, ply=game.ply).address


# Groups of legal decisions listed one by one up to this size; larger ones are summarised.
LEGAL_LISTED = 24
# Values shown per field of a summarised group.
LEGAL_VALUES = 30


def _move_word(text: str) -> str:
    """The word a decision begins with: its card in Onitama (``crane:a5a4``), its kind in
    Maatatahay (``place a1 r0``)."""
    return text.replace(":", " ").split(" ", 1)[0]


def _values(seen: list[str]) -> str:
    return ", ".join(seen[:LEGAL_VALUES]) + (" ..." if len(seen) > LEGAL_VALUES else "")


def legal_groups(game: Game) -> list[dict[str, Any]]:
    """The legal decisions of the player to move, grouped by their first word: a small group
    lists its decisions; a large one gives its count, an example, the words each place of
    the decision takes (``a1, a3, ...``, ``r0, r1, ...``) and the optional endings (``put 1e``):
    a Maatatahay placement has hundreds of decisions, and takes a few lines, not 400."""
    rules = engine.get_game(game.kind)
    groups: dict[str, list[str]] = {}
    for move in rules.legal_moves(game_state(game)):
        text = rules.move_text(move)
        groups.setdefault(_move_word(text), []).append(text)
    summary = []
    for word, texts in groups.items():
        entry: dict[str, Any] = {"word": word, "count": len(texts), "moves": [], "example": texts[0], "places": []}
        if len(texts) <= LEGAL_LISTED:
            entry["moves"] = texts
            summary.append(entry)
            continue
        split = [text.replace(":", " ", 1).split(" ")[1:] for text in texts]
        shortest = min(len(words) for words in split)
        places: list[list[str]] = [[] for _ in range(shortest)]
        endings: list[str] = []
        for words in split:
            for place, value in zip(places, words[:shortest], strict=False):
                if value not in place:
                    place.append(value)
            ending = " ".join(words[shortest:])
            if ending and ending not in endings:
                endings.append(ending)
        entry["places"] = [_values(place) for place in places]
        entry["endings"] = _values(endings) if endings else ""
        summary.append(entry)
    return summary


def reply_error_text(error: Any) -> str:
    """The refused decision and why, in the active language: the engine's or the site's
    message made again from its code and params (as in the game page's errors)."""
    if not error:
        return ""
    if isinstance(error, str):  # an answer queued before errors were kept as codes
        return error
    params = dict(error.get("params") or {})
    code, fallback = str(error.get("code", "")), str(error.get("fallback", ""))
    kind = MoveRejected if error.get("engine") else GameActionError
    refusal = kind(code, fallback, **params)
    return "%s: %s" % (error.get("line", ""), refusal.message)


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
        "kind": alarm.kind,
        "game": game,
        "opponent": opponents_of(game, user.pk),
        "deadline": game.deadline,
        "time_left": (game.deadline - now) if game.deadline else None,
        "open_url": open_url(game_id=game.pk, user_id=user.pk),
        "unsubscribe_url": unsubscribe_url(user_id=user.pk, kind=unsubscribe_kind),
        "reply_address": reply,
        "outcome": outcome_for(game, seat),
        "time_zone": user.time_zone or "UTC",
    }
    return user_email_build(
        user=user,
        subject_template="correspondence/email/alarm_subject.txt",
        body_template="correspondence/email/alarm.txt",
        html_template="correspondence/email/alarm.html",
        context=context,
        headers=headers,
        images={"board": game_picture(game, seat, pictures)},
    )


def digest_message(
    user: Any, games: list[Game], *, now: datetime, pictures: dict | None = None
) -> EmailMultiAlternatives:
    """The daily digest: every game waiting for ``user``'s move, with the time left."""
    entries = []
    images = {}
    for game in games:
        seat = seat_of(game, user.pk)
        name = "board-%d" % game.pk
        images[name] = game_picture(game, seat, pictures)
        entries.append(
            {
                "game": game,
                "opponent": opponents_of(game, user.pk),
                "deadline": game.deadline,
                "time_left": (game.deadline - now) if game.deadline else None,
                "open_url": open_url(game_id=game.pk, user_id=user.pk),
                "image": name,
                "reply_address": reply_address(game=game, user_id=user.pk),
            }
        )
    context = {
        "entries": entries,
        "unsubscribe_url": unsubscribe_url(user_id=user.pk, kind="turn"),
        "time_zone": user.time_zone or "UTC",
    }
    return user_email_build(
        user=user,
        subject_template="correspondence/email/digest_subject.txt",
        body_template="correspondence/email/digest.txt",
        html_template="correspondence/email/digest.html",
        context=context,
        headers=unsubscribe_headers(user_id=user.pk, kind="turn"),
        images=images,
    )


# ---------------------------------------------------------------- the outbox's renderers


def _pictures(sending) -> dict:
    return sending.cache.setdefault("correspondence.pictures", {})


def alarms_load(rows) -> dict[int, Alarm]:
    alarms = (
        Alarm.objects.filter(pk__in=[row.object_id for row in rows])
        .select_related("user", "game", "game__to_move_user")
        .prefetch_related(Prefetch("game__seats", queryset=Seat.objects.select_related("user")))
    )
    by_id = {alarm.pk: alarm for alarm in alarms}
    mail_pictures_attach((alarm.game, alarm.user_id) for alarm in by_id.values())
    return {row.pk: by_id[row.object_id] for row in rows if row.object_id in by_id}


def alarm_render(row, alarm: Alarm | None, sending):
    if alarm is None:
        return "gone"
    outcome = selectors.alarm_outcome(alarm, now=sending.now)
    if outcome is not None:
        return outcome
    return alarm_message(alarm, now=sending.now, pictures=_pictures(sending))


def digests_load(rows) -> dict[int, list[Game]]:
    waiting = selectors.games_waiting_for(user_ids=[row.user_id for row in rows])
    mail_pictures_attach((game, user_id) for user_id, games in waiting.items() for game in games)
    return {row.pk: waiting.get(row.user_id, []) for row in rows}


def digest_render(row, games: list[Game] | None, sending):
    if not games:
        return "nothing_waiting"
    return digest_message(row.user, games, now=sending.now, pictures=_pictures(sending))


def vacations_load(rows) -> dict[int, tuple[Vacation, list[Game]]]:
    vacations = {
        v.pk: v for v in Vacation.objects.filter(pk__in=[row.object_id for row in rows]).select_related("user")
    }
    games_of: dict[int, list[Game]] = {}
    loaded = {}
    for row in rows:
        vacation = vacations.get(row.object_id)
        if vacation is None:
            continue
        if vacation.user_id not in games_of:
            games_of[vacation.user_id] = selectors.active_games_of(user_id=vacation.user_id)
        loaded[row.pk] = (vacation, games_of[vacation.user_id])
    return loaded


def vacation_notice_render(row, loaded, sending):
    if loaded is None:
        return "gone"
    vacation, games = loaded
    opponent = row.user
    shared = [game for game in games if any(seat.user_id == opponent.pk for seat in game.seats.all())]
    return user_email_build(
        user=opponent,
        subject_template="correspondence/email/vacation_subject.txt",
        body_template="correspondence/email/vacation.txt",
        html_template="correspondence/email/vacation.html",
        context={
            "player": vacation.user,
            "vacation": vacation,
            "time_zone": opponent.time_zone or "UTC",
            "games": shared,
            "site_url": settings.SITE_URL,
        },
    )


def reply_games_load(rows) -> dict[int, Game]:
    games = {
        game.pk: game
        for game in Game.objects.filter(pk__in=[row.object_id for row in rows]).prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("user"))
        )
    }
    mail_pictures_attach((games[row.object_id], row.user_id) for row in rows if row.object_id in games)
    return {row.pk: games[row.object_id] for row in rows if row.object_id in games}


def reply_answer_render(row, game: Game | None, sending):
    """The answer to a reply by mail, from the game as it is when the answer is sent: while
    the player is to move, the legal decisions (grouped) and the reply address of the
    decision pending then, the one the turn mail and reminders carry."""
    if game is None:
        return "gone"
    user = row.user
    result = row.params.get("result", {})
    seat = seat_of(game, user.pk)
    my_turn = game.status == GameStatus.ACTIVE and game.to_move_user_id == user.pk
    legal = legal_groups(game) if my_turn and result.get("status") != "played" else []
    reply = None
    headers = unsubscribe_headers(user_id=user.pk, kind="turn")
    headers["Auto-Submitted"] = "auto-replied"  # RFC 3834: an answer to the player's mail
    if my_turn:
        reply = reply_address(game=game, user_id=user.pk)
        headers["Reply-To"] = reply
    with translation.override(user.language or settings.LANGUAGE_CODE):
        error_text = reply_error_text(result.get("error"))
    return user_email_build(
        user=user,
        subject_template="correspondence/email/reply_subject.txt",
        body_template="correspondence/email/reply.txt",
        html_template="correspondence/email/reply.html",
        context={
            "game": game,
            "result": result,
            "error_text": error_text,
            "played_text": ", ".join(result.get("played") or []),
            "legal": legal,
            "legal_count": sum(group["count"] for group in legal),
            "reply_address": reply,
            "my_turn": my_turn,
            "open_url": open_url(game_id=game.pk, user_id=user.pk),
            "unsubscribe_url": unsubscribe_url(user_id=user.pk, kind="turn"),
        },
        headers=headers,
        images={"board": game_picture(game, seat, _pictures(sending))},
    )


def reply_notice_render(row, game: Game | None, sending):
    """The player's notice that a reply for their game was not played because it came from
    another address, or its sender was not authenticated (the sender is never answered)."""
    if game is None:
        return "gone"
    user = row.user
    my_turn = game.status == GameStatus.ACTIVE and game.to_move_user_id == user.pk
    return user_email_build(
        user=user,
        subject_template="correspondence/email/reply_notice_subject.txt",
        body_template="correspondence/email/reply_notice.txt",
        html_template="correspondence/email/reply_notice.html",
        context={
            "game": game,
            "reason": row.params.get("reason", "wrong_sender"),
            "sender": row.params.get("sender", ""),
            "my_turn": my_turn,
            "open_url": open_url(game_id=game.pk, user_id=user.pk),
        },
    )


def register() -> None:
    mail_kind_register("alarm", render=alarm_render, load=alarms_load)
    mail_kind_register("digest", render=digest_render, load=digests_load)
    mail_kind_register("vacation_notice", render=vacation_notice_render, load=vacations_load)
    mail_kind_register("reply_answer", render=reply_answer_render, load=reply_games_load)
    mail_kind_register("reply_notice", render=reply_notice_render, load=reply_games_load)
