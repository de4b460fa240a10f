"""The site's user model: identity, profile and mail preferences in one row.

A new account is inactive (``is_active=False``, ``email_confirmed=False``)
until its owner follows the signed link mailed at sign-up; confirming sets both
to True (each such link works once, see accounts.tokens). An account an admin deactivates
later keeps ``email_confirmed=True``, so a confirmation link can never reactivate it.

Other apps read the preferences directly, e.g. ``user.email_on_your_turn``, or
through ``accounts.selectors.user_wants_email``.

The one staff audit log (``StaffAction``) lives here too, at the bottom of the apps, so
that every app above may write to it (``accounts.audit.staff_action_record``).
"""

import zoneinfo

from django.contrib.auth.models import AbstractUser
from django.contrib.contenttypes.fields import GenericForeignKey
from django.contrib.contenttypes.models import ContentType
from django.core.validators import MaxValueValidator, RegexValidator
from django.db import models
from django.db.models.functions import Lower, Upper
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

USERNAME_RE = r"^[A-Za-z0-9_-]{3,30}$"
# Deleted accounts are renamed deleted-<pk> (accounts.personal_data, run by privacy.services.account_delete);
# nobody signs up so.
DELETED_USERNAME_PREFIX = "deleted-"


def time_zone_choices():
    return [("", _("UTC (default)"))] + [(name, name) for name in sorted(zoneinfo.available_timezones())]


class TurnMail(models.TextChoices):
    """How a player's turn mail comes (``User.turn_mail``; correspondence sends it)."""

    EACH = "each", _("One mail per turn")
    DIGEST = "digest", _("One daily digest")


class User(AbstractUser):
    username = models.CharField(
        _("username"),
        max_length=30,
        unique=True,
        help_text=_("3 to 30 letters, digits, hyphens or underscores. It appears in your public page's address."),
        validators=[
            RegexValidator(
                USERNAME_RE,
                _("Use 3 to 30 letters (a-z, A-Z), digits, hyphens or underscores."),
            )
        ],
        error_messages={"unique": _("A user with that username already exists.")},
    )
    email = models.EmailField(_("email address"))
    email_confirmed = models.BooleanField(_("email confirmed"), default=False)
    display_name = models.CharField(_("display name"), max_length=50, blank=True)
    language = models.CharField(
        _("language"),
        max_length=10,
        blank=True,
        help_text=_("Leave empty to follow your browser."),
    )
    time_zone = models.CharField(_("time zone"), max_length=64, blank=True)
    email_on_your_turn = models.BooleanField(_("mail me when it is my turn"), default=True)
    email_on_game_over = models.BooleanField(_("mail me when a game ends"), default=True)
    # Correspondence (see correspondence/): how turn mail comes, reminders, quiet hours, vacation.
    turn_mail = models.CharField(_("turn mail"), max_length=10, default="each", choices=TurnMail.choices)
    digest_hour = models.PositiveSmallIntegerField(
        _("digest hour"),
        default=8,
        validators=[MaxValueValidator(23)],
        help_text=_("The hour of the day (your time zone) at which the digest goes out."),
    )
    email_reminders = models.BooleanField(_("remind me when my time runs short"), default=True)
    quiet_hours_start = models.PositiveSmallIntegerField(
        _("night starts at"),
        null=True,
        blank=True,
        validators=[MaxValueValidator(23)],
        help_text=_("A deadline falling in your night moves to its end. Leave empty for none."),
    )
    quiet_hours_end = models.PositiveSmallIntegerField(
        _("night ends at"), null=True, blank=True, validators=[MaxValueValidator(23)]
    )
    vacation_since = models.DateTimeField(
        _("on vacation since"),
        null=True,
        blank=True,
        editable=False,
        help_text=_("Set by correspondence.services while a vacation runs."),
    )

    # Mail deliverability (see accounts.deliverability): a hard bounce or a complaint marks
    # the address failing; no mail goes to a failing address until its owner changes it.
    email_failing_since = models.DateTimeField(_("address failing since"), null=True, blank=True, editable=False)
    email_failure = models.CharField(
        _("why the address fails"),
        max_length=20,
        blank=True,
        editable=False,
        choices=[("bounce", _("Hard bounce")), ("complaint", _("Spam complaint"))],
    )
    email_failure_detail = models.CharField(_("failure detail"), max_length=300, blank=True, editable=False)
    # Account deletion (privacy.services.account_delete): the row stays, anonymised, so
    # finished games keep their players; the name shown becomes "deleted player".
    deleted_at = models.DateTimeField(_("deleted"), null=True, blank=True, editable=False)
    # Staff suspension (ops.services.player_suspend); the account cannot log in meanwhile.
    suspended_at = models.DateTimeField(_("suspended since"), null=True, blank=True, editable=False)
    suspension_reason = models.CharField(_("suspension reason"), max_length=300, blank=True, editable=False)
    # One-time links (accounts.tokens): each carries this count when made; following one
    # adds 1, which spends it and every other one made before.
    one_time_links_used = models.PositiveIntegerField(_("one-time links used"), default=0, editable=False)

    REQUIRED_FIELDS = ["email"]

    # objects: AbstractUser's UserManager, inherited.

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"
        constraints = [
            models.UniqueConstraint(Lower("username"), name="accounts_user_username_ci_unique"),
            models.UniqueConstraint(
                Lower("email"),
                condition=~models.Q(email=""),
                name="accounts_user_email_ci_unique",
            ),
        ]
        # The case-insensitive lookups (``username__iexact``, ``email__iexact``: sign-in, a
        # player's page and history, sign-up) compare UPPER(column): without these they read
        # every account.
        indexes = [
            models.Index(Upper("username"), name="accounts_user_username_upper"),
            models.Index(Upper("email"), name="accounts_user_email_upper"),
        ]

    def __str__(self) -> str:
        return self.username

    @property
    def is_deleted(self) -> bool:
        return self.deleted_at is not None

    @property
    def email_is_failing(self) -> bool:
        return self.email_failing_since is not None

    @property
    def public_name(self) -> str:
        if self.deleted_at is not None:
            return str(_("deleted player"))
        return self.display_name or self.username

    def get_absolute_url(self) -> str:
        return reverse("players:detail", kwargs={"username": self.username})


