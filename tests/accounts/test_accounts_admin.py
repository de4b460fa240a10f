import pytest
from django.contrib.auth import get_user_model

pytestmark = pytest.mark.django_db


def test_admin_lists_and_edits_users(staff_client):
    assert staff_client.get("/admin/accounts/user/").status_code == 200
    user = get_user_model().objects.get(username="root")
    assert staff_client.get(f"/admin/accounts/user/{user.pk}/change/").status_code == 200


def test_admin_adds_a_user(staff_client):
    assert staff_client.get("/admin/accounts/user/add/").status_code == 200
    response = staff_client.post(
        "/admin/accounts/user/add/",
        {
            "username": "newbie",
            "email": "newbie@example.com",
            "usable_password": "true",
            "password1": "a-long-unusual-passphrase-9",
            "password2": "a-long-unusual-passphrase-9",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert get_user_model().objects.get(username="newbie").email == "newbie@example.com"
