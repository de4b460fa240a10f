"""Conditional moves (Onitama, issue 19): queued lines checked by the engine, played at once
in the locked transaction of the opponent's move, private until played, sealed at rest."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

import engine
from accounts import outbox
from accounts.models import OutgoingMail
from correspondence import services as correspondence_services
from games import conditional, services
from games.errors import Conflict, InvalidInput, NotAllowed, NotFound
from games.models import Alarm, ConditionalLines, Move
from games.personal_data import _games
from tests.api_clients import token_client
from tests.factories import start_game, to_move
from tests.helpers import run_together

from .test_sealed_at_rest import database_dump

pytestmark = pytest.mark.django_db

RULES = engine.get_game("onitama")


def legal(state) -> list[str]:
    return [RULES.move_text(m) for m in RULES.legal_moves(state)]


def after(state, *texts):
    for text in texts:
        state = RULES.apply(state, RULES.parse_move(state, text))
    return state


def tree_of(game, depth: int = 2, width: int = 2) -> list[list[str]]:
    """``width`` lines of ``depth`` plies from the current position: the opponent's moves and
    the first legal answer each time (distinct first moves)."""
    state = services.game_state(game)

    def goes_on(position) -> bool:
        return RULES.outcome(position) is None and bool(legal(position))

    lines = []
    for first in [text for text in legal(state) if goes_on(after(state, text))][:width]:
        line, position = [first], after(state, first)
        while len(line) < depth:
            # a ply after which the game goes on (a deal may offer a capture of the master or a
            # walk to the temple within a few plies: a line must not end the game early)
            nxt = next((text for text in legal(position) if goes_on(after(position, text))), legal(position)[0])
            line.append(nxt)
            position = after(position, nxt)
        lines.append(line)
    return lines


@pytest.fixture
def game(alice, bob):
    return start_game(alice, bob)


@pytest.fixture
def mover(game):
    return to_move(game)


@pytest.fixture
def waiter(game, alice, bob, mover):
    """The player who queues lines: the one not to move."""
    return bob if mover == alice else alice


def test_lines_are_checked_sealed_and_read_back(game, mover, waiter):
    lines = tree_of(game, depth=4, width=3)
    kept = services.conditional_lines_set(game_id=game.pk, user=waiter, lines=lines)
    assert sorted(kept) == sorted(lines)
    assert services.conditional_lines_of(game_id=game.pk, user=waiter) == kept
    row = ConditionalLines.objects.get(game=game)
    assert row.sealed_lines.startswith("v2:") and lines[0][0] not in row.sealed_lines
    assert conditional.tree_lines(conditional.tree_unseal(row.sealed_lines)) == kept
    # replacing replaces all; an empty list clears
    services.conditional_lines_set(game_id=game.pk, user=waiter, lines=lines[:1])
    assert services.conditional_lines_of(game_id=game.pk, user=waiter) == lines[:1]
    assert services.conditional_lines_set(game_id=game.pk, user=waiter, lines=[]) == []
    assert not ConditionalLines.objects.filter(game=game).exists()


def test_a_move_reads_the_lines_only_of_a_player_who_queued_some(game, mover, waiter):
    """The seats read after the lock say whether the player now to move queued lines
    (games.selectors.SEATS_WITH_USERS): without any, the move reads no lines; with some, the
    queued answer is played in the same move."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    first = legal(services.game_state(game))[0]
    with CaptureQueriesContext(connection) as plain:
        services.move_submit(game_id=game.pk, user=mover, move_text=first, expected_ply=0)
    reads = [q["sql"] for q in plain.captured_queries if q["sql"].startswith('SELECT "games_conditionallines"')]
    assert reads == []
    # now the one who just moved waits, and queues an answer to every move of the other
    game.refresh_from_db()
    state = services.game_state(game)
    lines = [[theirs, legal(after(state, theirs))[0]] for theirs in legal(state)]
    services.conditional_lines_set(game_id=game.pk, user=mover, lines=lines)
    answered = services.move_submit(game_id=game.pk, user=waiter, move_text=lines[0][0], expected_ply=1)
    game.refresh_from_db()
    assert answered.ply == 2 and game.ply == 3
    assert Move.objects.get(game=game, ply=3).text == lines[0][1]


