"""The header counts the games waiting for the player's move, on every page; the lobby names
each game's and challenge's variant."""

import html as html_lib
import re

import pytest

from games import services

from .conftest import make_user, play, start_game

pytestmark = pytest.mark.django_db

COUNT = re.compile(r'class="games-waiting[^"]*"[^>]*>([^<]*)</a>')


def to_move(game, user):
    """``game`` played on until it is ``user``'s move."""
    while game.to_move_user != user:
        game = play(game, 1)
    return game


def header_count(client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200, path
    found = COUNT.findall(response.content.decode())
    assert len(found) == 1, path
    return found[0].strip()


def test_the_header_counts_the_games_waiting_for_my_move_on_every_page(client, alice, bob, carol):
    to_move(start_game(alice, bob, "onitama", {"cards": "base"}), alice)
    to_move(start_game(carol, alice, "maatatahay", {"variant": "standard"}), alice)
    theirs = to_move(start_game(alice, carol, "onitama", {"cards": "base"}), carol)
    over = start_game(bob, alice)
    services.game_resign(game_id=over.pk, user=bob)
    client.force_login(alice)
    pages = [
        "/",
        "/lobby/",
        "/rules/",
        "/correspondence/settings/",
        "/accounts/profile/",
        "/games/%d/" % theirs.pk,
        "/history/alice/",
        "/tournaments/",
        "/ladders/",
    ]
    for path in pages:
        assert header_count(client, path) == "Your move in 2 games", path

    play(theirs, 1)  # carol moves: now alice is to move there too
    assert header_count(client, "/") == "Your move in 3 games"
    client.force_login(bob)
    assert header_count(client, "/") == "Your move in 0 games"
    client.cookies["django_language"] = "ar"
    assert header_count(client, "/") == "دورك في 0 مباراة"


def test_a_visitor_sees_no_count(client, alice, bob):
    to_move(start_game(alice, bob), alice)
    html = client.get("/").content.decode()
    assert 'class="games-waiting' not in html


def test_the_lobby_shows_the_variant_of_games_and_challenges(client, alice, bob):
    carol = make_user("carol2")
    start_game(alice, bob, "maatatahay", {"variant": "standard"})
    start_game(bob, alice, "onitama", {"cards": "senseis_path"})
    services.challenge_create(
        challenger=carol, opponent=alice, kind="maatatahay", options={"variant": "first"}, days_per_move=3
    )
    services.challenge_create(
        challenger=carol, opponent=None, kind="onitama", options={"cards": "mixed"}, days_per_move=3
    )
    client.force_login(alice)
    html = client.get("/lobby/").content.decode()
    variants = [html_lib.unescape(v) for v in re.findall(r'<span class="variant">\(?([^<)]*)\)?</span>', html)]
    assert sorted(variants) == ["Both mixed", "First Game", "Sensei's Path", "Standard Game"], variants


@pytest.mark.parametrize(
    ("language", "expected"),
    [("en", ["Standard Game", "Base game"]), ("ar", ["Standard Game", "اللعبة الأساسية"])],
)
def test_the_game_page_names_the_variant_in_the_readers_language(client, alice, bob, language, expected):
    """The header's variant is the forms' name, translated (it once showed the raw "variant: standard")."""
    games = [start_game(alice, bob, "maatatahay", {"variant": "standard"}), start_game(alice, bob, "onitama")]
    client.force_login(alice)
    client.cookies["django_language"] = language
    for game, name in zip(games, expected, strict=True):
        html = client.get("/games/%d/" % game.pk).content.decode()
        header = html[html.index('class="game-meta') : html.index('class="game-status"')]
        assert re.findall(r'<span class="variant">([^<]*)</span>', header) == [name]
        assert "standard" not in header and "base" not in header


def test_the_lobby_forms_are_drawn_as_django_draws_them_in_each_language_and_with_errors(client, alice):
    """The lobby keeps its empty forms' HTML per process and language (games.views._form_html):
    what it sends is what the forms draw fresh, in English and in Arabic, and a challenge sent
    back with an error shows that error, not the kept empty form."""
    from django.utils import translation

    from games.forms import ChallengeForm, SoloForm

    alice.language = ""  # no saved preference: the browser's language
    alice.save(update_fields=["language"])
    client.force_login(alice)
    for language in ("en", "ar", "en"):
        for _ in range(2):  # drawn, then kept
            page = client.get("/lobby/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
            with translation.override(language):
                for form in (ChallengeForm(prefix="challenge"), SoloForm(prefix="solo")):
                    assert str(form.as_p()) in page, (language, type(form).__name__)
        assert ('<html lang="ar"' in page) == (language == "ar")
    refused = client.post("/challenges/new/", {"challenge-kind": "onitama", "challenge-opponent": "nobody"})
    text = refused.content.decode()
    assert refused.status_code == 400 and "There is no player called nobody" in text
    assert 'value="nobody"' in text  # the form as sent, with its error
