"""Tournaments run by staff: round robin, Swiss and knockout, played by correspondence.

A tournament has participants; once started it has rounds, and each round has
pairings. A pairing is one game between two participants (or a bye, or a
forfeit without a game). Knockout matches are the pairings of one ``board`` in
a round; a drawn game is replayed as ``leg`` 1 and 2 with the seats swapped.
Standings are computed from the pairings' results (tournaments.selectors),
never stored, so they cannot drift from the games.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.models import DAYS_PER_MOVE_CHOICES, Game, GameKind


class TournamentFormat(models.TextChoices):
    ROUND_ROBIN = "round_robin", _("Round robin")
    SWISS = "swiss", _("Swiss")
    KNOCKOUT = "knockout", _("Knockout")


class TournamentStatus(models.TextChoices):
    DRAFT = "draft", _("Draft")
    REGISTRATION = "registration", _("Registration open")
    RUNNING = "running", _("Running")
    PAUSED = "paused", _("Paused")
    FINISHED = "finished", _("Finished")


class Tournament(models.Model):
    name = models.CharField(_("name"), max_length=100)
    kind = models.CharField(_("game"), max_length=20, choices=GameKind.choices, default=GameKind.ONITAMA)
    options = models.JSONField(_("game options"), default=dict, blank=True)
    format = models.CharField(
        _("format"), max_length=20, choices=TournamentFormat.choices, default=TournamentFormat.SWISS
    )
    cycles = models.PositiveSmallIntegerField(
        _("cycles"),
        default=1,
        choices=[(1, _("single")), (2, _("double"))],
        help_text=_("Round robin: each pair meets once, or twice with the seats swapped."),
    )
    swiss_rounds = models.PositiveSmallIntegerField(
        _("Swiss rounds"),
        null=True,
        blank=True,
        help_text=_("Swiss only. Empty: as many rounds as needed for a clear winner (log2 of the players)."),
    )
    days_per_move = models.PositiveSmallIntegerField(_("days per move"), choices=DAYS_PER_MOVE_CHOICES, default=3)
    rated = models.BooleanField(_("rated"), default=True)
    vacation_allowed = models.BooleanField(_("vacation allowed"), default=True)
    registration_opens_at = models.DateTimeField(_("registration opens"), null=True, blank=True)
    registration_closes_at = models.DateTimeField(_("registration closes"), null=True, blank=True)
    min_players = models.PositiveSmallIntegerField(_("minimum players"), default=2)
    max_players = models.PositiveSmallIntegerField(_("maximum players"), null=True, blank=True)
    rating_min = models.PositiveSmallIntegerField(_("minimum rating"), null=True, blank=True)
    rating_max = models.PositiveSmallIntegerField(_("maximum rating"), null=True, blank=True)

    status = models.CharField(
        _("status"), max_length=20, choices=TournamentStatus.choices, default=TournamentStatus.DRAFT, db_index=True
    )
    ended_early = models.BooleanField(_("ended early"), default=False)
    ends_at = models.DateTimeField(
        _("end date"),
        null=True,
        blank=True,
        help_text=_(
            "When it passes, the games still running are adjudicated and the tournament ends. "
            "A pause moves it on by the length of the pause."
        ),
    )
    paused_at = models.DateTimeField(_("paused since"), null=True, blank=True)
    end_date_reached_at = models.DateTimeField(
        _("end date reached at"),
        null=True,
        blank=True,
        help_text=_("Set when the adjudication of the games still running begins: no round is paired after it."),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        from django.urls import reverse

        return reverse("tournaments:detail", args=[self.pk])


class ParticipantStatus(models.TextChoices):
    ACTIVE = "active", _("Playing")
    WITHDRAWN = "withdrawn", _("Withdrawn")


class Participant(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="participants")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournament_entries")
    seed = models.PositiveSmallIntegerField(
        _("seed"), null=True, blank=True, help_text=_("1 is the best rated, set at the start.")
    )
    rating = models.FloatField(_("rating at start"), null=True, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=ParticipantStatus.choices, default=ParticipantStatus.ACTIVE
    )
    registered_at = models.DateTimeField(_("registered"), auto_now_add=True)
    withdrawn_at = models.DateTimeField(_("withdrawn"), null=True, blank=True)

    class Meta:
        ordering = ["tournament", "seed", "registered_at"]
        verbose_name = _("participant")
        verbose_name_plural = _("participants")
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], name="tournaments_participant_once")]

    def __str__(self) -> str:
        return "%s (%s)" % (self.user.get_username(), self.tournament)

    @property
    def is_active(self) -> bool:
        return self.status == ParticipantStatus.ACTIVE


class Round(models.Model):
    """One round; its row is created once (unique number), which makes pairing idempotent."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("round"))
    created_at = models.DateTimeField(auto_now_add=True)
    completed_at = models.DateTimeField(_("completed"), null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="tournaments_round_once")]

    def __str__(self) -> str:
        return "%s, round %s" % (self.tournament, self.number)


