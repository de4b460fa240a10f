"""Games through the API: the caller's view, moves (stale, illegal, repeated), actions, lists."""

import pytest
from django.utils.http import http_date

from games import services
from games.models import Game, Move

from .conftest import play, start_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("api_settings")]


@pytest.fixture
def game(onitama_game):
    """Onitama, alice red, bob blue (who moves first depends on the dealt side card)."""
    return onitama_game


@pytest.fixture
def turn(game, alice_api, bob_api):
    """(client of the player to move, client of the other player)."""
    game.refresh_from_db()
    return (alice_api, bob_api) if game.to_move_user.username == "alice" else (bob_api, alice_api)


def url(game, tail=""):
    return "/api/v1/games/%d/%s" % (game.pk, tail)


def test_the_player_to_move_sees_legal_moves_in_text_and_structure(turn, game):
    mover, waiter = turn
    mine = mover.get(url(game)).json()
    assert mine["your_turn"] and mine["to_move_username"] == game.to_move_user.username
    assert mine["legal_moves"] and mine["deadline"] and mine["time_left_seconds"] > 0
    first = mine["legal_moves"][0]
    card, squares = first["text"].split(":")
    assert first["move"] == {"type": "move", "card": card, "from": squares[:2], "to": squares[2:]}
    assert mine["view"]["player"] == mine["your_side"] and mine["fairness"]["revealed_seed"] == ""
    theirs = waiter.get(url(game)).json()
    assert theirs["your_side"] != mine["your_side"] and not theirs["your_turn"] and theirs["legal_moves"] == []


def test_spectators_and_anonymous_see_no_legal_moves(anon, carol_api, game):
    for client in (anon, carol_api):
        body = client.get(url(game)).json()
        assert body["your_side"] is None and body["legal_moves"] == [] and body["view"]["player"] is None


def test_a_move_is_played_and_the_game_answers(turn, game):
    alice_api = turn[0]
    text = alice_api.get(url(game)).json()["legal_moves"][0]["text"]
    answer = alice_api.post(url(game, "moves/"), {"move": text, "ply": 0}, format="json")
    assert answer.status_code == 201
    body = answer.json()
    assert body["played"]["text"] == text and body["played"]["ply"] == 1
    assert body["game"]["ply"] == 1 and not body["game"]["your_turn"]
    assert Move.objects.filter(game=game).count() == 1


def test_a_stale_ply_is_409_with_the_current_game(turn, game):
    alice_api = turn[0]
    text = alice_api.get(url(game)).json()["legal_moves"][0]["text"]
    answer = alice_api.post(url(game, "moves/"), {"move": text, "ply": 3}, format="json")
    assert answer.status_code == 409
    body = answer.json()
    assert body["code"] == "stale_ply" and body["message"]
    assert body["details"]["game"]["id"] == game.pk and body["details"]["game"]["ply"] == 0
    assert body["details"]["current"] == 0 and not Move.objects.exists()


def test_an_illegal_move_is_400_with_the_engines_message(turn, game):
    alice_api = turn[0]
    answer = alice_api.post(url(game, "moves/"), {"move": "tiger:a1a5", "ply": 0}, format="json")
    assert answer.status_code == 400
    body = answer.json()
    assert body["code"] not in ("", "invalid") and body["message"] and not Move.objects.exists()
    garbage = alice_api.post(url(game, "moves/"), {"move": "hello", "ply": 0}, format="json")
    assert garbage.status_code == 400 and garbage.json()["code"] == "bad_syntax"


def test_nobody_moves_for_someone_else(turn, carol_api, anon, game):
    bob_api = turn[1]
    text = services.rules_for("onitama").move_text(
        services.rules_for("onitama").legal_moves(services.game_state(game))[0]
    )
    not_turn = bob_api.post(url(game, "moves/"), {"move": text, "ply": 0}, format="json")
    assert not_turn.status_code == 403 and not_turn.json()["code"] == "not_your_turn"
    stranger = carol_api.post(url(game, "moves/"), {"move": text, "ply": 0}, format="json")
    assert stranger.status_code == 403 and stranger.json()["code"] == "not_a_player"
    assert anon.post(url(game, "moves/"), {"move": text, "ply": 0}, format="json").status_code == 401
    assert not Move.objects.exists()


