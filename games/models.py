"""Games played by correspondence, their seats, moves, challenges and draw offers.

Vocabulary (see also games/services.py):

* a *decision* is one engine move; ``Game.ply`` counts the decisions played so
  far, and ``Move.ply`` numbers them from 1 (the position "at ply N" is the
  one after N decisions);
* a *turn* is a run of consecutive decisions by one player. ``Game.turn``
  counts turns from 1; the clock (``deadline``), reminders and mail count turns.

The engine's full state (``Game.sealed_state``) and the seed (``Game.sealed_seed``)
are sealed (games/sealing.py), so that a database dump reveals neither the seed nor
the hidden order (Maatatahay's face-down piles and bag). Nothing outside
games.services and games.selectors reads them, and the admin never shows them.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from accounts.names import bot_label

DAYS_PER_MOVE_CHOICES = [(d, d) for d in (1, 2, 3, 5, 7, 10, 14)]
BOT_LEVELS = (1, 2, 3, 4, 5)
CHALLENGE_LIFETIME_DAYS = 14


class GameKind(models.TextChoices):
    ONITAMA = "onitama", _("Onitama")
    MAATATAHAY = "maatatahay", _("Maatatahay")


class GameStatus(models.TextChoices):
    ACTIVE = "active", _("In progress")
    FINISHED = "finished", _("Finished")
    ABORTED = "aborted", _("Aborted")


class PlayerResult(models.TextChoices):
    """A game that is over, seen from one player's side (the account export)."""

    WON = "won", _("won")
    LOST = "lost", _("lost")
    DRAWN = "drawn", _("drawn")
    ABORTED = "aborted", _("aborted")


def player_result(game: Game, side: str) -> str | None:
    """The one rule of a game's result seen from ``side``: won, lost, drawn, aborted
    (a ``PlayerResult``), or None while the game runs. :func:`player_result_condition` is
    the same rule as a query condition (the archive filters by it)."""
    if game.status == GameStatus.ACTIVE:
        return None
    if game.status == GameStatus.ABORTED:
        return PlayerResult.ABORTED
    if not game.winner_side:
        return PlayerResult.DRAWN
    return PlayerResult.WON if game.winner_side == side else PlayerResult.LOST


def player_result_condition(result: str, *, side: Any) -> Q:
    """:func:`player_result` as a condition on games: those whose result seen from ``side``
    (an expression naming the player's side, e.g. ``F("my_side")``) is ``result``."""
    finished = Q(status=GameStatus.FINISHED)
    if result == PlayerResult.ABORTED:
        return Q(status=GameStatus.ABORTED)
    if result == PlayerResult.DRAWN:
        return finished & Q(winner_side="")
    if result == PlayerResult.WON:
        return finished & ~Q(winner_side="") & Q(winner_side=side)
    if result == PlayerResult.LOST:
        return finished & ~Q(winner_side="") & ~Q(winner_side=side)
    raise ValueError(result)


class ResultReason(models.TextChoices):
    """Why a game ended (``Game.result_reason``), like python-chess's ``Termination``.

    The first seven come from the engine's rules (``engine.onitama.rules.ENGINE_REASONS``,
    ``engine.maatatahay.rules.ENGINE_REASONS``); the others are the site's decisions.
    """

    MASTER_CAPTURED = "master_captured", _("master captured")
    TEMPLE_REACHED = "temple_reached", _("temple reached")
    REPETITION = "repetition", _("threefold repetition")
    SCORE = "score", _("score")
    MORE_WARRIORS = "more_warriors", _("more surviving warriors")
    LATEST_RELIC = "latest_relic", _("most recent relic")
    TIE = "tie", _("tie")
    AGREEMENT = "agreement", _("draw by agreement")
    RESIGN = "resign", _("resignation")
    TIMEOUT = "timeout", _("out of time")
    ABORTED = "aborted", _("aborted")
    ABORTED_TIMEOUT = "aborted_timeout", _("aborted: no first move in time")
    VOID = "void", _("Voided by staff")
    ADJUDICATED = "adjudicated", _("adjudicated by staff")
    FORFEIT = "forfeit", _("forfeit")


