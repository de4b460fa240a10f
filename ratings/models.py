"""Glicko-2 ratings per player and game, and one change row per rated result.

Written only by ratings.services; the rules and constants are in ratings.constants.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Game, GameKind

from . import constants


class Rating(models.Model):
    """A player's current rating in one game, as of their last rated result."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    kind = models.CharField(_("game"), max_length=20, choices=GameKind.choices)
    rating = models.FloatField(_("rating"), default=constants.INITIAL_RATING)
    deviation = models.FloatField(_("rating deviation"), default=constants.INITIAL_DEVIATION)
    volatility = models.FloatField(_("volatility"), default=constants.INITIAL_VOLATILITY)
    games_played = models.PositiveIntegerField(_("rated games"), default=0)
    last_played_at = models.DateTimeField(_("last rated game"), null=True, blank=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [models.UniqueConstraint(fields=["user", "kind"], name="ratings_one_rating_per_game")]
        indexes = [models.Index(fields=["kind", "-rating"])]

    def __str__(self) -> str:
        return "%s %s %.0f" % (self.user, self.kind, self.rating)


class RatingChange(models.Model):
    """What one rated game did to one player's rating. One row per player and game."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes")
    opponent = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_changes")
    kind = models.CharField(_("game"), max_length=20, choices=GameKind.choices)
    score = models.FloatField(_("score"))
    rating_before = models.FloatField(_("rating before"))
    rating_after = models.FloatField(_("rating after"))
    deviation_before = models.FloatField(_("deviation before"))
    deviation_after = models.FloatField(_("deviation after"))
    volatility_after = models.FloatField(_("volatility after"))
    opponent_rating = models.FloatField(_("opponent's rating"))
    created_at = models.DateTimeField(_("rated at"))

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="ratings_one_change_per_player_and_game")]
        indexes = [models.Index(fields=["user", "kind", "created_at"])]

    def __str__(self) -> str:
        return "%s game %s: %.0f -> %.0f" % (self.user, self.game_id, self.rating_before, self.rating_after)

    @property
    def delta(self) -> float:
        return self.rating_after - self.rating_before