class Result(models.TextChoices):
    """A pairing's result, seen from its first player. F marks a forfeit (no game or
    an aborted one). VOID: the game was cancelled when the tournament ended early;
    it does not count for anyone."""

    PENDING = "", _("Pending")
    FIRST_WINS = "1-0", "1-0"
    SECOND_WINS = "0-1", "0-1"
    DRAW = "1/2-1/2", "½-½"
    BYE = "bye", _("Bye")
    FIRST_WINS_FORFEIT = "1F-0F", "+/−"
    SECOND_WINS_FORFEIT = "0F-1F", "−/+"
    DOUBLE_FORFEIT = "0F-0F", "−/−"
    VOID = "void", _("Not played")


# Half points of (first, second) for each result.
RESULT_POINTS: dict[str, tuple[int, int]] = {
    Result.PENDING: (0, 0),
    Result.FIRST_WINS: (2, 0),
    Result.SECOND_WINS: (0, 2),
    Result.DRAW: (1, 1),
    Result.BYE: (2, 0),
    Result.FIRST_WINS_FORFEIT: (2, 0),
    Result.SECOND_WINS_FORFEIT: (0, 2),
    Result.DOUBLE_FORFEIT: (0, 0),
    Result.VOID: (0, 0),
}

# Results that do not count in standings or pairing: not yet played, or never will be.
UNCOUNTED_RESULTS = (Result.PENDING, Result.VOID)


class Pairing(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="pairings")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="pairings")
    board = models.PositiveSmallIntegerField(_("board"))
    leg = models.PositiveSmallIntegerField(
        _("replay"), default=0, help_text=_("Knockout: 1 and 2 replay a drawn game.")
    )
    first = models.ForeignKey(Participant, on_delete=models.PROTECT, related_name="+", verbose_name=_("first seat"))
    second = models.ForeignKey(
        Participant, null=True, blank=True, on_delete=models.PROTECT, related_name="+", verbose_name=_("second seat")
    )
    game = models.OneToOneField(
        Game, null=True, blank=True, on_delete=models.PROTECT, related_name="tournament_pairing"
    )
    result = models.CharField(_("result"), max_length=10, choices=Result.choices, blank=True, default=Result.PENDING)
    end_adjudicated = models.BooleanField(
        _("adjudicated at the end date"),
        default=False,
        help_text=_("Knockout: a drawn game adjudicated at the end date is not replayed; the higher seed advances."),
    )

    class Meta:
        ordering = ["round__number", "board", "leg"]
        constraints = [
            models.UniqueConstraint(fields=["round", "board", "leg"], name="tournaments_pairing_once"),
            models.CheckConstraint(
                condition=Q(second__isnull=False) | Q(result="bye"), name="tournaments_pairing_bye_alone"
            ),
        ]

    def __str__(self) -> str:
        second = self.second.user.get_username() if self.second is not None else _("bye")
        return "%s - %s" % (self.first.user.get_username(), second)

    @property
    def points(self) -> tuple[int, int]:
        """Half points of the first and second player."""
        return RESULT_POINTS[self.result]


class TournamentMail(models.Model):
    """One row per "round paired" mail, so it goes out at most once per round and player."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    sent_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["round", "user"], name="tournaments_mail_once")]

    def __str__(self) -> str:
        return "round %s, user %s" % (self.round_id, self.user_id)
