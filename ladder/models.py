"""Challenge ladders: members in positions 1..n, ladder challenges and a log of changes.

Positions are changed only by ladder.services, always under the ladder's row
lock, so they stay a permutation of 1..n with no gaps (a member who left has
no position). A ladder challenge is this app's own mapping of a game to the
ladder; the games app knows nothing about ladders.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.models import DAYS_PER_MOVE_CHOICES, Game, GameKind

from . import constants


class Ladder(models.Model):
    name = models.CharField(_("name"), max_length=80)
    kind = models.CharField(_("game"), max_length=20, choices=GameKind.choices)
    days_per_move = models.PositiveSmallIntegerField(_("days per move"), choices=DAYS_PER_MOVE_CHOICES, default=3)
    max_places_up = models.PositiveSmallIntegerField(
        _("places up"),
        default=constants.DEFAULT_MAX_PLACES_UP,
        help_text=_("A player may challenge at most this many places above them."),
    )
    is_open = models.BooleanField(_("open"), default=True, help_text=_("Players may join and challenge."))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["kind", "pk"]
        verbose_name = _("ladder")
        verbose_name_plural = _("ladders")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        from django.urls import reverse

        return reverse("ladder:detail", args=[self.pk])


class LadderMember(models.Model):
    """A player on a ladder; ``position`` is None once they have left."""

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ladder_memberships")
    position = models.PositiveIntegerField(_("position"), null=True, blank=True)
    joined_at = models.DateTimeField(_("joined"))
    left_at = models.DateTimeField(_("left"), null=True, blank=True)

    class Meta:
        ordering = ["ladder", "position"]
        constraints = [
            models.UniqueConstraint(fields=["ladder", "user"], name="ladder_member_once"),
            models.CheckConstraint(
                condition=Q(position__isnull=True) | Q(position__gte=1), name="ladder_position_from_one"
            ),
        ]
        indexes = [models.Index(fields=["ladder", "position"])]

    def __str__(self) -> str:
        return "%s #%s %s" % (self.ladder, self.position, self.user)

    @property
    def is_member(self) -> bool:
        return self.position is not None


class ChallengeState(models.TextChoices):
    PLAYING = "playing", _("Playing")
    DONE = "done", _("Done")


class Outcome(models.TextChoices):
    CLIMBED = "climbed", _("The challenger took the defender's place")
    DEFENDED = "defended", _("The defender won")
    DRAWN = "drawn", _("Draw")
    UNPLAYED = "unplayed", _("Won because the opponent never moved: nobody moves")
    UNCHANGED = "unchanged", _("Nobody moves")
    ABORTED = "aborted", _("Aborted")


class LadderChallenge(models.Model):
    """A ladder game: who challenged whom from which positions, and what it did."""

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="challenges")
    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ladder_challenges_made"
    )
    defender = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ladder_challenges_received"
    )
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="ladder_challenge")
    challenger_position = models.PositiveIntegerField()
    defender_position = models.PositiveIntegerField()
    state = models.CharField(
        max_length=10, choices=ChallengeState.choices, default=ChallengeState.PLAYING, db_index=True
    )
    outcome = models.CharField(max_length=10, choices=Outcome.choices, blank=True)
    timed_out = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text=_("The player who ran out of time, if one did."),
    )
    created_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [
            models.Index(fields=["ladder", "challenger", "defender", "created_at"]),
            # The ladder page's games in progress: a few of all the ladder's games.
            models.Index(fields=["ladder"], condition=Q(state=ChallengeState.PLAYING), name="ladder_challenge_playing"),
        ]

    def __str__(self) -> str:
        return "%s: %s -> %s" % (self.ladder, self.challenger, self.defender)


class EventKind(models.TextChoices):
    JOINED = "joined", _("joined")
    LEFT = "left", _("left")
    REMOVED = "removed", _("removed after too many timeouts")
    CLIMBED = "climbed", _("climbed")


class LadderEvent(models.Model):
    """One change of the ladder, for the page's "recent changes" and for audits."""

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=10, choices=EventKind.choices)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    other = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    position_before = models.PositiveIntegerField(null=True, blank=True)
    position_after = models.PositiveIntegerField(null=True, blank=True)
    challenge = models.ForeignKey(LadderChallenge, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["-pk"]
        # The ladder page's recent changes: the latest of one ladder, without sorting them all.
        indexes = [models.Index(fields=["ladder", "-id"], name="ladder_event_recent")]

    def __str__(self) -> str:
        return "%s: user %s, %s -> %s" % (self.kind, self.user_id, self.position_before, self.position_after)
