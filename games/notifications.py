"""Mail about games: "your turn" (at most once per turn and player) and "game over".

A :class:`games.models.SentMail` row (unique per game, user, kind and turn) is
inserted in the same transaction that sends the mail: a second attempt for the
same turn finds the row and sends nothing; a failed send rolls the row back so
that the task's retry can send it.
"""
from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation

from .models import Game, GameStatus, SentMail

log = logging.getLogger(__name__)


def _send(*, user: Any, template: str, context: dict[str, Any]) -> None:
    context = {"user": user, "site_url": settings.SITE_URL, **context}
    with translation.override(getattr(user, "language", "") or settings.LANGUAGE_CODE):
        subject = " ".join(render_to_string("games/email/%s_subject.txt" % template,
                                            context).split())
        text = render_to_string("games/email/%s.txt" % template, context)
        html = render_to_string("games/email/%s.html" % template, context)
    message = EmailMultiAlternatives(subject, text, settings.DEFAULT_FROM_EMAIL, [user.email])
    message.attach_alternative(html, "text/html")
    message.send()


def _record_once(game: Game, user: Any, kind: str, turn: int) -> bool:
    """Insert the sent-mail row; False when it exists (already sent)."""
    try:
        with transaction.atomic():
            SentMail.objects.create(game=game, user=user, kind=kind, turn=turn)
    except IntegrityError:
        return False
    return True


def game_url(game: Game) -> str:
    return settings.SITE_URL.rstrip("/") + game.get_absolute_url()


def notify_your_turn(*, game_id: int, ply: int) -> str:
    """Mail the player to move that the turn that began at ``ply`` is theirs."""
    game = Game.objects.filter(pk=game_id).select_related("to_move_user").first()
    if game is None or game.status != GameStatus.ACTIVE or game.ply != ply:
        return "stale"
    user = game.to_move_user
    if user is None or not user.email or not getattr(user, "email_on_your_turn", True):
        return "nobody"
    with transaction.atomic():
        if not _record_once(game, user, SentMail.Kind.YOUR_TURN, game.turn):
            return "already_sent"
        opponents = [s.player_name for s in game.seats.select_related("user") if s.user_id != user.pk]
        _send(user=user, template="your_turn", context={
            "game": game, "game_url": game_url(game), "opponent": ", ".join(opponents),
            "deadline": game.deadline})
    return "sent"


def remind_due(*, now: datetime | None = None) -> int:
    """Remind players whose time to move runs out soon, once per turn.

    A reminder goes out when less than ``settings.GAMES_REMIND_HOURS`` (24) or
    half of the turn's time is left, whichever is shorter.
    """
    now = now or timezone.now()
    window = timedelta(hours=getattr(settings, "GAMES_REMIND_HOURS", 24))
    candidates = Game.objects.filter(status=GameStatus.ACTIVE, to_move_user__isnull=False,
                                     deadline__gt=now, deadline__lte=now + window) \
        .select_related("to_move_user").defer("state", "sealed_seed")
    sent = 0
    for game in candidates:
        left = game.deadline - now
        if game.turn_started_at and left > (game.deadline - game.turn_started_at) / 2:
            continue
        user = game.to_move_user
        if not user.email or not getattr(user, "email_on_your_turn", True):
            continue
        with transaction.atomic():
            if not _record_once(game, user, SentMail.Kind.REMINDER, game.turn):
                continue
            _send(user=user, template="reminder", context={
                "game": game, "game_url": game_url(game), "deadline": game.deadline})
        sent += 1
    return sent


def notify_game_over(*, game_id: int) -> int:
    """Mail each human player of a finished or aborted game, once each."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status == GameStatus.ACTIVE:
        return 0
    sent = 0
    for seat in game.seats.select_related("user").filter(user__isnull=False):
        user = seat.user
        if not user.email or not getattr(user, "email_on_game_over", True):
            continue
        with transaction.atomic():
            if not _record_once(game, user, SentMail.Kind.GAME_OVER, 0):
                continue
            if game.status == GameStatus.ABORTED:
                outcome = "aborted"
            elif not game.winner_side:
                outcome = "draw"
            else:
                outcome = "won" if game.winner_side == seat.side else "lost"
            _send(user=user, template="game_over", context={
                "game": game, "game_url": game_url(game), "seat": seat, "outcome": outcome})
        sent += 1
    return sent
