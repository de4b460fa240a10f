"""Fair-play checks: which games count, who the honest reference players are, the staff's
admin form and list, and a task that is safe to run twice."""

from __future__ import annotations

import pytest
from django.urls import reverse

import engine.bots
from accounts.models import StaffAction, StaffActionKind
from fairplay import agreement, selectors, services, tasks
from fairplay.errors import FairPlayInvalid, FairPlayNotAllowed
from fairplay.models import FairPlayCheck, FairPlayCheckGame, GameAgreement, Report
from games import services as games_services
from games.errors import InvalidInput
from games.models import Move
from ratings.models import Rating

from .conftest import bot_copier, finished, make_user, play, random_player, start_game

pytestmark = pytest.mark.django_db


def _set_rating(user, value: float, kind: str = "onitama") -> None:
    Rating.objects.update_or_create(user=user, kind=kind, defaults={"rating": value})


def _request(staff, player, kind="onitama", games=10, callbacks=None) -> FairPlayCheck:
    with callbacks(execute=True):
        check = services.fairplay_check_request(
            staff=staff, player=player, kind=kind, games=games, reason="Reported for engine help."
        )
    check.refresh_from_db()
    return check


def test_only_finished_rated_games_of_the_kind_count(alice, bob):
    counted = finished(alice, bob)
    finished(alice, bob, rated=False)  # unrated
    start_game(alice, bob)  # still running: its seed is secret
    aborted = start_game(alice, bob)
    games_services.game_abort(game_id=aborted.pk, user=alice)
    finished(alice, bob, "maatatahay")  # another game
    assert list(selectors.rated_games(user=alice, kind="onitama")) == [counted]


def test_reference_players_are_honest_players_of_similar_rating(alice):
    people = {name: make_user(name) for name in ("bob", "carol", "dave", "erin", "frank", "gina", "henry", "ivan")}
    pairs = [("bob", "carol"), ("dave", "erin"), ("frank", "gina"), ("henry", "bob")]
    for first, second in pairs:
        finished(people[first], people[second], decisions=2)
    finished(alice, people["bob"], decisions=2)
    ratings = {
        "bob": 1600,
        "carol": 1400,
        "dave": 1700,
        "erin": 1550,
        "frank": 1450,
        "gina": 1520,
        "henry": 1510,
        "ivan": 1490,
    }
    _set_rating(alice, 1500)
    for name, value in ratings.items():
        _set_rating(people[name], value)
    people["erin"].suspended_at = people["erin"].date_joined
    people["erin"].save()
    people["henry"].is_active = False
    people["henry"].save()
    Report.objects.create(
        reporter=alice, player=people["frank"], kind="engine", status="reviewed", reason="Checked: engine help."
    )
    Report.objects.create(
        reporter=alice, player=people["gina"], kind="engine", status="open", reason="Not looked at yet."
    )
    Report.objects.create(
        reporter=alice, player=people["carol"], kind="abuse", status="reviewed", reason="Rude, not a cheat."
    )
    # dave: out of the band; erin: suspended; frank: reviewed engine report; henry: inactive;
    # ivan: no rated game; alice: the player themself.
    found = selectors.reference_players(player=alice, kind="onitama", band=150, limit=5)
    assert [u.username for u in found] == ["gina", "bob", "carol"]
    assert [u.username for u in selectors.reference_players(player=alice, kind="onitama", band=150, limit=2)] == [
        "gina",
        "bob",
    ]
    assert [u.username for u in selectors.reference_players(player=alice, kind="onitama", band=250, limit=5)] == [
        "gina",
        "bob",
        "carol",
        "dave",
    ]


