"""The tournament REST views (tournaments/apis.py), called directly (tests/tournaments/
test_api_tournaments.py calls them through /api/v1/tournaments/)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIRequestFactory, force_authenticate

from tournaments import apis as api
from tournaments import services

from .conftest import make_user, play_out, started

# Transactional: the pairing task and the mail run when each service commits (on_commit), as in production.
pytestmark = pytest.mark.django_db(transaction=True)
factory = APIRequestFactory()


def call(view, method="get", user=None, **kwargs):
    request = getattr(factory, method)("/")
    if user is not None:
        force_authenticate(request, user=user)
    return view.as_view()(request, **kwargs)


def test_list_detail_and_standings():
    players = [make_user("p%d" % i) for i in range(3)]
    t = started(players, format="swiss")
    play_out(t)
    listed = call(api.TournamentListView)
    assert listed.status_code == 200 and listed.data["results"][0]["id"] == t.pk
    detail = call(api.TournamentDetailView, tournament_id=t.pk)
    assert detail.status_code == 200 and len(detail.data["rounds"]) == 2
    assert {p["username"] for p in detail.data["players"]} == {"p0", "p1", "p2"}
    standings = call(api.TournamentStandingsView, tournament_id=t.pk)
    assert standings.data["status"] == "finished"
    assert sum(row["points"] for row in standings.data["standings"]) == 4  # 2 rounds of one game and one bye
    missing = call(api.TournamentStandingsView, tournament_id=999)
    assert missing.status_code == 404 and missing.data["code"] == "tournament_not_found"


def test_register_and_withdraw():
    alice = make_user("alice")
    t = services.tournament_create(actor=None, name="Cup", kind="onitama", format="knockout")
    assert call(api.TournamentRegisterView, "post", alice, tournament_id=t.pk).status_code == 404
    services.tournament_open_registration(tournament_id=t.pk, actor=None)
    assert call(api.TournamentRegisterView, "post", None, tournament_id=t.pk).status_code in (401, 403)
    assert call(api.TournamentRegisterView, "post", alice, tournament_id=t.pk).status_code == 201
    again = call(api.TournamentRegisterView, "post", alice, tournament_id=t.pk)
    assert again.status_code == 409 and again.data["code"] == "already_registered"
    assert call(api.TournamentWithdrawView, "post", alice, tournament_id=t.pk).status_code == 200
    assert not t.participants.exists()
