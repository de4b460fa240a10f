"""An Arabic mail rendered in a real browser (Chromium) reads right to left: its HTML part,
loaded as it is sent, has a computed direction of rtl, and move notation inside it stays
left to right."""

from __future__ import annotations

import pytest
from django.core import mail
from django.utils import timezone

from correspondence import services
from tests.factories import to_move
from tests.helpers import html_alternative

from .conftest import play, start_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db]


def test_an_arabic_turn_mail_renders_right_to_left_in_chromium(page, alice, bob, tmp_path):
    game = play(start_game(alice, bob, "onitama", {"cards": "base"}, seed=11), 1)
    user = to_move(game)
    user.language = "ar"
    user.save()
    mail.outbox.clear()
    services.alarms_send_due(now=timezone.now())
    [message] = [m for m in mail.outbox if m.to == [user.email]]
    page.set_viewport_size({"width": 390, "height": 844})
    page.set_content(html_alternative(message))
    assert page.evaluate("document.documentElement.lang") == "ar"
    assert page.evaluate("getComputedStyle(document.documentElement).direction") == "rtl"
    assert page.evaluate("getComputedStyle(document.body).direction") == "rtl"
    assert page.evaluate("document.characterSet") == "UTF-8"
    # the first paragraph starts at the right edge (text aligned to the start of an rtl line)
    box = page.evaluate(
        "(() => { const p = document.querySelector('p'); const r = document.createRange();"
        " r.selectNodeContents(p); const b = r.getBoundingClientRect();"
        " return {right: b.right, left: b.left, width: document.body.clientWidth}; })()"
    )
    assert box["width"] - box["right"] < box["left"]
    # move notation is kept left to right inside the Arabic text
    assert page.evaluate("getComputedStyle(document.querySelector('code')).direction") == "ltr"
    page.screenshot(path=str(tmp_path / "mail-ar.png"), full_page=True)
