"""The webhooks through the REST API and the page /settings/webhooks/: a bad or private address
is a 400, another player's endpoint a 404 (never a 500), the secret shown once, the log; and a
player's endpoints and log in their export, gone with their account."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games import services as games_services
from privacy import services as privacy_services
from webhooks import services
from webhooks.models import Delivery, DeliveryAttempt, Endpoint

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("api_settings")]

API = "/api/v1/webhooks/"
PAGE = "/settings/webhooks/"


def test_register_list_change_rotate_and_delete_through_the_api(alice_api, alice, receiver):
    made = alice_api.post(API, {"url": receiver.url(), "events": ["your_turn", "message"]}, format="json")
    assert made.status_code == 201, made.content
    body = made.json()
    assert body["secret"].startswith("whsec_") and body["events"] == ["message", "your_turn"] and body["active"]
    listed = alice_api.get(API).json()
    assert [e["id"] for e in listed] == [body["id"]] and "secret" not in listed[0]
    one = "%s%d/" % (API, body["id"])
    changed = alice_api.patch(one, {"events": ["game_over"], "active": False}, format="json")
    assert changed.status_code == 200 and changed.json()["events"] == ["game_over"] and not changed.json()["active"]
    rotated = alice_api.post(one + "secret/")
    assert rotated.status_code == 200 and rotated.json()["secret"] not in (body["secret"], "")
    assert services.endpoint_secret(Endpoint.objects.get()) == rotated.json()["secret"]
    assert alice_api.get(one + "deliveries/").json() == []
    assert alice_api.delete(one).status_code == 204
    assert alice_api.get(one).status_code == 404


@pytest.mark.parametrize(
    "payload,code",
    [
        ({"url": "http://example.com/hook", "events": ["message"]}, "url_not_https"),
        ({"url": "https://10.0.0.1/hook", "events": ["message"]}, "url_private"),
        ({"url": "https://[::ffff:127.0.0.1]/hook", "events": ["message"]}, "url_private"),
        ({"url": "https://169.254.169.254/latest", "events": ["message"]}, "url_private"),
        ({"url": "https://u:p@example.com/", "events": ["message"]}, "url_credentials"),
        ({"url": "not a url", "events": ["message"]}, "url_invalid"),
        ({"url": "https://inside.example/", "events": ["message"]}, "url_private"),
        ({"url": "https://nowhere.example/", "events": ["message"]}, "url_unresolved"),
        ({"url": "https://93.184.216.34/", "events": []}, "invalid"),
        ({"url": "https://93.184.216.34/", "events": ["draw_offered"]}, "invalid"),
        ({"url": "https://93.184.216.34/" + "a" * 600, "events": ["message"]}, "invalid"),
        ({"events": ["message"]}, "invalid"),
    ],
)
def test_bad_addresses_and_events_are_400s(settings, alice_api, stub_dns, no_private_packets, payload, code):
    settings.WEBHOOKS_ALLOW_LOOPBACK_FOR_TESTS = False
    stub_dns["inside.example"] = ["192.168.10.20"]
    answer = alice_api.post(API, payload, format="json")
    assert answer.status_code == 400, answer.content
    assert answer.json()["code"] == code
    assert Endpoint.objects.count() == 0


def test_a_change_to_a_private_address_is_a_400_and_changes_nothing(settings, alice_api, alice, receiver):
    endpoint, _ = services.endpoint_create(user=alice, url=receiver.url(), events=["message"])
    one = "%s%d/" % (API, endpoint.pk)
    for body in ({"url": "https://192.168.0.1/"}, {"events": ["nope"]}, {"events": "message"}, {"active": "maybe"}):
        answer = alice_api.patch(one, body, format="json")
        assert answer.status_code == 400, (body, answer.content)
    endpoint.refresh_from_db()
    assert endpoint.url == receiver.url() and endpoint.events == ["message"] and endpoint.active


def test_a_public_address_is_accepted_without_any_connection(settings, alice_api, stub_dns, no_private_packets):
    settings.WEBHOOKS_ALLOW_LOOPBACK_FOR_TESTS = False
    stub_dns["hooks.example"] = ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"]
    assert (
        alice_api.post(API, {"url": "https://hooks.example/in", "events": ["message"]}, format="json").status_code
        == 201
    )


def test_a_sixth_endpoint_is_a_409(alice_api, receiver):
    for n in range(services.MAX_ENDPOINTS):
        assert (
            alice_api.post(API, {"url": receiver.url("/%d" % n), "events": ["message"]}, format="json").status_code
            == 201
        )
    answer = alice_api.post(API, {"url": receiver.url("/x"), "events": ["message"]}, format="json")
    assert answer.status_code == 409 and answer.json()["code"] == "too_many_endpoints"


def test_the_secret_is_sealed_in_its_row(alice, receiver):
    """A database dump does not show the signing secret (games.sealing)."""
    from django.db import connection

    endpoint, secret = services.endpoint_create(user=alice, url=receiver.url(), events=["message"])
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM webhooks_endpoint WHERE id = %s", [endpoint.pk])
        row = " ".join(str(value) for value in cursor.fetchone())
    assert secret not in row and secret[6:] not in row and "v2:" in row
    assert services.endpoint_secret(endpoint) == secret


def test_other_players_endpoints_are_404s(alice_api, bob_api, alice, receiver):
    endpoint, _ = services.endpoint_create(user=alice, url=receiver.url(), events=["message"])
    one = "%s%d/" % (API, endpoint.pk)
    assert bob_api.get(one).status_code == 404
    assert bob_api.patch(one, {"active": False}, format="json").status_code == 404
    assert bob_api.post(one + "secret/").status_code == 404
    assert bob_api.get(one + "deliveries/").status_code == 404
    assert bob_api.delete(one).status_code == 404
    assert bob_api.get(API).json() == []
    assert bob_api.get(API + "99999/").status_code == 404
    endpoint.refresh_from_db()
    assert endpoint.active and alice_api.get(one).status_code == 200


def test_anonymous_callers_and_read_only_tokens(anon, alice, receiver):
    from tests.api_clients import token_client

    assert anon.get(API).status_code == 401
    reader = token_client(alice, scopes=("read",))
    assert reader.get(API).status_code == 200
    assert reader.post(API, {"url": receiver.url(), "events": ["message"]}, format="json").status_code == 403


def test_the_delivery_log_through_the_api(alice_api, alice, bob, receiver):
    endpoint, receiver.secret = services.endpoint_create(user=alice, url=receiver.url(), events=["challenge_received"])
    games_services.challenge_create(challenger=bob, opponent=alice, kind="onitama")
    for delivery_id in services.endpoint_sync(endpoint_id=endpoint.pk):
        services.delivery_send(delivery_id=delivery_id)
    log = alice_api.get("%s%d/deliveries/" % (API, endpoint.pk)).json()
    assert len(log) == 1 and log[0]["ok"] and log[0]["status_code"] == 204 and log[0]["event"] == "challenge_received"
    assert log[0]["event_id"] == receiver.accepted[0].payload["id"]


# ---------------------------------------------------------------- the page


def test_the_page_registers_and_shows_the_secret_once(client, alice, receiver):
    client.force_login(alice)
    assert client.get(PAGE).status_code == 200
    made = client.post(PAGE, {"action": "create", "url": receiver.url(), "events": ["your_turn", "game_over"]})
    assert made.status_code == 201
    endpoint = Endpoint.objects.get()
    secret = services.endpoint_secret(endpoint)
    assert secret in made.content.decode()
    again = client.get(PAGE).content.decode()
    assert endpoint.url in again and secret not in again
    rotated = client.post(PAGE, {"action": "rotate", "endpoint": endpoint.pk})
    endpoint.refresh_from_db()
    assert rotated.status_code == 200 and services.endpoint_secret(endpoint) in rotated.content.decode()
    assert client.post(PAGE, {"action": "off", "endpoint": endpoint.pk}).status_code == 302
    assert not Endpoint.objects.get().active
    assert client.get("%s%d/log/" % (PAGE, endpoint.pk)).status_code == 200
    assert client.post(PAGE, {"action": "delete", "endpoint": endpoint.pk}).status_code == 302
    assert not Endpoint.objects.exists()


def test_the_page_refuses_bad_addresses_and_others_endpoints(settings, client, alice, bob, receiver):
    endpoint, _ = services.endpoint_create(user=bob, url=receiver.url(), events=["message"])
    settings.WEBHOOKS_ALLOW_LOOPBACK_FOR_TESTS = False
    client.force_login(alice)
    bad = client.post(PAGE, {"action": "create", "url": "https://192.168.1.1/", "events": ["message"]})
    assert bad.status_code == 400 and "private" in bad.content.decode()
    assert client.post(PAGE, {"action": "create", "url": "https://93.184.216.34/", "events": []}).status_code == 400
    for action in ("off", "on", "rotate", "delete"):
        assert client.post(PAGE, {"action": action, "endpoint": endpoint.pk}).status_code == 404, action
    assert client.post(PAGE, {"action": "delete", "endpoint": "x"}).status_code == 404
    assert client.post(PAGE, {"action": "nonsense"}).status_code == 400
    assert client.get("%s%d/log/" % (PAGE, endpoint.pk)).status_code == 404
    assert Endpoint.objects.get().active


def test_the_page_needs_a_login(client):
    assert client.get(PAGE).status_code == 302


@pytest.mark.parametrize(
    "language,title,refusal",
    [
        ("en", "<h1>Webhooks</h1>", "The address must start with https://."),
        ("id", "<h1>Webhook</h1>", "Alamat harus diawali dengan https://."),
        ("ar", "<h1>خطافات الويب</h1>", "يجب أن يبدأ العنوان بـ https://."),
    ],
)
def test_the_page_in_each_language(settings, client, alice, language, title, refusal):
    settings.WEBHOOKS_ALLOW_LOOPBACK_FOR_TESTS = False
    alice.language = language
    alice.save()
    client.force_login(alice)
    answer = client.get(PAGE, HTTP_ACCEPT_LANGUAGE=language)
    assert answer.status_code == 200 and title in answer.content.decode()
    bad = client.post(PAGE, {"action": "create", "url": "http://example.com/", "events": ["message"]})
    assert bad.status_code == 400 and refusal in bad.content.decode()


# ---------------------------------------------------------------- export and deletion


def test_endpoints_and_logs_join_the_export_and_go_with_the_account(alice, bob, receiver):
    endpoint, receiver.secret = services.endpoint_create(user=alice, url=receiver.url(), events=["challenge_received"])
    services.endpoint_create(user=bob, url=receiver.url("/bob"), events=["message"])
    games_services.challenge_create(challenger=bob, opponent=alice, kind="onitama")
    for delivery_id in services.endpoint_sync(endpoint_id=endpoint.pk):
        services.delivery_send(delivery_id=delivery_id)
    exported = privacy_services.account_export(user=alice)["webhooks"]
    assert [e["url"] for e in exported] == [receiver.url()]
    assert (
        exported[0]["delivery_log"][0]["delivered"] and exported[0]["delivery_log"][0]["event"] == "challenge_received"
    )
    assert services.endpoint_secret(endpoint) not in str(exported) and "secret" not in str(exported)
    privacy_services.account_delete(user=get_user_model().objects.get(pk=alice.pk), password="pw-alice-123456")
    assert not Endpoint.objects.filter(pk=endpoint.pk).exists()
    assert not Delivery.objects.filter(endpoint_id=endpoint.pk).exists()
    assert not DeliveryAttempt.objects.filter(endpoint_id=endpoint.pk).exists()
    assert Endpoint.objects.filter(user=bob).count() == 1
