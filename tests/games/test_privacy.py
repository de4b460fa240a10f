"""The seed, the salt and the full state never leave the server before the game ends."""

import pytest

from games import services
from games.sealing import SealError, seal, unseal

from .conftest import play, start_game

pytestmark = pytest.mark.django_db


def secrets_of(game):
    salt_hex, seed = services.game_secret(game)
    return [str(seed), salt_hex, game.sealed_seed]


@pytest.mark.parametrize("kind, options", [("onitama", {"cards": "base"}), ("maatatahay", {"variant": "standard"})])
def test_admin_shows_the_view_and_commitment_but_never_the_seed_or_state(staff_client, alice, bob, kind, options):
    game = play(start_game(alice, bob, kind, options), 3)
    change = staff_client.get("/admin/games/game/%d/change/" % game.pk)
    listing = staff_client.get("/admin/games/game/")
    assert change.status_code == 200 and listing.status_code == 200
    for response in (change, listing):
        html = response.content.decode()
        for secret in secrets_of(game):
            assert secret not in html
        assert "sealed_seed" not in html and 'name="state"' not in html
    html = change.content.decode()
    assert game.seed_commitment in html
    assert "public view" in html.lower()


@pytest.mark.parametrize("kind, options", [("onitama", {"cards": "base"}), ("maatatahay", {"variant": "first"})])
def test_game_page_hides_the_seed_until_the_end(client, alice, bob, kind, options):
    game = play(start_game(alice, bob, kind, options), 2)
    client.force_login(alice)
    for url in ("/games/%d/" % game.pk, "/games/%d/?ply=1" % game.pk, "/lobby/"):
        html = client.get(url).content.decode()
        for secret in secrets_of(game):
            assert secret not in html
    assert game.seed_commitment in client.get("/games/%d/" % game.pk).content.decode()
    services.game_resign(game_id=game.pk, user=alice)
    game.refresh_from_db()
    html = client.get("/games/%d/" % game.pk).content.decode()
    salt_hex, seed = services.game_secret(game)
    assert str(seed) in html and salt_hex in html
    assert "python -m engine reveal %s --seed %d" % (kind, seed) in html
    assert "None" not in html.split("python -m engine reveal")[1].split("</pre>")[0]


def test_repr_and_str_of_a_game_hold_no_secret(onitama_game):
    for text in (repr(onitama_game), str(onitama_game)):
        for secret in secrets_of(onitama_game):
            assert secret not in text


def test_sealing_round_trip_and_tamper_detection(settings):
    sealed = seal("00ff:12345", purpose="seed")
    assert "12345" not in sealed and unseal(sealed, purpose="seed") == "00ff:12345"
    assert seal("00ff:12345", purpose="seed") != sealed  # fresh nonce each time
    tampered = sealed[:-1] + ("0" if sealed[-1] != "0" else "1")
    with pytest.raises(SealError):
        unseal(tampered, purpose="seed")
    with pytest.raises(SealError):  # a sealed seed is never read as a state
        unseal(sealed, purpose="state")
    settings.GAMES_SEAL_KEY = "another key"
    with pytest.raises(SealError):
        unseal(sealed, purpose="seed")
