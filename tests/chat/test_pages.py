"""The messages panel of the game page: players write (POST, CSRF, back to the page) and
read; spectators and visitors see nothing; a message is reported through the ops flow."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts import services as account_services
from chat import services
from chat.models import Message
from fairplay.models import Report
from tests.helpers import matched

pytestmark = pytest.mark.django_db


def _page(client, game) -> str:
    response = client.get(reverse("games:game", args=[game.pk]))
    assert response.status_code == 200
    return response.content.decode()


def _post(client, game, text):
    return client.post(reverse("chat:message_create", args=[game.pk]), {"text": text})


def test_a_player_writes_and_the_other_reads(client, alice, bob, game):
    client.force_login(alice)
    page = _page(client, game)
    assert 'id="message-form"' in page and "No messages yet." in page
    response = _post(client, game, "Hello <b>bob</b> & co\nsecond line")
    assert response.status_code == 302
    assert response["Location"] == reverse("games:game", args=[game.pk]) + "#messages"
    client.force_login(bob)
    page = _page(client, game)
    # Escaped, never marked safe; line breaks become <br>.
    assert "Hello &lt;b&gt;bob&lt;/b&gt; &amp; co<br>second line" in page
    assert "<b>bob</b>" not in page
    assert re.search(r'class="message-author">alice<', page)


def test_spectators_and_visitors_see_no_messages(client, alice, carol, game):
    services.message_create(game_id=game.pk, author=alice, text="secret plan")
    for viewer in (carol, None):
        if viewer:
            client.force_login(viewer)
        else:
            client.logout()
        page = _page(client, game)
        assert "secret plan" not in page and 'id="messages"' not in page and 'id="message-form"' not in page


def test_refusals_come_back_as_messages_on_the_game_page(client, alice, bob, carol, game):
    client.force_login(alice)
    page = client.get(_post(client, game, "   ")["Location"]).content.decode()
    assert "Write a message first." in page
    client.force_login(carol)
    page = client.get(_post(client, game, "let me in")["Location"]).content.decode()
    assert "You are not playing in this game." in page
    assert not Message.objects.exists()
    account_services.block_create(blocker=bob, blocked=alice)
    client.force_login(alice)
    page = _page(client, game)
    assert 'id="message-form"' not in page and "This player does not accept your messages." in page
    page = client.get(_post(client, game, "please")["Location"]).content.decode()
    assert page.count("This player does not accept your messages.") == 2  # the refusal and the notice
    assert not Message.objects.exists()


def test_the_form_needs_a_login_a_post_csrf_and_a_game(client, alice, game):
    url = reverse("chat:message_create", args=[game.pk])
    assert client.post(url, {"text": "hi"})["Location"].startswith(reverse("accounts:login"))
    client.force_login(alice)
    assert client.get(url).status_code == 405
    assert client.post(reverse("chat:message_create", args=[game.pk + 1000]), {"text": "hi"}).status_code == 404
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(alice)
    assert strict.post(url, {"text": "hi"}).status_code == 403  # no CSRF token
    page = strict.get(reverse("games:game", args=[game.pk])).content.decode()
    token = matched(
        r'id="message-form">\s*<input type="hidden" name="csrfmiddlewaretoken" value="([^"]+)"', page
    ).group(1)
    assert strict.post(url, {"text": "hi", "csrfmiddlewaretoken": token}).status_code == 302
    assert Message.objects.get().text == "hi"


def test_a_message_is_reported_with_its_text_quoted(client, alice, bob, game):
    message = services.message_create(game_id=game.pk, author=bob, text='You "play" <badly>')
    services.message_create(game_id=game.pk, author=alice, text="mine")
    client.force_login(alice)
    page = _page(client, game)
    forms = re.findall(r'<form method="post" action="([^"]+)" class="inline-form report-message".*?</form>', page, re.S)
    assert forms == [reverse("ops:report_game", args=[game.pk])]  # only the other player's message
    reason = matched(r'name="reason" value="([^"]*)"', page).group(1)
    assert reason == "Message #%d by bob: “You &quot;play&quot; &lt;badly&gt;”" % message.pk
    posted_reason = 'Message #%d by bob: “You "play" <badly>”' % message.pk
    response = client.post(forms[0], {"kind": "abuse", "reason": posted_reason})
    assert response.status_code == 302
    report = Report.objects.get()
    assert (report.game_id, report.reporter, report.kind) == (game.pk, alice, "abuse")
    assert 'You "play" <badly>' in report.reason


def test_the_panel_reads_its_messages_in_one_query_whatever_their_number(client, alice, bob, game):
    """The authors come from the game's seats, read already: no join, no read per message."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.force_login(alice)
    counts = []
    for written in (1, 6):
        while Message.objects.filter(game=game).count() < written:
            author = alice if Message.objects.filter(game=game).count() % 2 == 0 else bob
            services.message_create(game_id=game.pk, author=author, text="note %d" % written)
        _page(client, game)  # the page's caches warm, as for a player who looks again
        with CaptureQueriesContext(connection) as queries:
            page = _page(client, game)
        chat_reads = [q["sql"] for q in queries.captured_queries if q["sql"].startswith('SELECT "chat_message"')]
        assert len(chat_reads) == 1 and '"accounts_user"' not in chat_reads[0]
        counts.append(len(queries.captured_queries))
    assert counts[0] == counts[1]
    assert re.search(r'class="message-author">alice<', page) and re.search(r'class="message-author">bob<', page)
