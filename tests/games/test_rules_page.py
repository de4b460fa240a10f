"""The rules page states the fair-play rule (engine help is forbidden in rated games)."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_the_rules_page_forbids_engine_help_in_rated_games_and_every_page_links_it(client):
    response = client.get(reverse("games:rules"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Engine help is forbidden in rated games." in html
    assert 'id="fair-play"' in html and 'id="onitama"' in html and 'id="maatatahay"' in html
    home = client.get(reverse("games:home")).content.decode()
    assert 'href="%s#fair-play"' % reverse("games:rules") in home


@pytest.mark.parametrize(
    "language, statement",
    [
        ("id", "Bantuan mesin dilarang dalam permainan berperingkat."),
        ("ar", "الاستعانة بالمحركات ممنوعة في المباريات المصنّفة."),
    ],
)
def test_the_fair_play_rule_is_stated_in_every_language(client, language, statement):
    html = client.get(reverse("games:rules"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert statement in html
