"""Everything that changes games, challenges and draw offers.

Each public function takes keyword-only arguments and runs in one database
transaction (``bot_turn_play`` runs one transaction per decision). Refusals
raise :class:`games.errors.GameActionError` subclasses with a stable code and
an HTTP-like status (409 for stale or repeated submissions).

Plies and turns: ``Game.ply`` is the number of decisions played; a submission
names the ply it was made at (``expected_ply`` = the ``Game.ply`` the player
saw) and becomes ``Move.ply = expected_ply + 1``. A turn is a run of decisions
by one player; the clock (``deadline``) and the mail restart only when the
player to move changes.

Tasks are enqueued with ``delay_on_commit`` (maatasite/task_policy.py) so that a
worker never sees an uncommitted game. A finished (or aborted) game sends
``games.signals.game_finished`` once, inside the finishing transaction.
"""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.outbox import outbox_add
from accounts.selectors import is_blocked
from engine import GameRules, GameState, OptionValue, fair
from engine.errors import EngineError

from . import bots, conditional, notifications, tasks
from .clock import quiet_hours_shift
from .errors import Conflict, InvalidInput, MoveRejected, NotAllowed, NotFound
from .models import (
    BOT_LEVELS,
    CHALLENGE_LIFETIME_DAYS,
    DAYS_PER_MOVE_CHOICES,
    Alarm,
    Challenge,
    ChallengeStatus,
    ConditionalLines,
    DrawOffer,
    DrawOfferStatus,
    Game,
    GameKind,
    GameStatus,
    Move,
    ResultReason,
    Seat,
)
from .rules import LegalMove, game_can_abort, game_secret, game_state, legal_moves_of, rules_for, side_other
from .sealing import seal
from .selectors import bot_turns_overdue, game_row, game_seats
from .signals import game_finished, position_changed

if TYPE_CHECKING:
    from accounts.models import User

log = logging.getLogger(__name__)

DAYS_CHOICES = tuple(d for d, _ in DAYS_PER_MOVE_CHOICES)

# Site termination reasons (the engine's own reasons come from Outcome.reason).
REASON_RESIGNATION = ResultReason.RESIGN
REASON_TIMEOUT = ResultReason.TIMEOUT
REASON_AGREEMENT = ResultReason.AGREEMENT
REASON_ABORTED = ResultReason.ABORTED
REASON_ABORTED_TIMEOUT = ResultReason.ABORTED_TIMEOUT


# ---------------------------------------------------------------- helpers


def _now() -> datetime:
    return timezone.now()


def game_state_keep(*, game: Game, state: GameState) -> None:
    """Set the game's engine state, sealed like the seed (it holds the hidden order:
    Maatatahay's face-down piles and bag), for the caller to save."""
    rules = rules_for(game.kind)
    game.sealed_state = seal(json.dumps(rules.to_json(state), separators=(",", ":")), purpose="state")


def game_lock(*, game_id: int, with_draw_offer: bool = False) -> Game:
    """The game's row, locked until the transaction ends; NotFound for an unknown game.
    Call only inside a transaction. ``with_draw_offer``: the row carries its pending draw
    offer (selectors.PENDING_DRAW_OFFER), read in the same query, for a move: whether it has
    one to decline, and the answer's page, need no query more."""
    try:
        return game_row(game_id=game_id, lock=True, with_draw_offer=with_draw_offer)
    except Game.DoesNotExist:
        raise NotFound("game_not_found", game=game_id) from None


def _seat_of(game: Game, user: Any) -> Seat:
    if user is None or not getattr(user, "is_authenticated", False):
        raise NotAllowed("not_a_player")
    seat = next((s for s in game_seats(game) if s.user_id == user.pk), None)
    if seat is None:
        raise NotAllowed("not_a_player")
    return seat


def _require_active(game: Game) -> None:
    if game.status != GameStatus.ACTIVE:
        raise Conflict("game_over", status=game.status)


def _check_kind(kind: str) -> GameRules:
    if kind not in GameKind.values:
        raise InvalidInput("unknown_game", game=kind)
    return rules_for(kind)


def _normalize_options(rules: GameRules, options: Mapping[str, Any] | None) -> dict[str, OptionValue]:
    try:
        return rules.normalize_options(dict(options or {}))
    except EngineError as error:
        raise InvalidInput("bad_options", error.message, **error.params) from error


def _check_days(days_per_move: int) -> None:
    if days_per_move not in DAYS_CHOICES:
        raise InvalidInput("bad_days", days=days_per_move)


# ---------------------------------------------------------------- turns and the end


def game_turn_update(*, game: Game, state: GameState, now: datetime, first: bool = False) -> None:
    """Update whose turn it is after ``state`` was reached (``first``: the game's first
    turn); the turn (clock, mail, bot) restarts only when the player changes. This is the
    one place a turn starts: ``Game.turn`` counts up, and every Move and the "your turn"
    Alarm carry that number (games.events reads turn starts from it)."""
    side = rules_for(game.kind).to_move(state)
    if side is None:
        return
    if not first and side == game.to_move_side:
        return  # same player keeps deciding: same turn, same deadline
    seat = next(s for s in game_seats(game) if s.side == side)
    if not first:
        game.turn += 1
    game.to_move_side = side
    game.to_move_user = seat.user
    game.turn_started_at = now
    game.turn_paused = timedelta(0)
    game.clock_paused_at = None
    if seat.is_bot:
        game.deadline = None
        tasks.bot_turn_play.delay_on_commit(game.pk, game.ply)
    else:
        game_clock_update(game=game, now=now, turn_started=True)


