"""No public key signs or seals anything (issue 13, item 5).

With DEBUG on, SECRET_KEY and GAMES_SEAL_KEY are random per machine, made once and
atomically (every process racing to make one gets the same), kept in gitignored 0600
files; with DEBUG off both must come from the environment; the development key that
was published in git is refused, and links signed with it do nothing.
"""

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from django.core import signing
from django.core.exceptions import ValidationError

from accounts import services as account_services
from accounts import tokens as account_tokens
from maatasite.local_keys import PUBLISHED_DEVELOPMENT_KEY, local_key
from tests.factories import make_user
from tests.helpers import settings_in_subprocess

ROOT = Path(__file__).resolve().parent.parent
PRODUCTION_KEY = "x" * 20 + "-a-long-random-production-secret-key-for-this-test-" + "y" * 20
RACERS = 8


RACER = (
    "import sys; from pathlib import Path; from maatasite.local_keys import local_key; "
    "sys.stdin.read(); print(local_key(Path(sys.argv[1])))"
)


def test_processes_racing_to_make_the_key_all_get_the_one_key(tmp_path):
    path = tmp_path / ".local-secret-key"
    racers = [
        subprocess.Popen(
            [sys.executable, "-c", RACER, str(path)], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        for _ in range(RACERS)
    ]
    for racer in racers:  # every racer is started and waits on its stdin: let them all go at once
        assert racer.stdin is not None  # piped
        racer.stdin.close()
    keys: list[str] = []
    for racer in racers:
        assert racer.stdout is not None  # piped
        keys.append(racer.stdout.read().strip())
    for racer in racers:
        racer.wait(timeout=60)
    assert [racer.returncode for racer in racers] == [0] * RACERS
    assert len(set(keys)) == 1
    assert path.read_text().strip() == keys[0] and len(keys[0]) >= 50
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no temporary file left behind


def test_a_process_that_loses_the_race_reads_the_winners_key(tmp_path, monkeypatch):
    path = tmp_path / "key"
    real_link = os.link

    def another_process_links_first(source, target):
        Path(target).write_text("the-winners-key\n")  # made between our read and our link
        real_link(source, target)

    monkeypatch.setattr(os, "link", another_process_links_first)
    assert local_key(path) == "the-winners-key"
    assert [p.name for p in tmp_path.iterdir()] == ["key"]


def test_a_key_once_made_is_kept(tmp_path):
    path = tmp_path / "key"
    first = local_key(path)
    assert local_key(path) == first
    path.write_text("kept-as-it-is\n")
    assert local_key(path) == "kept-as-it-is"


def test_with_debug_on_both_keys_are_the_machines_own_random_keys():
    names = ("SECRET_KEY", "GAMES_SEAL_KEY")
    runs = [settings_in_subprocess({}, *names) for _ in range(2)]
    for run in runs:
        assert run.returncode == 0, run.stderr
    first, second = (json.loads(run.stdout.splitlines()[-1]) for run in runs)
    assert first == second  # every process of the machine shares them
    assert first["SECRET_KEY"] != first["GAMES_SEAL_KEY"]
    for name, file_name in (("SECRET_KEY", ".local-secret-key"), ("GAMES_SEAL_KEY", ".local-seal-key")):
        path = ROOT / file_name
        assert first[name] == path.read_text().strip() != PUBLISHED_DEVELOPMENT_KEY
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        ignored = subprocess.run(["git", "check-ignore", "-q", file_name], cwd=ROOT)
        assert ignored.returncode == 0, "%s is not gitignored" % file_name
    keys = settings_in_subprocess({"SECRET_KEY": "s" * 60, "GAMES_SEAL_KEY": "g" * 60}, *names)
    assert json.loads(keys.stdout.splitlines()[-1]) == {"SECRET_KEY": "s" * 60, "GAMES_SEAL_KEY": "g" * 60}


@pytest.mark.parametrize(
    "env, missing",
    [
        ({"GAMES_SEAL_KEY": PRODUCTION_KEY}, "SECRET_KEY"),
        ({"SECRET_KEY": PRODUCTION_KEY}, "GAMES_SEAL_KEY"),
    ],
)
def test_with_debug_off_both_keys_are_required(env, missing):
    result = settings_in_subprocess({"DEBUG": "false", **env}, "SECRET_KEY")
    assert result.returncode != 0
    assert "%s must be set when DEBUG is off" % missing in result.stderr
    both = settings_in_subprocess(
        {"DEBUG": "false", "SECRET_KEY": PRODUCTION_KEY, "GAMES_SEAL_KEY": "seal-" + PRODUCTION_KEY},
        "SECRET_KEY",
        "GAMES_SEAL_KEY",
    )
    assert both.returncode == 0, both.stderr
    assert json.loads(both.stdout.splitlines()[-1]) == {
        "SECRET_KEY": PRODUCTION_KEY,
        "GAMES_SEAL_KEY": "seal-" + PRODUCTION_KEY,
    }


@pytest.mark.parametrize("debug", ["true", "false"])
@pytest.mark.parametrize("name", ["SECRET_KEY", "GAMES_SEAL_KEY"])
def test_the_published_development_key_is_refused(debug, name):
    env = {
        "DEBUG": debug,
        "SECRET_KEY": PRODUCTION_KEY,
        "GAMES_SEAL_KEY": "seal-" + PRODUCTION_KEY,
        name: PUBLISHED_DEVELOPMENT_KEY,
    }
    result = settings_in_subprocess(env, "SECRET_KEY")
    assert result.returncode != 0
    assert "%s is the development key that was published" % name in result.stderr


@pytest.mark.django_db
def test_an_email_change_link_forged_with_the_published_key_changes_nothing(client, settings):
    victim = make_user("victim")  # victim@example.org
    forged = signing.dumps(
        {"user": victim.pk, "email": "mallory@example.net", "old": victim.email, "n": victim.one_time_links_used},
        key=PUBLISHED_DEVELOPMENT_KEY,
        salt=account_tokens.EMAIL_CHANGE_SALT,
    )
    url = "/accounts/email/confirm/%s/" % forged
    client.get(url)  # a visitor without a session opens the forged link, then posts its form
    client.post(url)
    with pytest.raises(ValidationError):
        account_services.email_change_confirm(token=forged)
    victim.refresh_from_db()
    assert victim.email == "victim@example.org"

    # The same forged link did change the address while the published key signed links.
    settings.SECRET_KEY = PUBLISHED_DEVELOPMENT_KEY
    account_services.email_change_confirm(token=forged)
    victim.refresh_from_db()
    assert victim.email == "mallory@example.net"
