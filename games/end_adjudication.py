"""Adjudicating a game that is still running when its tournament's time runs out.

The rules (README "Tournament end dates"), one constant each:

* **Onitama** is judged by the strongest bot (``ADJUDICATION_LEVEL``: level 5, alpha-beta
  with a budget of ``ADJUDICATION_NODES`` = 1 000 000 search nodes, no root noise, the bot
  seed ``ADJUDICATION_SEED`` = the game's id) from the position, for the side to move,
  with ``engine.bots.evaluate_position``. There is no time limit: the budget is a count
  of nodes, so the same position, bot version, level and seed give the same answer when
  staff run it again on appeal (:func:`adjudication_repeat`).

  - a proven result (``win_in``: a forced line to the end the search saw through) is a
    win for the side that wins it;
  - otherwise an advantage of at least ``WIN_THRESHOLD`` (0.6) for either side is a win
    for that side. The bot's value is ``tanh(score / 400)`` with the score in hundredths
    of a student, so 0.6 is about 2.8 students ahead (``engine.bots.ONITAMA_SCALE``);
  - anything else is a draw.

* **Maatatahay** is scored by the engine's own end-of-game rule
  (``engine.maatatahay.rules.winner``) applied to the table as it stands: the higher score
  so far (the sanity and Spirit Crystals of the living warriors, plus relics) wins; equal
  scores go to the player with more living warriors, then to whoever took the most recent
  relic; else a draw. The score is public: no hidden order is read, and no bot plays on.

The verdict is stored (games.models.BotAdjudication: what was seen, the bot version, level,
budget, seed and the reason in words) and the game ends through games.services like any
game, with the reason ``adjudicated`` (``game_finished``: ratings and standings follow).
Staff overturn a verdict with ops.services.game_award, which writes the staff audit log.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from engine.bots import ONITAMA_LEVELS, Evaluation, bot_version, evaluate_position
from engine.maatatahay.rules import winner as maatatahay_winner
from engine.onitama import RULES, position_from_text

from . import services
from .errors import NotFound
from .models import BotAdjudication, Game, GameKind, GameStatus, ResultReason
from .rules import game_state, rules_for, side_other

log = logging.getLogger(__name__)

ADJUDICATION_LEVEL = 5
"""The strongest bot level (engine.bots: level 5)."""
ADJUDICATION_NODES = ONITAMA_LEVELS[ADJUDICATION_LEVEL].nodes
"""Onitama's search budget at ``ADJUDICATION_LEVEL``: 1 000 000 nodes, never a time limit."""
WIN_THRESHOLD = 0.6
"""Onitama: the bot's value (in [-1, 1], for the side to move) from which a side wins."""


def adjudication_seed(game_id: int) -> int:
    """The bot seed of a game's adjudication: its id (fixed, so a re-run gives the same answer)."""
    return game_id


@dataclass(frozen=True)
class Verdict:
    """What the adjudication decided: ``winner`` ("" a draw) and why, with what it saw."""

    method: str
    winner: str
    reason: str
    side_to_move: str
    position: str
    evaluation: dict[str, Any]
    level: int | None = None
    nodes: int | None = None
    seed: int | None = None
    bot_version: str = ""


def onitama_verdict(*, side_to_move: str, evaluation: Evaluation) -> tuple[str, str]:
    """(winner or "", reason) from the bot's evaluation for ``side_to_move`` (the module's rule)."""
    other = side_other(kind=GameKind.ONITAMA, side=side_to_move)
    if evaluation.win_in is not None:
        winner = side_to_move if evaluation.win_in > 0 else other
        return winner, "forced win for %s in %d plies, proven by the bot" % (winner, abs(evaluation.win_in))
    value = evaluation.value
    if value is not None and value >= WIN_THRESHOLD:
        return side_to_move, "advantage %.3f for %s (threshold %.2f)" % (value, side_to_move, WIN_THRESHOLD)
    if value is not None and value <= -WIN_THRESHOLD:
        return other, "advantage %.3f for %s (threshold %.2f)" % (-value, other, WIN_THRESHOLD)
    shown = "none" if value is None else "%.3f" % value
    return "", "no forced win and no advantage of %.2f (value %s for %s): a draw" % (WIN_THRESHOLD, shown, side_to_move)


def onitama_evaluate(*, game_id: int, position: str) -> Verdict:
    """The Onitama verdict on ``position`` (position text; Onitama hides nothing)."""
    state = position_from_text(position)
    side = RULES.to_move(state)
    assert side is not None
    seed = adjudication_seed(game_id)
    evaluation = evaluate_position(GameKind.ONITAMA, RULES.view(state, side), level=ADJUDICATION_LEVEL, seed=seed)
    winner, reason = onitama_verdict(side_to_move=side, evaluation=evaluation)
    return Verdict(
        method=BotAdjudication.Method.BOT,
        winner=winner,
        reason=reason,
        side_to_move=side,
        position=position,
        evaluation={"move": evaluation.move, "value": evaluation.value, "win_in": evaluation.win_in},
        level=ADJUDICATION_LEVEL,
        nodes=ADJUDICATION_NODES,
        seed=seed,
        bot_version=bot_version(GameKind.ONITAMA),
    )


