"""The documented hooks through which other apps learn about games' results.

``game_finished`` is sent inside the transaction that finishes the game, exactly
once per game, with ``sender=Game`` and keyword arguments:

* ``game``: the finished :class:`games.models.Game` (status finished or aborted);
* ``result``: a dict ``{"status", "winner", "reason", "scores", "rated"}``.

``game_result_changed`` is sent inside the transaction in which staff change the
result of a game that had already ended (games.adjudication: a void, an award of
a finished game, a reversed timeout), with ``sender=Game`` and keyword arguments:

* ``game``: the game as it is now (finished with its new result, or active again
  after a reversed timeout);
* ``previous``: the result it had, a dict ``{"status", "winner", "reason",
  "scores", "rated", "finished_at"}`` (``finished_at`` tells where the history of
  results changed).

An award of a running game ends it normally: only ``game_finished`` is sent.

Receivers of both run inside the same transaction: they may only call their own
services (no network, no mail; use ``transaction.on_commit`` for that). An
exception in a receiver rolls the whole action back (a receiver refuses a change
by raising a :class:`games.errors.GameActionError`). The games app never imports
the apps built on it (ratings, ladder, tournaments).
"""

from django.dispatch import Signal

game_finished = Signal()
game_result_changed = Signal()

# ``position_changed`` is sent inside the transaction in which a game's position changes: the
# game was created, or a decision was played (``sender=Game``, keyword argument ``game``, as it
# is after the change; a decision that ends the game also sends ``game_finished``). Receivers
# follow the rules above: correspondence enqueues, after commit, the rendering of the mail
# pictures of the new position.
position_changed = Signal()
