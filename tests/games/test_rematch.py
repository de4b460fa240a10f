"""The end of a game: the personal result, the rating change, and the rematch (seats swapped)
of casual games, through the service, the page and the API. Ladder and tournament games
have none (``Game.allows_rematch``)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games import services
from games.errors import Conflict, NotAllowed
from games.labels import result_text
from games.models import Challenge, ChallengeStatus, Game, GameStatus
from ladder import services as ladder_services
from ladder.models import Ladder
from tests.factories import seated, start_game
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db


def resigned(game: Game, loser) -> Game:
    services.game_resign(game_id=game.pk, user=loser)
    game.refresh_from_db()
    return game


def sides(game: Game) -> dict[str, str | int | None]:
    """Each side's player: the username, or the bot's level."""
    return {s.side: (s.user.username if s.user else s.bot_level) for s in game.seats.select_related("user")}


@pytest.fixture
def finished(alice, bob) -> Game:
    """A rated lobby game alice (red) lost to bob (blue) by resigning."""
    return resigned(start_game(alice, bob, seat_choice="red"), alice)


# ---------------------------------------------------------------- the service


def test_a_rematch_offer_is_a_challenge_with_seats_swapped(finished, alice, bob):
    offer = services.rematch_offer(game_id=finished.pk, user=alice)
    assert offer.created and offer.game is None and offer.challenge is not None
    challenge = offer.challenge
    assert (challenge.challenger, challenge.opponent, challenge.status) == (alice, bob, ChallengeStatus.OPEN)
    assert challenge.rematch_of == finished and challenge.seat_choice == "blue"
    assert (challenge.kind, challenge.options, challenge.days_per_move, challenge.rated) == (
        finished.kind,
        finished.options,
        finished.days_per_move,
        finished.rated,
    )
    rematch = services.challenge_accept(challenge_id=challenge.pk, user=bob)
    assert sides(rematch) == {"blue": "alice", "red": "bob"} and sides(finished) == {"red": "alice", "blue": "bob"}
    assert rematch.rematch_of == finished and rematch.rated and rematch.status == GameStatus.ACTIVE


def test_a_second_offer_answers_the_first(finished, alice, bob):
    first = services.rematch_offer(game_id=finished.pk, user=alice)
    again = services.rematch_offer(game_id=finished.pk, user=alice)  # a double click, a replay
    assert not again.created and again.challenge == first.challenge and again.game is None
    assert Challenge.objects.filter(rematch_of=finished).count() == 1
    answered = services.rematch_offer(game_id=finished.pk, user=bob)  # bob offers too: that accepts
    assert answered.created and answered.game is not None and answered.challenge == first.challenge
    assert answered.challenge is not None and answered.challenge.status == ChallengeStatus.ACCEPTED
    assert sides(answered.game) == {"blue": "alice", "red": "bob"}
    for user in (alice, bob):
        late = services.rematch_offer(game_id=finished.pk, user=user)
        assert not late.created and late.game == answered.game
    assert Game.objects.filter(rematch_of=finished).count() == 1


def test_a_declined_rematch_is_not_offered_again(finished, alice, bob):
    offer = services.rematch_offer(game_id=finished.pk, user=alice).challenge
    assert offer is not None
    services.challenge_decline(challenge_id=offer.pk, user=bob)
    for user in (alice, bob):
        again = services.rematch_offer(game_id=finished.pk, user=user)
        assert not again.created and again.game is None
        assert again.challenge is not None and again.challenge.status == ChallengeStatus.DECLINED
    assert Challenge.objects.filter(rematch_of=finished).count() == 1


def test_only_a_seated_player_may_offer(finished, carol):
    with pytest.raises(NotAllowed) as refused:
        services.rematch_offer(game_id=finished.pk, user=carol)
    assert refused.value.code == "not_a_player"
    assert not Challenge.objects.filter(rematch_of=finished).exists()


def test_a_running_or_aborted_game_has_no_rematch(alice, bob):
    running = start_game(alice, bob)
    with pytest.raises(Conflict) as refused:
        services.rematch_offer(game_id=running.pk, user=alice)
    assert refused.value.code == "rematch_not_finished"
    services.game_abort(game_id=running.pk, user=alice)
    with pytest.raises(Conflict):
        services.rematch_offer(game_id=running.pk, user=bob)
    assert not Challenge.objects.filter(rematch_of=running).exists()


def test_ladder_games_have_no_rematch(alice, bob):
    ladder = Ladder.objects.create(kind="onitama", name="Rematch ladder")
    for user in (alice, bob):
        ladder_services.ladder_join(ladder_id=ladder.pk, user=user)
    game = ladder_services.ladder_challenge_create(ladder_id=ladder.pk, challenger=bob, defender=alice).game
    resigned(game, alice)
    assert not game.allows_rematch
    for user in (alice, bob):
        with pytest.raises(NotAllowed) as refused:
            services.rematch_offer(game_id=game.pk, user=user)
        assert refused.value.code == "rematch_not_available"
    page = _client(alice).get(reverse("games:game", args=[game.pk])).content.decode()
    assert "You lost: you resigned" in page and "data-rematch" not in page
    assert reverse("games:rematch", args=[game.pk]) not in page


@pytest.mark.django_db(transaction=True)  # round 1 is paired once the start commits
def test_tournament_games_have_no_rematch(alice, bob):
    tournament = tournament_services.tournament_create(
        actor=None, name="Rematch cup", kind="onitama", format="round_robin"
    )
    tournament_services.tournament_open_registration(tournament_id=tournament.pk, actor=None)
    for user in (alice, bob):
        tournament_services.tournament_register(tournament_id=tournament.pk, user=user)
    tournament_services.tournament_start(tournament_id=tournament.pk, actor=None)
    game = Game.objects.get(tournament_pairing__tournament=tournament)
    loser = seated(game.seats.order_by("position").first())
    resigned(game, loser)
    assert not game.allows_rematch
    with pytest.raises(NotAllowed) as refused:
        services.rematch_offer(game_id=game.pk, user=loser)
    assert refused.value.code == "rematch_not_available"


def test_a_bot_game_rematch_starts_at_once_same_level_seats_swapped(alice):
    game = services.game_create_solo(
        user=alice, kind="onitama", bot_level=3, side="red", options={"cards": "base"}, days_per_move=5
    )
    resigned(game, alice)
    assert game.allows_rematch
    rematch = services.rematch_offer(game_id=game.pk, user=alice)
    assert rematch.created and rematch.challenge is None and rematch.game is not None
    new = rematch.game
    assert sides(game) == {"red": "alice", "blue": 3} and sides(new) == {"red": 3, "blue": "alice"}
    assert (new.bot_level, new.kind, new.options, new.days_per_move, new.rated) == (
        3,
        "onitama",
        game.options,
        5,
        False,
    )
    assert new.rematch_of == game
    again = services.rematch_offer(game_id=game.pk, user=alice)
    assert not again.created and again.game == new
    assert Game.objects.filter(rematch_of=game).count() == 1 and not Challenge.objects.exists()


# ---------------------------------------------------------------- the result text


def test_the_result_is_personal_for_the_players_and_neutral_for_others(finished):
    seats = {s.side: s for s in finished.seats.select_related("user")}
    with translation.override("en"):
        assert result_text(finished, seats=seats, viewer_side="blue") == "You won: your opponent resigned"
        assert result_text(finished, seats=seats, viewer_side="red") == "You lost: you resigned"
        assert result_text(finished, seats=seats) == "bob (Blue) won: resignation"
    finished.result_reason = "temple_reached"
    with translation.override("en"):
        assert result_text(finished, seats=seats, viewer_side="blue") == "You won: your master reached the temple"
        assert (
            result_text(finished, seats=seats, viewer_side="red")
            == "You lost: your opponent's master reached your temple"
        )
    with translation.override("id"):
        assert not result_text(finished, seats=seats, viewer_side="blue").startswith("You won")
    with translation.override("ar"):
        assert not result_text(finished, seats=seats, viewer_side="red").startswith("You lost")


def test_draws_and_aborts_read_the_same_for_everyone(alice, bob):
    game = start_game(alice, bob)
    services.draw_offer(game_id=game.pk, user=alice)
    services.draw_accept(game_id=game.pk, user=bob)
    game.refresh_from_db()
    seats = {s.side: s for s in game.seats.all()}
    with translation.override("en"):
        assert {result_text(game, seats=seats, viewer_side=v) for v in ("red", "blue", None)} == {"Draw by agreement"}
        game.status, game.result_reason, game.winner_side = GameStatus.ABORTED, "aborted_timeout", ""
        assert result_text(game, seats=seats, viewer_side="red") == "Game aborted: no first move in time"


# ---------------------------------------------------------------- the page


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_page_shows_the_result_the_rating_change_and_the_rematch(finished, alice, bob, carol):
    url = reverse("games:game", args=[finished.pk])
    alice_page, bob_page = _client(alice), _client(bob)
    mine = alice_page.get(url).content.decode()
    assert "You lost: you resigned" in mine
    assert "Your rating: 1500 → " in mine and 'class="rating-delta" dir="ltr">(-' in mine
    assert 'data-rematch="available"' in mine and reverse("games:rematch", args=[finished.pk]) in mine
    theirs = bob_page.get(url).content.decode()
    assert "You won: your opponent resigned" in theirs and 'class="rating-delta" dir="ltr">(+' in theirs
    watching = _client(carol).get(url).content.decode()
    assert "bob (Blue) won: resignation" in watching and "Your rating" not in watching
    assert "data-rematch" not in watching

    offered = alice_page.post(reverse("games:rematch", args=[finished.pk]))
    assert offered.status_code == 302 and offered["Location"] == url
    assert 'data-rematch="offered"' in alice_page.get(url).content.decode()
    assert alice_page.post(reverse("games:rematch", args=[finished.pk])).status_code == 302  # again: no change
    offer = Challenge.objects.get(rematch_of=finished)
    to_bob = bob_page.get(url).content.decode()
    assert 'data-rematch="to_me"' in to_bob and reverse("games:challenge_accept", args=[offer.pk]) in to_bob
    accepted = bob_page.post(reverse("games:challenge_accept", args=[offer.pk]))
    rematch = Game.objects.get(rematch_of=finished)
    assert accepted["Location"] == reverse("games:game", args=[rematch.pk])
    assert sides(rematch) == {"blue": "alice", "red": "bob"}
    for client in (alice_page, bob_page):
        shown = client.get(url).content.decode()
        assert 'data-rematch="started"' in shown and reverse("games:game", args=[rematch.pk]) in shown


def test_a_declined_rematch_returns_to_the_game_page(finished, alice, bob):
    url = reverse("games:game", args=[finished.pk])
    _client(alice).post(reverse("games:rematch", args=[finished.pk]))
    offer = Challenge.objects.get(rematch_of=finished)
    declined = _client(bob).post(reverse("games:challenge_decline", args=[offer.pk]))
    assert declined["Location"] == url
    assert 'data-rematch="closed"' in _client(alice).get(url).content.decode()


def test_a_casual_game_shows_no_rating_change(alice, bob):
    game = resigned(start_game(alice, bob, rated=False), alice)
    page = _client(alice).get(reverse("games:game", args=[game.pk])).content.decode()
    assert "You lost" in page and "rating-delta" not in page and 'data-rematch="available"' in page


def test_the_page_refuses_a_rematch_of_a_running_game(alice, bob):
    game = start_game(alice, bob)
    answer = _client(alice).post(reverse("games:rematch", args=[game.pk]), follow=True)
    assert "A rematch can be offered once the game is finished." in answer.content.decode()
    assert not Challenge.objects.filter(rematch_of=game).exists()


def test_a_bot_rematch_from_the_page_opens_the_new_game(alice):
    game = resigned(services.game_create_solo(user=alice, kind="onitama", bot_level=2, side="blue"), alice)
    answer = _client(alice).post(reverse("games:rematch", args=[game.pk]))
    rematch = Game.objects.get(rematch_of=game)
    assert answer["Location"] == reverse("games:game", args=[rematch.pk])
    assert sides(rematch) == {"red": "alice", "blue": 2}


def test_the_rematch_endpoint_needs_sign_in(finished):
    answer = Client().post(reverse("games:rematch", args=[finished.pk]))
    assert answer.status_code == 302 and "login" in answer["Location"]
    assert not Challenge.objects.filter(rematch_of=finished).exists()