def game_finish(
    game: Game,
    *,
    status: str,
    winner_side: str,
    reason: str,
    scores: Mapping[str, int] | None,
    now: datetime | None = None,
) -> Game:
    """Internal: end a locked game, reveal the seed, send ``game_finished`` once.

    Call only inside a transaction holding the game's row lock. ``reason`` must be a
    ``ResultReason`` (an engine reason the enum lacks is a bug: ValueError).
    """
    if game.status != GameStatus.ACTIVE:
        raise Conflict("game_over", status=game.status)
    reason = ResultReason(reason).value
    now = now or _now()
    salt_hex, seed = game_secret(game)
    game.status = status
    game.winner_side = winner_side or ""
    game.result_reason = reason
    game.scores = dict(scores) if scores is not None else None
    game.finished_at = now
    game.deadline = None
    game.clock_paused_at = None
    game.clock_held_since = None
    game.clock_hold_reason = ""
    game.to_move_side = ""
    game.to_move_user = None
    game.revealed_salt = salt_hex
    game.revealed_seed = str(seed)
    game.save()
    DrawOffer.objects.filter(game=game, status=DrawOfferStatus.PENDING).update(
        status=DrawOfferStatus.DECLINED, responded_at=now
    )
    if hasattr(game, "pending_draw_offer"):  # read with the row (game_lock): none pending now
        game.pending_draw_offer = None
    ConditionalLines.objects.filter(game=game).delete()  # never played, never shown
    game_finished.send(
        sender=Game,
        game=game,
        result={
            "status": game.status,
            "winner": game.winner_side or None,
            "reason": reason,
            "scores": game.scores,
            "rated": game.rated,
        },
    )
    notifications.game_over_alarms_schedule(game, now=now)
    return game


def game_state_terminate(*, game: Game, reason: str, winner: str | None) -> None:
    """Record a site decision (resignation, time-out, agreement, adjudication) in the
    engine state too, where the engine accepts it. The caller holds the row lock and saves."""
    try:
        state = rules_for(game.kind).terminate(game_state(game), reason=reason, winner=winner)
    except EngineError:
        log.info("engine keeps game %s running state for reason %s", game.pk, reason)
        return
    game_state_keep(game=game, state=state)


# ---------------------------------------------------------------- creating games


def game_create(
    *,
    kind: str,
    seats: Mapping[str, Any],
    options: Mapping[str, Any] | None = None,
    days_per_move: int = 3,
    rated: bool = False,
    bot_level: int | None = None,
    vacation_allowed: bool = True,
    now: datetime | None = None,
) -> Game:
    """Create and start a game. ``seats`` maps each side name to a user, or None for the bot.

    ``vacation_allowed=False`` (a tournament's choice) keeps the clocks running
    while a player is on vacation."""
    rules = _check_kind(kind)
    _check_days(days_per_move)
    options = _normalize_options(rules, options)
    if set(seats) != set(rules.players):
        raise InvalidInput("bad_seat")
    if any(user is None for user in seats.values()) and bot_level not in BOT_LEVELS:
        raise InvalidInput("bad_level", level=bot_level)
    now = now or _now()
    seed, salt = fair.new_seed(), fair.new_salt()
    state = rules.new_game(seed, options)
    game = Game(
        kind=kind,
        options=options,
        days_per_move=days_per_move,
        rated=rated,
        vacation_allowed=vacation_allowed,
        bot_level=bot_level if any(u is None for u in seats.values()) else None,
        data_version=rules.data_version(state),
        seed_commitment=fair.commitment(salt, seed),
        sealed_seed=seal("%s:%d" % (salt.hex(), seed), purpose="seed"),
    )
    game_state_keep(game=game, state=state)
    with transaction.atomic():
        game.save(force_insert=True)
        for position, side in enumerate(rules.players):
            user = seats[side]
            Seat.objects.create(
                game=game, side=side, position=position, user=user, bot_level=bot_level if user is None else None
            )
        game_turn_update(game=game, state=state, now=now, first=True)
        game.save()
        position_changed.send(sender=Game, game=game)
    return game


def game_create_solo(
    *,
    user: User,
    kind: str,
    bot_level: int,
    side: str = "random",
    options: Mapping[str, Any] | None = None,
    days_per_move: int = 14,
) -> Game:
    """A casual game of ``user`` against the bot of level ``bot_level``."""
    rules = _check_kind(kind)
    if bot_level not in BOT_LEVELS:
        raise InvalidInput("bad_level", level=bot_level)
    if side == "random":
        side = secrets.choice(rules.players)
    if side not in rules.players:
        raise InvalidInput("bad_seat", side=side)
    seats = {s: (user if s == side else None) for s in rules.players}
    return game_create(
        kind=kind, seats=seats, options=options, days_per_move=days_per_move, rated=False, bot_level=bot_level
    )


# ---------------------------------------------------------------- moves


