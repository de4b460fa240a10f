"""The mails of tournaments, rendered when the outbox of accounts sends them.

- ``tournament_round_paired``: a player's new game (``object_id``: the Pairing);
- ``tournament_ended_early``: the end of a tournament, with the player's final place
  (``object_id``: the Tournament; the standings are read when the mail is sent).
"""

from __future__ import annotations

from accounts.mail import absolute_url, user_email_build
from accounts.outbox import mail_kind_register

from . import selectors
from .models import Pairing, Tournament


def pairings_load(rows) -> dict[int, Pairing]:
    pairings = {
        p.pk: p
        for p in Pairing.objects.filter(pk__in=[row.object_id for row in rows]).select_related(
            "round__tournament", "first__user", "second__user", "game"
        )
    }
    return {row.pk: pairings[row.object_id] for row in rows if row.object_id in pairings}


def round_paired_render(row, pairing: Pairing | None, _sending):
    if pairing is None or pairing.game is None or pairing.second is None:
        return "gone"
    opponent = pairing.second if pairing.first.user_id == row.user_id else pairing.first
    tournament = pairing.round.tournament
    return user_email_build(
        user=row.user,
        subject_template="tournaments/email/round_paired_subject.txt",
        body_template="tournaments/email/round_paired.txt",
        context={
            "tournament": tournament,
            "round": pairing.round,
            "opponent": opponent.user.public_name,
            "game_url": absolute_url(pairing.game.get_absolute_url()),
            "tournament_url": absolute_url(tournament.get_absolute_url()),
        },
    )


def standings_load(rows) -> dict[int, tuple[Tournament, list]]:
    tournaments = {t.pk: t for t in Tournament.objects.filter(pk__in={row.object_id for row in rows})}
    standings = {pk: selectors.tournament_standings(tournament=t) for pk, t in tournaments.items()}
    return {
        row.pk: (tournaments[row.object_id], standings[row.object_id]) for row in rows if row.object_id in tournaments
    }


def ended_early_render(row, loaded, _sending):
    if loaded is None:
        return "gone"
    tournament, standings = loaded
    mine = next((r for r in standings if r.participant.user_id == row.user_id), None)
    if mine is None:
        return "gone"
    return user_email_build(
        user=row.user,
        subject_template="tournaments/email/ended_early_subject.txt",
        body_template="tournaments/email/ended_early.txt",
        context={
            "tournament": tournament,
            "row": mine,
            "players": len(standings),
            "tournament_url": absolute_url(tournament.get_absolute_url()),
        },
    )


def register() -> None:
    mail_kind_register("tournament_round_paired", render=round_paired_render, load=pairings_load)
    mail_kind_register("tournament_ended_early", render=ended_early_render, load=standings_load)