def test_bad_move_input_and_unknown_game(turn, game):
    alice_api = turn[0]
    missing = alice_api.post(url(game, "moves/"), {"move": "x"}, format="json")
    assert missing.status_code == 400 and "ply" in missing.json()["details"]["fields"]
    assert alice_api.post("/api/v1/games/999999/moves/", {"move": "x", "ply": 0}, format="json").status_code == 404
    unknown = alice_api.get("/api/v1/games/999999/")
    assert unknown.status_code == 404 and unknown.json()["code"] == "game_not_found"


def test_a_repeated_move_with_its_idempotency_key_returns_the_first_answer(turn, game):
    alice_api = turn[0]
    text = alice_api.get(url(game)).json()["legal_moves"][0]["text"]
    headers = {"HTTP_IDEMPOTENCY_KEY": "move-1"}
    first = alice_api.post(url(game, "moves/"), {"move": text, "ply": 0}, format="json", **headers)
    again = alice_api.post(url(game, "moves/"), {"move": text, "ply": 0}, format="json", **headers)
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    assert Move.objects.filter(game=game).count() == 1
    other = alice_api.post(url(game, "moves/"), {"move": text, "ply": 1}, format="json", **headers)
    assert other.status_code == 422 and other.json()["code"] == "idempotency_key_reused"
    # Without the key the same repeat is a stale ply.
    stale = alice_api.post(url(game, "moves/"), {"move": text, "ply": 0}, format="json")
    assert stale.status_code == 409


def test_idempotency_keys_belong_to_their_user(turn, game):
    alice_api, bob_api = turn
    text = alice_api.get(url(game)).json()["legal_moves"][0]["text"]
    alice_api.post(url(game, "moves/"), {"move": text, "ply": 0}, format="json", HTTP_IDEMPOTENCY_KEY="k")
    reply = bob_api.get(url(game)).json()["legal_moves"][0]["text"]
    answer = bob_api.post(url(game, "moves/"), {"move": reply, "ply": 1}, format="json", HTTP_IDEMPOTENCY_KEY="k")
    assert answer.status_code == 201 and answer.json()["played"]["text"] == reply
    too_long = bob_api.post(
        url(game, "moves/"), {"move": reply, "ply": 2}, format="json", HTTP_IDEMPOTENCY_KEY="x" * 300
    )
    assert too_long.status_code == 400 and too_long.json()["code"] == "bad_idempotency_key"


