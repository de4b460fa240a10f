"""Tournament pages, the standings JSON and the admin actions."""

from __future__ import annotations

import pytest

from accounts.models import StaffActionKind
from accounts.selectors import staff_actions_on
from tournaments import services
from tournaments.models import Tournament, TournamentStatus

from .conftest import make_user, play_out, started

# Transactional: the pairing task and the mail run when each service commits (on_commit), as in production.
pytestmark = pytest.mark.django_db(transaction=True)


def test_list_detail_register_and_withdraw(client):
    alice = make_user("alice")
    t = services.tournament_create(actor=None, name="Spring cup", kind="onitama", format="swiss")
    assert client.get("/tournaments/%d/" % t.pk).status_code == 404  # drafts are staff-only
    services.tournament_open_registration(tournament_id=t.pk, actor=None)
    assert "Spring cup" in client.get("/tournaments/").content.decode()
    client.force_login(alice)
    page = client.get("/tournaments/%d/" % t.pk)
    assert 'id="register"' in page.content.decode()
    response = client.post("/tournaments/%d/register/" % t.pk)
    assert response.status_code == 302 and t.participants.filter(user=alice).exists()
    # The page has one answer: asking it for JSON gets the page (JSON clients use the API).
    again = client.post("/tournaments/%d/register/" % t.pk, HTTP_ACCEPT="application/json")
    assert again.status_code == 409 and again["Content-Type"].startswith("text/html")
    client.post("/tournaments/%d/withdraw/" % t.pk)
    assert not t.participants.exists()
    assert client.get("/tournaments/999/").status_code == 404
    assert client.get("/tournaments/999/standings.json").status_code == 404


def test_registration_refused_after_the_start_shows_the_message(client):
    players = [make_user("p%d" % i) for i in range(3)]
    t = started(players[:2])
    client.force_login(players[2])
    response = client.post("/tournaments/%d/register/" % t.pk)
    assert response.status_code == 409
    assert "not open" in response.content.decode()


def test_standings_json_and_pages_after_the_end(client):
    players = [make_user("p%d" % i) for i in range(4)]
    rr = started(players, format="round_robin")
    ko = started(players, format="knockout")
    play_out(rr)
    play_out(ko)
    data = client.get("/tournaments/%d/standings.json" % rr.pk).json()
    assert data["status"] == "finished" and len(data["standings"]) == 4
    assert [row["rank"] for row in data["standings"]] == [1, 2, 3, 4]
    assert sum(row["points"] for row in data["standings"]) == 6  # six decided games
    page = client.get("/tournaments/%d/" % rr.pk).content.decode()
    assert "Crosstable" in page and "p0" in page
    ko_data = client.get("/tournaments/%d/standings.json" % ko.pk).json()
    assert len(ko_data["bracket"]) == 2 and ko_data["bracket"][1][0]["winner"]
    assert "Bracket" in client.get("/tournaments/%d/" % ko.pk).content.decode()


def test_pages_never_show_hidden_state(client):
    players = [make_user("p%d" % i) for i in range(2)]
    t = started(players, format="round_robin", kind="maatatahay")
    game = t.pairings.get().game
    assert game is not None
    page = client.get("/tournaments/%d/" % t.pk).content.decode()
    data = client.get("/tournaments/%d/standings.json" % t.pk).content.decode()
    for text in (page, data):
        assert game.sealed_seed not in text and '"bag"' not in text


def test_admin_create_and_actions_are_logged(client):
    staff = make_user("boss")
    staff.is_staff = staff.is_superuser = True
    staff.save()
    players = [make_user("p%d" % i) for i in range(3)]
    client.force_login(staff)
    response = client.post(
        "/admin/tournaments/tournament/add/",
        {
            "name": "Admin cup",
            "kind": "onitama",
            "options": "{}",
            "format": "knockout",
            "cycles": "1",
            "days_per_move": "3",
            "rated": "on",
            "vacation_allowed": "on",
            "min_players": "2",
            "participants-TOTAL_FORMS": "0",
            "participants-INITIAL_FORMS": "0",
            "accounts-staffaction-target_type-target_id-TOTAL_FORMS": "0",
            "accounts-staffaction-target_type-target_id-INITIAL_FORMS": "0",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    t = Tournament.objects.get(name="Admin cup")
    assert t.created_by == staff
    changelist = "/admin/tournaments/tournament/"
    client.post(changelist, {"action": "open_registration", "_selected_action": [t.pk]})
    for user in players:
        services.tournament_register(tournament_id=t.pk, user=user)
    client.post(changelist, {"action": "start", "_selected_action": [t.pk]})
    t.refresh_from_db()
    assert t.status == TournamentStatus.RUNNING and t.rounds.count() == 1
    entry = t.participants.get(seed=3)
    client.post("/admin/tournaments/participant/", {"action": "withdraw", "_selected_action": [entry.pk]})
    entry.refresh_from_db()
    assert entry.status == "withdrawn"
    bad = client.post(changelist, {"action": "resume", "_selected_action": [t.pk]}, follow=True)
    assert "cannot be done" in bad.content.decode()
    assert list(staff_actions_on(target=t).order_by("pk").values_list("action", flat=True)) == [
        StaffActionKind.TOURNAMENT_CREATE,
        StaffActionKind.TOURNAMENT_OPEN_REGISTRATION,
        StaffActionKind.TOURNAMENT_START,
        StaffActionKind.TOURNAMENT_WITHDRAW_PLAYER,
    ]
    assert all(a.staff == staff for a in staff_actions_on(target=t))


def test_admin_replace_action(client):
    staff = make_user("boss")
    staff.is_staff = staff.is_superuser = True
    staff.save()
    alice, bob = make_user("alice"), make_user("bob")
    t = services.tournament_create(actor=staff, name="Cup", kind="onitama", format="swiss")
    services.tournament_open_registration(tournament_id=t.pk, actor=staff)
    entry = services.tournament_register(tournament_id=t.pk, user=alice)
    client.force_login(staff)
    form = client.post("/admin/tournaments/participant/", {"action": "replace", "_selected_action": [entry.pk]})
    assert form.status_code == 200 and "Replace" in form.content.decode()
    client.post(
        "/admin/tournaments/participant/",
        {"action": "replace", "_selected_action": [entry.pk], "apply": "1", "username": "bob"},
    )
    entry.refresh_from_db()
    assert entry.user == bob