class Game(models.Model):
    kind = models.CharField(_("game"), max_length=20, choices=GameKind.choices)
    options = models.JSONField(_("options"), default=dict, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=GameStatus.choices, default=GameStatus.ACTIVE, db_index=True
    )
    days_per_move = models.PositiveSmallIntegerField(_("days per move"), choices=DAYS_PER_MOVE_CHOICES, default=3)
    rated = models.BooleanField(_("rated"), default=False)
    bot_level = models.PositiveSmallIntegerField(
        _("bot level"), null=True, blank=True, help_text=_("Set for a game against a bot.")
    )

    # The engine's full state (hidden order included), sealed like the seed
    # (games.sealing): read only by games.rules.game_state, written only by games.services.game_state_keep.
    sealed_state = models.TextField(editable=False)
    data_version = models.CharField(_("component data version"), max_length=40, blank=True)

    ply = models.PositiveIntegerField(_("decisions played"), default=0)
    turn = models.PositiveIntegerField(_("turn"), default=1)
    to_move_side = models.CharField(_("side to move"), max_length=20, blank=True)
    to_move_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("player to move"),
    )
    turn_started_at = models.DateTimeField(_("turn started"), null=True, blank=True)
    deadline = models.DateTimeField(_("deadline"), null=True, blank=True, db_index=True)
    # The clock (see games.services.game_deadline): a vacation of the player to
    # move or a staff hold stops it (clock_paused_at); the pauses of this turn add
    # up in turn_paused.
    vacation_allowed = models.BooleanField(
        _("vacation allowed"),
        default=True,
        help_text=_("Whether a player's vacation stops this game's clock (tournaments may forbid it)."),
    )
    clock_paused_at = models.DateTimeField(_("clock stopped since"), null=True, blank=True)
    turn_paused = models.DurationField(_("time stopped this turn"), default=timedelta(0))
    # Staff may hold the clock too (games.services.game_clock_pause, e.g. for a paused
    # tournament): while clock_held_since is set the clock stands still whatever the
    # vacations, and only game_clock_resume lets it run again.
    clock_held_since = models.DateTimeField(_("clock held by staff since"), null=True, blank=True)
    clock_hold_reason = models.CharField(_("why staff hold the clock"), max_length=200, blank=True)
    # A bot that kept failing at its turn (games.services.bot_turn_flag): the game waits,
    # its clock held, and no bot task plays it until staff let the bot play again.
    bot_failed_at = models.DateTimeField(_("bot failed since"), null=True, blank=True)
    bot_failure = models.CharField(_("bot failure"), max_length=300, blank=True)

    # Provably fair seed: the commitment is public from creation; the sealed
    # "salt:seed" is revealed into revealed_salt / revealed_seed at the end.
    seed_commitment = models.CharField(_("seed commitment"), max_length=64)
    sealed_seed = models.TextField(editable=False)
    revealed_salt = models.CharField(_("salt"), max_length=32, blank=True)
    revealed_seed = models.CharField(_("seed"), max_length=80, blank=True)

    winner_side = models.CharField(_("winner"), max_length=20, blank=True)
    result_reason = models.CharField(_("termination"), max_length=30, blank=True, choices=ResultReason.choices)
    scores = models.JSONField(_("scores"), null=True, blank=True)

    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    # The game this one is the rematch of (games.services.rematch_offer): one rematch per game.
    rematch_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch", verbose_name=_("rematch of")
    )

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        indexes = [
            models.Index(fields=["status", "deadline"]),
            # The running games that wait for a player's move (the lobby's count,
            # games.selectors.games_waiting_count): without it the planner ANDs the player's
            # index with the status index, which reads every running game's entry.
            models.Index(fields=["to_move_user"], name="games_game_waiting", condition=Q(status=GameStatus.ACTIVE)),
            # The running games whose bot is to move (the bot turns sweep, games.selectors).
            models.Index(
                fields=["turn_started_at"],
                name="games_bot_to_move",
                condition=Q(status=GameStatus.ACTIVE, bot_level__isnull=False, to_move_user__isnull=True),
            ),
        ]

    def __str__(self) -> str:
        return "%s #%s" % (self.get_kind_display(), self.pk)

    def __repr__(self) -> str:  # never include state or seed
        return "<Game %s %s %s ply=%s>" % (self.pk, self.kind, self.status, self.ply)

    def get_absolute_url(self) -> str:
        from django.urls import reverse

        return reverse("games:game", args=[self.pk])

    @property
    def is_active(self) -> bool:
        return self.status == GameStatus.ACTIVE

    @property
    def is_over(self) -> bool:
        return self.status in (GameStatus.FINISHED, GameStatus.ABORTED)

    def sides_moved(self) -> set[str]:
        """The sides that have made at least one move: the one rule of "has this side
        moved", counted by seat side (a bot's moves count for its side). Abort, time-out,
        suspension, ladder (the defender's side) and tournaments (forfeits) all ask it."""
        return set(self.moves.order_by().values_list("seat__side", flat=True).distinct())

    @property
    def allows_rematch(self) -> bool:
        """Whether a rematch may be offered once this game is over: the one rule. Casual
        games do: a game against a bot, or one that a lobby challenge started (a games
        ``Challenge`` points to it). Ladder and tournament games start without one (those
        apps call ``games.services.game_create``), and their own rules decide who plays next."""
        return self.bot_level is not None or Challenge.objects.filter(game=self).exists()

    @property
    def allows_draws(self) -> bool:
        """Whether draws may be offered and agreed in this game: the one rule (only
        Onitama games between two people)."""
        return self.kind == GameKind.ONITAMA and self.bot_level is None


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    side = models.CharField(_("side"), max_length=20)
    position = models.PositiveSmallIntegerField(_("position"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="game_seats"
    )
    bot_level = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        # By the game's key, not by "game": that ordered by the game's own ordering, joining
        # the games table to every read of seats (a lobby's seats took 14 ms, 8 ms without it).
        ordering = ["-game_id", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "side"], name="games_seat_unique_side"),
            models.CheckConstraint(
                condition=(
                    Q(user__isnull=False, bot_level__isnull=True) | Q(user__isnull=True, bot_level__isnull=False)
                ),
                name="games_seat_user_xor_bot",
            ),
        ]

    def __str__(self) -> str:
        return "%s: %s" % (self.side, self.player_name)

    @property
    def is_bot(self) -> bool:
        return self.bot_level is not None

    @property
    def player_name(self) -> str:
        if self.user is not None:
            return self.user.public_name if self.user.is_deleted else self.user.get_username()
        assert self.bot_level is not None  # games_seat_user_xor_bot: a seat without a user is a bot's
        return bot_label(self.bot_level)


