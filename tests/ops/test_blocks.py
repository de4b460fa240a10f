"""Blocking: a blocked player cannot challenge the blocker, directly, by accepting
their open challenge, or on the ladder; running games go on."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from accounts import selectors as account_selectors
from accounts import services as account_services
from games import services as games_services
from games.errors import NotAllowed
from games.models import Game
from ladder import services as ladder_services
from ladder.models import Ladder
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def test_block_is_one_way_and_idempotent(alice, bob):
    account_services.block_create(blocker=alice, blocked=bob)
    account_services.block_create(blocker=alice, blocked=bob)
    assert account_selectors.is_blocked(blocker=alice, blocked=bob)
    assert not account_selectors.is_blocked(blocker=bob, blocked=alice)
    assert [b.blocked for b in account_selectors.blocks_of_user(user=alice)] == [bob]
    assert account_services.block_delete(blocker=alice, blocked=bob) is True
    assert account_services.block_delete(blocker=alice, blocked=bob) is False
    assert not account_selectors.is_blocked(blocker=alice, blocked=bob)


def test_nobody_blocks_themselves(alice):
    with pytest.raises(ValidationError):
        account_services.block_create(blocker=alice, blocked=alice)


def test_a_blocked_player_cannot_challenge_the_blocker(alice, bob):
    account_services.block_create(blocker=alice, blocked=bob)
    with pytest.raises(NotAllowed) as refused:
        games_services.challenge_create(challenger=bob, opponent=alice, kind="onitama")
    assert refused.value.code == "blocked" and refused.value.status == 403
    assert "does not accept your challenges" in refused.value.message
    # The blocker may still challenge the player they blocked.
    assert games_services.challenge_create(challenger=alice, opponent=bob, kind="onitama").pk


def test_a_blocked_player_cannot_accept_the_blockers_open_challenge(alice, bob, carol):
    open_challenge = games_services.challenge_create(challenger=alice, kind="onitama")
    account_services.block_create(blocker=alice, blocked=bob)
    with pytest.raises(NotAllowed):
        games_services.challenge_accept(challenge_id=open_challenge.pk, user=bob)
    game = games_services.challenge_accept(challenge_id=open_challenge.pk, user=carol)
    assert game.status == "active"


def test_running_games_go_on_after_a_block(alice, bob):
    challenge = games_services.challenge_create(challenger=alice, opponent=bob, kind="onitama")
    game = games_services.challenge_accept(challenge_id=challenge.pk, user=bob)
    account_services.block_create(blocker=alice, blocked=bob)
    games_services.game_resign(game_id=game.pk, user=bob)
    assert Game.objects.get(pk=game.pk).status != "active"


def test_a_blocked_player_cannot_ladder_challenge_the_blocker():
    ladder = Ladder.objects.get_or_create(kind="onitama", defaults={"name": "Onitama ladder"})[0]
    top, below = make_user("ltop"), make_user("lbelow")
    for user in (top, below):
        ladder_services.ladder_join(ladder_id=ladder.pk, user=user)
    account_services.block_create(blocker=top, blocked=below)
    with pytest.raises(NotAllowed) as refused:
        ladder_services.ladder_challenge_create(ladder_id=ladder.pk, challenger=below, defender=top)
    assert refused.value.code == "blocked"
    account_services.block_delete(blocker=top, blocked=below)
    assert ladder_services.ladder_challenge_create(ladder_id=ladder.pk, challenger=below, defender=top).pk


def test_block_and_unblock_from_the_player_page(client, alice, bob):
    client.force_login(alice)
    page = client.get(bob.get_absolute_url())
    assert reverse("ops:block", args=["bob"]) in page.content.decode()
    response = client.post(reverse("ops:block", args=["bob"]), {"action": "block"})
    assert response.status_code == 302 and response.url == bob.get_absolute_url()
    assert account_selectors.is_blocked(blocker=alice, blocked=bob)
    listing = client.get(reverse("ops:blocks")).content.decode()
    assert "bob" in listing and "Unblock" in listing
    client.post(reverse("ops:block", args=["bob"]), {"action": "unblock", "next": reverse("ops:blocks")})
    assert not account_selectors.is_blocked(blocker=alice, blocked=bob)


def test_block_pages_need_a_login_and_a_known_player(client, alice):
    assert client.get(reverse("ops:blocks")).status_code == 302
    client.force_login(alice)
    assert client.post(reverse("ops:block", args=["nobody"]), {"action": "block"}).status_code == 404
    assert client.get(reverse("ops:block", args=["alice"])).status_code == 405
    response = client.post(reverse("ops:block", args=["alice"]), {"action": "block"}, follow=True)
    assert "You cannot block yourself." in response.content.decode()
