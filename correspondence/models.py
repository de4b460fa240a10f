"""Correspondence: the daily digest's schedule, vacations, used reply addresses, calendar feeds,
and replies by mail as received (stored before they are played).

The mail about single games is scheduled by games as ``games.models.Alarm``
rows; this app sends them (see correspondence.services). Preferences live on
``accounts.User`` (turn_mail, digest_hour, email_reminders, quiet hours,
vacation_since) so that games can read the ones its clock needs.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class DigestAlarm(models.Model):
    """When a user's next daily digest is due (one row per user who chose the digest)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="digest_alarm")
    due_at = models.DateTimeField(db_index=True)
    # the preferences due_at was computed from: a change reschedules the row
    hour = models.PositiveSmallIntegerField()
    time_zone = models.CharField(max_length=64, blank=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    last_sent_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return "digest of %s at %s" % (self.user_id, self.due_at)


class VacationAccount(models.Model):
    """A user's vacation allowance: accrues monthly from the yearly number of days, capped."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacation_account")
    balance_hours = models.PositiveIntegerField(_("vacation left (hours)"), default=0)
    accrued_month = models.DateField(help_text=_("First day of the last month credited."))

    def __str__(self) -> str:
        return "user %s: %s h" % (self.user_id, self.balance_hours)


class Vacation(models.Model):
    """One vacation: from its start to its planned end, or earlier when ended early."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacations")
    started_at = models.DateTimeField()
    planned_end = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-started_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["user"], condition=models.Q(ended_at__isnull=True), name="correspondence_one_running_vacation"
            )
        ]

    def __str__(self) -> str:
        return "user %s: %s - %s" % (self.user_id, self.started_at, self.ended_at or self.planned_end)

    @property
    def is_running(self) -> bool:
        return self.ended_at is None


class ReplyAddressUse(models.Model):
    """A reply by mail received at a player's reply address (game, player, ply: one pending
    decision), and what became of it. A reply address is never used up: it works until its
    decision is played (``ply`` then is past). These rows tell a duplicate delivery of a
    reply that played (``played``, ``message_hash``) and count the answers and notices sent
    (``answered``), at most one a game and a day for replies that played nothing."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    ply = models.PositiveIntegerField()
    used_at = models.DateTimeField(auto_now_add=True)
    result = models.CharField(max_length=30)
    played = models.JSONField(default=list, blank=True)  # the move texts this reply played
    message_hash = models.CharField(max_length=64, blank=True)  # SHA-256 of the Message-ID, never the mail
    answered = models.BooleanField(default=False)  # an answer (or a wrong-sender notice) was queued

    class Meta:
        indexes = [models.Index(fields=["game", "user", "used_at"], name="correspondence_reply_recent")]

    def __str__(self) -> str:
        return "game %s, user %s, ply %s: %s" % (self.game_id, self.user_id, self.ply, self.result)


class CalendarFeed(models.Model):
    """The secret address of a user's private iCal feed of move deadlines (revocable)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="calendar_feed")
    secret = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:  # never the secret
        return "user %s" % (self.user_id,)


class InboundMail(models.Model):
    """A reply by mail as it was received (HTTP webhook or SMTP server), stored before it is
    played so that a lost task loses nothing: the task carries only the row's id, and the
    inbound sweep enqueues again the rows left unprocessed (services.inbound_mails_requeue).

    ``processed_at`` and ``outcome`` are stamped in the transaction that plays the reply, so a
    second run of a processed row plays nothing. Rows are purged after
    CORRESPONDENCE_INBOUND_KEEP_DAYS, and with the account of the player they name.
    """

    raw = models.BinaryField()
    recipient = models.CharField(max_length=320, blank=True)  # the envelope's, when one was given
    # The envelope sender (SMTP MAIL FROM) when the entry knows it, "<>" for the null sender
    # of automatic mail (bounces, auto-replies, RFC 3834); empty when unknown (a webhook).
    envelope_sender = models.CharField(max_length=320, blank=True)
    # The provider webhook's verdict on the sender's authentication (X-Inbound-Authentication,
    # RFC 8601 results such as "dkim=pass dmarc=pass"), trusted as the secret authenticates it.
    authentication = models.CharField(max_length=300, blank=True)
    # The player whose (signed) reply address the mail was sent to; null when it names none.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    received_at = models.DateTimeField()
    processed_at = models.DateTimeField(null=True, blank=True)
    outcome = models.CharField(max_length=30, blank=True)  # ReplyResult.status: played, stale, forged...
    attempts = models.PositiveIntegerField(default=1)  # times enqueued: the first, then each sweep's
    sweep_at = models.DateTimeField()  # while unprocessed, when the sweep enqueues it again

    class Meta:
        ordering = ["-received_at"]
        indexes = [
            models.Index(
                fields=["sweep_at"], condition=models.Q(processed_at__isnull=True), name="correspondence_inbound_due"
            ),
            models.Index(fields=["processed_at"], name="correspondence_inbound_done"),
        ]

    def __str__(self) -> str:
        return "inbound mail %s (%s)" % (self.pk, self.outcome or "unprocessed")


class MailPicture(models.Model):
    """The picture of a game's current position as one player sees it, for their mail
    (correspondence.pictures): rendered once per game, ply and player right after the move
    (``services.mail_pictures_render``, a task enqueued after commit) and replaced by the next
    move's, so only the current ply's pictures are kept. The outbox's sweep only reads it.

    It is current while ``ply``, ``finished`` (the game over: every view shows all) and
    ``language`` (of its labels) match the game and the player, and, for the player to move,
    it holds their turn section; otherwise it is drawn again."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    ply = models.PositiveIntegerField()
    finished = models.BooleanField(default=False)
    language = models.CharField(max_length=10, blank=True)
    png = models.BinaryField()
    size = models.PositiveIntegerField(default=0)  # bytes of png
    render_ms = models.PositiveIntegerField(default=0)
    rendered_at = models.DateTimeField()
    # For the player to move: the turn section of their "your turn" mail (turn_text.TurnParts,
    # JSON), sealed like the game's state (it may name options only they may know); else "".
    sealed_turn = models.TextField(blank=True, default="")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="correspondence_mail_picture_once")]

    def __str__(self) -> str:
        return "picture of game %s for user %s at ply %s" % (self.game_id, self.user_id, self.ply)