def _play(game: Game, seat: Seat, move_text: str, *, user: Any, bot_seed: int | None, now: datetime) -> Move:
    """Play one decision on a locked, active game whose side to move is ``seat``."""
    rules = rules_for(game.kind)
    state = game_state(game)
    text = (move_text or "").strip()
    try:
        move = rules.parse_move(state, text)
        new_state = rules.apply(state, move)
    except EngineError as error:
        raise MoveRejected(error.code, error.message, move_text=text, **error.params) from error
    record = Move.objects.create(
        game=game,
        ply=game.ply + 1,
        turn=game.turn,
        seat=seat,
        user=user,
        text=rules.move_text(move),
        parts=rules.move_parts(move),
        bot_seed=bot_seed,
    )
    game.ply += 1
    game_state_keep(game=game, state=new_state)
    _draw_offer_decline(game, seat=seat, now=now)
    outcome = rules.outcome(new_state)
    if outcome is not None:
        game.save()
        game_finish(
            game,
            status=GameStatus.FINISHED,
            winner_side=outcome.winner or "",
            reason=outcome.reason,
            scores=outcome.scores,
            now=now,
        )
    else:
        game_turn_update(game=game, state=new_state, now=now)
        game.save()
    position_changed.send(sender=Game, game=game)
    if game.status == GameStatus.ACTIVE and game.kind == GameKind.ONITAMA:  # lines exist in Onitama only
        _conditional_answer(game, played=record, now=now)
    return record


def _draw_offer_decline(game: Game, *, seat: Seat, now: datetime) -> None:
    """Moving answers the opponent's pending draw offer with a no. A row locked with its
    pending offer (``game_lock(with_draw_offer=True)``) says whether there is one: no query
    for the many moves without, and the row keeps saying what is still pending."""
    if hasattr(game, "pending_draw_offer"):
        pending = game.pending_draw_offer
        if pending is None or pending["seat_id"] == seat.pk:
            return
        game.pending_draw_offer = None
    DrawOffer.objects.filter(game=game, status=DrawOfferStatus.PENDING).exclude(seat=seat).update(
        status=DrawOfferStatus.DECLINED, responded_at=now
    )


def move_submit(*, game_id: int, user: User, move_text: str, expected_ply: int, now: datetime | None = None) -> Move:
    """Play one decision for ``user`` (at ``now``, by default the current time).

    ``expected_ply`` is the number of decisions the player saw played; a stale
    or repeated submission raises Conflict (409) and changes nothing. Exactly
    one of several simultaneous submissions for the same ply wins (row lock).
    """
    with transaction.atomic():
        game = game_lock(game_id=game_id, with_draw_offer=True)
        seat = _seat_of(game, user)
        _require_active(game)
        if int(expected_ply) != game.ply:
            raise Conflict("stale_ply", expected=expected_ply, current=game.ply)
        if game.to_move_side != seat.side:
            raise NotAllowed("not_your_turn")
        return _play(game, seat, move_text, user=user, bot_seed=None, now=now or _now())


# ---------------------------------------------------------------- conditional moves (Onitama)


def _conditional_check(rules: GameRules, state: GameState, lines: Any) -> conditional.Tree:
    """The tree of ``lines`` (each a list of move texts, or one text with the plies separated
    by spaces), checked by the engine from ``state``, the position before the opponent's
    move: every ply legal, the game not over before a line ends, each line ending with an
    answer, one answer to one move. InvalidInput (400) names the line and ply."""
    if not isinstance(lines, list):
        raise InvalidInput("conditional_bad_lines")
    if len(lines) > conditional.MAX_LINES:
        raise InvalidInput("conditional_too_many", limit=conditional.MAX_LINES)
    tree: conditional.Tree = {}
    for number, line in enumerate(lines, start=1):
        plies = conditional.line_split(line) if isinstance(line, str) else line
        if not isinstance(plies, list) or not all(isinstance(p, str) for p in plies):
            raise InvalidInput("conditional_bad_lines")
        if not plies:
            raise InvalidInput("conditional_empty_line", line=number)
        if len(plies) > conditional.MAX_PLIES:
            raise InvalidInput("conditional_too_long", line=number, limit=conditional.MAX_PLIES)
        if len(plies) % 2:
            raise InvalidInput("conditional_no_answer", line=number)
        texts = conditional.line_walk(rules, state, plies, number=number).texts
        level = tree
        for theirs, mine in zip(texts[::2], texts[1::2], strict=True):
            node = level.setdefault(theirs, {"answer": mine, "then": {}})
            if node["answer"] != mine:
                raise InvalidInput("conditional_two_answers", line=number, move=theirs)
            level = node["then"]
    return tree


def _conditional_seat(game: Game, user: Any) -> Seat:
    seat = _seat_of(game, user)
    if game.kind != GameKind.ONITAMA:
        raise InvalidInput("conditional_not_available")
    return seat


def conditional_lines_set(*, game_id: int, user: User, lines: list[Any]) -> list[list[str]]:
    """Replace ``user``'s queued conditional lines in a running Onitama game by ``lines``
    (an empty list clears them); returns the lines as kept (engine notation).

    Only a player, only while their opponent is to move (409 otherwise: the position the
    lines start from is the one on the board). Each line is checked by the engine against
    the current position (:func:`_conditional_check`); the lines are sealed at rest."""
    with transaction.atomic():
        game = game_lock(game_id=game_id)
        seat = _conditional_seat(game, user)
        _require_active(game)
        if game.to_move_side == seat.side:
            raise Conflict("conditional_not_now")
        tree = _conditional_check(rules_for(game.kind), game_state(game), lines)
        if not tree:
            ConditionalLines.objects.filter(seat=seat).delete()
            return []
        ConditionalLines.objects.update_or_create(
            seat=seat, defaults={"game": game, "sealed_lines": conditional.tree_seal(tree)}
        )
        log.info("game=%s seat=%s conditional lines set: %d", game.pk, seat.pk, len(conditional.tree_lines(tree)))
        return conditional.tree_lines(tree)


def conditional_lines_of(*, game_id: int, user: User) -> list[list[str]]:
    """``user``'s own queued lines in the game (404 unknown game, 403 not a player)."""
    try:
        game = Game.objects.get(pk=game_id)
    except Game.DoesNotExist:
        raise NotFound("game_not_found", game=game_id) from None
    return seat_conditional_lines(seat=_conditional_seat(game, user))