def test_guards(game, mover, waiter, carol):
    lines = tree_of(game)
    with pytest.raises(Conflict) as refused:  # mover is to move: her lines would start from nowhere
        services.conditional_lines_set(game_id=game.pk, user=mover, lines=lines)
    assert refused.value.code == "conditional_not_now" and refused.value.status == 409
    with pytest.raises(NotAllowed):
        services.conditional_lines_set(game_id=game.pk, user=carol, lines=lines)
    with pytest.raises(NotAllowed):
        services.conditional_lines_of(game_id=game.pk, user=carol)
    with pytest.raises(NotFound):
        services.conditional_lines_set(game_id=game.pk + 999, user=waiter, lines=lines)
    maata = start_game(mover, waiter, "maatatahay", {"variant": "first"})
    with pytest.raises(InvalidInput) as not_onitama:
        services.conditional_lines_set(game_id=maata.pk, user=to_move(maata), lines=[])
    assert not_onitama.value.code == "conditional_not_available"


@pytest.mark.parametrize(
    "make, code, params",
    [
        (lambda good: [good[0], [good[0][0], "boar:z9z9"]], "conditional_illegal", {"line": 2, "ply": 2}),
        (lambda good: [good[0], [good[0][0]]], "conditional_no_answer", {"line": 2}),
        (lambda good: [good[0] * 4], "conditional_too_long", {"line": 1, "limit": 6}),
        (lambda good: [good[0]] * 51, "conditional_too_many", {"limit": 50}),
        (lambda good: [[]], "conditional_empty_line", {"line": 1}),
        (lambda good: "nope", "conditional_bad_lines", {}),
    ],
)
def test_a_bad_line_is_refused_naming_line_and_ply(game, waiter, make, code, params):
    good = tree_of(game)
    with pytest.raises(InvalidInput) as refused:
        services.conditional_lines_set(game_id=game.pk, user=waiter, lines=make(good))
    assert refused.value.code == code and refused.value.status == 400
    assert params.items() <= refused.value.params.items()
    assert not ConditionalLines.objects.filter(game=game).exists()


def test_an_illegal_answer_names_its_line_and_ply(game, waiter):
    state = services.game_state(game)
    first = legal(state)[0]
    own_move_again = legal(state)[1]  # red's move, not legal for blue after red moved
    answer_ok = legal(after(state, first))[0]
    with pytest.raises(InvalidInput) as refused:
        services.conditional_lines_set(
            game_id=game.pk, user=waiter, lines=[[first, answer_ok], "%s %s" % (first, own_move_again)]
        )
    assert refused.value.code == "conditional_illegal" and refused.value.params["line"] == 2
    assert refused.value.params["ply"] == 2 and "Line 2, ply 2" in refused.value.message


def test_two_answers_to_one_move_are_refused(game, waiter):
    state = services.game_state(game)
    first = legal(state)[0]
    answers = legal(after(state, first))
    with pytest.raises(InvalidInput) as refused:
        services.conditional_lines_set(game_id=game.pk, user=waiter, lines=[[first, answers[0]], [first, answers[1]]])
    assert refused.value.code == "conditional_two_answers"


