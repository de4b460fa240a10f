"""Tournaments through /api/v1/tournaments/: list, detail, standings (anyone may read,
a token needs ``read``), register and withdraw (signed in, ``play``), every refusal in
the API's one error shape."""

from __future__ import annotations

from datetime import datetime

import pytest
from rest_framework.test import APIClient

from tests.api_clients import api_settings, token_client  # noqa: F401  (api_settings: the API tests' settings, applied below)
from tests.tournaments.conftest import make_user, play_out, started
from tournaments import services as tournament_services
from tournaments.models import Tournament

# Transactional: the pairing task and the mail run when each service commits (on_commit), as in production.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("api_settings")]

BASE = "/api/v1/tournaments/"


def open_tournament(**settings) -> Tournament:
    tournament = tournament_services.tournament_create(
        actor=None,
        name=settings.pop("name", "Open cup"),
        kind="onitama",
        format=settings.pop("format", "swiss"),
        **settings,
    )
    return tournament_services.tournament_open_registration(tournament_id=tournament.pk, actor=None)


def draft() -> Tournament:
    return tournament_services.tournament_create(actor=None, name="Secret draft", kind="onitama", format="swiss")


def assert_error(response, status: int, code: str) -> None:
    body = response.json()
    assert response.status_code == status, body
    assert set(body) == {"code", "message", "details"} and body["code"] == code and body["message"]


def test_the_list_shows_published_tournaments_to_anyone_and_hides_drafts(anon):
    shown, hidden = open_tournament(max_players=8, rating_max=1800), draft()
    response = anon.get(BASE)
    assert response.status_code == 200
    results = response.json()["results"]
    assert [t["id"] for t in results] == [shown.pk] and hidden.pk not in [t["id"] for t in results]
    assert results[0] == {
        "id": shown.pk,
        "name": "Open cup",
        "game": "onitama",
        "format": "swiss",
        "status": "registration",
        "days_per_move": 3,
        "rated": True,
        "vacation_allowed": True,
        "swiss_rounds": None,
        "cycles": 1,
        "registration_opens_at": None,
        "registration_closes_at": None,
        "min_players": 2,
        "max_players": 8,
        "rating_min": None,
        "rating_max": 1800,
        "started_at": None,
        "finished_at": None,
        "ends_at": None,
    }


