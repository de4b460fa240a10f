from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.errors import Conflict, InvalidInput, NotAllowed
from games.models import Challenge, ChallengeStatus, GameStatus

pytestmark = pytest.mark.django_db


def test_create_and_accept_starts_the_game_with_the_chosen_seat(alice, bob):
    challenge = services.challenge_create(
        challenger=alice,
        opponent=bob,
        kind="onitama",
        options={"cards": "mixed"},
        days_per_move=5,
        rated=True,
        seat_choice="blue",
    )
    assert challenge.status == ChallengeStatus.OPEN
    assert challenge.expires_at - challenge.created_at > timedelta(days=13, hours=23)
    game = services.challenge_accept(challenge_id=challenge.pk, user=bob)
    challenge.refresh_from_db()
    assert challenge.status == ChallengeStatus.ACCEPTED and challenge.game == game
    assert game.status == GameStatus.ACTIVE and game.rated and game.days_per_move == 5
    assert game.options == {"cards": "mixed"}
    seats = {s.side: s.user for s in game.seats.all()}
    assert seats == {"blue": alice, "red": bob}
    assert game.to_move_side in ("red", "blue")
    assert game.to_move_user == seats[game.to_move_side]
    assert game.deadline is not None and len(game.seed_commitment) == 64


def test_random_seat_and_open_challenge(alice, bob, carol):
    challenge = services.challenge_create(
        challenger=alice, kind="maatatahay", options={"variant": "first"}, seat_choice="random"
    )
    with pytest.raises(InvalidInput):
        services.challenge_accept(challenge_id=challenge.pk, user=alice)
    game = services.challenge_accept(challenge_id=challenge.pk, user=carol)
    assert {s.user for s in game.seats.all()} == {alice, carol}
    assert {s.side for s in game.seats.all()} == {"balan", "wazu"}
    with pytest.raises(Conflict):
        services.challenge_accept(challenge_id=challenge.pk, user=bob)


def test_only_the_addressed_player_accepts_or_declines(alice, bob, carol):
    challenge = services.challenge_create(challenger=alice, opponent=bob, kind="onitama")
    with pytest.raises(NotAllowed):
        services.challenge_accept(challenge_id=challenge.pk, user=carol)
    with pytest.raises(NotAllowed):
        services.challenge_decline(challenge_id=challenge.pk, user=carol)
    services.challenge_decline(challenge_id=challenge.pk, user=bob)
    assert Challenge.objects.get(pk=challenge.pk).status == ChallengeStatus.DECLINED
    with pytest.raises(Conflict):
        services.challenge_accept(challenge_id=challenge.pk, user=bob)


def test_cancel_by_the_challenger_only(alice, bob):
    challenge = services.challenge_create(challenger=alice, opponent=bob, kind="onitama")
    with pytest.raises(NotAllowed):
        services.challenge_cancel(challenge_id=challenge.pk, user=bob)
    services.challenge_cancel(challenge_id=challenge.pk, user=alice)
    assert Challenge.objects.get(pk=challenge.pk).status == ChallengeStatus.CANCELLED
    with pytest.raises(Conflict):
        services.challenge_cancel(challenge_id=challenge.pk, user=alice)


def test_expiry_after_fourteen_days(alice, bob):
    old = services.challenge_create(
        challenger=alice, opponent=bob, kind="onitama", now=timezone.now() - timedelta(days=15)
    )
    fresh = services.challenge_create(challenger=alice, opponent=bob, kind="onitama")
    with pytest.raises(Conflict) as info:
        services.challenge_accept(challenge_id=old.pk, user=bob)
    assert info.value.code == "challenge_expired"
    assert services.challenges_expire() == 1
    assert services.challenges_expire() == 0
    assert Challenge.objects.get(pk=old.pk).status == ChallengeStatus.EXPIRED
    assert Challenge.objects.get(pk=fresh.pk).status == ChallengeStatus.OPEN


@pytest.mark.parametrize(
    "kwargs, code",
    [
        ({"kind": "chess"}, "unknown_game"),
        ({"kind": "onitama", "days_per_move": 4}, "bad_days"),
        ({"kind": "onitama", "seat_choice": "wazu"}, "bad_seat"),
        ({"kind": "onitama", "options": {"cards": "nope"}}, "bad_options"),
        ({"kind": "maatatahay", "options": {"variant": "first", "opening": 9}}, "bad_options"),
    ],
)
def test_invalid_challenges_are_refused(alice, bob, kwargs, code):
    with pytest.raises(InvalidInput) as info:
        services.challenge_create(challenger=alice, opponent=bob, **kwargs)
    assert info.value.code == code
    assert info.value.message


def test_cannot_challenge_yourself(alice):
    with pytest.raises(InvalidInput):
        services.challenge_create(challenger=alice, opponent=alice, kind="onitama")
