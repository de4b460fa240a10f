"""Staff create ladders in the admin, each with its own days per move and reach."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from ladder import services
from ladder.models import Ladder

from .conftest import make_user

pytestmark = pytest.mark.django_db


def test_staff_create_a_ladder_with_its_own_days_per_move(client):
    get_user_model().objects.create_superuser("staff", "staff@example.org", "pw-staff-123456")
    client.login(username="staff", password="pw-staff-123456")
    response = client.post(
        reverse("admin:ladder_ladder_add"),
        {
            "name": "Slow Maatatahay",
            "kind": "maatatahay",
            "days_per_move": "14",
            "max_places_up": "3",
            "is_open": "on",
            "members-TOTAL_FORMS": "0",
            "members-INITIAL_FORMS": "0",
            "members-MIN_NUM_FORMS": "0",
            "members-MAX_NUM_FORMS": "1000",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    slow = Ladder.objects.get(name="Slow Maatatahay")
    assert (slow.kind, slow.days_per_move, slow.max_places_up) == ("maatatahay", 14, 3)
    first, second = make_user("first"), make_user("second")
    services.ladder_join(ladder_id=slow.pk, user=first)
    services.ladder_join(ladder_id=slow.pk, user=second)
    made = services.ladder_challenge_create(ladder_id=slow.pk, challenger=second, defender=first)
    assert (made.game.kind, made.game.days_per_move) == ("maatatahay", 14)
    page = client.get(reverse("admin:ladder_ladder_change", args=[slow.pk]))
    assert page.status_code == 200 and "first" in page.content.decode()
