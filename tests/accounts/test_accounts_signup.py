import pytest
from django.core import mail, signing
from django.core.exceptions import ValidationError
from django.urls import reverse

from accounts import services
from accounts.models import User
from tests.helpers import matched

# Transactional: mail leaves when the transaction commits (on_commit), as in production.
pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "a-long-unusual-passphrase-9"


def confirm_link(message) -> str:
    return matched(r"https?://\S+/accounts/confirm/\S+/", message.body).group(0)


def signup(client, username="carol", email="carol@example.com", password=PASSWORD):
    return client.post(
        reverse("accounts:signup"),
        {
            "username": username,
            "email": email,
            "password1": password,
            "password2": password,
        },
    )


def test_signup_creates_an_inactive_account_and_mails_a_link(client, settings):
    settings.SITE_URL = "https://maata.example"
    response = signup(client)
    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:signup_done")
    user = User.objects.get(username="carol")
    assert not user.is_active and not user.email_confirmed
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["carol@example.com"]
    assert confirm_link(message).startswith("https://maata.example/accounts/confirm/")


def test_following_the_link_activates_and_signs_in(client):
    signup(client)
    path = confirm_link(mail.outbox[0]).split("://", 1)[1].split("/", 1)[1]
    page = client.get("/" + path)  # the link shows a button; its POST confirms
    assert page.status_code == 200 and 'id="confirm-button"' in page.content.decode()
    response = client.post("/" + path, follow=True)
    assert response.status_code == 200
    assert response.redirect_chain[-1][0] == reverse("accounts:profile")
    user = User.objects.get(username="carol")
    assert user.is_active and user.email_confirmed
    assert response.context["user"] == user
    # A second use confirms nothing (tests/accounts/test_accounts_one_time_links.py).
    assert "already confirmed" in client.post("/" + path).content.decode()


def test_unconfirmed_account_cannot_log_in_and_is_told_why(client):
    signup(client)
    response = client.post(reverse("accounts:login"), {"username": "carol", "password": PASSWORD})
    assert response.status_code == 200
    assert "confirm your email address" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_resend_mails_a_new_link_without_revealing_addresses(client):
    signup(client)
    mail.outbox.clear()
    response = client.post(reverse("accounts:resend"), {"email": "CAROL@example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    response = client.post(reverse("accounts:resend"), {"email": "nobody@example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1


@pytest.mark.parametrize("kind", ["garbage", "signed_for_something_else"])
def test_bad_link_is_refused(client, kind):
    # Built inside the test: a signed value carries a timestamp, and parameters that
    # change between collections break pytest-xdist.
    token = "garbage" if kind == "garbage" else signing.dumps({"user": 1, "email": "x@example.com"}, salt="other")
    response = client.get(reverse("accounts:confirm", kwargs={"token": token}))
    assert response.status_code == 400


def test_expired_link_is_refused(client, settings):
    user = services.user_signup(username="dave", email="dave@example.com", password=PASSWORD)
    token = services.email_confirmation_token_make(user=user)
    settings.ACCOUNTS_CONFIRMATION_MAX_AGE = -1
    with pytest.raises(ValidationError) as info:
        services.user_confirm_email(token=token)
    assert info.value.code == "expired"


def test_link_cannot_reactivate_a_disabled_account():
    user = services.user_signup(username="erin", email="erin@example.com", password=PASSWORD)
    token = services.email_confirmation_token_make(user=user)
    services.user_confirm_email(token=token)
    User.objects.filter(pk=user.pk).update(is_active=False)
    with pytest.raises(ValidationError):
        services.user_confirm_email(token=token)
    assert not User.objects.get(pk=user.pk).is_active


def test_usernames_and_emails_are_unique_ignoring_case(client):
    signup(client)
    response = signup(client, username="CAROL", email="other@example.com")
    assert response.status_code == 200
    assert "already exists" in response.content.decode()
    response = signup(client, username="carol2", email="Carol@Example.com")
    assert response.status_code == 200
    assert User.objects.count() == 1


@pytest.mark.parametrize("username", ["ab", "has space", "slash/es", "x" * 31])
def test_bad_usernames_are_refused(client, username):
    response = signup(client, username=username)
    assert response.status_code == 200
    assert not User.objects.exists()


def test_the_deleted_accounts_prefix_is_reserved(client):
    response = signup(client, username="Deleted-7")
    assert response.status_code == 200
    assert "are reserved" in response.content.decode()
    assert not User.objects.exists() and not mail.outbox


def test_weak_password_is_refused(client):
    response = signup(client, password="password")
    assert response.status_code == 200
    assert not User.objects.exists()
    assert not mail.outbox


def test_unconfirmed_accounts_are_purged_after_the_link_expires(settings):
    from datetime import timedelta

    from django.utils import timezone

    old = services.user_signup(username="stale", email="stale@example.com", password=PASSWORD)
    User.objects.filter(pk=old.pk).update(date_joined=timezone.now() - timedelta(days=4))
    services.user_signup(username="fresh", email="fresh@example.com", password=PASSWORD)
    assert services.unconfirmed_accounts_purge() == 1
    assert list(User.objects.values_list("username", flat=True)) == ["fresh"]


def test_the_purge_keeps_an_unconfirmed_account_that_the_staff_audit_log_names():
    from datetime import timedelta

    from django.utils import timezone

    from accounts.models import StaffAction
    from ops import services as ops_services
    from tests.factories import make_user

    staff = make_user("staffer")
    staff.is_staff = True
    staff.save()
    for name in ("spammer", "stale"):
        services.user_signup(username=name, email="%s@example.com" % name, password=PASSWORD)
    User.objects.filter(username__in=["spammer", "stale"]).update(date_joined=timezone.now() - timedelta(days=4))
    spammer = User.objects.get(username="spammer")
    ops_services.player_suspend(player_id=spammer.pk, staff=staff, reason="Spam sign-ups.")
    assert services.unconfirmed_accounts_purge() == 1
    assert set(User.objects.values_list("username", flat=True)) == {"staffer", "spammer"}
    assert StaffAction.objects.get().player == spammer
