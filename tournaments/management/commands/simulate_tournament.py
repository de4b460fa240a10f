"""Run a whole tournament with random results through the real services.

Creates throwaway players, a tournament, registers them, starts it, then ends
every running game at random (a resignation, or a draw by agreement in
Onitama) until the tournament finishes. Prints the standings, the time taken
and exits with status 1 when a pairing invariant is broken.
"""

from __future__ import annotations

import math
import random
import time
import uuid

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from games import services as game_services
from games.models import Game, GameKind, GameStatus
from maatasite.celery import app as celery_app

from ... import selectors, services
from ...checks import tournament_invariant_errors
from ...models import ParticipantStatus, TournamentFormat, TournamentStatus


class Command(BaseCommand):
    help = "Simulate a tournament with random results and check the pairing invariants."

    def add_arguments(self, parser):
        parser.add_argument("--format", choices=TournamentFormat.values, required=True)
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument("--rounds", type=int, default=None, help="Swiss rounds (default ceil(log2 players)).")
        parser.add_argument("--game", choices=GameKind.values, default="onitama")
        parser.add_argument("--cycles", type=int, choices=[1, 2], default=1)
        parser.add_argument("--draws", type=float, default=0.2, help="Share of Onitama games drawn (default 0.2).")
        parser.add_argument("--withdraw", type=int, default=0, help="Players withdrawn by staff after round 1.")
        parser.add_argument("--seed", type=int, default=None)

    def handle(self, *args, **opts):
        celery_app.conf.task_always_eager = True  # pair in-process, whatever the broker
        settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
        if opts["players"] < 2:
            raise CommandError("At least 2 players.")
        rng = random.Random(opts["seed"])
        started = time.perf_counter()
        tag = uuid.uuid4().hex[:8]
        User = get_user_model()
        users = [
            User.objects.create_user(username="sim%s_%d" % (tag, i), email="", password=None)
            for i in range(opts["players"])
        ]
        rounds = opts["rounds"]
        if opts["format"] == "swiss" and rounds is None:
            rounds = max(1, math.ceil(math.log2(opts["players"])))
        tournament = services.tournament_create(
            actor=None,
            name="Simulation %s" % tag,
            kind=opts["game"],
            format=opts["format"],
            days_per_move=3,
            rated=False,
            cycles=opts["cycles"],
            swiss_rounds=rounds if opts["format"] == "swiss" else None,
        )
        services.tournament_open_registration(tournament_id=tournament.pk, actor=None)
        for user in users:
            services.tournament_register(tournament_id=tournament.pk, user=user)
        result = services.tournament_start(tournament_id=tournament.pk, actor=None)
        for warning in result.warnings:
            self.stdout.write("warning: %s" % warning)
        games_played = 0
        withdrawn = False
        while True:
            tournament.refresh_from_db()
            if tournament.status != TournamentStatus.RUNNING:
                break
            running = list(
                Game.objects.filter(tournament_pairing__tournament=tournament, status=GameStatus.ACTIVE).order_by("pk")
            )
            if not running:
                raise CommandError("The tournament is stuck: running, with no game to play.")
            if opts["withdraw"] and not withdrawn and tournament.rounds.count() >= 2:
                for participant in rng.sample(
                    list(tournament.participants.filter(status=ParticipantStatus.ACTIVE)), opts["withdraw"]
                ):
                    services.participant_withdraw(participant_id=participant.pk, actor=None)
                withdrawn = True
                continue
            for game in running:
                game.refresh_from_db()
                if game.status != GameStatus.ACTIVE:
                    continue
                self._end_randomly(game, rng, opts["draws"])
                games_played += 1
        elapsed = time.perf_counter() - started
        tournament.refresh_from_db()
        self.stdout.write(
            "%s: %s, %s, %d players, %d rounds, %d games"
            % (tournament.name, tournament.format, tournament.kind, len(users), tournament.rounds.count(), games_played)
        )
        for row in selectors.tournament_standings(tournament=tournament):
            self.stdout.write(
                "%3d. %-22s %5.1f  BH %5.1f  SB %6.2f  (+%d =%d -%d, byes %d)%s"
                % (
                    row.rank,
                    row.participant.user.username,
                    row.points,
                    row.buchholz,
                    row.sonneborn_berger,
                    row.wins,
                    row.draws,
                    row.losses,
                    row.byes,
                    " withdrawn" if row.withdrawn else "",
                )
            )
        self.stdout.write("time: %.2f s (%.1f ms per game)" % (elapsed, 1000 * elapsed / max(1, games_played)))
        errors = tournament_invariant_errors(tournament=tournament)
        if errors:
            for error in errors:
                self.stderr.write("invariant broken: %s" % error)
            raise SystemExit(1)
        self.stdout.write("invariants: ok")

    @staticmethod
    def _end_randomly(game: Game, rng: random.Random, draws: float) -> None:
        # a tournament game has two players, no bot
        players = [seat.user for seat in game.seats.select_related("user") if seat.user is not None]
        if game.kind == "onitama" and rng.random() < draws:
            game_services.draw_offer(game_id=game.pk, user=players[0])
            game_services.draw_accept(game_id=game.pk, user=players[1])
        else:
            game_services.game_resign(game_id=game.pk, user=rng.choice(players))