def test_reads_answer_304_to_a_current_etag(anon, alice_api):
    tournament = open_tournament()
    for path in (BASE, "%s%d/" % (BASE, tournament.pk), "%s%d/standings/" % (BASE, tournament.pk)):
        first = anon.get(path)
        assert first.status_code == 200 and first["ETag"]
        assert anon.get(path, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    detail = "%s%d/" % (BASE, tournament.pk)
    etag = anon.get(detail)["ETag"]
    assert alice_api.post("%s%d/register/" % (BASE, tournament.pk)).status_code == 201
    changed = anon.get(detail, HTTP_IF_NONE_MATCH=etag)  # a new player: the old copy is stale
    assert changed.status_code == 200 and changed["ETag"] != etag


def test_detail_lists_players_rounds_and_pairings(anon):
    players = [make_user("p%d" % i) for i in range(3)]
    tournament = started(players, format="swiss")
    detail = anon.get("%s%d/" % (BASE, tournament.pk)).json()
    assert detail["status"] == "running" and detail["registration_open"] is False and detail["planned_rounds"] >= 2
    assert sorted((p["username"], p["seed"]) for p in detail["players"]) == [("p0", 1), ("p1", 2), ("p2", 3)]
    (first_round,) = detail["rounds"]
    assert first_round["number"] == 1
    pairings = first_round["pairings"]
    assert len(pairings) == 2 and sum(1 for p in pairings if p["second"] is None and p["result"] == "bye") == 1
    game_pairing = next(p for p in pairings if p["second"] is not None)
    assert game_pairing["game"] and game_pairing["result"] == ""
    assert anon.get("/api/v1/games/%d/" % game_pairing["game"]).status_code == 200


def test_detail_and_standings_of_a_draft_or_an_unknown_tournament_are_404(anon, alice_api):
    hidden = draft()
    for path in (
        "%s%d/" % (BASE, hidden.pk),
        "%s%d/standings/" % (BASE, hidden.pk),
        "%s999999/" % BASE,
        "%s999999/standings/" % BASE,
    ):
        assert_error(anon.get(path), 404, "tournament_not_found")
    assert_error(alice_api.post("%s%d/register/" % (BASE, hidden.pk)), 404, "tournament_not_found")
    assert_error(alice_api.post("%s999999/withdraw/" % BASE), 404, "tournament_not_found")
    assert anon.get("%snot-a-number/" % BASE).status_code == 404


def test_standings_of_a_finished_swiss(anon):
    players = [make_user("p%d" % i) for i in range(3)]
    tournament = started(players, format="swiss")
    play_out(tournament)
    standings = anon.get("%s%d/standings/" % (BASE, tournament.pk)).json()
    assert standings["status"] == "finished" and standings["current_round"] == 2 and "bracket" not in standings
    rows = standings["standings"]
    assert [row["rank"] for row in rows] == [1, 2, 3] and {row["player"] for row in rows} == {"p0", "p1", "p2"}
    assert sum(row["points"] for row in rows) == 4  # two rounds of one game and one bye
    assert all(row["wins"] + row["draws"] + row["losses"] + row["byes"] == 2 for row in rows)


def test_standings_of_a_knockout_carry_its_bracket(anon):
    players = [make_user("k%d" % i) for i in range(4)]
    tournament = started(players, format="knockout")
    play_out(tournament)
    standings = anon.get("%s%d/standings/" % (BASE, tournament.pk)).json()
    bracket = standings["bracket"]
    assert [len(round_) for round_ in bracket] == [2, 1]
    final = bracket[-1][0]
    assert final["winner"] in {final["first"], final["second"]} and final["games"][0]["result"]
    assert standings["standings"][0]["player"] == final["winner"]


def test_register_and_withdraw_with_a_token(alice_api, alice):
    tournament = open_tournament()
    registered = alice_api.post("%s%d/register/" % (BASE, tournament.pk))
    assert registered.status_code == 201 and registered.json() == {"registered": True}
    assert tournament.participants.filter(user=alice).exists()
    assert_error(alice_api.post("%s%d/register/" % (BASE, tournament.pk)), 409, "already_registered")
    withdrawn = alice_api.post("%s%d/withdraw/" % (BASE, tournament.pk))
    assert withdrawn.status_code == 200 and withdrawn.json() == {"registered": False}
    assert not tournament.participants.exists()
    assert_error(alice_api.post("%s%d/withdraw/" % (BASE, tournament.pk)), 409, "not_registered")


def test_register_repeated_with_one_idempotency_key_registers_once(alice_api, alice):
    tournament = open_tournament()
    path = "%s%d/register/" % (BASE, tournament.pk)
    first = alice_api.post(path, HTTP_IDEMPOTENCY_KEY="join-cup-1")
    again = alice_api.post(path, HTTP_IDEMPOTENCY_KEY="join-cup-1")
    assert first.status_code == again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    assert tournament.participants.filter(user=alice).count() == 1
    assert_error(alice_api.post(path, HTTP_IDEMPOTENCY_KEY="join-cup-2"), 409, "already_registered")
    other = alice_api.post("%s%d/withdraw/" % (BASE, tournament.pk), HTTP_IDEMPOTENCY_KEY="join-cup-1")
    assert_error(other, 422, "idempotency_key_reused")


def test_register_refusals(alice_api, bob_api, carol_api):
    full = open_tournament(name="Small", max_players=2)
    assert alice_api.post("%s%d/register/" % (BASE, full.pk)).status_code == 201
    assert bob_api.post("%s%d/register/" % (BASE, full.pk)).status_code == 201
    assert_error(carol_api.post("%s%d/register/" % (BASE, full.pk)), 409, "tournament_full")
    strong = open_tournament(name="Masters", rating_min=2000)
    refused = carol_api.post("%s%d/register/" % (BASE, strong.pk))
    assert_error(refused, 400, "rating_too_low")
    assert refused.json()["details"]["min"] == 2000
    tournament_services.tournament_start(tournament_id=full.pk, actor=None)
    assert_error(carol_api.post("%s%d/register/" % (BASE, full.pk)), 409, "registration_closed")
    assert_error(alice_api.post("%s%d/withdraw/" % (BASE, full.pk)), 409, "already_started")


def test_writes_need_a_signed_in_user_with_the_play_scope(anon, alice):
    tournament = open_tournament()
    for action in ("register", "withdraw"):
        assert_error(anon.post("%s%d/%s/" % (BASE, tournament.pk, action)), 401, "not_authenticated")
        reader = token_client(alice, scopes=("read",))
        assert_error(reader.post("%s%d/%s/" % (BASE, tournament.pk, action)), 403, "permission_denied")
    assert not tournament.participants.exists()
    assert_error(anon.get("%s%d/register/" % (BASE, tournament.pk)), 405, "method_not_allowed")


def test_reads_need_the_read_scope_of_a_token(alice):
    tournament = open_tournament()
    reader, player = token_client(alice, scopes=("read",)), token_client(alice, scopes=("play",))
    for path in (BASE, "%s%d/" % (BASE, tournament.pk), "%s%d/standings/" % (BASE, tournament.pk)):
        assert reader.get(path).status_code == 200
        assert_error(player.get(path), 403, "permission_denied")


def test_the_schema_documents_every_tournament_operation(anon):
    paths = anon.get("/api/v1/schema/?format=json").json()["paths"]
    assert set(paths["/api/v1/tournaments/"]) >= {"get"}
    register = paths["/api/v1/tournaments/{tournament_id}/register/"]["post"]
    assert {"201", "400", "401", "403", "404", "409", "422", "429"} <= set(register["responses"])
    assert "304" in paths["/api/v1/tournaments/{tournament_id}/standings/"]["get"]["responses"]
    withdraw = paths["/api/v1/tournaments/{tournament_id}/withdraw/"]["post"]
    assert {"200", "400", "409", "422"} <= set(withdraw["responses"])


def test_times_are_shown_in_the_signed_in_players_time_zone_as_everywhere_in_the_api(alice):
    """A session user with a time zone saw a tournament's times in UTC, and every other time of the
    API (here their profile's) in their own zone: the serializers now shape tournaments too."""
    tournament = started([alice, make_user("bob")], format="swiss")
    alice.time_zone = "Asia/Jakarta"
    alice.save(update_fields=["time_zone"])
    session = APIClient()
    session.force_login(alice)
    started_at = session.get("%s%d/" % (BASE, tournament.pk)).json()["started_at"]
    joined_at = session.get("/api/v1/players/alice/").json()["date_joined"]
    assert started_at.endswith("+07:00") and joined_at.endswith("+07:00")
    assert datetime.fromisoformat(started_at) == tournament.started_at
    anonymous = APIClient().get("%s%d/" % (BASE, tournament.pk)).json()["started_at"]
    assert anonymous.endswith("Z")  # no time zone of a player: the server's, UTC
