"""The mail of games, rendered when the outbox of accounts sends it.

- ``conditional_played``: a queued conditional answer was played for the player
  (``object_id``: the game; ``params``: ``ply``, ``theirs`` and ``answer``, the two moves
  as played, public once played). Sent whatever happened since: it says what was played.
"""

from __future__ import annotations

from accounts.mail import absolute_url, user_email_build
from accounts.outbox import mail_kind_register

from .models import Game


def games_load(rows) -> dict[int, Game]:
    games = {g.pk: g for g in Game.objects.filter(pk__in={row.object_id for row in rows}).defer("sealed_state")}
    return {row.pk: games[row.object_id] for row in rows if row.object_id in games}


def conditional_played_render(row, game: Game | None, _sending):
    if game is None:
        return "gone"
    params = row.params or {}
    return user_email_build(
        user=row.user,
        subject_template="games/email/conditional_played_subject.txt",
        body_template="games/email/conditional_played.txt",
        context={
            "game": game,
            "ply": params.get("ply"),
            "theirs": params.get("theirs", ""),
            "answer": params.get("answer", ""),
            "game_url": absolute_url(game.get_absolute_url()),
        },
    )


def register() -> None:
    mail_kind_register("conditional_played", render=conditional_played_render, load=games_load)
