"""The mails of correspondence, rendered when the outbox of accounts sends them.

An outbox row (accounts.OutgoingMail) holds only a kind and ids; the renderers
registered here (``register``, from CorrespondenceConfig.ready) build the mail at send
time, through accounts.mail, so signed links and reply addresses are never stored:

- ``alarm``: a due ``games.Alarm`` (``object_id``): your turn, reminders, game over;
  sent only if still true then (``selectors.alarm_outcome``), else e.g. ``stale``;
- ``digest``: the games waiting for the row's user when it is sent;
- ``vacation_notice``: an opponent's vacation (``object_id``: the Vacation), listing the
  shared games whose clock it stops (those that allow vacations); ``vacation_back``: the
  same opponents when it ends;
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

What a mail says is enough to decide from: the "your turn" mail tells what the
opponent just played (move text and words), the time left and the legal moves
(Onitama, by card) or the kinds of decision open with an example (Maatatahay);
reminders the time left; the game-over mail how the game ended and against whom.

Headers: every mail of one game to one player carries the same ``In-Reply-To`` and
``References`` (``thread_headers``), so a mail client shows them as one conversation,
and a subject starting with the same stem ("Onitama #24 with bob"); game mail has a
``List-Id``. The HTML part names its language and direction (``base.html``).

Quiet hours: no game mail (turn, reminders, game over, digest, vacation notices) goes
out in the recipient's night: its renderer answers ``Defer`` to the night's end, when it
is rendered again (and may then be stale). Answers to replies go at once.
"""

from __future__ import annotations

import functools
import logging
import zoneinfo
from collections.abc import Iterable
from datetime import datetime
from typing import Any
from urllib.parse import quote

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db.models import Prefetch
from django.urls import get_urlconf, reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.timesince import timeuntil
from django.utils.translation import gettext

import engine
from accounts.mail import absolute_url, mail_domain, user_email_build, user_language
from accounts.outbox import Defer, mail_kind_register
from games.clock import quiet_hours_shift
from games.errors import GameActionError, MoveRejected
from games.labels import result_text
from games.models import Alarm, Game, GameStatus, Seat
from games.rules import game_state

from . import selectors, tokens
from .models import Vacation
from .pictures import mail_picture, mail_pictures_attach, mail_turn

log = logging.getLogger(__name__)

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


def list_headers() -> dict[str, str]:
    """``List-Id`` (RFC 2919) of the site's game mail, so that it can be filtered."""
    return {"List-Id": "Maatasite game mail <games.%s>" % mail_domain()}


def thread_headers(*, game_id: int, user_id: int) -> dict[str, str]:
    """The headers that make one game's mails to one player one conversation: each names
    the same (never sent) first message of the thread."""
    root = "<game-%d.player-%d@%s>" % (game_id, user_id, mail_domain())
    return {"In-Reply-To": root, "References": root}


def game_mail_headers(*, game_id: int, user_id: int, unsubscribe_kind: str) -> dict[str, str]:
    return {
        **unsubscribe_headers(user_id=user_id, kind=unsubscribe_kind),
        **list_headers(),
        **thread_headers(game_id=game_id, user_id=user_id),
    }


def quiet_until(user: Any, now: datetime) -> datetime | None:
    """The end of the user's night when ``now`` falls in it (game mail waits until then)."""
    end = quiet_hours_shift(now, time_zone=user.time_zone, start=user.quiet_hours_start, end=user.quiet_hours_end)
    return end if end > now else None