def maatatahay_evaluate(*, state: Any, side_to_move: str) -> Verdict:
    """The Maatatahay verdict by the engine's scoring rule on the table as it stands."""
    players = rules_for(GameKind.MAATATAHAY).players
    index, rule, scores = maatatahay_winner(state)
    won = "" if index is None else players[index]
    by_score = {players[0]: scores[0], players[1]: scores[1]}
    shown = "%s %d - %s %d" % (players[0], scores[0], players[1], scores[1])
    reason = "scores %s: %s" % (shown, "a draw (tie)" if not won else "%s wins by %s" % (won, rule.replace("_", " ")))
    return Verdict(
        method=BotAdjudication.Method.SCORING,
        winner=won,
        reason=reason,
        side_to_move=side_to_move,
        position="",
        evaluation={"scores": by_score, "rule": rule},
    )


def position_verdict(game: Game) -> Verdict:
    """The verdict on a running game's current position (the module's rules)."""
    state = game_state(game)
    rules = rules_for(game.kind)
    side = rules.to_move(state) or ""
    if game.kind == GameKind.ONITAMA:
        view = rules.view(state, side)
        return onitama_evaluate(game_id=game.pk, position=str(view["position"]))
    return maatatahay_evaluate(state=state, side_to_move=side)


# A move that lands while the bot judges the position (the verdict is reached without a lock)
# has it judged again from the new position, at most this many times in one call.
ADJUDICATION_ATTEMPTS = 3


def game_adjudicate(
    *,
    game_id: int,
    note: str,
    now: datetime | None = None,
    with_verdict: Callable[[Game, BotAdjudication], None] | None = None,
) -> BotAdjudication | None:
    """Adjudicate a running game by the module's rules and end it (reason ``adjudicated``,
    through games.services.game_finish). ``note`` says why (the tournament's end date).

    One short transaction per game: the verdict is reached first, without a lock (the bot's
    search takes seconds), from the position at ply P; then, under the game's row lock, it
    is written and the game ends only while the game still runs at ply P (a move in between
    has the new position judged, up to ADJUDICATION_ATTEMPTS times; then None, and the
    next run takes it again). ``with_verdict(game, row)`` runs in that transaction before
    the game ends (a tournament marks the game's pairing). Idempotent: a game that is no
    longer running, or already adjudicated, is left as it is (None)."""
    now = now or timezone.now()
    for _attempt in range(ADJUDICATION_ATTEMPTS):
        game = Game.objects.filter(pk=game_id).first()
        if game is None:
            raise NotFound("game_not_found", game=game_id)
        if game.status != GameStatus.ACTIVE or BotAdjudication.objects.filter(game_id=game.pk).exists():
            return None
        seen_ply = game.ply
        verdict = position_verdict(game)
        with transaction.atomic():
            game = services.game_lock(game_id=game_id)
            if game.status != GameStatus.ACTIVE or BotAdjudication.objects.filter(game_id=game.pk).exists():
                return None
            if game.ply != seen_ply:
                log.info(
                    "game=%s moved on while adjudicated (ply %d, now %d): judged again", game.pk, seen_ply, game.ply
                )
                continue
            return _verdict_keep(game, verdict, note=note, now=now, with_verdict=with_verdict)
    log.warning("game=%s kept moving while adjudicated: left for the next run", game_id)
    return None


def _verdict_keep(
    game: Game,
    verdict: Verdict,
    *,
    note: str,
    now: datetime,
    with_verdict: Callable[[Game, BotAdjudication], None] | None,
) -> BotAdjudication:
    """Store ``verdict`` on the locked, running ``game`` and end the game by it."""
    row = BotAdjudication.objects.create(
        game=game,
        method=verdict.method,
        ply=game.ply,
        side_to_move=verdict.side_to_move,
        position=verdict.position,
        evaluation=verdict.evaluation,
        winner_side=verdict.winner,
        bot_version=verdict.bot_version,
        level=verdict.level,
        nodes=verdict.nodes,
        seed=verdict.seed,
        reason="%s: %s" % (note, verdict.reason) if note else verdict.reason,
        decided_at=now,
    )
    if with_verdict is not None:
        with_verdict(game, row)
    winner = verdict.winner or None
    services.game_state_terminate(game=game, reason=ResultReason.ADJUDICATED, winner=winner)
    services.game_finish(
        game,
        status=GameStatus.FINISHED,
        winner_side=verdict.winner,
        reason=ResultReason.ADJUDICATED,
        scores=verdict.evaluation.get("scores"),
        now=now,
    )
    log.info("game=%s adjudicated at its end date: %r (%s)", game.pk, verdict.winner, verdict.reason)
    return row


def adjudication_repeat(*, adjudication: BotAdjudication) -> Verdict:
    """Run a stored adjudication again (an appeal): Onitama's bot from the stored position
    with the same level and seed, Maatatahay's scoring rule on the game's table (ending the
    game changes no score). Changes nothing; compare ``winner`` and ``evaluation``."""
    game = adjudication.game
    if adjudication.method == BotAdjudication.Method.BOT:
        return onitama_evaluate(game_id=game.pk, position=adjudication.position)
    return maatatahay_evaluate(state=game_state(game), side_to_move=adjudication.side_to_move)