def test_game_detail_answers_304_until_something_changes(alice_api, bob_api, game):
    first = alice_api.get(url(game))
    etag = first["ETag"]
    assert etag and first["Last-Modified"]
    assert alice_api.get(url(game), HTTP_IF_NONE_MATCH=etag).status_code == 304
    assert alice_api.get(url(game), HTTP_IF_MODIFIED_SINCE=first["Last-Modified"]).status_code == 304
    # Another viewer has another copy.
    assert bob_api.get(url(game), HTTP_IF_NONE_MATCH=etag).status_code == 200
    play(game, 1)
    changed = alice_api.get(url(game), HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    old = http_date(0)
    assert alice_api.get(url(game), HTTP_IF_MODIFIED_SINCE=old).status_code == 200


def test_the_revalidation_row_read_through_its_kept_sql_is_the_orms_at_every_change(alice, bob, game):
    """game_changed_at runs the SQL of its ORM query built once per process: at each change
    (a move, an offer, its answer, the end) it reads what the ORM reads, and the tag moves."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games import selectors

    def both() -> tuple[object, object]:
        return selectors._changed_row(game.pk), next(iter(selectors._changed_query(game.pk)), None)

    tags = []
    for step in range(5):
        if step == 1:
            play(game, 1)
        elif step == 2:
            services.draw_offer(game_id=game.pk, user=alice)
        elif step == 3:
            services.draw_decline(game_id=game.pk, user=bob)
        elif step == 4:
            services.game_resign(game_id=game.pk, user=bob)
        kept, built = both()
        assert kept == built and kept is not None
        with CaptureQueriesContext(connection) as queries:
            changed = selectors.game_changed_at(game_id=game.pk)
        assert changed is not None and len(queries) == 1
        changed_at, tag = changed
        assert changed_at.tzinfo is not None
        tags.append(tag)
    assert len(set(tags)) == 5  # every change gave a new tag
    assert selectors._changed_row(10**9) is None and selectors.game_changed_at(game_id=10**9) is None


def test_draw_offer_answer_and_decline(alice_api, bob_api, game):
    offered = alice_api.post(url(game, "draw/offer/"))
    assert offered.status_code == 200 and offered.json()["draw_offer"]["side"] == "red"
    assert offered.json()["draw_offer"]["to_you"] is False
    seen = bob_api.get(url(game)).json()["draw_offer"]
    assert seen == {"side": "red", "ply": 0, "to_you": True}
    twice = alice_api.post(url(game, "draw/offer/"))
    assert twice.status_code == 409 and twice.json()["code"] == "draw_already_offered"
    assert alice_api.post(url(game, "draw/accept/")).status_code == 409
    declined = bob_api.post(url(game, "draw/decline/"))
    assert declined.status_code == 200 and declined.json()["draw_offer"] is None
    alice_api.post(url(game, "draw/offer/"))
    accepted = bob_api.post(url(game, "draw/accept/"))
    assert accepted.status_code == 200
    result = accepted.json()
    assert result["status"] == "finished" and result["result"] == {
        "winner_side": None,
        "reason": "agreement",
        "scores": None,
    }
    assert result["fairness"]["revealed_seed"] != ""


def test_resign_and_abort(alice_api, bob_api, carol_api, alice, bob, game):
    assert carol_api.post(url(game, "resign/")).status_code == 403
    aborted = bob_api.post(url(game, "abort/"))
    assert aborted.status_code == 200 and aborted.json()["status"] == "aborted"
    assert bob_api.post(url(game, "resign/")).status_code == 409
    other = play(start_game(alice, bob, "onitama", {"cards": "base"}), 2)
    assert alice_api.post(url(other, "abort/")).json()["code"] == "abort_too_late"
    resigned = alice_api.post(url(other, "resign/"))
    assert resigned.status_code == 200 and resigned.json()["result"]["winner_side"] == "blue"


def test_game_list_filters_and_cursor_pagination(alice_api, bob_api, anon, alice, bob, carol):
    games = [start_game(alice, bob, "onitama", {"cards": "base"}) for _ in range(3)]
    start_game(bob, carol, "maatatahay", {"variant": "first"})
    services.game_resign(game_id=games[0].pk, user=alice)
    mine = alice_api.get("/api/v1/games/?mine=true").json()
    assert [g["id"] for g in mine["results"]] == [g.pk for g in reversed(games)]
    for client, name in ((alice_api, "alice"), (bob_api, "bob")):
        listed = client.get("/api/v1/games/?my_turn=true").json()["results"]
        expected = {g.pk for g in Game.objects.filter(status="active", to_move_user__username=name)}
        assert {g["id"] for g in listed} == expected and all(g["your_turn"] for g in listed)
    assert len(anon.get("/api/v1/games/?kind=maatatahay").json()["results"]) == 1
    finished = alice_api.get("/api/v1/games/?mine=1&status=finished").json()["results"]
    assert [g["id"] for g in finished] == [games[0].pk] and finished[0]["result"]["reason"] == "resign"
    seen, page = [], alice_api.get("/api/v1/games/?page_size=2").json()
    seen += page["results"]
    while page["next"]:
        page = alice_api.get(page["next"]).json()
        seen += page["results"]
    assert len(seen) == 4 and len({g["id"] for g in seen}) == 4
    assert anon.get("/api/v1/games/?mine=true").status_code == 401
    assert alice_api.get("/api/v1/games/?status=bogus").status_code == 400
    assert alice_api.get("/api/v1/games/?mine=maybe").status_code == 400
    listing = alice_api.get("/api/v1/games/?mine=true")
    assert alice_api.get("/api/v1/games/?mine=true", HTTP_IF_NONE_MATCH=listing["ETag"]).status_code == 304


def test_solo_game_against_a_bot(alice_api, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        made = alice_api.post(
            "/api/v1/games/solo/",
            {"kind": "onitama", "level": 1, "side": "blue", "options": {"cards": "base"}},
            format="json",
        )
    assert made.status_code == 201
    body = made.json()
    assert body["bot_level"] == 1 and body["your_side"] == "blue"
    game = Game.objects.get(pk=body["id"])
    # Whoever the side card lets start, it is now the human's turn: the bot has played if it began.
    assert game.to_move_side == "blue" and game.ply == Move.objects.filter(game=game, seat__side="red").count()
    assert game.ply <= 1
    bad = alice_api.post("/api/v1/games/solo/", {"kind": "onitama", "level": 9}, format="json")
    assert bad.status_code == 400
    side = alice_api.post("/api/v1/games/solo/", {"kind": "onitama", "level": 1, "side": "green"}, format="json")
    assert side.status_code == 400 and side.json()["code"] == "bad_seat"


def test_maatatahay_structured_moves(alice_api, bob_api, alice, bob):
    game = start_game(alice, bob, "maatatahay", {"variant": "standard"})
    mover = alice_api if game.to_move_user == alice else bob_api
    detail = mover.get(url(game)).json()
    assert detail["legal_moves"]
    for legal in detail["legal_moves"]:
        assert legal["move"]["type"] in {"pick", "first", "draft", "place", "shrine", "finish"}
        assert legal["move"]["type"] == legal["text"].split()[0]


def test_expired_idempotency_records_are_purged_by_the_task(turn, game):
    from datetime import timedelta

    from django.utils import timezone

    from api.models import IdempotencyRecord
    from api.tasks import idempotency_purge

    mover = turn[0]
    text = mover.get(url(game)).json()["legal_moves"][0]["text"]
    mover.post(url(game, "moves/"), {"move": text, "ply": 0}, format="json", HTTP_IDEMPOTENCY_KEY="old")
    assert idempotency_purge.delay().get() == 0
    IdempotencyRecord.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    assert idempotency_purge.delay().get() == 1 and not IdempotencyRecord.objects.exists()
    # An expired key is free again: the same key now answers the new request (a stale ply).
    again = mover.post(url(game, "moves/"), {"move": text, "ply": 0}, format="json", HTTP_IDEMPOTENCY_KEY="old")
    assert again.status_code == 409


def test_the_detail_is_kept_per_version_and_viewer_and_its_seconds_left_count_down(turn, game, anon):
    """A second read of the same version is the cached body (no game, seats or moves read),
    the same as the first but for the seconds left, counted down by the time between; each
    viewer has their own, and a move makes a new version."""
    from unittest import mock

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    mover, waiter = turn
    first = mover.get(url(game)).json()
    with mock.patch("games.apis.time.time", return_value=__import__("time").time() + 125):
        with CaptureQueriesContext(connection) as queries:
            again = mover.get(url(game)).json()
    sqls = [q["sql"] for q in queries.captured_queries]
    assert not [q for q in sqls if q.startswith('SELECT "games_move"') or 'FROM "games_seat"' in q], sqls
    assert again["time_left_seconds"] in (first["time_left_seconds"] - 125, first["time_left_seconds"] - 126)
    assert {k: v for k, v in again.items() if k != "time_left_seconds"} == {
        k: v for k, v in first.items() if k != "time_left_seconds"
    }
    theirs, spectator = waiter.get(url(game)).json(), anon.get(url(game)).json()
    assert first["legal_moves"] and theirs["legal_moves"] == [] == spectator["legal_moves"]
    assert theirs["your_side"] != first["your_side"] and spectator["your_side"] is None
    played = mover.post(url(game, "moves/"), {"move": first["legal_moves"][0]["text"], "ply": 0}, format="json")
    assert played.status_code == 201
    after = mover.get(url(game)).json()
    assert after["ply"] == 1 and after["legal_moves"] == [] and not after["your_turn"]
    assert waiter.get(url(game)).json()["your_turn"]


def test_a_move_answers_with_the_draw_offer_still_pending_and_reads_offers_with_the_locked_row(turn, game):
    """A move declines the opponent's pending offer and keeps the mover's own; the answer
    shows what is pending. The game's row is locked with its pending offer, so a move with
    none pending, and its answer, send no query about offers at all."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.models import DrawOffer

    mover, waiter = turn

    def move(client, ply):
        text = client.get(url(game)).json()["legal_moves"][0]["text"]
        with CaptureQueriesContext(connection) as queries:
            answer = client.post(url(game, "moves/"), {"move": text, "ply": ply}, format="json")
        assert answer.status_code == 201, answer.json()
        offers = [q["sql"] for q in queries.captured_queries if "games_drawoffer" in q["sql"]]
        return answer.json()["game"], offers

    page, offers = move(mover, 0)  # none pending
    assert page["draw_offer"] is None and page["can_offer_draw"]
    assert all(sql.startswith('SELECT "games_game"') for sql in offers), offers  # in the lock only
    waiter.post(url(game, "draw/offer/"))  # the next mover offers, then moves: the offer stays
    page, offers = move(waiter, 1)
    assert page["draw_offer"]["to_you"] is False and page["draw_offer"]["ply"] == 1
    assert not any(sql.startswith("UPDATE") for sql in offers), offers
    assert DrawOffer.objects.get(game=game).status == "pending"
    page, offers = move(mover, 2)  # moving instead of answering declines it
    assert page["draw_offer"] is None and page["can_offer_draw"]
    assert [sql.split(" ")[0] for sql in offers] == ["SELECT", "UPDATE"], offers
    assert DrawOffer.objects.get(game=game).status == "declined"
    assert waiter.get(url(game)).json()["draw_offer"] is None


def test_an_expired_key_not_yet_purged_is_claimed_anew_and_a_claim_costs_one_query(turn, game):
    """The claim inserts without failing on a conflict, returning the new row's id: one round
    trip for a new key, two for a key taken (then its row is read), no savepoint. An expired
    row still there (the purge runs daily) is replaced: the key answers the new request, not
    the old answer."""
    from datetime import timedelta

    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from api import services as api_services
    from api.models import IdempotencyRecord

    mover, waiter = turn
    text = mover.get(url(game)).json()["legal_moves"][0]["text"]
    first = mover.post(url(game, "moves/"), {"move": text, "ply": 0}, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    assert first.status_code == 201
    IdempotencyRecord.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    reply = waiter.get(url(game)).json()["legal_moves"][0]["text"]
    # the same key, now expired, with another request: played, not refused (422) nor replayed
    second = mover.post(url(game, "moves/"), {"move": reply, "ply": 1}, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    assert second.status_code == 403 and "Idempotent-Replayed" not in second  # not the mover's turn
    record = IdempotencyRecord.objects.get()
    assert record.status_code == 403 and record.expires_at > timezone.now()
    user = record.user
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        claimed, is_new = api_services.idempotency_claim(user=user, key="k2", request_hash="h")
    assert is_new and claimed.key == "k2" and claimed.status_code == 0
    sql = [q["sql"] for q in queries.captured_queries]
    assert len(sql) == 1 and not any("SAVEPOINT" in q for q in sql), sql  # a new key: the insert alone
    assert IdempotencyRecord.objects.get(pk=claimed.pk).key == "k2"
    api_services.idempotency_store(record=claimed, status_code=201, body={"done": True})
    assert IdempotencyRecord.objects.get(pk=claimed.pk).response_body == {"done": True}
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        again, is_new = api_services.idempotency_claim(user=user, key="k2", request_hash="h")
    assert not is_new and again.pk == claimed.pk and again.status_code == 201
    sql = [q["sql"] for q in queries.captured_queries]
    assert len(sql) == 2 and not any("SAVEPOINT" in q for q in sql), sql  # taken: the insert, then its row