class Block(models.Model):
    """``blocker`` does not want to be challenged by ``blocked`` (games already running go on).

    Read only through ``accounts.selectors`` (``is_blocked`` and its bulk forms); written by
    ``accounts.services.block_create``/``block_delete``.
    """

    blocker = models.ForeignKey(User, on_delete=models.CASCADE, related_name="blocks_made")
    blocked = models.ForeignKey(User, on_delete=models.CASCADE, related_name="blocks_received")
    created_at = models.DateTimeField(_("blocked at"), auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [models.UniqueConstraint(fields=["blocker", "blocked"], name="accounts_block_unique_pair")]

    def __str__(self) -> str:
        return f"{self.blocker} blocks {self.blocked}"


class OutgoingMail(models.Model):
    """One mail of the site, in the outbox (accounts.outbox): what to render and for whom,
    never the rendered mail, its signed links or its reply address.

    ``kind`` names a renderer registered by the app that owns the mail
    (``accounts.outbox.mail_kind_register``); ``object_id`` and ``params`` are what that
    renderer needs (e.g. an alarm's id). ``to`` is an address the user asked mail at (the
    link confirming a new address, a password reset), sent whatever the state of the
    account's own; empty means the account's address at send time, through the one gate
    ``accounts.selectors.email_deliverable``.

    A row is due from ``due_at``. Claiming it pushes ``due_at`` a lease ahead, so the row
    of a worker that died is due again when the lease ends; a temporary failure (SMTP down,
    4xx) pushes it by a backoff. ``done_at`` and ``outcome`` record the end: ``sent``,
    ``failing`` (the address, or our SMTP server refused it for good) or the renderer's
    reason for sending nothing (e.g. ``stale``). Done rows are purged after
    OUTBOX_KEEP_DAYS.
    """

    kind = models.CharField(max_length=40)
    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="+")
    object_id = models.PositiveBigIntegerField(null=True, blank=True)
    params = models.JSONField(default=dict, blank=True)
    to = models.EmailField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    due_at = models.DateTimeField()
    claimed_at = models.DateTimeField(null=True, blank=True)
    claim = models.CharField(max_length=32, blank=True)  # the token of the sender's last claim
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.CharField(max_length=300, blank=True)
    done_at = models.DateTimeField(null=True, blank=True)
    outcome = models.CharField(max_length=20, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["due_at"], condition=models.Q(done_at__isnull=True), name="accounts_outgoingmail_due"),
            models.Index(
                fields=["done_at"], condition=models.Q(done_at__isnull=False), name="accounts_outgoingmail_done"
            ),
        ]

    def __str__(self) -> str:
        return "%s to user %s (%s)" % (self.kind, self.user_id, self.outcome or "unsent")