def seat_conditional_lines(*, seat: Seat) -> list[list[str]]:
    """The lines queued by the player of ``seat`` (a seat the caller has checked is theirs).
    A seat read with ``has_conditional_lines`` (selectors.SEATS_WITH_USERS) and none queued
    costs no query: the page of every waiting Onitama player asks."""
    if getattr(seat, "has_conditional_lines", None) is False:
        return []
    row = ConditionalLines.objects.filter(seat=seat).first()
    return conditional.tree_lines(conditional.tree_unseal(row.sealed_lines)) if row is not None else []


@dataclass(frozen=True)
class ConditionalPosition:
    """The position after a line being entered on the board, as its player sees it: the
    line so far (engine notation), the view of the player's side (the page's own view),
    the line's last ply with its parts (marked on the board), the side to move there and its legal moves (none once
    the game would be over or the line is full)."""

    game: Game
    side: str
    flip: bool
    line: list[str]
    view: dict[str, Any]
    last: LegalMove | None
    to_move: str
    over: bool
    moves: list[LegalMove]


def conditional_line_position(*, game_id: int, user: Any, plies: list[str]) -> ConditionalPosition:
    """Where a line being entered on the board leads (games.views.game_conditional_position).

    A read for the player who may queue lines now, refused as saving is (404, 403, 409 on
    their own turn or once the game is over); the plies are played by the same check as a
    saved line (conditional.line_walk, 400 naming the ply). Nothing is stored: the line is
    checked again when the lines are saved."""
    try:
        game = Game.objects.get(pk=game_id)
    except Game.DoesNotExist:
        raise NotFound("game_not_found", game=game_id) from None
    seat = _conditional_seat(game, user)
    _require_active(game)
    if game.to_move_side == seat.side:
        raise Conflict("conditional_not_now")
    if len(plies) > conditional.MAX_PLIES:
        raise InvalidInput("conditional_too_long", line=1, limit=conditional.MAX_PLIES)
    rules = rules_for(game.kind)
    walk = conditional.line_walk(rules, game_state(game), plies, number=1)
    outcome = rules.outcome(walk.position)
    full = len(walk.texts) >= conditional.MAX_PLIES
    view = rules.view(walk.position, seat.side)
    return ConditionalPosition(
        game=game,
        side=seat.side,
        flip=seat.position == 1,
        line=walk.texts,
        view=view,
        last=LegalMove(text=walk.texts[-1], parts=walk.last_parts) if walk.last_parts is not None else None,
        to_move=rules.to_move(walk.position) or "",
        over=outcome is not None,
        moves=[] if outcome is not None or full else legal_moves_of(kind=game.kind, state=walk.position),
    )


def _conditional_answer(game: Game, *, played: Move, now: datetime) -> None:
    """After ``played`` on a locked, running game: when the player now to move queued a
    line starting with it, play that line's answer at once, in this transaction, through
    :func:`_play` (the ply check of move_submit), keep the rest of the line for the next
    turn and mail the player what was played for them; when no line starts with it, drop
    the player's lines. The answer may in turn meet the opponent's own lines (each answer
    uses up one level of a tree, so this ends).

    The seats read after the game's lock (game_seats) say whether the player has lines at all:
    lines are set under the same lock, and none are added in this transaction, so a seat read
    with none needs no query."""
    to_move = next((s for s in game_seats(game) if s.side == game.to_move_side), None)
    if to_move is not None and getattr(to_move, "has_conditional_lines", None) is False:
        return
    row = ConditionalLines.objects.filter(game=game, seat__side=game.to_move_side).select_related("seat__user").first()
    if row is None:
        return
    node = conditional.tree_unseal(row.sealed_lines).get(played.text)
    if node is None:
        row.delete()
        return
    if node.get("then"):
        row.sealed_lines = conditional.tree_seal(node["then"])
        row.save(update_fields=["sealed_lines", "updated_at"])
    else:
        row.delete()
    seat, user, turn = row.seat, row.seat.user, game.turn
    expected_ply = played.ply
    if game.ply != expected_ply or game.to_move_side != seat.side:  # the same checks as move_submit
        raise Conflict("stale_ply", expected=expected_ply, current=game.ply)
    try:
        answer = _play(game, seat, node["answer"], user=user, bot_seed=None, now=now)
    except MoveRejected:  # cannot happen (checked from this very position): drop, never guess
        log.exception("game=%s conditional answer %s refused", game.pk, node["answer"])
        ConditionalLines.objects.filter(pk=row.pk).delete()
        return
    # The turn that started for them is over already: no "your turn" mail for it.
    Alarm.objects.filter(game=game, user=user, kind=Alarm.Kind.YOUR_TURN, turn=turn, sent_at__isnull=True).delete()
    if user is not None:
        outbox_add(
            kind="conditional_played",
            user=user,
            object_id=game.pk,
            params={"ply": answer.ply, "theirs": played.text, "answer": answer.text},
        )


@dataclass
class BotTurnResult:
    played: list[str]
    reason: str


