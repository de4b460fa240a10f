"""Account export and deletion (privacy.services): what the export holds, what deletion
ends, removes and keeps, and that the games a deleted player leaves behind replay."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.utils import timezone

import engine
from accounts.models import Block
from api import services as api_services
from api.models import ApiToken
from chat import services as chat_services
from correspondence import services as correspondence_services
from correspondence.models import DigestAlarm, Vacation
from engine import fair
from engine.core import replay
from engine.errors import EngineError
from fairplay import services as fairplay_services
from games import services as game_services
from games.models import Alarm, ChallengeStatus, Game, GameStatus, Move
from ladder import services as ladder_services
from ladder.models import Ladder, LadderMember
from privacy import services
from privacy.errors import PrivacyConflict, PrivacyNotAllowed
from ratings.models import Rating, RatingChange
from ratings.selectors import leaderboard
from tests.games.conftest import play, start_game
from tests.tournaments.conftest import started
from tournaments import services as tournament_services
from tournaments.models import Participant, ParticipantStatus
from tournaments.serializers import tournament_standings_data
from webhooks import services as webhook_services
from webhooks.models import Delivery, DeliveryAttempt

pytestmark = pytest.mark.django_db

ALICE_PASSWORD = "pw-alice-123456"


def delete_alice(alice):
    return services.account_delete(user=alice, password=ALICE_PASSWORD)


# ---------------------------------------------------------------- export


@pytest.fixture
def alice_with_everything(alice, bob, carol):
    """alice: a finished rated game, a running game with moves and a message, a bot game,
    a block, a report, a ladder place and a tournament registration."""
    finished = play(start_game(alice, bob, "onitama", {"cards": "base"}), 2)  # no Onitama ends in 2 plies
    game_services.game_resign(game_id=finished.pk, user=bob)
    running = play(start_game(bob, alice, "maatatahay", {"variant": "first"}), 3)
    solo = game_services.game_create_solo(user=alice, kind="onitama", bot_level=1)
    Block.objects.create(blocker=alice, blocked=carol)
    fairplay_services.report_create(reporter=alice, kind="stalling", reason="bob waits every time", player=bob)
    ladder = Ladder.objects.get_or_create(kind="onitama", defaults={"name": "Onitama ladder"})[0]
    ladder_services.ladder_join(ladder_id=ladder.pk, user=alice)
    chat_services.message_create(game_id=running.pk, author=alice, text="good luck, bob")
    cup = tournament_services.tournament_create(actor=None, name="Spring cup", kind="onitama", format="swiss")
    tournament_services.tournament_open_registration(tournament_id=cup.pk, actor=None)
    tournament_services.tournament_register(tournament_id=cup.pk, user=alice)
    hook, _secret = webhook_services.endpoint_create(user=alice, url="https://93.184.216.34/hook", events=["message"])
    delivery = Delivery.objects.create(endpoint=hook, event_id="ev_1-7-1", kind="message", payload={})
    DeliveryAttempt.objects.create(endpoint=hook, delivery=delivery, ok=False, status_code=500, error="HTTP 500")
    return {
        "finished": Game.objects.get(pk=finished.pk),
        "running": Game.objects.get(pk=running.pk),
        "solo": solo,
        "ladder": ladder,
        "cup": cup,
    }


def test_export_covers_every_section(alice, alice_with_everything):
    things = alice_with_everything
    data = services.account_export(user=alice)
    assert data["format"] == "maatasite-account-export" and data["version"] == 1

    profile = data["profile"]
    assert profile["username"] == "alice" and profile["email"] == "alice@example.org"
    assert profile["mail"]["email_on_your_turn"] is True and profile["mail"]["turn_mail"] == "each"
    assert profile["date_joined"] == alice.date_joined.isoformat()

    games = {g["id"]: g for g in data["games"]}
    assert list(games) == sorted(g.pk for g in (things["finished"], things["running"], things["solo"]))
    finished, running, solo = (games[things[k].pk] for k in ("finished", "running", "solo"))
    assert finished["result"] == "won" and finished["reason"] == "resign" and finished["rated"]
    assert finished["opponents"] == ["bob"]
    assert finished["revealed_seed"] == things["finished"].revealed_seed != ""
    assert finished["revealed_salt"] == things["finished"].revealed_salt
    for game, row in ((things["finished"], finished), (things["running"], running)):
        assert [m["text"] for m in row["moves"]] == list(
            Move.objects.filter(game=game).order_by("ply").values_list("text", flat=True)
        )
        assert len(row["moves"]) >= 2
    assert running["status"] == "active" and running["result"] is None
    assert running["revealed_seed"] is None and running["revealed_salt"] is None
    assert solo["seats"][0]["bot_level"] == 1 or solo["seats"][1]["bot_level"] == 1

    assert [r["kind"] for r in data["ratings"]["current"]] == ["onitama"]
    assert data["ratings"]["current"][0]["games_played"] == 1
    history = data["ratings"]["history"]
    assert [(h["game"], h["opponent"], h["score"]) for h in history] == [(things["finished"].pk, "bob", 1.0)]

    assert [b["player"] for b in data["blocks"]] == ["carol"]
    assert [(r["reason"], r["player"]) for r in data["reports"]] == [("bob waits every time", "bob")]
    assert [(m["ladder"], m["position"]) for m in data["ladders"]] == [(things["ladder"].pk, 1)]
    assert [(t["tournament"], t["status"], t["tournament_status"]) for t in data["tournaments"]] == [
        (things["cup"].pk, "active", "registration")
    ]
    assert [(m["game"], m["text"]) for m in data["messages"]] == [(things["running"].pk, "good luck, bob")]
    (hook,) = data["webhooks"]
    assert hook["url"] == "https://93.184.216.34/hook" and hook["events"] == ["message"] and "secret" not in hook
    assert [(a["event_id"], a["status_code"]) for a in hook["delivery_log"]] == [("ev_1-7-1", 500)]


def test_export_is_deterministic_json_without_hidden_information(alice, alice_with_everything):
    running = alice_with_everything["running"]
    first = json.dumps(services.account_export(user=alice), sort_keys=True)
    assert first == json.dumps(services.account_export(user=alice), sort_keys=True)
    salt_hex, seed = game_services.game_secret(running)
    for secret in (str(seed), salt_hex, running.sealed_seed):
        assert secret not in first
    assert '"state"' not in first and "sealed" not in first


# ---------------------------------------------------------------- deletion


def test_deletion_resigns_running_games_and_rates_them(alice, bob):
    game = play(start_game(alice, bob, "onitama", {"cards": "base"}), 2)
    bob_side = game.seats.get(user=bob).side
    delete_alice(alice)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED and game.result_reason == "resign"
    assert game.winner_side == bob_side
    assert set(RatingChange.objects.filter(game=game).values_list("user_id", flat=True)) == {alice.pk, bob.pk}
    assert RatingChange.objects.get(game=game, user=bob).score == 1.0


def test_deletion_resigns_games_against_bots_too(alice):
    game = game_services.game_create_solo(user=alice, kind="onitama", bot_level=1, side="red")
    delete_alice(alice)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED and game.result_reason == "resign"
    assert game.winner_side != "red"


def test_deletion_cancels_and_declines_open_challenges(alice, bob, carol):
    to_bob = game_services.challenge_create(challenger=alice, opponent=bob, kind="onitama")
    to_anyone = game_services.challenge_create(challenger=alice, kind="onitama")
    from_carol = game_services.challenge_create(challenger=carol, opponent=alice, kind="maatatahay")
    between_others = game_services.challenge_create(challenger=bob, opponent=carol, kind="onitama")
    delete_alice(alice)
    for challenge, status in (
        (to_bob, ChallengeStatus.CANCELLED),
        (to_anyone, ChallengeStatus.CANCELLED),
        (from_carol, ChallengeStatus.DECLINED),
        (between_others, ChallengeStatus.OPEN),
    ):
        challenge.refresh_from_db()
        assert challenge.status == status


def test_deletion_anonymises_the_row_and_removes_personal_data(alice, bob, client):
    alice.display_name = "Alice Liddell"
    alice.first_name, alice.last_name = "Alice", "Liddell"
    alice.time_zone, alice.language, alice.turn_mail, alice.quiet_hours_start = "Asia/Jakarta", "id", "digest", 22
    alice.save()
    client.force_login(alice)
    api_services.token_create(user=alice, name="phone", scopes=["read"])
    report = fairplay_services.report_create(reporter=alice, kind="abuse", reason="rude", player=bob)
    correspondence_services.vacation_account(user=alice)
    assert DigestAlarm.objects.filter(user=alice).exists()  # alice's save made her digest row
    bob_game = start_game(bob, alice)
    Block.objects.create(blocker=alice, blocked=bob)
    Block.objects.create(blocker=bob, blocked=alice)
    assert Session.objects.exists()

    delete_alice(alice)

    row = get_user_model().objects.get(pk=alice.pk)
    assert row.username == "deleted-%d" % alice.pk
    row.full_clean(exclude=["password", "email"])  # the username passes the validator
    values = [str(getattr(row, f.attname)) for f in row._meta.concrete_fields]
    for personal in ("alice", "Alice", "Liddell", "example.org", "Asia/Jakarta"):
        assert not any(personal in value for value in values), personal
    assert row.email == "" and row.display_name == "" and row.language == "" and row.time_zone == ""
    assert row.turn_mail == "each" and row.quiet_hours_start is None
    assert not row.is_active and not row.has_usable_password() and row.deleted_at is not None
    assert row.public_name == "deleted player"
    assert not ApiToken.objects.filter(user=row).exists()
    assert not Block.objects.filter(blocker=row).exists() and not Block.objects.filter(blocked=row).exists()
    assert not Session.objects.exists()
    assert not DigestAlarm.objects.filter(user=row).exists() and not Vacation.objects.filter(user=row).exists()
    assert not Alarm.objects.filter(user=row, sent_at__isnull=True).exists()
    assert Alarm.objects.filter(game=bob_game, user=bob, kind=Alarm.Kind.GAME_OVER).exists()
    report.refresh_from_db()
    assert report.reporter_id == row.pk and report.reporter.public_name == "deleted player"
    assert report.reason == "rude"


def test_deletion_leaves_ladders_and_tournaments(alice, bob, carol):
    ladder = Ladder.objects.get_or_create(kind="onitama", defaults={"name": "Onitama ladder"})[0]
    for user in (bob, alice, carol):
        ladder_services.ladder_join(ladder_id=ladder.pk, user=user)
    later = tournament_services.tournament_create(actor=None, name="Later cup", kind="onitama", format="swiss")
    tournament_services.tournament_open_registration(tournament_id=later.pk, actor=None)
    tournament_services.tournament_register(tournament_id=later.pk, user=alice)
    running = started([alice, bob, carol], format="round_robin")
    alice_games = list(
        Game.objects.filter(tournament_pairing__tournament=running, seats__user=alice, status=GameStatus.ACTIVE)
    )

    delete_alice(alice)

    assert LadderMember.objects.get(ladder=ladder, user=alice).position is None
    assert sorted(
        LadderMember.objects.filter(ladder=ladder, position__isnull=False).values_list("user__username", "position")
    ) == [("bob", 1), ("carol", 2)]
    assert not Participant.objects.filter(tournament=later, user=alice).exists()
    assert Participant.objects.get(tournament=running, user=alice).status == ParticipantStatus.WITHDRAWN
    for game in alice_games:
        game.refresh_from_db()
        assert game.status == GameStatus.FINISHED and game.result_reason == "resign"
    standings = tournament_standings_data(tournament_id=running.pk)
    assert "deleted player" in json.dumps(standings) and "alice" not in json.dumps(standings)


def test_deleted_accounts_leave_the_leaderboard(alice, bob):
    for user, rating in ((alice, 1800), (bob, 1700)):
        Rating.objects.create(
            user=user, kind="onitama", rating=rating, deviation=60, games_played=20, last_played_at=timezone.now()
        )
    assert [row.user.pk for row in leaderboard(kind="onitama")] == [alice.pk, bob.pk]
    delete_alice(alice)
    assert [row.user.pk for row in leaderboard(kind="onitama")] == [bob.pk]
    assert Rating.objects.filter(user=alice).exists()  # the history stays for the opponents


@pytest.mark.parametrize("kind, options", [("onitama", {"cards": "base"}), ("maatatahay", {"variant": "first"})])
def test_finished_games_of_a_deleted_player_replay_from_the_revealed_seed(alice, bob, kind, options):
    earlier = play(start_game(alice, bob, kind, options), 6)
    if earlier.status == GameStatus.ACTIVE:  # random setups: a short Onitama game may have ended
        game_services.game_resign(game_id=earlier.pk, user=bob)
    running = play(start_game(bob, alice, kind, options), 5)
    delete_alice(alice)
    rules = engine.get_game(kind)
    for game in (Game.objects.get(pk=earlier.pk), Game.objects.get(pk=running.pk)):
        assert game.status == GameStatus.FINISHED and game.revealed_seed
        seed = int(game.revealed_seed)
        assert fair.commitment(bytes.fromhex(game.revealed_salt), seed) == game.seed_commitment
        moves = list(Move.objects.filter(game=game).order_by("ply"))
        assert len(moves) == game.ply >= 3
        assert {m.seat.user_id for m in moves} <= {alice.pk, bob.pk}
        state = replay(rules, seed, game.options, [m.text for m in moves], data_version=game.data_version or None)
        try:
            state = rules.terminate(state, reason=game.result_reason, winner=game.winner_side)
        except EngineError:
            pass  # the engine keeps the position of a game it does not end itself
        assert rules.to_json(state) == rules.to_json(game_services.game_state(game))


def test_wrong_password_is_refused_and_changes_nothing(alice, bob):
    game = start_game(alice, bob)
    with pytest.raises(PrivacyNotAllowed) as refused:
        services.account_delete(user=alice, password="not my password")
    assert refused.value.status == 403 and refused.value.code == "wrong_password"
    alice.refresh_from_db()
    game.refresh_from_db()
    assert alice.is_active and alice.username == "alice" and game.status == GameStatus.ACTIVE


def test_deleting_twice_is_a_conflict(alice):
    delete_alice(alice)
    row = get_user_model().objects.get(pk=alice.pk)
    for user in (alice, row):  # the stale object and the deleted row
        with pytest.raises(PrivacyConflict) as twice:
            services.account_delete(user=user, password=ALICE_PASSWORD)
        assert twice.value.status == 409 and twice.value.code == "already_deleted"
        assert "already deleted" in twice.value.message


def test_a_taken_deleted_name_gets_a_suffix(alice):
    get_user_model().objects.create_user(username="deleted-%d" % alice.pk, email="x@example.org", password="x")
    delete_alice(alice)
    alice.refresh_from_db()
    assert alice.username.startswith("deleted-%d-" % alice.pk) and len(alice.username) <= 30