class Move(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    ply = models.PositiveIntegerField(_("ply"))
    turn = models.PositiveIntegerField(_("turn"))
    seat = models.ForeignKey(Seat, on_delete=models.PROTECT, related_name="moves")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    text = models.CharField(_("move"), max_length=200)
    # The engine's move_parts of the move as it was played (from its text and the position
    # it was played in; nothing hidden): the board highlights the last move's squares from
    # them without replaying the game. Empty for moves recorded before they were kept.
    parts = models.JSONField(default=dict, blank=True)
    bot_seed = models.PositiveBigIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-game_id", "ply"]  # by the game's key, without a join (as Seat's)
        constraints = [models.UniqueConstraint(fields=["game", "ply"], name="games_move_unique_ply")]
        indexes = [
            # The events feed reads a game's moves of a time window (games.events).
            models.Index(fields=["game", "created_at"], name="games_move_game_created"),
        ]

    def __str__(self) -> str:
        return "%s. %s" % (self.ply, self.text)


class ChallengeStatus(models.TextChoices):
    OPEN = "open", _("Open")
    ACCEPTED = "accepted", _("Accepted")
    DECLINED = "declined", _("Declined")
    CANCELLED = "cancelled", _("Cancelled")
    EXPIRED = "expired", _("Expired")


class Challenge(models.Model):
    challenger = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_sent")
    opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="challenges_received",
        help_text=_("Empty for an open challenge anyone may accept."),
    )
    kind = models.CharField(_("game"), max_length=20, choices=GameKind.choices)
    options = models.JSONField(_("options"), default=dict, blank=True)
    days_per_move = models.PositiveSmallIntegerField(_("days per move"), choices=DAYS_PER_MOVE_CHOICES, default=3)
    rated = models.BooleanField(_("rated"), default=False)
    seat_choice = models.CharField(_("challenger plays"), max_length=20, default="random")
    status = models.CharField(
        max_length=10, choices=ChallengeStatus.choices, default=ChallengeStatus.OPEN, db_index=True
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(_("expires"))
    responded_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    game = models.OneToOneField(Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="challenge")
    # Set for a rematch offer: the ended game it would replay, seats swapped (one offer per game).
    rematch_of = models.OneToOneField(
        Game,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="rematch_offer",
        verbose_name=_("rematch of"),
    )

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            # The lobby's newest open challenges to anyone (selectors.challenges_for_lobby): walked
            # newest first and stopped at the page, not every open challenge sorted (8 ms at
            # 1,000,000 games, where 2,000 were open).
            models.Index(
                fields=["-created_at", "-id"],
                name="games_challenge_open_newest",
                condition=Q(status=ChallengeStatus.OPEN, opponent__isnull=True),
            ),
        ]

    def __str__(self) -> str:
        return "%s challenge #%s by %s" % (self.kind, self.pk, self.challenger)