def bot_turn_play(*, game_id: int, ply: int) -> BotTurnResult:
    """Play the bot's turn that started at ``ply``, one decision after another.

    Idempotent: a second call for the same ``ply`` finds the game moved on and
    plays nothing. The bot sees only the public view. Each decision is its own
    transaction, committed with the row lock and a ply check, so a duplicate
    run racing this one loses cleanly. A bot that fails raises bots.BotFailed (its
    task retries, then flags the game: :func:`bot_turn_flag`); a flagged game is
    not played until staff release it (:func:`bot_turn_unflag`).
    """
    played: list[str] = []
    expected = ply
    while True:
        game = Game.objects.filter(pk=game_id).first()
        if game is None:
            return BotTurnResult(played, "missing")
        if game.status != GameStatus.ACTIVE:
            return BotTurnResult(played, "over")
        if game.ply != expected:
            return BotTurnResult(played, "stale")
        if game.bot_failed_at is not None:
            return BotTurnResult(played, "flagged")
        seat = game.seats.get(side=game.to_move_side)
        if seat.bot_level is None:  # not a bot's seat (Seat.is_bot)
            return BotTurnResult(played, "turn_passed" if played else "not_bot")
        rules = rules_for(game.kind)
        view = rules.view(game_state(game), seat.side)
        bot_seed = secrets.randbits(63)
        text = bots.bot_choose_move(game_kind=game.kind, view=view, level=seat.bot_level, seed=bot_seed)
        with transaction.atomic():
            locked = game_lock(game_id=game_id, with_draw_offer=True)
            if locked.status != GameStatus.ACTIVE or locked.ply != expected or locked.bot_failed_at:
                return BotTurnResult(played, "stale")
            locked_seat = locked.seats.get(side=locked.to_move_side)
            if locked_seat.pk != seat.pk:
                return BotTurnResult(played, "stale")
            _play(locked, locked_seat, text, user=None, bot_seed=bot_seed, now=_now())
        played.append(text)
        expected += 1


def bot_turns_requeue(*, now: datetime | None = None) -> int:
    """Enqueue again the bot turns left undone for ``GAMES_BOT_OVERDUE_SECONDS`` (at most
    ``GAMES_BOT_SWEEP_BATCH``, the oldest first), through the path that enqueued them.

    A killed worker's task waits in the broker for CELERY_VISIBILITY_TIMEOUT; this makes
    the turn wait about a sweep interval instead. Safe twice, beside a task still running
    and beside a late redelivery: ``bot_turn_play`` plays a ply once (the ply check under
    the row lock), and a run that finds the game moved on plays nothing. Returns how many.
    """
    now = now or _now()
    overdue = bot_turns_overdue(
        before=now - timedelta(seconds=settings.GAMES_BOT_OVERDUE_SECONDS), limit=settings.GAMES_BOT_SWEEP_BATCH
    )
    for game_id, ply in overdue:
        log.warning("game=%s bot turn at ply %s left undone: enqueued again", game_id, ply)
        tasks.bot_turn_play.delay_on_commit(game_id, ply)
    return len(overdue)


def bot_turn_flag(*, game_id: int, ply: int, failure: str, now: datetime | None = None) -> Game:
    """The bot failed at ``ply`` on every try of its task: flag the game for staff and
    hold its clock (:func:`game_clock_pause`), so that it neither plays a stand-in move
    nor waits unseen. The bot turns sweep leaves a flagged game alone. Changes nothing
    when the game moved on, ended or is flagged already."""
    now = now or _now()
    with transaction.atomic():
        game = game_lock(game_id=game_id)
        if game.status != GameStatus.ACTIVE or game.ply != ply or game.bot_failed_at is not None:
            return game
        game.bot_failed_at = now
        game.bot_failure = failure[:300]
        game.save(update_fields=["bot_failed_at", "bot_failure"])
        log.error("game=%s bot failed at ply %s on every try: flagged for staff, clock held: %s", game.pk, ply, failure)
        return game_clock_pause(game_id=game_id, reason="bot failed at ply %d" % ply, now=now)


def bot_turn_unflag(*, game_id: int, now: datetime | None = None) -> Game:
    """Staff let a flagged game's bot play again (after fixing it): the flag goes, the
    clock held at the flag runs again (a hold that came otherwise, e.g. a paused
    tournament, stays) and the bot's turn is enqueued once this commits. Raises
    InvalidInput for a game that is not flagged."""
    now = now or _now()
    with transaction.atomic():
        game = game_lock(game_id=game_id)
        _require_active(game)
        if game.bot_failed_at is None:
            raise Conflict("bot_not_failed")
        held_for_the_bot = game.clock_held_since == game.bot_failed_at
        game.bot_failed_at = None
        game.bot_failure = ""
        game.save(update_fields=["bot_failed_at", "bot_failure"])
        if held_for_the_bot:
            game = game_clock_resume(game_id=game_id, now=now)
        tasks.bot_turn_play.delay_on_commit(game.pk, game.ply)
        log.info("game=%s bot released by staff", game.pk)
        return game


def game_resign(*, game_id: int, user: User, now: datetime | None = None) -> Game:
    """``user`` resigns: the other side wins (at ``now``, by default the current time)."""
    with transaction.atomic():
        game = game_lock(game_id=game_id)
        seat = _seat_of(game, user)
        _require_active(game)
        winner = side_other(kind=game.kind, side=seat.side)
        game_state_terminate(game=game, reason=REASON_RESIGNATION, winner=winner)
        return game_finish(
            game, status=GameStatus.FINISHED, winner_side=winner, reason=REASON_RESIGNATION, scores=None, now=now
        )


def game_abort(*, game_id: int, user: User) -> Game:
    """Abort a game (no result) before the first move of each side."""
    with transaction.atomic():
        game = game_lock(game_id=game_id)
        _seat_of(game, user)
        _require_active(game)
        if not game_can_abort(game):
            raise Conflict("abort_too_late")
        return game_finish(game, status=GameStatus.ABORTED, winner_side="", reason=REASON_ABORTED, scores=None)


