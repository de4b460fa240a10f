"""The one documented hook through which other apps learn about finished games.

``game_finished`` is sent inside the transaction that finishes the game, exactly
once per game, with ``sender=Game`` and keyword arguments:

* ``game``: the finished :class:`games.models.Game` (status finished or aborted);
* ``result``: a dict ``{"status", "winner", "reason", "scores", "rated"}``.

Receivers run inside the same transaction: they may only call their own
services (no network, no mail; use ``transaction.on_commit`` for that). An
exception in a receiver rolls the whole finishing action back. The games app
never imports the apps built on it (ladder, tournaments).
"""
from django.dispatch import Signal

game_finished = Signal()
