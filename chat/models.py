"""Messages the players of a game write to each other on the game page (and through the API).

Written only by ``chat.services.message_create``, read only through ``chat.selectors``:
spectators see none, and a player never sees what a player they blocked wrote after the block.
"""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

MESSAGE_MAX_LENGTH = 500


class Message(models.Model):
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="messages", verbose_name=_("game"))
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="game_messages", verbose_name=_("author")
    )
    text = models.TextField(_("message"), max_length=MESSAGE_MAX_LENGTH)
    ply = models.PositiveIntegerField(_("written at ply"))
    created_at = models.DateTimeField(_("written at"), default=timezone.now)

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name = _("game message")
        verbose_name_plural = _("game messages")
        indexes = [models.Index(fields=["game", "created_at"]), models.Index(fields=["author", "game", "created_at"])]

    def __str__(self) -> str:
        return f"{self.author} in game {self.game_id} at ply {self.ply}"