def game_cancel(*, game_id: int, reason: str = "") -> Game:
    """Staff end a running game at any point without a result (status aborted, as a
    player's abort), e.g. when its tournament ends early; ``reason`` goes to the log.
    Apps built on games decide what a cancelled game means for them."""
    with transaction.atomic():
        game = game_lock(game_id=game_id)
        _require_active(game)
        log.info("game=%s cancelled by staff: %s", game.pk, reason)
        return game_finish(game, status=GameStatus.ABORTED, winner_side="", reason=REASON_ABORTED, scores=None)


# ---------------------------------------------------------------- draws (Onitama)


def _draw_game(game: Game) -> None:
    if not game.allows_draws:
        raise InvalidInput("draw_not_available")


def draw_offer(*, game_id: int, user: User, now: datetime | None = None) -> DrawOffer:
    """Offer a draw; offering while the opponent's offer is pending accepts it (at ``now``)."""
    with transaction.atomic():
        game = game_lock(game_id=game_id)
        seat = _seat_of(game, user)
        _require_active(game)
        _draw_game(game)
        pending = DrawOffer.objects.filter(game=game, status=DrawOfferStatus.PENDING).first()
        if pending is not None:
            if pending.seat_id == seat.pk:
                raise Conflict("draw_already_offered")
            _accept(game, pending, now=now)
            return pending
        return DrawOffer.objects.create(game=game, seat=seat, ply=game.ply)


def _accept(game: Game, offer: DrawOffer, *, now: datetime | None = None) -> None:
    now = now or _now()
    offer.status = DrawOfferStatus.ACCEPTED
    offer.responded_at = now
    offer.save(update_fields=["status", "responded_at"])
    game_state_terminate(game=game, reason=REASON_AGREEMENT, winner=None)
    game_finish(game, status=GameStatus.FINISHED, winner_side="", reason=REASON_AGREEMENT, scores=None, now=now)


def _pending_offer_to(game: Game, seat: Seat) -> DrawOffer:
    offer = DrawOffer.objects.filter(game=game, status=DrawOfferStatus.PENDING).exclude(seat=seat).first()
    if offer is None:
        raise Conflict("no_draw_offer")
    return offer


def draw_accept(*, game_id: int, user: User, now: datetime | None = None) -> Game:
    """Accept the opponent's pending draw offer: the game ends drawn by agreement (at ``now``)."""
    with transaction.atomic():
        game = game_lock(game_id=game_id)
        seat = _seat_of(game, user)
        _require_active(game)
        _draw_game(game)
        _accept(game, _pending_offer_to(game, seat), now=now)
        return game


def draw_decline(*, game_id: int, user: User) -> DrawOffer:
    """Decline the opponent's pending draw offer."""
    with transaction.atomic():
        game = game_lock(game_id=game_id)
        seat = _seat_of(game, user)
        _require_active(game)
        offer = _pending_offer_to(game, seat)
        offer.status = DrawOfferStatus.DECLINED
        offer.responded_at = _now()
        offer.save(update_fields=["status", "responded_at"])
        return offer


# ---------------------------------------------------------------- time


def game_deadline(game: Game) -> datetime | None:
    """The one computation of when the player to move runs out of time.

    ``days_per_move`` from the start of the turn, plus the time the clock stood
    still this turn (vacation, staff hold); None while it stands still, for a bot
    and for a game that is over. A deadline falling in the player's quiet hours (their
    night, in their time zone) moves to the end of that night.
    """
    user = game.to_move_user
    if (
        game.status != GameStatus.ACTIVE
        or user is None
        or game.turn_started_at is None
        or game.clock_paused_at is not None
    ):
        return None
    nominal = game.turn_started_at + timedelta(days=game.days_per_move) + game.turn_paused
    return quiet_hours_shift(nominal, time_zone=user.time_zone, start=user.quiet_hours_start, end=user.quiet_hours_end)


def game_clock_update(*, game: Game, now: datetime, turn_started: bool = False) -> None:
    """Stop or restart the clock of the player to move (vacation or staff hold),
    set the deadline and reschedule the turn's alarms. The caller saves the game.

    The clock runs only when neither stops it, so a vacation ending inside a
    staff hold, or a hold ending during a vacation, leaves it standing."""
    user = game.to_move_user
    on_vacation = bool(user is not None and user.vacation_since is not None and game.vacation_allowed)
    stopped = on_vacation or game.clock_held_since is not None
    if stopped and game.clock_paused_at is None:
        game.clock_paused_at = now
    elif not stopped and game.clock_paused_at is not None:
        game.turn_paused += max(now - game.clock_paused_at, timedelta(0))
        game.clock_paused_at = None
    game.deadline = game_deadline(game)
    notifications.turn_alarms_schedule(game, now=now, turn_started=turn_started)


def game_clock_pause(*, game_id: int, reason: str = "", now: datetime | None = None) -> Game:
    """Staff hold a running game's clock (e.g. while a tournament is paused): the
    player to move cannot run out of time until :func:`game_clock_resume`.

    Moves may still be played; a turn starting during the hold starts stopped.
    Composes with vacations: the clock runs only when neither a hold nor the
    mover's vacation stops it. Holding a held game changes nothing."""
    now = now or _now()
    with transaction.atomic():
        game = game_lock(game_id=game_id)
        _require_active(game)
        if game.clock_held_since is not None:
            return game
        game.clock_held_since = now
        game.clock_hold_reason = (reason or "").strip()[:200]
        game_clock_update(game=game, now=now)
        game.save(update_fields=["clock_held_since", "clock_hold_reason", "clock_paused_at", "turn_paused", "deadline"])
        log.info("game=%s clock held: %s", game.pk, game.clock_hold_reason)
        return game