def test_a_check_finishes_with_the_players_and_the_references_figures(
    alice, bob, carol, staff, django_capture_on_commit_callbacks
):
    cheat = start_game(alice, bob)
    play(cheat, {alice.pk: bot_copier(), bob.pk: random_player()}, decisions=20, resign=bob)
    finished(bob, carol, decisions=10)
    finished(alice, carol, rated=False, decisions=10)  # unrated: not read
    for user, rating in ((alice, 1500), (bob, 1550), (carol, 1420)):
        _set_rating(user, rating)
    check = _request(staff, alice, callbacks=django_capture_on_commit_callbacks)
    assert check.status == "done" and check.finished_at is not None and check.error == ""
    assert check.requested_by == staff and check.bot_level == 2
    assert check.bot_version == engine.bots.bot_version(check.kind) != ""
    own = list(selectors.check_rows(check=check, reference=False))
    assert [(row.game_id, row.player_id) for row in own] == [(cheat.pk, alice.pk)]
    assert check.decisions == own[0].decisions > 0 and check.share == 1.0
    assert own[0].rating_before == 1500.0
    reference = list(selectors.check_rows(check=check, reference=True))
    assert {row.player.username for row in reference} == {"bob", "carol"}
    assert check.reference_players == 2
    assert check.reference_decisions == sum(row.decisions for row in reference) > 0
    assert check.reference_matches == sum(row.matches for row in reference)
    assert check.reference_share is not None and check.reference_share < 1.0


def test_running_the_task_twice_gives_one_set_of_rows(
    alice, bob, staff, monkeypatch, django_capture_on_commit_callbacks
):
    finished(alice, bob, decisions=10)
    finished(bob, alice, decisions=10)
    _set_rating(alice, 1500)
    _set_rating(bob, 1500)
    check = _request(staff, alice, callbacks=django_capture_on_commit_callbacks)
    rows = sorted(
        FairPlayCheckGame.objects.filter(fairplay_check=check).values_list(
            "game_id", "player_id", "decisions", "matches"
        )
    )
    assert len(rows) == 4  # alice's two games, and bob's two as the reference
    figures = (check.decisions, check.matches, check.reference_decisions, check.reference_matches)

    def no_bot(*args, **kwargs):
        raise AssertionError("the cached figures should have been used")

    monkeypatch.setattr(agreement, "choose_move", no_bot)
    assert tasks.fairplay_check_run.delay(check.pk).get() == "done"
    # A redelivered task finding the check still "running" writes the same rows again.
    FairPlayCheck.objects.filter(pk=check.pk).update(status="running")
    assert tasks.fairplay_check_run.delay(check.pk).get() == "done"
    check.refresh_from_db()
    assert (
        sorted(
            FairPlayCheckGame.objects.filter(fairplay_check=check).values_list(
                "game_id", "player_id", "decisions", "matches"
            )
        )
        == rows
    )
    assert (check.decisions, check.matches, check.reference_decisions, check.reference_matches) == figures
    assert GameAgreement.objects.count() == 4
    # A second check of the same player reads the cache too.
    again = _request(staff, alice, callbacks=django_capture_on_commit_callbacks)
    assert again.status == "done" and again.decisions == check.decisions


def test_a_game_that_cannot_be_replayed_fails_the_check(alice, bob, staff, django_capture_on_commit_callbacks):
    game = finished(alice, bob, decisions=6)
    Move.objects.filter(game=game, ply=3).update(text="a1-e5 nonsense")
    check = _request(staff, alice, callbacks=django_capture_on_commit_callbacks)
    assert check.status == "failed" and check.error
    assert not FairPlayCheckGame.objects.filter(fairplay_check=check).exists()


def test_a_fault_of_ours_fails_the_check_with_its_reason_instead_of_leaving_it_running(
    alice, bob, staff, monkeypatch, django_capture_on_commit_callbacks
):
    finished(alice, bob, decisions=6)

    def broken_bot(*args, **kwargs):
        raise ValueError("the bot fell over")

    monkeypatch.setattr(agreement, "choose_move", broken_bot)
    check = _request(staff, alice, callbacks=django_capture_on_commit_callbacks)
    assert check.status == "failed" and check.error == "ValueError: the bot fell over"
    assert check.finished_at is not None
    assert not FairPlayCheckGame.objects.filter(fairplay_check=check).exists()