class DrawOfferStatus(models.TextChoices):
    PENDING = "pending", _("Pending")
    ACCEPTED = "accepted", _("Accepted")
    DECLINED = "declined", _("Declined")


class DrawOffer(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="draw_offers")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+")
    ply = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=DrawOfferStatus.choices, default=DrawOfferStatus.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    responded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["game"], condition=Q(status=DrawOfferStatus.PENDING), name="games_one_pending_draw_offer"
            )
        ]

    def __str__(self) -> str:
        return "game %s, ply %s: %s" % (self.game_id, self.ply, self.status)


class Alarm(models.Model):
    """A mail due about a game: "your turn" when a turn starts, reminders when a
    share of the turn's time is used and shortly before the deadline, "game
    over" at the end. games.notifications schedules them whenever a deadline is
    set; the correspondence app sweeps the due ones into the outbox of accounts
    (outcome ``queued``, or why no mail: stale, off, digest, failing), which sends them.
    Unique per game, user, turn and kind: a mail is queued at most once. (``claimed_at``
    is no longer used: queueing is one transaction.)"""

    class Kind(models.TextChoices):
        YOUR_TURN = "your_turn", _("Your turn")
        REMINDER = "reminder", _("Time is running out")
        LAST_CALL = "last_call", _("Last hours to move")
        GAME_OVER = "game_over", _("Game over")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="alarms")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    turn = models.PositiveIntegerField()
    due_at = models.DateTimeField()
    claimed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    outcome = models.CharField(
        max_length=20, blank=True, help_text=_("sent, or why nothing was sent (stale, off, digest).")
    )

    class Meta:
        ordering = ["due_at"]
        constraints = [models.UniqueConstraint(fields=["game", "user", "kind", "turn"], name="games_alarm_once")]
        indexes = [models.Index(fields=["due_at"], condition=Q(sent_at__isnull=True), name="games_alarm_due")]

    def __str__(self) -> str:
        return "%s %s turn %s" % (self.kind, self.game_id, self.turn)


