import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

pytestmark = pytest.mark.django_db


def switch(client, language, next_url="/accounts/login/"):
    return client.post(reverse("set_language"), {"language": language, "next": next_url})


def test_default_page_is_english_ltr(client):
    page = client.get(reverse("accounts:login")).content.decode()
    assert '<html lang="en" dir="ltr">' in page


def test_switching_to_arabic_makes_the_page_rtl(client):
    response = switch(client, "ar")
    assert response.status_code == 302
    page = client.get(reverse("accounts:login")).content.decode()
    assert '<html lang="ar" dir="rtl">' in page
    assert "تسجيل الدخول" in page  # "Log in", from locale/ar


def test_switching_to_indonesian_translates_the_page(client):
    switch(client, "id")
    page = client.get(reverse("accounts:login")).content.decode()
    assert '<html lang="id" dir="ltr">' in page
    assert "Masuk" in page


def test_signed_in_users_choice_is_remembered(client):
    user = get_user_model().objects.create_user(
        username="budi", email="budi@example.com", password="x", email_confirmed=True
    )
    client.force_login(user)
    switch(client, "id")
    user.refresh_from_db()
    assert user.language == "id"
    client.cookies.clear()  # a new browser: the saved preference still applies
    client.force_login(user)
    assert client.get(reverse("accounts:profile"))["Content-Language"] == "id"


def test_accept_language_header_is_followed(client):
    page = client.get(reverse("accounts:login"), HTTP_ACCEPT_LANGUAGE="ar").content.decode()
    assert 'dir="rtl"' in page