def game_clock_resume(*, game_id: int, now: datetime | None = None) -> Game:
    """Release a staff hold: the clock runs again (unless the mover is on vacation)
    with exactly the time the player had left when it stopped, because the held
    time is added to ``turn_paused``. Releasing a game not held changes nothing."""
    now = now or _now()
    with transaction.atomic():
        game = game_lock(game_id=game_id)
        _require_active(game)
        if game.clock_held_since is None:
            return game
        game.clock_held_since = None
        game.clock_hold_reason = ""
        game_clock_update(game=game, now=now)
        game.save(update_fields=["clock_held_since", "clock_hold_reason", "clock_paused_at", "turn_paused", "deadline"])
        log.info("game=%s clock released", game.pk)
        return game


def games_clock_update(*, user_id: int, now: datetime | None = None) -> int:
    """Recompute the clocks of every active game where ``user_id`` is to move,
    after their vacation started or ended or their quiet hours changed.
    Returns how many games were looked at."""
    now = now or _now()
    with transaction.atomic():
        games = list(
            Game.objects.select_for_update()
            .filter(status=GameStatus.ACTIVE, to_move_user_id=user_id)
            .select_related("to_move_user")
        )
        for game in games:
            game_clock_update(game=game, now=now)
            game.save(update_fields=["clock_paused_at", "turn_paused", "deadline"])
    return len(games)


def game_time_out(game: Game, *, now: datetime) -> Game:
    """Internal: end a locked, overdue game. The side to move loses on time, or
    the game is aborted when that side has not made its first move yet.

    Call only inside a transaction holding the game's row lock."""
    loser = game.to_move_side
    if loser not in game.sides_moved():
        return game_finish(
            game, status=GameStatus.ABORTED, winner_side="", reason=REASON_ABORTED_TIMEOUT, scores=None, now=now
        )
    winner = side_other(kind=game.kind, side=loser)
    game_state_terminate(game=game, reason=REASON_TIMEOUT, winner=winner)
    return game_finish(
        game, status=GameStatus.FINISHED, winner_side=winner, reason=REASON_TIMEOUT, scores=None, now=now
    )


def games_time_out(*, now: datetime | None = None) -> int:
    """End every active game whose deadline has passed; returns how many ended.

    This is the protected sweep, :func:`games.outages.games_sweep` (outage
    extensions and the cap on time-outs included): its count of games timed out."""
    from .outages import games_sweep  # at run time: games.outages imports this module (game_lock ...)

    return games_sweep(now=now).timed_out


# ---------------------------------------------------------------- challenges


def challenge_create(
    *,
    challenger: User,
    kind: str,
    opponent: User | None = None,
    options: Mapping[str, Any] | None = None,
    days_per_move: int = 3,
    rated: bool = True,
    seat_choice: str = "random",
    now: datetime | None = None,
) -> Challenge:
    """Challenge ``opponent`` (or anyone, when None) to a game; expires after 14 days."""
    rules = _check_kind(kind)
    _check_days(days_per_move)
    options = _normalize_options(rules, options)
    if seat_choice != "random" and seat_choice not in rules.players:
        raise InvalidInput("bad_seat", side=seat_choice)
    if opponent is not None:
        if opponent.pk == challenger.pk:
            raise InvalidInput("self_challenge")
        if not opponent.is_active:
            raise InvalidInput("inactive_user")
        if is_blocked(blocker=opponent, blocked=challenger):
            raise NotAllowed("blocked")
    now = now or _now()
    with transaction.atomic():
        return Challenge.objects.create(
            challenger=challenger,
            opponent=opponent,
            kind=kind,
            options=options,
            days_per_move=days_per_move,
            rated=rated,
            seat_choice=seat_choice,
            expires_at=now + timedelta(days=CHALLENGE_LIFETIME_DAYS),
        )


def _lock_challenge(challenge_id: int) -> Challenge:
    try:
        return Challenge.objects.select_for_update().get(pk=challenge_id)
    except Challenge.DoesNotExist:
        raise NotFound("challenge_not_found") from None


def _require_open(challenge: Challenge, now: datetime) -> None:
    if challenge.status != ChallengeStatus.OPEN:
        raise Conflict("challenge_closed", status=challenge.status)
    if challenge.expires_at <= now:
        raise Conflict("challenge_expired")


def challenge_accept(*, challenge_id: int, user: User, now: datetime | None = None) -> Game:
    """Accept a challenge: the game starts at once."""
    now = now or _now()
    with transaction.atomic():
        challenge = _lock_challenge(challenge_id)
        _require_open(challenge, now)
        if user.pk == challenge.challenger_id:
            raise InvalidInput("self_challenge")
        if challenge.opponent_id is not None and challenge.opponent_id != user.pk:
            raise NotAllowed("not_for_you")
        if is_blocked(blocker=challenge.challenger, blocked=user):
            raise NotAllowed("blocked")
        rules = rules_for(challenge.kind)
        side = challenge.seat_choice
        if side == "random":
            side = secrets.choice(rules.players)
        seats = {side: challenge.challenger, side_other(kind=challenge.kind, side=side): user}
        game = game_create(
            kind=challenge.kind,
            seats=seats,
            options=challenge.options,
            days_per_move=challenge.days_per_move,
            rated=challenge.rated,
            now=now,
        )
        if challenge.rematch_of_id is not None:  # an accepted rematch offer (rematch_offer)
            game.rematch_of_id = challenge.rematch_of_id
            game.save(update_fields=["rematch_of"])
        challenge.status = ChallengeStatus.ACCEPTED
        challenge.accepted_by = user
        challenge.responded_at = now
        challenge.game = game
        challenge.save()
        return game


