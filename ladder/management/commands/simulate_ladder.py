"""Play random ladder results through the real services and check the positions.

    python manage.py simulate_ladder [--game onitama|maatatahay] --players 200 --games 2000

A fresh ladder and fresh players are created, every player joins, then players
challenge someone they may challenge (the real rules, on a simulated clock that
advances an hour per challenge) and games end by resignation or, in Onitama,
agreed draws, a few at a time in random order; now and then a player leaves and
joins again. Everything goes through ladder.services and games.services, so
ratings are updated too. The command exits non-zero unless the positions are
1..n with no gaps after every step it checks and at the end. The players and
games are deleted afterwards unless --keep is given. The last line printed is
the time taken.
"""

from __future__ import annotations

import random
import time
import uuid
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError, transaction
from django.utils import timezone

from games import services as games_services
from games.errors import GameActionError
from games.models import Game, GameKind
from ladder import selectors, services
from ladder.models import Ladder, LadderChallenge, LadderMember
from maatasite.celery import app as celery_app

RUNNING_GAMES = 8  # games kept running at once, so that results interleave


class Command(BaseCommand):
    help = "Play random ladder games through the real services; fail unless positions stay 1..n."

    def add_arguments(self, parser):
        parser.add_argument("--game", choices=GameKind.values, default=GameKind.ONITAMA)
        parser.add_argument("--players", type=int, default=200)
        parser.add_argument("--games", type=int, default=2000)
        parser.add_argument("--seed", type=int, default=None)
        parser.add_argument("--keep", action="store_true", help="Keep the ladder, players and games.")

    def handle(self, *args, game: str, players: int, games: int, seed: int | None, keep: bool, **options):
        if players < 2 or games < 0:
            raise CommandError("Use at least 2 players and a non-negative number of games.")
        started = time.perf_counter()
        rng = random.Random(seed)
        celery_app.conf.task_always_eager = True  # follow-up tasks run here, never on a real broker
        run = uuid.uuid4().hex[:6]
        ladder = Ladder.objects.create(name="Simulation %s" % run, kind=game, days_per_move=14)
        users = get_user_model().objects.bulk_create(
            [
                get_user_model()(
                    username="sim%s_%d" % (run, i),
                    email="sim%s_%d@example.invalid" % (run, i),
                    password="!",
                    is_active=True,
                )
                for i in range(players)
            ]
        )
        users = list(get_user_model().objects.filter(username__startswith="sim%s_" % run))
        clock = timezone.now()
        for user in rng.sample(users, len(users)):
            services.ladder_join(ladder_id=ladder.pk, user=user, now=clock)
        stats = {"challenges": 0, "refused": 0, "left": 0, "checks": 0}
        running: list[LadderChallenge] = []
        try:
            self._play(ladder, users, games, rng, clock, running, stats)
            ok = selectors.positions_are_a_permutation(ladder_id=ladder.pk)
            members = len(selectors.ladder_standings(ladder_id=ladder.pk))
            outcomes = self._outcomes(ladder)
        finally:
            if not keep:
                try:
                    self._clean(ladder, users)
                except DatabaseError as error:  # e.g. a database missing another app's tables
                    self.stderr.write("could not remove the simulated data: %s" % error)
        self.stdout.write(
            "game %s, %d players (%d on the ladder at the end), %d games, %d climbs, "
            "%d challenges refused by the rules, %d departures, %d position checks"
            % (
                game,
                players,
                members,
                stats["challenges"],
                outcomes.get("climbed", 0),
                stats["refused"],
                stats["left"],
                stats["checks"],
            )
        )
        self.stdout.write("outcomes: %s" % ", ".join("%s %d" % kv for kv in sorted(outcomes.items())))
        self.stdout.write("positions: %s" % ("a permutation of 1..n with no gaps" if ok else "BROKEN"))
        elapsed = time.perf_counter() - started
        self.stdout.write("time taken: %.2f s" % elapsed)
        if not ok:
            raise SystemExit(1)

    def _play(self, ladder, users, games, rng, clock, running, stats):
        kind = ladder.kind
        by_id = {u.pk: u for u in users}
        while stats["challenges"] < games or running:
            if running and (len(running) >= RUNNING_GAMES or stats["challenges"] >= games or rng.random() < 0.4):
                self._finish(running.pop(rng.randrange(len(running))), kind, rng)
                stats["checks"] += 1
                if not selectors.positions_are_a_permutation(ladder_id=ladder.pk):
                    return
                continue
            clock += timedelta(hours=1)
            if rng.random() < 0.01:
                self._leave_or_join(ladder, users, rng, clock, running, stats)
                continue
            members = LadderMember.objects.filter(ladder=ladder, position__isnull=False).count()
            if members < 2:
                continue
            # A random pair within reach; the service itself refuses what the rules forbid.
            low = rng.randint(2, members)
            high = max(1, low - rng.randint(1, ladder.max_places_up))
            pair = dict(
                LadderMember.objects.filter(ladder=ladder, position__in=(low, high)).values_list("position", "user_id")
            )
            try:
                made = services.ladder_challenge_create(
                    ladder_id=ladder.pk, challenger=by_id[pair[low]], defender=by_id[pair[high]], now=clock
                )
            except GameActionError:
                stats["refused"] += 1
                continue
            running.append(made)
            stats["challenges"] += 1

    def _finish(self, made: LadderChallenge, kind, rng):
        game = Game.objects.get(pk=made.game_id)
        if game.is_over:
            return  # resigned when a player left
        roll = rng.random()
        if kind == GameKind.ONITAMA and roll < 0.1:
            games_services.draw_offer(game_id=game.pk, user=made.challenger)
            games_services.draw_accept(game_id=game.pk, user=made.defender)
        else:
            loser = made.defender if roll < 0.55 else made.challenger
            games_services.game_resign(game_id=game.pk, user=loser)

    def _leave_or_join(self, ladder, users, rng, clock, running, stats):
        members = {m.user_id for m in selectors.ladder_standings(ladder_id=ladder.pk)}
        away = [u for u in users if u.pk not in members]
        if away and rng.random() < 0.5:
            services.ladder_join(ladder_id=ladder.pk, user=rng.choice(away), now=clock)
        elif members:
            leaver = rng.choice([u for u in users if u.pk in members])
            services.ladder_leave(ladder_id=ladder.pk, user=leaver, now=clock)
            stats["left"] += 1

    @staticmethod
    def _outcomes(ladder) -> dict[str, int]:
        counts: dict[str, int] = {}
        for outcome in LadderChallenge.objects.filter(ladder=ladder).values_list("outcome", flat=True):
            counts[outcome or "running"] = counts.get(outcome or "running", 0) + 1
        return counts

    @staticmethod
    def _clean(ladder, users):
        """Remove what the run created: its games (with their moves and ratings), ladder, players."""
        with transaction.atomic():
            game_ids = list(LadderChallenge.objects.filter(ladder=ladder).values_list("game_id", flat=True))
            ladder.delete()
            Game.objects.filter(pk__in=game_ids).delete()
            get_user_model().objects.filter(pk__in=[u.pk for u in users]).delete()
