"""A fair-play check runs for minutes: its task goes to the queue of the slow worker."""

from pathlib import Path

from maatasite.celery import app

PROCFILE = Path(__file__).resolve().parents[2] / "Procfile"


def test_fair_play_checks_go_to_the_slow_queue_and_game_tasks_do_not():
    router = app.amqp.router
    assert router.route({}, "fairplay.tasks.fairplay_check_run")["queue"].name == "slow"
    assert router.route({}, "games.tasks.bot_turn_play")["queue"].name == app.conf.task_default_queue
    lines = dict(line.split(":", 1) for line in PROCFILE.read_text().splitlines() if ":" in line)
    assert "-Q slow" in lines["slow"] and "-Q" not in lines["worker"]


def test_mail_pictures_go_to_their_own_queue_with_a_worker_of_its_own():
    """A backlog of pictures drawn after moves never holds up mail, moves or bots."""
    router = app.amqp.router
    assert router.route({}, "correspondence.tasks.mail_pictures_render")["queue"].name == "pictures"
    lines = dict(line.split(":", 1) for line in PROCFILE.read_text().splitlines() if ":" in line)
    assert "-Q pictures" in lines["pictures"]