def challenge_decline(*, challenge_id: int, user: User) -> Challenge:
    """The addressed opponent declines a challenge."""
    now = _now()
    with transaction.atomic():
        challenge = _lock_challenge(challenge_id)
        if challenge.opponent_id != user.pk:
            raise NotAllowed("not_for_you")
        _require_open(challenge, now)
        challenge.status = ChallengeStatus.DECLINED
        challenge.responded_at = now
        challenge.save(update_fields=["status", "responded_at"])
        return challenge


def challenge_cancel(*, challenge_id: int, user: User) -> Challenge:
    """The challenger withdraws an open challenge."""
    now = _now()
    with transaction.atomic():
        challenge = _lock_challenge(challenge_id)
        if challenge.challenger_id != user.pk:
            raise NotAllowed("not_yours")
        if challenge.status != ChallengeStatus.OPEN:
            raise Conflict("challenge_closed")
        challenge.status = ChallengeStatus.CANCELLED
        challenge.responded_at = now
        challenge.save(update_fields=["status", "responded_at"])
        return challenge


@dataclass(frozen=True)
class ChallengesClosed:
    """What :func:`user_challenges_close` did: how many challenges it cancelled and declined."""

    cancelled: int
    declined: int


def user_challenges_close(*, user: User, now: datetime | None = None) -> ChallengesClosed:
    """Close the open challenges of a player who leaves (suspension, account deletion):
    cancel the ones they made, decline the ones made to them. The one path for both;
    challenges past their expiry but not yet swept are left to :func:`challenges_expire`."""
    now = now or _now()
    made = Challenge.objects.filter(challenger=user, status=ChallengeStatus.OPEN).order_by("pk")
    cancelled = 0
    for challenge_id in made.values_list("pk", flat=True):
        challenge_cancel(challenge_id=challenge_id, user=user)
        cancelled += 1
    received = Challenge.objects.filter(opponent=user, status=ChallengeStatus.OPEN, expires_at__gt=now).order_by("pk")
    declined = 0
    for challenge_id in received.values_list("pk", flat=True):
        challenge_decline(challenge_id=challenge_id, user=user)
        declined += 1
    return ChallengesClosed(cancelled=cancelled, declined=declined)


def challenges_expire(*, now: datetime | None = None) -> int:
    """Mark open challenges past their expiry as expired; returns how many."""
    now = now or _now()
    with transaction.atomic():
        return Challenge.objects.filter(status=ChallengeStatus.OPEN, expires_at__lte=now).update(
            status=ChallengeStatus.EXPIRED, responded_at=now
        )


# ---------------------------------------------------------------- rematches


@dataclass(frozen=True)
class Rematch:
    """What :func:`rematch_offer` answers: the offer (None against a bot), the rematch game
    once it started, and whether this call made either (False: it answered with what was there)."""

    challenge: Challenge | None
    game: Game | None
    created: bool


def rematch_offer(*, game_id: int, user: User, now: datetime | None = None) -> Rematch:
    """Offer a rematch of a finished casual game (``Game.allows_rematch``), seats swapped.

    Against a bot the rematch starts at once, same level. Between two players it is a
    challenge to the opponent (``Challenge.rematch_of``), answered like any challenge
    (:func:`challenge_accept`, :func:`challenge_decline`, :func:`challenge_cancel`). One
    rematch per game: a repeated offer answers with the existing offer or game, and the
    opponent's own offer while one waits accepts it (as with draw offers)."""
    now = now or _now()
    with transaction.atomic():
        game = game_lock(game_id=game_id)
        seat = _seat_of(game, user)
        if game.status != GameStatus.FINISHED:
            raise Conflict("rematch_not_finished", status=game.status)
        if not game.allows_rematch:
            raise NotAllowed("rematch_not_available")
        started = Game.objects.filter(rematch_of=game).first()
        offer = Challenge.objects.filter(rematch_of=game).first()
        if started is not None:
            return Rematch(challenge=offer, game=started, created=False)
        if offer is not None:
            if offer.challenger_id != user.pk and offer.status == ChallengeStatus.OPEN and offer.expires_at > now:
                started = challenge_accept(challenge_id=offer.pk, user=user, now=now)
                offer.refresh_from_db()
                return Rematch(challenge=offer, game=started, created=True)
            return Rematch(challenge=offer, game=None, created=False)
        other = game.seats.select_related("user").exclude(pk=seat.pk).get()
        if other.user is None:  # against the bot: the player takes the bot's side
            started = game_create(
                kind=game.kind,
                seats={seat.side: None, other.side: user},
                options=game.options,
                days_per_move=game.days_per_move,
                rated=False,
                bot_level=other.bot_level,
                now=now,
            )
            started.rematch_of = game
            started.save(update_fields=["rematch_of"])
            return Rematch(challenge=None, game=started, created=True)
        offer = challenge_create(
            challenger=user,
            opponent=other.user,
            kind=game.kind,
            options=game.options,
            days_per_move=game.days_per_move,
            rated=game.rated,
            seat_choice=other.side,
            now=now,
        )
        offer.rematch_of = game
        offer.save(update_fields=["rematch_of"])
        return Rematch(challenge=offer, game=None, created=True)
