"""A real Celery worker plays the bot's turns; beat's sweeps send the mail and time games out."""

import functools

import pytest
from django.conf import settings

from games import services
from games.models import Game, GameStatus, Move
from tests.helpers import wait_for, wait_for_task_runs

pytestmark = pytest.mark.services


@pytest.mark.parametrize(
    "kind, options, bot_side",
    [
        ("onitama", {"cards": "base"}, None),
        ("maatatahay", {"variant": "first"}, None),
    ],
)
def test_a_solo_game_gets_its_bot_moves_from_the_worker(celery_beat, smtp_sink, kind, options, bot_side):
    # the bot plays from the worker; the "your turn" mail comes from the beat's correspondence sweep
    from tests.games.conftest import make_user

    alice = make_user("alice")
    rules = services.rules_for(kind)
    game = services.game_create_solo(user=alice, kind=kind, bot_level=1, options=options, side=rules.players[0])
    game_id = game.pk

    def alices_turn_or_over(after_ply: int = -1) -> Game | None:
        current = Game.objects.get(pk=game_id)
        moved = current.ply > after_ply
        return (
            current if moved and (current.to_move_user_id == alice.pk or current.status != GameStatus.ACTIVE) else None
        )

    for _turn in range(3):
        # Whoever starts, after the worker's play it is alice's turn (or the game is over).
        game = wait_for(alices_turn_or_over)
        if game.status != GameStatus.ACTIVE:
            break
        state = services.game_state(game)
        text = rules.move_text(rules.legal_moves(state)[0])
        services.move_submit(game_id=game.pk, user=alice, move_text=text, expected_ply=game.ply)
        wait_for(functools.partial(alices_turn_or_over, game.ply))
    bot_moves = Move.objects.filter(game=game, user__isnull=True)
    assert bot_moves.exists()
    assert all(m.bot_seed is not None for m in bot_moves)
    messages = smtp_sink.wait_for(1)
    assert all(m["To"] == alice.email for m in messages)
    body = smtp_sink.body(messages[0])
    # the mail links to the game through a signed link (correspondence) that opens it
    import re

    from correspondence.tokens import open_token_read

    link = re.search(re.escape(settings.SITE_URL) + r"/correspondence/open/([^/\s]+)/", body)
    assert link is not None and open_token_read(link.group(1)) == (game.pk, alice.pk)


def test_the_beat_sweep_times_out_a_late_game_once(celery_worker, celery_beat, smtp_sink):
    from datetime import timedelta

    from django.utils import timezone

    from accounts.models import OutgoingMail
    from games.models import Alarm
    from tests.games.conftest import make_user, play, start_game

    alice, bob = make_user("alice"), make_user("bob")
    game = play(start_game(alice, bob), 2)
    late_side = game.to_move_side
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    game = wait_for(
        lambda: (lambda g: g if g.status != GameStatus.ACTIVE else None)(Game.objects.get(pk=game.pk)), timeout=90
    )
    assert game.result_reason == "timeout" and game.winner_side and game.winner_side != late_side
    # both players are told, once each ("your turn" mails of stale turns are skipped)
    over = wait_for(
        lambda: (lambda found: found if len(found) >= 2 else None)(
            [m for m in list(smtp_sink.messages) if "is over" in m["Subject"]]
        )
    )
    # Later sweeps (each run to its end after the mails) neither finish the game again nor mail again.
    wait_for_task_runs(celery_worker, "games.tasks.games_timeout_sweep", more=2)
    wait_for_task_runs(celery_worker, "correspondence.tasks.correspondence_sweep", more=2)
    after = Game.objects.get(pk=game.pk)
    assert (after.status, after.result_reason, after.winner_side, after.finished_at) == (
        game.status,
        game.result_reason,
        game.winner_side,
        game.finished_at,
    )
    over_alarms = Alarm.objects.filter(game=game, kind=Alarm.Kind.GAME_OVER)
    assert over_alarms.count() == 2
    assert OutgoingMail.objects.filter(kind="alarm", object_id__in=over_alarms.values("pk")).count() == 2
    assert sorted(m["To"] for m in over) == sorted([alice.email, bob.email])
    assert len([m for m in smtp_sink.messages if "is over" in m["Subject"]]) == 2
