"""Everything that changes tournaments. Each function takes keyword-only arguments
and runs in one transaction; staff actions take ``actor`` and are logged in the staff
audit log (``accounts.audit.staff_action_record``, with the tournament as target).

Pairing happens in :func:`tournament_advance`, run by the Celery task
``tournaments.tasks.tournament_advance`` at the start and whenever a round's last
game ends (or a knockout game is drawn and must be replayed). It locks the
tournament row, so two workers running it at once create a round once; the
unique (tournament, number) of Round is the last guard.

Games are created and ended only through games.services. Lock order is always
game rows, then the tournament row (the order of games.signals.game_finished),
so a staff withdrawal and a finishing move cannot deadlock.

Pausing holds the clocks of the running games (games.services.game_clock_pause)
and pairs nothing; resuming releases them with the time each player had left.
Ending early cancels the running games, which then count for nobody.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings as django_settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.audit import staff_action_record
from accounts.models import StaffActionKind
from accounts.outbox import outbox_add
from games import end_adjudication
from games import rules as game_rules
from games import services as game_services
from games.adjudication import REASON_VOID
from games.models import DAYS_PER_MOVE_CHOICES, BotAdjudication, Game, GameKind, GameStatus

from . import pairing as rules
from . import selectors, tasks
from .errors import Conflict, InvalidInput, NotFound
from .models import (
    Pairing,
    Participant,
    ParticipantStatus,
    Result,
    Round,
    Tournament,
    TournamentFormat,
    TournamentMail,
    TournamentStatus,
)

if TYPE_CHECKING:
    from accounts.models import User

log = logging.getLogger(__name__)

EDITABLE_FIELDS = (
    "name",
    "kind",
    "options",
    "format",
    "cycles",
    "swiss_rounds",
    "days_per_move",
    "rated",
    "vacation_allowed",
    "registration_opens_at",
    "registration_closes_at",
    "min_players",
    "max_players",
    "rating_min",
    "rating_max",
    "ends_at",
)
ANY_TIME_FIELDS = {"name", "ends_at"}  # may change after the start (the end date until the end)
BEFORE_START = (TournamentStatus.DRAFT, TournamentStatus.REGISTRATION)


def _now() -> datetime:
    return timezone.now()


def _lock(tournament_id: int) -> Tournament:
    try:
        return Tournament.objects.select_for_update().get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise NotFound("tournament_not_found") from None


def _log(
    tournament: Tournament, actor: User | None, action: StaffActionKind, detail: str = "", player: User | None = None
) -> None:
    """One row of the staff audit log about ``tournament`` (``actor`` None: the site or the player)."""
    staff_action_record(
        staff=actor, action=action, target=tournament, player=player, details={"detail": detail} if detail else {}
    )
    log.info("tournament=%s action=%s actor=%s %s", tournament.pk, action, getattr(actor, "pk", None), detail)


def _require_status(tournament: Tournament, *statuses: str) -> None:
    if tournament.status not in statuses:
        raise Conflict("bad_status", status=tournament.get_status_display())


def _running_game_ids(tournament_id: int) -> list[int]:
    """Lock the tournament's running games (in pk order) and return their ids.

    Called before locking the tournament row (the lock order), and again after
    it to catch a game a pairing task created in between."""
    return list(
        Game.objects.select_for_update(of=("self",))
        .filter(tournament_pairing__tournament_id=tournament_id, status=GameStatus.ACTIVE)
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def tournaments_advance_requeue(*, now: datetime | None = None) -> int:
    """Enqueue again the pairing task of every running tournament that waits for it for more
    than ``TOURNAMENTS_ADVANCE_OVERDUE_SECONDS`` (selectors.tournaments_advance_due), through
    the path that enqueued it. A killed worker's task waits in the broker for
    CELERY_VISIBILITY_TIMEOUT; this makes the round wait about a sweep interval instead.
    Safe twice and beside a late redelivery: ``tournament_advance`` locks the tournament and
    never pairs a round that exists. Returns how many were enqueued."""
    now = now or _now()
    due = selectors.tournaments_advance_due(
        before=now - timedelta(seconds=django_settings.TOURNAMENTS_ADVANCE_OVERDUE_SECONDS)
    )
    for tournament_id in due:
        log.warning("tournament=%s left waiting for its pairing: enqueued again", tournament_id)
        tasks.tournament_advance.delay_on_commit(tournament_id)
    return len(due)


def tournament_settings_check(values: Mapping[str, Any]) -> dict[str, Any]:
    """Validate tournament settings; returns them with the game options normalized."""
    values = dict(values)
    if values.get("kind") not in GameKind.values:
        raise InvalidInput("bad_settings", reason="game")
    if values.get("format") not in TournamentFormat.values:
        raise InvalidInput("bad_settings", reason="format")
    if values.get("days_per_move") not in {d for d, _ in DAYS_PER_MOVE_CHOICES}:
        raise InvalidInput("bad_settings", reason="days per move")
    if values.get("cycles", 1) not in (1, 2):
        raise InvalidInput("bad_settings", reason="cycles")
    if (values.get("min_players") or 0) < 2:
        raise InvalidInput("bad_settings", reason="minimum players")
    if values.get("max_players") is not None and values["max_players"] < values["min_players"]:
        raise InvalidInput("bad_settings", reason="maximum players")
    if (
        values.get("rating_min") is not None
        and values.get("rating_max") is not None
        and values["rating_max"] < values["rating_min"]
    ):
        raise InvalidInput("bad_settings", reason="rating limits")
    opens, closes = values.get("registration_opens_at"), values.get("registration_closes_at")
    if opens and closes and closes <= opens:
        raise InvalidInput("bad_settings", reason="registration times")
    try:
        values["options"] = game_rules.rules_for(values["kind"]).normalize_options(dict(values.get("options") or {}))
    except Exception as error:  # engine OptionsError
        raise InvalidInput("bad_settings", str(error), reason="game options") from error
    return values


# ---------------------------------------------------------------- staff: setting up


def tournament_create(
    *, actor: User | None, name: str, kind: str, format: str, days_per_move: int = 3, **settings: Any
) -> Tournament:
    """Create a tournament (status draft); ``settings`` are other EDITABLE_FIELDS."""
    unknown = set(settings) - set(EDITABLE_FIELDS)
    if unknown:
        raise InvalidInput("bad_settings", reason=", ".join(sorted(unknown)))
    values = tournament_settings_check(
        {"name": name, "kind": kind, "format": format, "days_per_move": days_per_move, "min_players": 2, **settings}
    )
    with transaction.atomic():
        tournament = Tournament.objects.create(created_by=actor, **values)
        _log(tournament, actor, StaffActionKind.TOURNAMENT_CREATE, "%s, %s" % (tournament.format, tournament.kind))
        return tournament


def tournament_update(*, tournament_id: int, actor: User | None, changes: Mapping[str, Any]) -> Tournament:
    """Change settings before the start (the name may change at any time)."""
    with transaction.atomic():
        tournament = _lock(tournament_id)
        changes = {k: v for k, v in changes.items() if k in EDITABLE_FIELDS and getattr(tournament, k) != v}
        if not changes:
            return tournament
        if set(changes) - ANY_TIME_FIELDS:
            _require_status(tournament, *BEFORE_START)
        if "ends_at" in changes:
            _require_status(tournament, *BEFORE_START, TournamentStatus.RUNNING, TournamentStatus.PAUSED)
            if tournament.end_date_reached_at is not None:
                raise Conflict("end_date_reached")
        values = tournament_settings_check({**{f: getattr(tournament, f) for f in EDITABLE_FIELDS}, **changes})
        for name in changes:
            setattr(tournament, name, values[name])
        tournament.save()
        _log(tournament, actor, StaffActionKind.TOURNAMENT_UPDATE, ", ".join(sorted(changes)))
        return tournament


def tournament_open_registration(*, tournament_id: int, actor: User | None) -> Tournament:
    with transaction.atomic():
        tournament = _lock(tournament_id)
        _require_status(tournament, TournamentStatus.DRAFT)
        tournament.status = TournamentStatus.REGISTRATION
        tournament.save(update_fields=["status"])
        _log(tournament, actor, StaffActionKind.TOURNAMENT_OPEN_REGISTRATION)
        return tournament


# ---------------------------------------------------------------- players: registering


def tournament_register(*, tournament_id: int, user: User, now: datetime | None = None) -> Participant:
    """Register ``user`` while registration is open, within the player and rating limits."""
    now = now or _now()
    with transaction.atomic():
        tournament = _lock(tournament_id)
        if not selectors.registration_is_open(tournament, now):
            raise Conflict("registration_closed")
        if not user.is_active:
            raise InvalidInput("inactive_user")
        if tournament.participants.filter(user=user).exists():
            raise Conflict("already_registered")
        if (
            tournament.max_players is not None
            and tournament.participants.filter(status=ParticipantStatus.ACTIVE).count() >= tournament.max_players
        ):
            raise Conflict("tournament_full", max=tournament.max_players)
        if tournament.rating_min is not None or tournament.rating_max is not None:
            rating = round(selectors.player_rating(user=user, kind=tournament.kind))
            if tournament.rating_min is not None and rating < tournament.rating_min:
                raise InvalidInput("rating_too_low", rating=rating, min=tournament.rating_min)
            if tournament.rating_max is not None and rating > tournament.rating_max:
                raise InvalidInput("rating_too_high", rating=rating, max=tournament.rating_max)
        return Participant.objects.create(tournament=tournament, user=user)


def tournament_withdraw(*, tournament_id: int, user: User) -> None:
    """A player takes back their registration (only before the start)."""
    with transaction.atomic():
        tournament = _lock(tournament_id)
        if tournament.status not in BEFORE_START:
            raise Conflict("already_started")
        deleted, _ = Participant.objects.filter(tournament=tournament, user=user).delete()
        if not deleted:
            raise Conflict("not_registered")


def participant_add(*, tournament_id: int, user: User, actor: User | None) -> Participant:
    """Staff register a player before the start, without the window and rating checks."""
    with transaction.atomic():
        tournament = _lock(tournament_id)
        _require_status(tournament, *BEFORE_START)
        if tournament.participants.filter(user=user).exists():
            raise Conflict("already_registered")
        participant = Participant.objects.create(tournament=tournament, user=user)
        _log(tournament, actor, StaffActionKind.TOURNAMENT_ADD_PLAYER, user.get_username(), player=user)
        return participant


def participant_replace(*, participant_id: int, new_user: User, actor: User | None) -> Participant:
    """Staff put ``new_user`` in a participant's place before round 1."""
    participant = Participant.objects.filter(pk=participant_id).first()
    if participant is None:
        raise NotFound("not_registered")
    with transaction.atomic():
        tournament = _lock(participant.tournament_id)
        if tournament.status not in BEFORE_START or tournament.rounds.exists():
            raise Conflict("already_started")
        if not new_user.is_active:
            raise InvalidInput("inactive_user")
        if tournament.participants.filter(user=new_user).exists():
            raise Conflict("already_registered")
        participant = Participant.objects.select_related("user").get(pk=participant_id)
        old = participant.user.get_username()
        participant.user = new_user
        participant.save(update_fields=["user"])
        _log(
            tournament,
            actor,
            StaffActionKind.TOURNAMENT_REPLACE_PLAYER,
            "%s -> %s" % (old, new_user.get_username()),
            player=new_user,
        )
        return participant


