"""Which players are public: one rule (accounts.selectors.users_public) that the player
page, the history page, the API's player endpoints, the leaderboards and finding an
opponent by name all follow."""

from __future__ import annotations

import pytest
from django import forms as django_forms
from django.urls import reverse
from django.utils import timezone

from accounts import selectors
from games.forms import ChallengeForm
from ratings import selectors as rating_selectors
from ratings.models import Rating
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def _where_shown(client, user) -> dict[str, bool]:
    """Whether each public place shows ``user``."""
    form = ChallengeForm(prefix="challenge")
    form.cleaned_data = {"opponent": user.username}
    try:
        found_by_form = form.clean_opponent() == user
    except django_forms.ValidationError:
        found_by_form = False
    return {
        "selector": user in selectors.users_public(),
        "get": selectors.user_get_public(username=user.username) == user,
        "page": client.get(user.get_absolute_url()).status_code == 200,
        "history": client.get(reverse("games:history", args=[user.username])).status_code == 200,
        "api": client.get("/api/v1/players/%s/" % user.username).status_code == 200,
        "api_games": client.get("/api/v1/players/%s/games/" % user.username).status_code == 200,
        "leaderboard": user.pk in {row.user.pk for row in rating_selectors.leaderboard(kind="onitama")},
        "challenge_form": found_by_form,
    }


def _rated(user):
    Rating.objects.create(user=user, kind="onitama", rating=1600, deviation=60, games_played=12)
    return user


@pytest.mark.parametrize(
    "state, public",
    [
        ("active", True),
        ("unconfirmed", False),
        ("suspended", False),
        ("deleted", False),
        # inconsistent rows (e.g. reactivated by hand): still hidden, the stricter copy wins
        ("active_but_suspended", False),
        ("active_but_deleted", False),
    ],
)
def test_every_public_place_follows_one_rule(client, state, public):
    user = _rated(make_user("someone"))
    now = timezone.now()
    if state == "unconfirmed":
        user.is_active = False
    if state in ("suspended", "active_but_suspended"):
        user.suspended_at = now
        user.is_active = state == "active_but_suspended"
    if state in ("deleted", "active_but_deleted"):
        user.deleted_at = now
        user.is_active = state == "active_but_deleted"
    user.save()
    shown = _where_shown(client, user)
    assert shown == dict.fromkeys(shown, public)