class ClockSweep(models.Model):
    """The one row (pk 1) of the timeout sweep: when the last sweep judged the
    deadlines and what it did. Every sweep and every staff decision on a held
    batch locks it first, so they run one after another (games.outages)."""

    swept_at = models.DateTimeField(_("last sweep judged deadlines at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("last sweep finished"), null=True, blank=True)
    games_timed_out = models.PositiveIntegerField(_("games timed out"), default=0)
    games_extended = models.PositiveIntegerField(_("games extended"), default=0)
    games_held = models.PositiveIntegerField(_("games held"), default=0)

    class Meta:
        verbose_name = _("timeout sweep")
        verbose_name_plural = _("timeout sweeps")

    def __str__(self) -> str:
        return "sweep %s" % (self.swept_at.isoformat() if self.swept_at else "-")


class ClockOutage(models.Model):
    """A gap without timeout sweeps longer than ``settings.GAMES_OUTAGE_GAP_SECONDS``: the
    deadlines that fell inside it were moved by its length before anything timed out."""

    started_at = models.DateTimeField(_("outage started"))
    ended_at = models.DateTimeField(_("outage ended"))
    games = models.ManyToManyField(Game, related_name="clock_outages", blank=True, verbose_name=_("games extended"))

    class Meta:
        ordering = ["-started_at"]
        verbose_name = _("clock outage")
        verbose_name_plural = _("clock outages")

    def __str__(self) -> str:
        return "%s - %s" % (self.started_at.isoformat(), self.ended_at.isoformat())

    @property
    def length(self) -> timedelta:
        return self.ended_at - self.started_at


class TimeoutBatchStatus(models.TextChoices):
    PENDING = "pending", _("Waiting for staff")
    CONFIRMED = "confirmed", _("Timed out by staff")
    EXTENDED = "extended", _("Extended by staff")


class TimeoutBatch(models.Model):
    """Time-outs a sweep held back because too many games were due at once
    (``settings.GAMES_TIMEOUT_MAX_SHARE``); staff confirm or extend them. At most
    one batch waits at a time: later sweeps add to it."""

    status = models.CharField(
        _("status"), max_length=10, choices=TimeoutBatchStatus.choices, default=TimeoutBatchStatus.PENDING
    )
    created_at = models.DateTimeField(_("held at"))
    since = models.DateTimeField(
        _("clocks last judged normally"),
        help_text=_("The sweep before the batch; extending gives back the time since then."),
    )
    active_games = models.PositiveIntegerField(_("games running when held"))
    decided_at = models.DateTimeField(_("decided"), null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("decided by"),
    )
    reason = models.TextField(_("why"), blank=True)
    games_changed = models.PositiveIntegerField(
        _("games changed"),
        default=0,
        help_text=_("Games timed out or extended by the decision (games moved on are left alone)."),
    )

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("held timeout batch")
        verbose_name_plural = _("held timeout batches")
        constraints = [
            models.UniqueConstraint(
                fields=["status"],
                condition=Q(status=TimeoutBatchStatus.PENDING),
                name="games_one_pending_timeout_batch",
            )
        ]

    def __str__(self) -> str:
        return "%s %s" % (self.created_at.isoformat(), self.get_status_display())


class TimeoutHold(models.Model):
    """One game of a held batch: the turn and deadline it was due at."""

    batch = models.ForeignKey(TimeoutBatch, on_delete=models.CASCADE, related_name="holds")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="timeout_holds")
    turn = models.PositiveIntegerField(_("turn"))
    deadline = models.DateTimeField(_("deadline"))

    class Meta:
        ordering = ["deadline"]
        constraints = [models.UniqueConstraint(fields=["batch", "game", "turn"], name="games_timeout_hold_once")]

    def __str__(self) -> str:
        return "game %s turn %s" % (self.game_id, self.turn)


class ImportedRecord(models.Model):
    """A game record a player imported (games.records.record_import) to step through on an
    analysis board. Checked by the engine when saved; private to its owner; shows no bot
    evaluation, so importing a running game's moves gains nothing."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="imported_records")
    kind = models.CharField(_("game"), max_length=20, choices=GameKind.choices)
    text = models.TextField(_("record"))
    plies = models.PositiveIntegerField(_("decisions"))
    created_at = models.DateTimeField(_("imported"), auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["owner", "-created_at"], name="games_imported_owner_idx")]
        verbose_name = _("imported record")
        verbose_name_plural = _("imported records")

    def __str__(self) -> str:
        return "%s record %s" % (self.kind, self.pk)


class BotAdjudication(models.Model):
    """The bot's verdict on a game still running when its tournament's end date passed
    (games.end_adjudication): what it saw, with what bot and budget, and why it gave the
    result it gave. One row per game; staff may overturn the result later (the row stays,
    the staff audit log holds the overturn)."""

    class Method(models.TextChoices):
        BOT = "bot", _("bot evaluation")
        SCORING = "scoring", _("scoring rule")

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="bot_adjudication")
    method = models.CharField(_("method"), max_length=10, choices=Method.choices)
    ply = models.PositiveIntegerField(_("decisions played"))
    side_to_move = models.CharField(_("side to move"), max_length=20, blank=True)
    position = models.TextField(
        _("position"), blank=True, help_text=_("Onitama: the position the bot evaluated (public).")
    )
    evaluation = models.JSONField(_("evaluation"), default=dict, blank=True)
    winner_side = models.CharField(_("winner"), max_length=20, blank=True)
    bot_version = models.CharField(_("bot version"), max_length=80, blank=True)
    level = models.PositiveSmallIntegerField(_("bot level"), null=True, blank=True)
    nodes = models.PositiveIntegerField(_("node budget"), null=True, blank=True)
    seed = models.BigIntegerField(_("bot seed"), null=True, blank=True)
    reason = models.TextField(_("reason"))
    decided_at = models.DateTimeField(_("decided"))

    class Meta:
        ordering = ["-decided_at", "-pk"]
        verbose_name = _("end-date adjudication")
        verbose_name_plural = _("end-date adjudications")

    def __str__(self) -> str:
        return "game %s: %s" % (self.game_id, self.winner_side or "draw")


class ConditionalLines(models.Model):
    """A player's queued conditional moves in a running Onitama game (games.conditional):
    the tree of lines, sealed (never plain text in any column). One row per seat; the row
    goes when the lines no longer apply, and with the game's end."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    seat = models.OneToOneField(Seat, on_delete=models.CASCADE, related_name="+")
    sealed_lines = models.TextField(editable=False)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return "conditional lines of seat %s" % (self.seat_id,)
