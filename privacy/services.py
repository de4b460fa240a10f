"""A player's own data: the export of everything the site holds about them, and the
deletion of their account.

Deletion keeps the user row, anonymised, because games, moves and rating changes
point at it: finished games stay replayable and show the player as "deleted player"
(``User.public_name``). Everything that can still change is ended first through the
other apps' own services, so their rules apply as for any player: running games are
resigned (``game_finished`` updates ratings, ladders and tournaments), open
challenges cancelled or declined, ladders left, tournaments withdrawn from.
"""
from __future__ import annotations

import logging
import secrets
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Field, Q
from django.utils import timezone

from accounts import services as account_services
from accounts.models import DELETED_USERNAME_PREFIX, Block
from accounts.outbox import outbox_user_forget
from api.models import ApiToken, IdempotencyRecord
from chat.models import Message
from correspondence.models import CalendarFeed, DigestAlarm, InboundMail, Vacation, VacationAccount
from fairplay.models import Report
from games import services as game_services
from games.models import Alarm, Game, GameStatus, Move
from ladder.models import LadderMember
from ops import services as ops_services
from ratings.models import Rating, RatingChange
from tournaments.models import Participant

from .errors import PrivacyConflict, PrivacyNotAllowed

if TYPE_CHECKING:
    from accounts.models import User

log = logging.getLogger(__name__)

EXPORT_FORMAT = "maatasite-account-export"
EXPORT_VERSION = 1

# Preferences set back to their defaults on deletion (the account can never use them again).
RESET_FIELDS = ("first_name", "last_name", "display_name", "language", "time_zone",
                "email_on_your_turn", "email_on_game_over", "turn_mail", "digest_hour",
                "email_reminders", "quiet_hours_start", "quiet_hours_end", "vacation_since",
                "email_failing_since", "email_failure", "email_failure_detail")


# ---------------------------------------------------------------- export