def game_stem(game: Game, user_id: int) -> str:
    """The stem every subject of this game's mail to this player starts with (in the
    active language): "Onitama #24 with bob"."""
    return gettext("%(game)s #%(id)s with %(opponent)s") % {
        "game": game.get_kind_display(),
        "id": game.pk,
        "opponent": opponents_of(game, user_id),
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


def mailto_link(address: str, subject: str) -> str:
    """A ``mailto:`` link to ``address`` with ``subject`` (RFC 6068)."""
    return "mailto:%s?subject=%s" % (quote(address, safe="@"), quote(subject, safe=""))


@functools.lru_cache(maxsize=64)
def _zone(name: str) -> zoneinfo.ZoneInfo:
    return zoneinfo.ZoneInfo(name)


def deadline_sentence(deadline: datetime | None, *, now: datetime, time_zone: str) -> str:
    """The deadline in the recipient's time zone, which it names, and the time left, in the
    active language ("Please move before 5 Dec 2026, 10:00 (Asia/Jakarta). Time left: 7
    hours."); a clock that stands still has no deadline. Written in Python, not a template:
    it was the costliest part of a reminder to render."""
    if not deadline:
        return gettext("Your clock stands still for now.")
    local = timezone.localtime(deadline, _zone(time_zone))
    return "%s %s" % (
        gettext("Please move before %(deadline)s (%(time_zone)s).")
        % {"deadline": date_format(local, "DATETIME_FORMAT"), "time_zone": time_zone},
        gettext("Time left: %(left)s.") % {"left": timeuntil(deadline, now)},
    )


def alarm_message(
    alarm: Alarm, *, now: datetime, pictures: dict | None = None, moulds: dict | None = None
) -> EmailMultiAlternatives:
    """The mail for one due alarm (its game and user loaded, seats prefetched; for a
    "your turn", its turn section comes with the picture: correspondence.pictures.mail_turn).
    ``moulds``: a cache kept across the mails of a drain (accounts.mail.MailMould)."""
    game, user = alarm.game, alarm.user
    seat = seat_of(game, user.pk)
    unsubscribe_kind = UNSUBSCRIBE_KIND[alarm.kind]
    unsubscribe = unsubscribe_url(user_id=user.pk, kind=unsubscribe_kind)  # signed once, for header and body
    headers = {
        "List-Unsubscribe": "<%s>" % unsubscribe,
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        **list_headers(),
        **thread_headers(game_id=game.pk, user_id=user.pk),
    }
    reply = None
    if alarm.kind != Alarm.Kind.GAME_OVER:
        reply = reply_address(game=game, user_id=user.pk)
        headers["Reply-To"] = reply
    seats = {s.side: s for s in game.seats.all()}
    with user_language(user):
        # printed values (filled into a mould of the templates when ``moulds`` is given)
        fill: dict[str, Any] = {
            "user_name": user.get_username(),
            "game_name": game.get_kind_display(),
            "game_id": game.pk,
            "stem": game_stem(game, user.pk),
            "opponent": opponents_of(game, user.pk),
            "open_url": open_url(game_id=game.pk, user_id=user.pk),
            "unsubscribe_url": unsubscribe,
            "reply_address": reply,
            "result": result_text(game, seats=seats, viewer_side=seat.side if seat else None)
            if alarm.kind == Alarm.Kind.GAME_OVER
            else "",
            # the deadline's sentence: made once, for both the text and the HTML body
            "deadline_text": deadline_sentence(game.deadline, now=now, time_zone=user.time_zone or "UTC"),
        }
        # what the opponent just played and the decisions open: written with the picture
        turn = mail_turn(game, user.pk) if alarm.kind == Alarm.Kind.YOUR_TURN else None
        fill["turn_text"] = turn.text if turn is not None else ""
        fill["moves_html"] = turn.moves_html if turn is not None else ""
        fill["legal_html"] = turn.legal_html if turn is not None else ""
        context: dict[str, Any] = {"kind": alarm.kind}  # what decides the templates' branches
    return user_email_build(
        user=user,
        subject_template="correspondence/email/alarm_subject.txt",
        body_template="correspondence/email/alarm.txt",
        html_template="correspondence/email/alarm.html",
        context=context,
        fill=fill,
        moulds=moulds,
        headers=headers,
        images={"board": game_picture(game, seat, pictures)},
    )


def digest_message(
    user: Any, games: list[Game], *, now: datetime, pictures: dict | None = None
) -> EmailMultiAlternatives:
    """The daily digest: every game waiting for ``user``'s move, with the time left (in
    their time zone, which it names) and a ``mailto:`` link to the game's reply address."""
    entries: list[dict[str, Any]] = []
    images = {}
    with user_language(user):
        for game in games:
            seat = seat_of(game, user.pk)
            name = "board-%d" % game.pk
            images[name] = game_picture(game, seat, pictures)
            address = reply_address(game=game, user_id=user.pk)
            stem = game_stem(game, user.pk)
            entries.append(
                {
                    "game": game,
                    "stem": stem,
                    "opponent": opponents_of(game, user.pk),
                    "deadline": game.deadline,
                    "time_left": (game.deadline - now) if game.deadline else None,
                    "open_url": open_url(game_id=game.pk, user_id=user.pk),
                    "image": name,
                    "reply_address": address,
                    "mailto": mailto_link(address, "Re: %s" % stem),
                }
            )
    context = {
        "entries": entries,
        "now": now,
        "unsubscribe_url": unsubscribe_url(user_id=user.pk, kind="turn"),
        "time_zone": user.time_zone or "UTC",
    }
    headers = {**unsubscribe_headers(user_id=user.pk, kind="turn"), **list_headers()}
    if len(entries) == 1:  # pressing Reply answers the one game
        headers["Reply-To"] = str(entries[0]["reply_address"])
    return user_email_build(
        user=user,
        subject_template="correspondence/email/digest_subject.txt",
        body_template="correspondence/email/digest.txt",
        html_template="correspondence/email/digest.html",
        context=context,
        headers=headers,
        images=images,
    )


# ---------------------------------------------------------------- the outbox's renderers


def _pictures(sending) -> dict:
    return sending.cache.setdefault("correspondence.pictures", {})


def alarms_load(rows) -> dict[int, Alarm]:
    """The alarms of a batch of rows, with all their mails need, in constant queries: the
    alarms with their users and games (without the sealed state and seed), the games' seats
    and players, and the stored pictures with, for "your turn" mails, the turn sections
    (mail_pictures_attach: those missing are written then, reading the sealed fields)."""
    alarms = list(
        Alarm.objects.filter(pk__in=[row.object_id for row in rows])
        .select_related("user", "game")
        .defer("game__sealed_state", "game__sealed_seed")
        .prefetch_related(Prefetch("game__seats", queryset=Seat.objects.select_related("user")))
    )
    by_id = {alarm.pk: alarm for alarm in alarms}
    mail_pictures_attach(
        ((alarm.game, alarm.user_id) for alarm in by_id.values()),
        turns=[(alarm.game_id, alarm.user_id) for alarm in alarms if alarm.kind == Alarm.Kind.YOUR_TURN],
    )
    return {row.pk: by_id[row.object_id] for row in rows if row.object_id in by_id}


def alarm_render(row, alarm: Alarm | None, sending):
    if alarm is None:
        return "gone"
    outcome = selectors.alarm_outcome(alarm, now=sending.now)
    if outcome is not None:
        return outcome
    until = quiet_until(alarm.user, sending.now)
    if until is not None:
        return Defer(until)
    return alarm_message(
        alarm, now=sending.now, pictures=_pictures(sending), moulds=sending.cache.setdefault("mail.moulds", {})
    )


def digests_load(rows) -> dict[int, list[Game]]:
    waiting = selectors.games_waiting_for(user_ids=[row.user_id for row in rows])
    mail_pictures_attach((game, user_id) for user_id, games in waiting.items() for game in games)
    return {row.pk: waiting.get(row.user_id, []) for row in rows}


def digest_render(row, games: list[Game] | None, sending):
    if not games:
        return "nothing_waiting"
    until = quiet_until(row.user, sending.now)
    if until is not None:
        return Defer(until)
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


def games_stopped_by_vacation(games: Iterable[Game], *, opponent_id: int) -> list[Game]:
    """Of a vacationing player's active games, those shared with ``opponent_id`` whose
    clock their vacation stops (the games that allow vacations: games.services)."""
    return [
        game
        for game in games
        if game.vacation_allowed and any(seat.user_id == opponent_id for seat in game.seats.all())
    ]


def _vacation_render(row, loaded, sending, *, back: bool):
    if loaded is None:
        return "gone"
    vacation, games = loaded
    opponent = row.user
    if not opponent.email_on_your_turn:
        return "off"  # the notices go with the turn mail (and its unsubscribe link)
    shared = games_stopped_by_vacation(games, opponent_id=opponent.pk)
    if not shared:
        return "no_stopped_clock"
    until = quiet_until(opponent, sending.now)
    if until is not None:
        return Defer(until)
    name = "vacation_back" if back else "vacation"
    return user_email_build(
        user=opponent,
        subject_template="correspondence/email/%s_subject.txt" % name,
        body_template="correspondence/email/%s.txt" % name,
        html_template="correspondence/email/%s.html" % name,
        context={
            "player": vacation.user,
            "vacation": vacation,
            "time_zone": opponent.time_zone or "UTC",
            "games": [{"game": game, "url": absolute_url(game.get_absolute_url())} for game in shared],
            "unsubscribe_url": unsubscribe_url(user_id=opponent.pk, kind="turn"),
        },
        headers={**unsubscribe_headers(user_id=opponent.pk, kind="turn"), **list_headers()},
    )


def vacation_notice_render(row, loaded, sending):
    return _vacation_render(row, loaded, sending, back=False)


def vacation_back_render(row, loaded, sending):
    return _vacation_render(row, loaded, sending, back=True)


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
    headers = game_mail_headers(game_id=game.pk, user_id=user.pk, unsubscribe_kind="turn")
    headers["Auto-Submitted"] = "auto-replied"  # RFC 3834: an answer to the player's mail
    if my_turn:
        reply = reply_address(game=game, user_id=user.pk)
        headers["Reply-To"] = reply
    with user_language(user):
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
    mail_kind_register("vacation_back", render=vacation_back_render, load=vacations_load)
    mail_kind_register("reply_answer", render=reply_answer_render, load=reply_games_load)
    mail_kind_register("reply_notice", render=reply_notice_render, load=reply_games_load)