def participant_withdraw(*, participant_id: int, actor: User | None) -> Participant:
    """Staff withdraw a player: their running games are resigned (the opponents win),
    they are paired no more, and later round robin games are forfeited to their
    opponents. Their results so far stay, so the standings stay consistent."""
    participant = Participant.objects.select_related("user").filter(pk=participant_id).first()
    if participant is None:
        raise NotFound("not_registered")
    with transaction.atomic():
        running = list(
            Game.objects.select_for_update()
            .filter(
                tournament_pairing__tournament_id=participant.tournament_id,
                status=GameStatus.ACTIVE,
                seats__user=participant.user,
            )
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        tournament = _lock(participant.tournament_id)
        participant = Participant.objects.select_for_update().get(pk=participant_id)
        if participant.status == ParticipantStatus.WITHDRAWN:
            return participant
        _require_status(tournament, *BEFORE_START, TournamentStatus.RUNNING, TournamentStatus.PAUSED)
        participant.status = ParticipantStatus.WITHDRAWN
        participant.withdrawn_at = _now()
        participant.save(update_fields=["status", "withdrawn_at"])
        _log(
            tournament,
            actor,
            StaffActionKind.TOURNAMENT_WITHDRAW_PLAYER,
            "%s, %d running game(s) forfeited" % (participant.user.get_username(), len(running)),
            player=participant.user,
        )
        for game_id in running:
            game_services.game_resign(game_id=game_id, user=participant.user)
        if tournament.status == TournamentStatus.RUNNING:
            tasks.tournament_advance.delay_on_commit(tournament.pk)
        return participant


def user_tournaments_leave(*, user: User, actor: User | None) -> list[int]:
    """Take a player who can no longer play (suspended, deleted) out of every tournament,
    in tournament order: one not started yet drops the entry (:func:`tournament_withdraw`),
    a running or paused one withdraws them (:func:`participant_withdraw`, ``actor``: the
    staff member, None for the player). Returns the tournaments left. Call after their
    games are resolved: games are locked before tournament rows."""
    left = []
    for entry in list(
        Participant.objects.filter(user=user, status=ParticipantStatus.ACTIVE)
        .select_related("tournament")
        .order_by("tournament_id")
    ):
        status = entry.tournament.status
        if status in BEFORE_START:
            tournament_withdraw(tournament_id=entry.tournament_id, user=user)
        elif status in (TournamentStatus.RUNNING, TournamentStatus.PAUSED):
            participant_withdraw(participant_id=entry.pk, actor=actor)
        else:
            continue
        left.append(entry.tournament_id)
    return left


# ---------------------------------------------------------------- staff: running


@dataclass
class StartResult:
    tournament: Tournament
    warnings: list[str] = field(default_factory=list)


def tournament_start(*, tournament_id: int, actor: User | None) -> StartResult:
    """Close registration, seed the players by rating and have round 1 paired.

    A Swiss with more rounds than the players allow without rematches starts,
    with a warning for staff (also in the staff log)."""
    from django.utils.translation import gettext as _

    with transaction.atomic():
        tournament = _lock(tournament_id)
        _require_status(tournament, *BEFORE_START)
        players = list(
            tournament.participants.select_related("user")
            .filter(status=ParticipantStatus.ACTIVE)
            .order_by("registered_at", "pk")
        )
        needed = max(2, tournament.min_players)
        if len(players) < needed:
            raise Conflict("too_few_players", min=needed, count=len(players))
        ratings = selectors.player_ratings(users=[p.user for p in players], kind=tournament.kind)
        players.sort(key=lambda p: -ratings[p.user_id])  # stable: registration order breaks ties
        for seed, participant in enumerate(players, start=1):
            participant.seed = seed
            participant.rating = ratings[participant.user_id]
            participant.save(update_fields=["seed", "rating"])
        warnings = []
        if tournament.format == TournamentFormat.SWISS:
            if not tournament.swiss_rounds:
                tournament.swiss_rounds = selectors.planned_rounds(tournament, len(players))
            limit = rules.swiss_round_limit(len(players))
            if tournament.swiss_rounds > limit:
                warnings.append(
                    _(
                        "%(rounds)s Swiss rounds with %(players)s players: from round %(from)s on, "
                        "players must meet again (at most %(limit)s rounds without rematches)."
                    )
                    % {"rounds": tournament.swiss_rounds, "players": len(players), "from": limit + 1, "limit": limit}
                )
        tournament.status = TournamentStatus.RUNNING
        tournament.started_at = _now()
        tournament.save()
        _log(tournament, actor, StaffActionKind.TOURNAMENT_START, "%d players. %s" % (len(players), " ".join(warnings)))
        tasks.tournament_advance.delay_on_commit(tournament.pk)
        return StartResult(tournament=tournament, warnings=warnings)


def tournament_pause(*, tournament_id: int, actor: User | None, now: datetime | None = None) -> Tournament:
    """Pause while staff investigate: no new round is paired and the clocks of the
    running games stand still (games.services.game_clock_pause), so nobody loses
    on time. Players may still move; a game that ends is recorded as usual. The clocks
    stop at ``now`` (by default each game's current time)."""
    with transaction.atomic():
        _running_game_ids(tournament_id)
        tournament = _lock(tournament_id)
        _require_status(tournament, TournamentStatus.RUNNING)
        if tournament.end_date_reached_at is not None:
            raise Conflict("end_date_reached")
        tournament.status = TournamentStatus.PAUSED
        tournament.paused_at = now or _now()
        tournament.save(update_fields=["status", "paused_at"])
        held = _running_game_ids(tournament_id)
        for game_id in held:
            game_services.game_clock_pause(game_id=game_id, now=now, reason="tournament %d paused" % tournament.pk)
        _log(tournament, actor, StaffActionKind.TOURNAMENT_PAUSE, "%d game clock(s) stopped" % len(held))
        return tournament


def tournament_resume(*, tournament_id: int, actor: User | None, now: datetime | None = None) -> Tournament:
    """Run again: the clocks restart with the time each player had left when they
    stopped (a player on vacation stays stopped), and a round that completed
    during the pause is followed at once. A staff hold on one of the games
    (games.services.game_clock_pause) is released too. The clocks restart at ``now``
    (by default each game's current time)."""
    with transaction.atomic():
        _running_game_ids(tournament_id)
        tournament = _lock(tournament_id)
        _require_status(tournament, TournamentStatus.PAUSED)
        tournament.status = TournamentStatus.RUNNING
        pause = _end_date_move_on(tournament, now=now or _now())
        tournament.save(update_fields=["status", "ends_at", "paused_at"])
        released = _running_game_ids(tournament_id)
        for game_id in released:
            game_services.game_clock_resume(game_id=game_id, now=now)
        _log(
            tournament,
            actor,
            StaffActionKind.TOURNAMENT_RESUME,
            "%d game clock(s) running again%s" % (len(released), pause),
        )
        tasks.tournament_advance.delay_on_commit(tournament.pk)
        return tournament


def _end_date_move_on(tournament: Tournament, *, now: datetime) -> str:
    """The one place where a pause moves the end date on: by the pause's length (from
    ``paused_at`` to ``now``). Returns what it did, for the audit row."""
    paused_at, tournament.paused_at = tournament.paused_at, None
    if tournament.ends_at is None or paused_at is None or now <= paused_at:
        return ""
    tournament.ends_at = tournament.ends_at + (now - paused_at)
    return "; end date moved on by %s to %s" % (now - paused_at, tournament.ends_at.isoformat())


def tournament_end(*, tournament_id: int, actor: User | None) -> Tournament:
    """End early, at once and for good. The rule: the results so far stand and
    nothing more is played. Games still running are cancelled (aborted through
    games.services.game_cancel) and count for nobody: their pairings become
    "not played" (Result.VOID), unrated. No further round is paired; the
    standings as they stand are final (a knockout may have no champion).
    Every participant with an address is mailed their final place; the action
    is logged with the number of games cancelled. Also cancels a tournament
    that has not started (nothing to cancel then)."""
    with transaction.atomic():
        _running_game_ids(tournament_id)
        tournament = _lock(tournament_id)
        _require_status(tournament, *BEFORE_START, TournamentStatus.RUNNING, TournamentStatus.PAUSED)
        tournament.status = TournamentStatus.FINISHED
        tournament.ended_early = True
        tournament.finished_at = _now()
        tournament.save(update_fields=["status", "ended_early", "finished_at"])
        cancelled = _running_game_ids(tournament_id)
        for game_id in cancelled:
            # Its result is recorded as VOID by tournament_game_record (the tournament is over).
            game_services.game_cancel(game_id=game_id, reason="tournament %d ended early" % tournament.pk)
        _log(tournament, actor, StaffActionKind.TOURNAMENT_END_EARLY, "%d running game(s) cancelled" % len(cancelled))
        _mail_ended_early(tournament)
        return tournament


def _mail_ended_early(tournament: Tournament) -> None:
    """Tell every participant that the tournament ended early, with their final place
    (tournaments.mail renders it when the outbox sends it)."""
    for participant in Participant.objects.filter(tournament=tournament).select_related("user"):
        if participant.user.email:
            outbox_add(kind="tournament_ended_early", user=participant.user, object_id=tournament.pk)


# ---------------------------------------------------------------- results


def _result_of_game(game: Game, tournament: Tournament) -> str:
    """The pairing's result from its finished or aborted game (first player = first side).

    A game ending after its tournament finished was cancelled by tournament_end:
    it counts for nobody."""
    if tournament.status == TournamentStatus.FINISHED:
        return Result.VOID
    return _played_result(game)


def _played_result(game: Game) -> str:
    """The pairing's result as the game ended, whatever the tournament's status."""
    first_side, second_side = game_rules.rules_for(game.kind).players
    if game.status == GameStatus.FINISHED:
        if game.winner_side == first_side:
            return Result.FIRST_WINS
        if game.winner_side == second_side:
            return Result.SECOND_WINS
        return Result.DRAW
    # Aborted: whoever never moved forfeits.
    moved = game.sides_moved()
    if first_side in moved and second_side not in moved:
        return Result.FIRST_WINS_FORFEIT
    if second_side in moved and first_side not in moved:
        return Result.SECOND_WINS_FORFEIT
    return Result.DOUBLE_FORFEIT


def tournament_game_record(*, game: Game) -> Pairing | None:
    """Record the result of a tournament game that just ended (from the game_finished
    receiver, inside the finishing transaction); when its round has no game left
    to play, or a knockout game needs a replay, enqueue the pairing task."""
    pairing = Pairing.objects.filter(game_id=game.pk).only("pk", "tournament_id").first()
    if pairing is None:
        return None
    with transaction.atomic():
        tournament = _lock(pairing.tournament_id)
        pairing = Pairing.objects.select_for_update().get(pk=pairing.pk)
        if pairing.result != Result.PENDING:
            return pairing
        pairing.result = _result_of_game(game, tournament)
        pairing.save(update_fields=["result"])
        round_done = not Pairing.objects.filter(round_id=pairing.round_id, result=Result.PENDING).exists()
        if tournament.status == TournamentStatus.RUNNING and (
            round_done or tournament.format == TournamentFormat.KNOCKOUT
        ):
            tasks.tournament_advance.delay_on_commit(tournament.pk)  # paused: tournament_resume enqueues it
        return pairing


def tournament_game_result_rewrite(*, game: Game, previous: Mapping[str, Any]) -> Pairing | None:
    """Staff changed the result of an ended tournament game (games.signals.game_result_changed):
    the pairing's result follows. A void game counts for nobody (Result.VOID), an award
    counts as played; both are allowed at any time, even after later rounds were paired
    from the old result (those rounds stay as they are). A game that runs again (a
    reversed timeout) makes its pairing pending, which is refused once a later round or
    replay was paired from it, or the tournament is over. Logged with the old result."""
    pairing = Pairing.objects.filter(game_id=game.pk).only("pk", "tournament_id").first()
    if pairing is None:
        return None
    with transaction.atomic():
        tournament = _lock(pairing.tournament_id)
        pairing = Pairing.objects.select_for_update().select_related("round").get(pk=pairing.pk)
        old = pairing.result
        if game.status == GameStatus.ACTIVE:
            later = (
                Round.objects.filter(tournament=tournament, number__gt=pairing.round.number).exists()
                or Pairing.objects.filter(round_id=pairing.round_id, board=pairing.board, leg__gt=pairing.leg).exists()
            )
            if later or tournament.status == TournamentStatus.FINISHED:
                raise Conflict("result_used")
            pairing.result = Result.PENDING
        elif game.result_reason == REASON_VOID:
            pairing.result = Result.VOID
        else:
            pairing.result = _played_result(game)
        pairing.save(update_fields=["result"])
        _log(
            tournament,
            None,
            StaffActionKind.TOURNAMENT_RESULT_CHANGED,
            "game %d: %s -> %s (was %s)"
            % (game.pk, old or "pending", pairing.result or "pending", previous.get("reason")),
        )
        return pairing


# ---------------------------------------------------------------- end date


def tournament_end_date_reach(*, tournament_id: int, now: datetime | None = None, batch: int | None = None) -> str:
    """The tournament's end date passed: adjudicate every game still running
    (games.end_adjudication.game_adjudicate: the bot, or Maatatahay's scoring rule), then
    finish the tournament with the results as they stand; no further round is paired.

    Each game is adjudicated in its own short transaction (its row lock and ply check, a few
    seconds of search before it, outside any lock), never all of them under one lock. The
    first run marks the tournament (``end_date_reached_at``, under its lock), after which
    tournament_advance pairs nothing and a pause is refused. ``batch``: adjudicate at most
    that many games in this run. The tournament is finished, in one short transaction, once
    none of its games runs; until then the sweep (tournaments_end_date_due) enqueues the task
    again, which takes the games still running: a run stopped half-way (the worker died,
    or ``batch``) is completed by the next one, and a game already decided is never judged
    again.

    The adjudicated games end like any game (``game_finished``: ratings follow, and
    :func:`tournament_game_record` records their pairings while the tournament still
    runs). A knockout game adjudicated as a draw is not replayed: its pairing is marked
    ``end_adjudicated`` in the game's transaction and the higher seed advances
    (tournaments.pairing.knockout_match_winner). Idempotent: a tournament that is not
    running, or whose end date has not passed (a pause moved it on), is left alone.
    Returns what it did."""
    now = now or _now()
    with transaction.atomic():
        tournament = _lock(tournament_id)
        if tournament.status != TournamentStatus.RUNNING:
            return "not_running"
        if tournament.ends_at is None or tournament.ends_at > now:
            return "not_due"
        if tournament.end_date_reached_at is None:
            tournament.end_date_reached_at = now
            tournament.save(update_fields=["end_date_reached_at"])
        note = "tournament %d reached its end date %s" % (tournament.pk, tournament.ends_at.isoformat())
    running = list(
        Game.objects.filter(tournament_pairing__tournament_id=tournament_id, status=GameStatus.ACTIVE)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    adjudicated = 0
    for game_id in running if batch is None else running[:batch]:
        row = end_adjudication.game_adjudicate(
            game_id=game_id, note=note, now=now, with_verdict=_pairing_end_adjudicated
        )
        adjudicated += row is not None
    with transaction.atomic():
        left = _running_game_ids(tournament_id)
        tournament = _lock(tournament_id)
        if tournament.status != TournamentStatus.RUNNING:
            return "adjudicated %d" % adjudicated  # another run finished it meanwhile
        if left:
            return "adjudicated %d, %d still running" % (adjudicated, len(left))
        Round.objects.filter(tournament=tournament, completed_at__isnull=True).exclude(
            pairings__result=Result.PENDING
        ).update(completed_at=now)
        tournament.status = TournamentStatus.FINISHED
        tournament.finished_at = now
        tournament.save(update_fields=["status", "finished_at"])
        total = Pairing.objects.filter(tournament=tournament, end_adjudicated=True).count()
        _log(tournament, None, StaffActionKind.TOURNAMENT_END_DATE, "%d running game(s) adjudicated" % total)
        return "adjudicated %d" % adjudicated


def _pairing_end_adjudicated(game: Game, adjudication: BotAdjudication) -> None:
    """In the game's adjudication transaction: its pairing was decided at the end date."""
    Pairing.objects.filter(game_id=game.pk).update(end_adjudicated=True)


def tournaments_end_date_due(*, now: datetime | None = None) -> int:
    """Enqueue the end-date task of every running tournament whose end date has passed
    (the beat sweep, TOURNAMENTS_SWEEP_SECONDS). Safe twice: the task does nothing to a
    tournament it already finished. Returns how many were enqueued."""
    now = now or _now()
    due = list(
        Tournament.objects.filter(status=TournamentStatus.RUNNING, ends_at__lte=now)
        .order_by("ends_at", "pk")
        .values_list("pk", flat=True)
    )
    for tournament_id in due:
        tasks.tournament_end_date.delay_on_commit(tournament_id)
    return len(due)


# ---------------------------------------------------------------- pairing rounds


def _seeded(tournament: Tournament) -> list[Participant]:
    return list(tournament.participants.select_related("user").filter(seed__isnull=False).order_by("seed"))


def _matches(pairings: list[Pairing]) -> dict[int, list[Pairing]]:
    by_board: dict[int, list[Pairing]] = {}
    for pairing in sorted(pairings, key=lambda p: (p.board, p.leg)):
        by_board.setdefault(pairing.board, []).append(pairing)
    return by_board


def _round_pairs(tournament: Tournament, number: int) -> list[tuple[Participant | None, Participant | None]]:
    """The pairs of round ``number`` (seats in order); (p, None) is a bye."""
    seeded = _seeded(tournament)
    by_id = {p.pk: p for p in seeded}
    if tournament.format == TournamentFormat.ROUND_ROBIN:
        schedule = rules.berger_schedule([p.pk for p in seeded], cycles=tournament.cycles)
        return [(by_id[a], by_id[b]) for a, b in schedule[number - 1]]
    previous = list(Pairing.objects.filter(tournament=tournament).order_by("round__number", "board", "leg"))
    if tournament.format == TournamentFormat.SWISS:
        active = [p for p in seeded if p.is_active]
        paired = rules.swiss_pair(selectors.swiss_players(active, previous))
        pairs: list[tuple[Participant | None, Participant | None]] = [(by_id[a], by_id[b]) for a, b in paired.pairs]
        if paired.bye is not None:
            pairs.append((by_id[paired.bye], None))
        return pairs
    # Knockout: winners of the previous round, in bracket order; the withdrawn drop out.
    firsts: list[tuple[int | None, int | None]]
    if number == 1:
        firsts = list(rules.knockout_first_round([p.pk for p in seeded]))
    else:
        last = [p for p in previous if p.round.number == number - 1] if previous else []
        seed_of = selectors.seeds_of(seeded)
        boards = _matches(last)
        size = rules.knockout_size(len(seeded)) // 2 ** (number - 1)
        winners = []
        for board in range(1, size + 1):
            legs = boards.get(board)
            winner = selectors.match_winner(legs, seed_of) if legs else None
            winners.append(winner if winner is not None and by_id[winner].is_active else None)
        firsts = rules.knockout_next_round(winners, seed_of)
    return [(by_id.get(a) if a is not None else None, by_id.get(b) if b is not None else None) for a, b in firsts]


def _is_last_round(tournament: Tournament, number: int) -> bool:
    return number >= selectors.planned_rounds(tournament, len(_seeded(tournament)))


def _create_pairing(
    tournament: Tournament, round_: Round, board: int, leg: int, first: Participant, second: Participant | None
) -> Pairing:
    """One pairing: a bye, a forfeit against a withdrawn player, or a new game."""
    if second is None:
        return Pairing.objects.create(
            tournament=tournament, round=round_, board=board, leg=leg, first=first, result=Result.BYE
        )
    if not first.is_active or not second.is_active:
        result = (
            Result.DOUBLE_FORFEIT
            if not first.is_active and not second.is_active
            else Result.FIRST_WINS_FORFEIT
            if first.is_active
            else Result.SECOND_WINS_FORFEIT
        )
        return Pairing.objects.create(
            tournament=tournament, round=round_, board=board, leg=leg, first=first, second=second, result=result
        )
    sides = game_rules.rules_for(tournament.kind).players
    game = game_services.game_create(
        kind=tournament.kind,
        seats={sides[0]: first.user, sides[1]: second.user},
        options=tournament.options,
        days_per_move=tournament.days_per_move,
        rated=tournament.rated,
        vacation_allowed=tournament.vacation_allowed,
    )
    pairing = Pairing.objects.create(
        tournament=tournament, round=round_, board=board, leg=leg, first=first, second=second, game=game
    )
    for me in (first, second):
        _mail_round(round_, me, pairing)
    return pairing


def _mail_round(round_: Round, participant: Participant, pairing: Pairing) -> None:
    """Mail a player their new game, once per round (and per replay leg: once per round)."""
    user = participant.user
    if not user.email:
        return
    try:
        with transaction.atomic():
            TournamentMail.objects.create(round=round_, user=user)
    except IntegrityError:
        return
    outbox_add(kind="tournament_round_paired", user=user, object_id=pairing.pk)


def _knockout_replays(tournament: Tournament, round_: Round) -> int:
    """Replay each drawn, undecided match of the round with the seats swapped."""
    due = selectors.knockout_replays_due(round_=round_)
    for last in due:
        assert last.second is not None  # knockout_replays_due leaves byes out
        _create_pairing(tournament, round_, last.board, last.leg + 1, last.second, last.first)
    return len(due)


def _finish(tournament: Tournament) -> None:
    tournament.status = TournamentStatus.FINISHED
    tournament.finished_at = _now()
    tournament.save(update_fields=["status", "finished_at"])


def tournament_advance(*, tournament_id: int) -> str:
    """Pair the next round when the current one is complete (or round 1 after the start),
    create its games and mail the players; finish the tournament after its last round.

    Idempotent and safe to run concurrently: the tournament row is locked, and a
    round that exists is never paired again. Returns what it did.
    """
    with transaction.atomic():
        tournament = _lock(tournament_id)
        if tournament.status != TournamentStatus.RUNNING:
            return "not_running"
        if tournament.end_date_reached_at is not None:
            return "end_date_reached"  # tournament_end_date_reach finishes it
        last = tournament.rounds.order_by("-number").first()
        if last is not None:
            if tournament.format == TournamentFormat.KNOCKOUT and _knockout_replays(tournament, last):
                return "replays"
            if last.pairings.filter(result=Result.PENDING).exists():
                return "waiting"
            if last.completed_at is None:
                last.completed_at = _now()
                last.save(update_fields=["completed_at"])
            if _is_last_round(tournament, last.number):
                _finish(tournament)
                return "finished"
        number = last.number + 1 if last is not None else 1
        pairs = _round_pairs(tournament, number)
        round_ = Round.objects.create(tournament=tournament, number=number)
        board = 0
        for first, second in pairs:
            board += 1
            if first is None:
                if second is None:
                    continue  # knockout: both would-be players left the bracket
                first, second = second, None
            _create_pairing(tournament, round_, board, 0, first, second)
        if not round_.pairings.filter(result=Result.PENDING).exists():
            tasks.tournament_advance.delay_on_commit(tournament.pk)  # only byes and forfeits: go on at once
        return "paired round %d" % number