def test_only_staff_request_checks_and_bad_input_is_refused(alice, bob, staff):
    with pytest.raises(FairPlayNotAllowed):
        services.fairplay_check_request(staff=alice, player=bob, kind="onitama", games=5, reason="Why not.")
    for games in (0, 51, "5", True):
        with pytest.raises(FairPlayInvalid) as refused:
            services.fairplay_check_request(
                staff=staff,
                player=bob,
                kind="onitama",
                games=games,  # type: ignore[arg-type]  # bad on purpose: checked at run time
                reason="Reported.",
            )
        assert refused.value.message == "Choose from 1 to 50 recent games."
    with pytest.raises(InvalidInput):
        services.fairplay_check_request(staff=staff, player=bob, kind="chess", games=5, reason="Reported.")
    for reason in ("", "   "):
        with pytest.raises(InvalidInput) as no_reason:
            services.fairplay_check_request(staff=staff, player=bob, kind="onitama", games=5, reason=reason)
        assert (no_reason.value.status, no_reason.value.code) == (400, "reason_required")
    assert not FairPlayCheck.objects.exists() and not StaffAction.objects.exists()


def test_a_request_is_written_to_the_staff_audit_log(alice, staff, django_capture_on_commit_callbacks):
    check = _request(staff, alice, kind="maatatahay", callbacks=django_capture_on_commit_callbacks)
    entry = StaffAction.objects.get()
    assert (entry.staff, entry.action, entry.player, entry.target, entry.reason) == (
        staff,
        StaffActionKind.FAIRPLAY_CHECK,
        alice,
        check,
        "Reported for engine help.",
    )
    assert entry.details == {
        "check": check.pk,
        "kind": "maatatahay",
        "bot_version": engine.bots.bot_version("maatatahay"),
    }


def test_the_admin_add_form_requests_a_check_and_shows_its_figures(
    client, alice, bob, staff, django_capture_on_commit_callbacks
):
    game = finished(alice, bob, decisions=10)
    client.force_login(staff)
    add = reverse("admin:fairplay_fairplaycheck_add")
    form = client.get(add)
    assert form.status_code == 200 and "not proof" in form.content.decode()
    assert 'name="reason"' in form.content.decode()
    refused = client.post(add, {"player": alice.pk, "kind": "onitama", "games_limit": 0, "reason": "Too strong."})
    assert refused.status_code == 200 and not FairPlayCheck.objects.exists()
    no_reason = client.post(add, {"player": alice.pk, "kind": "onitama", "games_limit": 3, "reason": " "})
    assert no_reason.status_code == 200 and not FairPlayCheck.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            add, {"player": alice.pk, "kind": "onitama", "games_limit": 3, "reason": "Too strong for a new player."}
        )
    assert response.status_code == 302
    check = FairPlayCheck.objects.get()
    assert (check.player, check.games_limit, check.status, check.requested_by) == (alice, 3, "done", staff)
    entry = StaffAction.objects.get()
    assert (entry.staff, entry.action, entry.player, entry.reason, entry.details) == (
        staff,
        StaffActionKind.FAIRPLAY_CHECK,
        alice,
        "Too strong for a new player.",
        {"check": check.pk, "kind": "onitama", "bot_version": engine.bots.bot_version("onitama")},
    )
    listing = client.get(reverse("admin:fairplay_fairplaycheck_changelist")).content.decode()
    assert "not proof" in listing and "alice" in listing
    assert "%.1f %%" % (100.0 * check.matches / check.decisions) in listing
    detail = client.get(reverse("admin:fairplay_fairplaycheck_change", args=[check.pk]))
    html = detail.content.decode()
    assert detail.status_code == 200
    assert 'href="%s"' % game.get_absolute_url() in html
    assert "games of the reference players" in html.lower()