def test_a_matching_move_plays_the_answer_at_once_and_keeps_the_rest(game, mover, waiter):
    line = tree_of(game, depth=4, width=1)[0]
    other = tree_of(game, depth=2, width=3)[1:]
    services.conditional_lines_set(game_id=game.pk, user=waiter, lines=[line, *other])
    outbox_before = OutgoingMail.objects.filter(kind="conditional_played").count()
    services.move_submit(game_id=game.pk, user=mover, move_text=line[0], expected_ply=0)
    game.refresh_from_db()
    moves = list(Move.objects.filter(game=game).order_by("ply"))
    assert [m.text for m in moves] == line[:2] and moves[1].user == waiter and game.ply == 2
    assert game.to_move_user == mover  # back to mover at once
    assert services.conditional_lines_of(game_id=game.pk, user=waiter) == [line[2:]]  # the subtree stays
    # mail: waiter is told what was played for him; the "your turn" mail is mover's, not waiter's
    assert OutgoingMail.objects.filter(kind="conditional_played", user=waiter).count() == outbox_before + 1
    assert not Alarm.objects.filter(game=game, user=waiter, kind=Alarm.Kind.YOUR_TURN, sent_at__isnull=True).exists()
    assert Alarm.objects.filter(game=game, user=mover, kind=Alarm.Kind.YOUR_TURN, turn=game.turn).exists()
    mail.outbox.clear()
    outbox.outbox_send_due(now=timezone.now())
    correspondence_services.alarms_send_due(now=timezone.now())
    outbox.outbox_send_due(now=timezone.now())
    to_bob = [m for m in mail.outbox if m.to == [waiter.email]]
    to_alice = [m for m in mail.outbox if m.to == [mover.email]]
    assert len(to_bob) == 1 and "conditional move was played" in to_bob[0].subject
    assert line[0] in to_bob[0].body and line[1] in to_bob[0].body
    assert len(to_alice) == 1 and "your turn" in to_alice[0].subject
    assert not any(line[3] in m.body for m in mail.outbox)  # the queued rest is told to nobody
    # the second level plays too, then the line is used up
    services.move_submit(game_id=game.pk, user=mover, move_text=line[2], expected_ply=2)
    game.refresh_from_db()
    assert game.ply == 4 and Move.objects.get(game=game, ply=4).text == line[3]
    assert not ConditionalLines.objects.filter(game=game).exists()


def test_a_move_matching_no_line_drops_the_lines(game, mover, waiter):
    lines = tree_of(game, width=2)
    services.conditional_lines_set(game_id=game.pk, user=waiter, lines=lines)
    elsewhere = next(t for t in legal(services.game_state(game)) if t not in {line[0] for line in lines})
    services.move_submit(game_id=game.pk, user=mover, move_text=elsewhere, expected_ply=0)
    game.refresh_from_db()
    assert game.ply == 1 and game.to_move_user == waiter
    assert not ConditionalLines.objects.filter(game=game).exists()
    assert Alarm.objects.filter(game=game, user=waiter, kind=Alarm.Kind.YOUR_TURN, turn=game.turn).exists()


def test_lines_go_with_the_end_of_the_game(game, mover, waiter):
    services.conditional_lines_set(game_id=game.pk, user=waiter, lines=tree_of(game))
    services.game_resign(game_id=game.pk, user=mover)
    assert not ConditionalLines.objects.filter(game=game).exists()


def test_both_players_lines_chain(game, mover, waiter):
    """Alice's lines wait on waiter's turn while waiter's wait on hers: each answer meets the other's lines."""
    first = legal(services.game_state(game))[0]
    services.move_submit(game_id=game.pk, user=mover, move_text=first, expected_ply=0)
    game.refresh_from_db()  # waiter to move: mover queues
    state = services.game_state(game)
    b1 = legal(state)[0]
    a1 = legal(after(state, b1))[0]
    services.conditional_lines_set(game_id=game.pk, user=mover, lines=[[b1, a1]])
    services.move_submit(game_id=game.pk, user=waiter, move_text=b1, expected_ply=1)
    game.refresh_from_db()
    assert game.ply == 3 and Move.objects.get(game=game, ply=3).text == a1 and game.to_move_user == waiter
    # now waiter queues on mover's... no: it is waiter's turn; waiter plays, mover's lines are gone
    assert not ConditionalLines.objects.filter(game=game).exists()