def _when(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _profile(user: User) -> dict[str, Any]:
    return {
        "username": user.username, "display_name": user.display_name, "email": user.email,
        "email_confirmed": user.email_confirmed, "language": user.language,
        "time_zone": user.time_zone, "date_joined": _when(user.date_joined),
        "last_login": _when(user.last_login), "vacation_since": _when(user.vacation_since),
        "mail": {"email_on_your_turn": user.email_on_your_turn,
                 "email_on_game_over": user.email_on_game_over, "turn_mail": user.turn_mail,
                 "digest_hour": user.digest_hour, "email_reminders": user.email_reminders,
                 "quiet_hours_start": user.quiet_hours_start,
                 "quiet_hours_end": user.quiet_hours_end},
    }


def _outcome_for(game: Game, side: str) -> str | None:
    """The game's result seen from ``side``: won, lost, drawn, aborted, or None while running."""
    if game.status == GameStatus.ACTIVE:
        return None
    if game.status == GameStatus.ABORTED:
        return "aborted"
    if not game.winner_side:
        return "drawn"
    return "won" if game.winner_side == side else "lost"


def _games(user: User) -> list[dict[str, Any]]:
    """Every game the user sat in, with its public move list. Never the engine state; the
    seed only once revealed, i.e. for games that are over."""
    games = list(Game.objects.filter(seats__user=user).distinct().defer("sealed_state", "sealed_seed")
                 .prefetch_related("seats__user").order_by("pk"))
    moves: dict[int, list[dict[str, Any]]] = {}
    for move in Move.objects.filter(game__in=games).select_related("seat").order_by("game_id", "ply"):
        moves.setdefault(move.game_id, []).append(
            {"ply": move.ply, "turn": move.turn, "side": move.seat.side, "text": move.text,
             "played_at": _when(move.created_at)})
    rows = []
    for game in games:
        seats = list(game.seats.all())
        mine = next(s for s in seats if s.user_id == user.pk)
        rows.append({
            "id": game.pk, "kind": game.kind, "options": game.options, "rated": game.rated,
            "days_per_move": game.days_per_move, "status": game.status, "your_side": mine.side,
            "seats": [{"side": s.side, "player": s.user.public_name if s.user is not None else None,
                       "bot_level": s.bot_level} for s in seats],
            "opponents": [s.player_name for s in seats if s.pk != mine.pk],
            "result": _outcome_for(game, mine.side), "winner_side": game.winner_side or None,
            "reason": game.result_reason or None, "scores": game.scores,
            "created_at": _when(game.created_at), "finished_at": _when(game.finished_at),
            "seed_commitment": game.seed_commitment,
            "revealed_salt": game.revealed_salt if game.is_over else None,
            "revealed_seed": game.revealed_seed if game.is_over else None,
            "moves": moves.get(game.pk, []),
        })
    return rows


def _ratings(user: User) -> dict[str, Any]:
    """The stored ratings (as of each game's last rated result) and every change."""
    current = [{"kind": r.kind, "rating": r.rating, "deviation": r.deviation,
                "volatility": r.volatility, "games_played": r.games_played,
                "last_played_at": _when(r.last_played_at)}
               for r in Rating.objects.filter(user=user).order_by("kind")]
    history = [{"game": c.game_id, "kind": c.kind, "opponent": c.opponent.public_name,
                "score": c.score, "rating_before": c.rating_before, "rating_after": c.rating_after,
                "deviation_before": c.deviation_before, "deviation_after": c.deviation_after,
                "opponent_rating": c.opponent_rating, "rated_at": _when(c.created_at)}
               for c in RatingChange.objects.filter(user=user).select_related("opponent")
               .order_by("created_at", "pk")]
    return {"current": current, "history": history}


def account_export(*, user: User) -> dict[str, Any]:
    """Everything the site holds about ``user``, as JSON data (deterministic: the same
    data gives the same document; keys carry the format and its version)."""
    blocks = Block.objects.filter(blocker=user).select_related("blocked").order_by("created_at", "pk")
    reports = Report.objects.filter(reporter=user).select_related("player").order_by("created_at", "pk")
    ladders = LadderMember.objects.filter(user=user).select_related("ladder").order_by("ladder_id")
    entries = Participant.objects.filter(user=user).select_related("tournament").order_by("tournament_id")
    messages = Message.objects.filter(author=user).order_by("created_at", "pk")
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "profile": _profile(user),
        "games": _games(user),
        "ratings": _ratings(user),
        "blocks": [{"player": b.blocked.public_name, "blocked_at": _when(b.created_at)} for b in blocks],
        "reports": [{"id": r.pk, "kind": r.kind, "reason": r.reason, "status": r.status,
                     "player": r.player.public_name if r.player is not None else None, "game": r.game_id,
                     "reported_at": _when(r.created_at)} for r in reports],
        "ladders": [{"ladder": m.ladder_id, "name": m.ladder.name, "kind": m.ladder.kind,
                     "position": m.position, "joined_at": _when(m.joined_at),
                     "left_at": _when(m.left_at)} for m in ladders],
        "tournaments": [{"tournament": p.tournament_id, "name": p.tournament.name,
                         "kind": p.tournament.kind, "tournament_status": p.tournament.status,
                         "status": p.status, "seed": p.seed,
                         "registered_at": _when(p.registered_at),
                         "withdrawn_at": _when(p.withdrawn_at)} for p in entries],
        "messages": [{"game": m.game_id, "ply": m.ply, "text": m.text, "written_at": _when(m.created_at)}
                     for m in messages],
        "replies_by_mail": _replies_by_mail(user),
    }


def _replies_by_mail(user: User) -> list[dict[str, Any]]:
    """The stored mail sent to the player's reply addresses (kept for a few days): what
    came, when, and what it did. The text only of mail judged to come from the player's
    own address: a stranger's mail to it (``wrong_sender``) is not theirs to read."""
    mails = InboundMail.objects.filter(user=user).order_by("received_at", "pk")
    return [{"received_at": _when(m.received_at), "processed_at": _when(m.processed_at),
             "outcome": m.outcome or None,
             "message": (bytes(m.raw).decode("utf-8", "replace")
                         if m.outcome and m.outcome != "wrong_sender" else None)}
            for m in mails]