class StaffActionKind(models.TextChoices):
    """Every kind of row in the staff audit log, of every app that writes to it."""

    VOID = "void", _("Void a game")
    AWARD = "award", _("Award a game")
    TIMEOUT_REVERSE = "timeout_reverse", _("Reverse a timeout")
    SUSPEND = "suspend", _("Suspend a player")
    UNSUSPEND = "unsuspend", _("Lift a suspension")
    REPORT_REVIEWED = "report_reviewed", _("Mark a report reviewed")
    REPORT_DISMISSED = "report_dismissed", _("Dismiss a report")
    TIMEOUTS_CONFIRMED = "timeouts_confirmed", _("Time held games out")
    TIMEOUTS_EXTENDED = "timeouts_extended", _("Extend held games")
    FAIRPLAY_CHECK = "fairplay_check", _("Request a fair-play check")
    BOT_RELEASE = "bot_release", _("Let a failed bot play again")
    TOURNAMENT_CREATE = "tournament_create", _("Create a tournament")
    TOURNAMENT_UPDATE = "tournament_update", _("Change a tournament")
    TOURNAMENT_OPEN_REGISTRATION = "tournament_open_registration", _("Open a tournament's registration")
    TOURNAMENT_ADD_PLAYER = "tournament_add_player", _("Add a player to a tournament")
    TOURNAMENT_REPLACE_PLAYER = "tournament_replace_player", _("Replace a tournament player")
    TOURNAMENT_WITHDRAW_PLAYER = "tournament_withdraw_player", _("Withdraw a tournament player")
    TOURNAMENT_START = "tournament_start", _("Start a tournament")
    TOURNAMENT_PAUSE = "tournament_pause", _("Pause a tournament")
    TOURNAMENT_RESUME = "tournament_resume", _("Resume a tournament")
    TOURNAMENT_END_EARLY = "tournament_end_early", _("End a tournament early")
    TOURNAMENT_RESULT_CHANGED = "tournament_result_changed", _("A tournament result changed")
    TOURNAMENT_END_DATE = "tournament_end_date", _("A tournament reached its end date")


#: The kinds that carry no reason: tournament management, whose admin actions never asked
#: why. Every other kind is a staff decision, and the database refuses it without one.
STAFF_ACTION_KINDS_WITHOUT_REASON = tuple(kind for kind in StaffActionKind if kind.startswith("tournament_"))


class StaffAction(models.Model):
    """The one audit log of staff decisions (adjudication, suspension, report review,
    held time-outs, fair-play checks, tournament management): who did what to which
    target and player, when and why. Written only by ``accounts.audit.staff_action_record``,
    in the transaction of the action; a batch or a check is also named in ``details``.

    It lives here, at the bottom of the apps, so that every app may write to it; so it
    names what an action was on by a generic ``target`` (a game, report, tournament,
    time-out batch or fair-play check) rather than by foreign keys into the apps above.
    A row outlives its target: it keeps the target's type and id."""

    staff = models.ForeignKey(
        User,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("staff member"),
        help_text=_("Empty: the site itself, or the player, did it."),
    )
    action = models.CharField(_("action"), max_length=40, choices=StaffActionKind.choices)
    target_type = models.ForeignKey(
        ContentType, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("target type")
    )
    target_id = models.PositiveBigIntegerField(_("target id"), null=True, blank=True)
    target = GenericForeignKey("target_type", "target_id")
    player = models.ForeignKey(
        User, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("player")
    )
    reason = models.TextField(_("why"), blank=True)
    details = models.JSONField(_("details"), default=dict, blank=True)
    at = models.DateTimeField(_("at"), default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = _("staff action")
        verbose_name_plural = _("staff audit log")
        indexes = [models.Index(fields=["target_type", "target_id"], name="accounts_staffaction_target")]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(reason="") | models.Q(action__in=STAFF_ACTION_KINDS_WITHOUT_REASON),
                name="accounts_staffaction_has_reason",
            ),
            models.CheckConstraint(
                condition=models.Q(target_type__isnull=True, target_id__isnull=True)
                | models.Q(target_type__isnull=False, target_id__isnull=False),
                name="accounts_staffaction_whole_target",
            ),
        ]

    def __str__(self) -> str:
        if self.target_type is not None:
            target = f"{self.target_type.model} {self.target_id}"
        elif self.player_id:
            target = f"player {self.player_id}"
        else:
            target = "-"
        return f"{self.staff or '-'} {self.action} {target}"