# ---------------------------------------------------------------- API and page


@pytest.mark.usefixtures("api_settings")
def test_api_get_put_own_lines_only(game, mover, waiter, carol):
    lines = tree_of(game)
    bob_api, alice_api, carol_api = token_client(waiter), token_client(mover), token_client(carol)
    url = "/api/v1/games/%d/conditional/" % game.pk
    answer = bob_api.put(url, {"lines": lines}, format="json")
    assert answer.status_code == 200, answer.content
    assert sorted(answer.json()["lines"]) == sorted(lines)
    assert bob_api.get(url).json() == {"lines": sorted(lines)}
    assert alice_api.get(url).json() == {"lines": []}  # her own: none; never waiter's
    assert carol_api.get(url).status_code == 403
    assert bob_api.get("/api/v1/games/%d/conditional/" % (game.pk + 999)).status_code == 404
    assert token_client(waiter, scopes=("read",)).put(url, {"lines": []}, format="json").status_code == 403
    bad = bob_api.put(url, {"lines": [[lines[0][0], "boar:z9z9"]]}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "conditional_illegal"
    assert bad.json()["details"]["line"] == 1 and bad.json()["details"]["ply"] == 2
    assert alice_api.put(url, {"lines": lines}, format="json").status_code == 409
    # nothing of waiter's lines in what mover or a visitor reads
    for client in (alice_api, carol_api, token_client(mover)):
        for path in ("/api/v1/games/%d/" % game.pk, "/api/v1/events/", "/api/v1/games/?mine=1"):
            body = client.get(path).content.decode()
            for line in lines:
                assert json.dumps(line) not in body and " ".join(line) not in body and '"%s"' % line[1] not in body


def test_page_form_and_list(game, mover, waiter, client):
    lines = tree_of(game)
    client.force_login(waiter)
    page = client.get("/games/%d/" % game.pk).content.decode()
    assert 'id="conditional"' in page and "No conditional moves queued." in page
    answer = client.post("/games/%d/conditional/" % game.pk, {"lines": "\n".join(" ".join(line) for line in lines)})
    assert answer.status_code == 302
    page = client.get("/games/%d/" % game.pk).content.decode()
    assert all(" ".join(line) in page for line in lines)
    answer = client.post("/games/%d/conditional/" % game.pk, {"lines": "%s boar:z9z9" % lines[0][0]})
    assert answer.status_code == 400 and "Line 1, ply 2" in answer.content.decode()
    assert len(services.conditional_lines_of(game_id=game.pk, user=waiter)) == 2  # unchanged
    client.force_login(mover)  # the player to move sees no form and none of waiter's lines
    page = client.get("/games/%d/" % game.pk).content.decode()
    assert 'id="conditional"' not in page and " ".join(lines[0]) not in page
    client.logout()
    page = client.get("/games/%d/" % game.pk).content.decode()
    assert 'id="conditional"' not in page and " ".join(lines[0]) not in page


def test_a_waiting_players_page_reads_their_lines_only_when_they_queued_some(game, waiter, client):
    """The page's seats say whether the viewer queued lines (has_conditional_lines): a waiting
    Onitama player without any costs no lines query (nor a second read of the game and its
    seats); with some, one query reads them, and they show."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.force_login(waiter)
    client.get("/games/%d/" % game.pk)  # warm the per-position parts

    def page_reads():
        with CaptureQueriesContext(connection) as queries:
            html = client.get("/games/%d/" % game.pk).content.decode()
        # each SELECT by the table of its first column (subqueries of the game's and the
        # seats' reads, on draw offers and lines, are part of those reads)
        tables = [q["sql"].split(".")[0][len("SELECT ") :] for q in queries.captured_queries]
        return html, tables

    html, tables = page_reads()
    assert "No conditional moves queued." in html
    assert '"games_conditionallines"' not in tables and tables.count('"games_game"') == 1, tables
    lines = tree_of(game)
    services.conditional_lines_set(game_id=game.pk, user=waiter, lines=lines)
    html, tables = page_reads()
    assert all(" ".join(line) in html for line in lines)
    assert tables.count('"games_conditionallines"') == 1 and tables.count('"games_game"') == 1, tables


# ---------------------------------------------------------------- privacy


def test_exports_hold_own_lines_only_and_the_dump_none(game, mover, waiter):
    lines = tree_of(game, depth=6, width=3)
    services.conditional_lines_set(game_id=game.pk, user=waiter, lines=lines)
    mine = next(g for g in _games(waiter) if g["id"] == game.pk)
    assert sorted(mine["conditional_lines"]) == sorted(lines)
    theirs = next(g for g in _games(mover) if g["id"] == game.pk)
    assert theirs["conditional_lines"] == []
    assert not Move.objects.filter(game=game).exists()  # nothing played yet: no move text belongs in the dump
    dump = database_dump()
    assert ConditionalLines.objects.get(game=game).sealed_lines in dump  # the dump has the row, sealed
    leaked = sorted({ply for line in lines for ply in line if ply in dump})
    assert not leaked and '"answer"' not in dump, leaked
    correspondence_services.alarms_send_due(now=timezone.now() + timedelta(days=30))
    outbox.outbox_send_due(now=timezone.now() + timedelta(days=30))
    for message in mail.outbox:
        assert not any(" ".join(line[:2]) in message.body for line in lines)


def test_no_push_message_holds_the_lines(game, mover, waiter, carol):
    """What a socket sends (games.consumers: the page parts and the game message) holds no
    queued line, for the opponent, a visitor, or the player who queued them."""
    from django.contrib.auth.models import AnonymousUser
    from django.template.loader import render_to_string

    from games.consumers import PAGE_PARTS
    from games.selectors import game_for_viewer
    from games.serializers import GameDetailSerializer
    from games.views import game_page_context

    lines = tree_of(game, depth=4, width=3)
    services.conditional_lines_set(game_id=game.pk, user=waiter, lines=lines)
    for viewer in (mover, carol, AnonymousUser(), waiter):
        page = game_for_viewer(game_id=game.pk, user=viewer)
        context = game_page_context(page)
        pushed = "".join(render_to_string(template, context) for template in PAGE_PARTS.values())
        pushed += json.dumps(GameDetailSerializer(page, context={"user": viewer}).data, default=str)
        for line in lines:
            assert " ".join(line) not in pushed and json.dumps(line) not in pushed
        assert 'id="conditional"' not in pushed


def test_whether_lines_are_queued_does_not_show_to_the_opponent_or_a_visitor(game, mover, waiter, carol):
    """The seats carry has_conditional_lines for the move's sake (games.selectors.SEATS_WITH_USERS):
    what the opponent and a visitor read (the API's detail, the page's pushed parts) is the same
    byte for byte whether the waiting player queued lines or not."""
    from django.contrib.auth.models import AnonymousUser
    from django.template.loader import render_to_string

    from games.consumers import PAGE_PARTS
    from games.selectors import game_for_viewer
    from games.serializers import GameDetailSerializer
    from games.views import game_page_context

    def seen(viewer) -> str:
        page = game_for_viewer(game_id=game.pk, user=viewer, now=game.turn_started_at)
        detail = GameDetailSerializer(page, context={"user": viewer}).data
        parts = "".join(render_to_string(template, game_page_context(page)) for template in PAGE_PARTS.values())
        return json.dumps(detail, default=str, sort_keys=True) + parts

    viewers = (mover, carol, AnonymousUser())
    before = [seen(viewer) for viewer in viewers]
    services.conditional_lines_set(game_id=game.pk, user=waiter, lines=tree_of(game, depth=4, width=3))
    assert ConditionalLines.objects.filter(game=game).exists()
    assert [seen(viewer) for viewer in viewers] == before


# ---------------------------------------------------------------- races (real PostgreSQL, one connection per thread)


def _race_setup(alice, bob):
    game = start_game(alice, bob)
    mover = to_move(game)
    waiter = bob if mover == alice else alice
    state = services.game_state(game)
    theirs = RULES.move_text(RULES.legal_moves(state)[0])
    after = RULES.apply(state, RULES.parse_move(state, theirs))
    answers = [RULES.move_text(m) for m in RULES.legal_moves(after)]
    return game, mover, waiter, theirs, answers


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("round_", range(3))
@pytest.mark.services  # threads racing on one database: PostgreSQL's row locks
def test_a_hand_move_racing_the_queued_answer_never_wins(alice, bob, round_):
    game, mover, waiter, theirs, answers = _race_setup(alice, bob)
    queued, by_hand = answers[0], answers[-1]
    services.conditional_lines_set(game_id=game.pk, user=waiter, lines=[[theirs, queued]])
    results = run_together(
        [
            lambda: services.move_submit(game_id=game.pk, user=mover, move_text=theirs, expected_ply=0),
            lambda: services.move_submit(game_id=game.pk, user=waiter, move_text=by_hand, expected_ply=1),
        ]
    )
    assert not isinstance(results[0], Exception), results
    assert isinstance(results[1], Conflict) and results[1].status == 409, results
    game.refresh_from_db()
    assert game.ply == 2 and [m.text for m in Move.objects.filter(game=game).order_by("ply")] == [theirs, queued]
    assert game.to_move_user == mover


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("round_", range(3))
@pytest.mark.services  # threads racing on one database: PostgreSQL's row locks
def test_setting_lines_racing_the_move_is_all_or_nothing(alice, bob, round_):
    game, mover, waiter, theirs, answers = _race_setup(alice, bob)
    results = run_together(
        [
            lambda: services.move_submit(game_id=game.pk, user=mover, move_text=theirs, expected_ply=0),
            lambda: services.conditional_lines_set(game_id=game.pk, user=waiter, lines=[[theirs, answers[0]]]),
        ]
    )
    assert not isinstance(results[0], Exception), results
    game.refresh_from_db()
    texts = [m.text for m in Move.objects.filter(game=game).order_by("ply")]
    if isinstance(results[1], Exception):  # the move came first: the waiter is to move, lines refused
        assert isinstance(results[1], Conflict) and results[1].code == "conditional_not_now"
        assert texts == [theirs] and game.to_move_user == waiter
    else:  # the lines came first: the answer was played in the move's transaction
        assert texts == [theirs, answers[0]] and game.to_move_user == mover
    assert not ConditionalLines.objects.filter(game=game).exists()


def test_a_bots_move_meets_the_lines_too(alice):
    game = services.game_create_solo(user=alice, kind="onitama", bot_level=1)
    if game.to_move_user == alice:
        services.move_submit(game_id=game.pk, user=alice, move_text=legal(services.game_state(game))[0], expected_ply=0)
        game.refresh_from_db()
    state = services.game_state(game)
    bot_moves = legal(state)[: conditional.MAX_LINES]
    lines = [[theirs, legal(after(state, theirs))[0]] for theirs in bot_moves]
    services.conditional_lines_set(game_id=game.pk, user=alice, lines=lines)
    ply = game.ply
    services.bot_turn_play(game_id=game.pk, ply=ply)
    game.refresh_from_db()
    played = list(Move.objects.filter(game=game, ply__gt=ply).order_by("ply"))
    assert len(played) == 2 and played[1].user == alice and [played[0].text, played[1].text] in lines
    assert game.ply == ply + 2 and game.to_move_user is None and game.to_move_side != ""  # the bot's turn again
    assert OutgoingMail.objects.filter(kind="conditional_played", user=alice, object_id=game.pk).count() == 1