# ---------------------------------------------------------------- deletion

def _anonymise(user: User, now: datetime) -> None:
    """Strip the row of everything personal; it stays for the games' foreign keys."""
    user_model = get_user_model()
    name = "%s%d" % (DELETED_USERNAME_PREFIX, user.pk)
    if user_model.objects.filter(username__iexact=name).exclude(pk=user.pk).exists():
        # an account from before sign-up refused the prefix
        name = "%s%d-%s" % (DELETED_USERNAME_PREFIX, user.pk, secrets.token_hex(4))
    user.username = name
    user.email = ""
    for field in RESET_FIELDS:
        model_field = user_model._meta.get_field(field)
        assert isinstance(model_field, Field), field  # RESET_FIELDS are the user's own columns
        setattr(user, field, model_field.get_default())
    user.set_unusable_password()
    user.is_active = False
    user.is_staff = False
    user.is_superuser = False
    user.last_login = None
    user.deleted_at = now
    user.full_clean(exclude=["password", "email"])  # an empty address is the point
    user.save()
    user.groups.clear()
    user.user_permissions.clear()


def _games_resign(user: User) -> int:
    """Resign every running game, against people and bots alike: the opponent wins and
    game_finished rates the game and moves ladders and tournaments on. The games are
    locked first, in pk order, before any ladder or tournament row (their lock order)."""
    running = list(Game.objects.select_for_update(of=("self",)).filter(
        seats__user=user, status=GameStatus.ACTIVE).order_by("pk").values_list("pk", flat=True))
    for game_id in running:
        game_services.game_resign(game_id=game_id, user=user)
    return len(running)


def account_delete(*, user: User, password: str, now: datetime | None = None) -> User:
    """Delete ``user``'s account, in one transaction, after checking their password again.

    Ends what is running (challenges, games, ladders, tournaments), removes blocks,
    API tokens, sessions, pending mail, replies by mail and vacations, and anonymises the row (see
    the module docstring). Reports and game messages the user wrote stay, for staff
    and for the other player, shown as written by a deleted player. Refuses a wrong
    password (403) and a second deletion (409).
    """
    now = now or timezone.now()
    if user.is_deleted:
        raise PrivacyConflict("already_deleted")
    if not user.check_password(password or ""):
        raise PrivacyNotAllowed("wrong_password")
    with transaction.atomic():
        locked = get_user_model().objects.select_for_update().get(pk=user.pk)
        if locked.is_deleted:
            raise PrivacyConflict("already_deleted")
        # First, so that anything logged below names the account by its new name.
        _anonymise(locked, now)
        # Their replies by mail, played or not; before the games are locked, in the order a
        # reply's play takes its locks (its row, then the game).
        InboundMail.objects.filter(user=locked).delete()
        game_services.user_challenges_close(user=locked, now=now)
        resigned = _games_resign(locked)
        ops_services.player_competitions_leave(user=locked, actor=None)
        Block.objects.filter(Q(blocker=locked) | Q(blocked=locked)).delete()
        ApiToken.objects.filter(user=locked).delete()
        IdempotencyRecord.objects.filter(user=locked).delete()
        Alarm.objects.filter(user=locked, sent_at__isnull=True).delete()
        outbox_user_forget(user_id=locked.pk)  # pending mail, and the record of mail sent
        DigestAlarm.objects.filter(user=locked).delete()
        Vacation.objects.filter(user=locked).delete()
        VacationAccount.objects.filter(user=locked).delete()
        CalendarFeed.objects.filter(user=locked).delete()
        account_services.user_sessions_end(user_id=locked.pk)
    log.info("account_delete user_id=%s games_resigned=%s", locked.pk, resigned)
    return locked
