"""Where webhooks may go: the address checks, with literal addresses and a stubbed resolver only.
No test here sends a packet to a private range (``no_private_packets`` fails any connection
that is not to loopback)."""

import ipaddress

import pytest

from webhooks import services, targets
from webhooks.models import Delivery, DeliveryStatus
from webhooks.targets import TargetRefused, address_allowed, check_url, checked_address, parse_target

REFUSED = [
    "10.0.0.1", "10.255.255.255", "172.16.0.1", "172.31.255.254", "192.168.1.1", "169.254.169.254",
    "127.0.0.1", "127.8.9.10", "0.0.0.0", "0.1.2.3", "100.64.0.1", "100.127.255.254", "192.0.0.8",
    "192.0.2.1", "198.18.0.1", "198.51.100.7", "203.0.113.9", "224.0.0.1", "239.255.255.250",
    "240.0.0.1", "255.255.255.255",
    "::", "::1", "fc00::1", "fd12:3456::1", "fe80::1", "fec0::1", "ff02::1", "2001:db8::1",
    "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:169.254.169.254", "::ffff:192.168.0.1",
    "::127.0.0.1", "::10.0.0.1", "64:ff9b::10.0.0.1", "64:ff9b::7f00:1",
    "2002:0a00:0001::1", "2002:7f00:0001::1", "2001:0:4136:e378:8000:63bf:f5ff:fffe",
]  # fmt: skip
ALLOWED = ["93.184.216.34", "8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "2a00:1450:4001:80b::200e"]


@pytest.mark.parametrize("text", REFUSED)
def test_private_loopback_link_local_and_reserved_addresses_are_refused(text):
    assert not address_allowed(ipaddress.ip_address(text))


@pytest.mark.parametrize("text", ALLOWED)
def test_public_addresses_are_allowed(text):
    assert address_allowed(ipaddress.ip_address(text))


def test_the_test_setting_allows_loopback_only():
    assert address_allowed(ipaddress.ip_address("127.0.0.1"), allow_loopback=True)
    assert address_allowed(ipaddress.ip_address("::1"), allow_loopback=True)
    assert address_allowed(ipaddress.ip_address("::ffff:127.0.0.1"), allow_loopback=True)
    for other in ["10.0.0.1", "192.168.1.1", "169.254.169.254", "fe80::1", "::ffff:10.0.0.1", "0.0.0.0"]:
        assert not address_allowed(ipaddress.ip_address(other), allow_loopback=True), other


@pytest.mark.parametrize(
    "url,code",
    [
        ("ftp://example.com/", "url_invalid"),
        ("example.com/hook", "url_invalid"),
        ("https://", "url_invalid"),
        ("https://exa mple.com/", "url_invalid"),
        ("https://example.com:99999/", "url_invalid"),
        ("http://example.com/hook", "url_not_https"),
        ("http://127.0.0.1:8000/hook", "url_not_https"),  # the test setting is off here
        ("https://user:pw@example.com/", "url_credentials"),
        ("https://example.com/#x", "url_credentials"),
    ],
)
def test_malformed_or_plain_http_urls_are_refused(settings, url, code):
    settings.WEBHOOKS_ALLOW_LOOPBACK_FOR_TESTS = False
    with pytest.raises(TargetRefused) as refused:
        parse_target(url)
    assert refused.value.code == code


def test_plain_http_needs_the_test_setting_and_a_loopback_host(settings):
    settings.WEBHOOKS_ALLOW_LOOPBACK_FOR_TESTS = True
    assert parse_target("http://127.0.0.1:8000/hook?x=1").path == "/hook?x=1"
    assert parse_target("http://[::1]:8000/").host == "::1"
    with pytest.raises(TargetRefused):
        parse_target("http://10.0.0.1/hook")


def test_plain_http_to_a_name_needs_it_to_resolve_to_loopback(settings, stub_dns, no_private_packets):
    settings.WEBHOOKS_ALLOW_LOOPBACK_FOR_TESTS = True
    stub_dns["local.test"] = ["127.0.0.1"]
    stub_dns["public.example"] = ["93.184.216.34"]
    assert check_url("http://local.test:9/hook").host == "local.test"
    with pytest.raises(TargetRefused) as refused:
        check_url("http://public.example/hook")
    assert refused.value.code == "url_not_https"
    assert check_url("https://public.example/hook").port == 443


def test_the_loopback_setting_is_off_by_default_and_not_debug():
    from django.conf import global_settings

    from maatasite import settings as site_settings

    assert not hasattr(global_settings, "WEBHOOKS_ALLOW_LOOPBACK_FOR_TESTS")
    source = open(site_settings.__file__).read()
    line = next(x for x in source.splitlines() if x.startswith("WEBHOOKS_ALLOW_LOOPBACK_FOR_TESTS"))
    assert 'env.bool("WEBHOOKS_ALLOW_LOOPBACK_FOR_TESTS", default=False)' in line and "DEBUG" not in line


def test_names_are_checked_by_every_address_they_resolve_to(settings, stub_dns, no_private_packets):
    settings.WEBHOOKS_ALLOW_LOOPBACK_FOR_TESTS = True
    stub_dns["public.example"] = ["93.184.216.34"]
    stub_dns["inside.example"] = ["10.1.2.3"]
    stub_dns["mixed.example"] = ["93.184.216.34", "192.168.0.10"]
    stub_dns["mapped.example"] = ["::ffff:169.254.169.254"]
    stub_dns["scoped.example"] = ["fe80::1%eth0"]
    assert checked_address(parse_target("https://public.example/h")) == "93.184.216.34"
    for name in ["inside.example", "mixed.example", "mapped.example", "scoped.example"]:
        with pytest.raises(TargetRefused) as refused:
            check_url("https://%s/hook" % name)
        assert refused.value.code == "url_private", name
    with pytest.raises(TargetRefused) as refused:
        check_url("https://nowhere.example/")
    assert refused.value.code == "url_unresolved"
    with pytest.raises(TargetRefused):
        check_url("https://10.0.0.1/hook")  # a literal: no lookup at all


@pytest.mark.django_db
def test_the_address_is_checked_again_at_every_delivery(alice, settings, stub_dns, no_private_packets):
    """DNS changes after registration (rebinding): the delivery is refused, nothing is sent."""
    settings.WEBHOOKS_MAX_ATTEMPTS = 5
    stub_dns["hooks.example"] = ["93.184.216.34"]
    endpoint, _secret = services.endpoint_create(user=alice, url="https://hooks.example/in", events=["your_turn"])
    stub_dns["hooks.example"] = ["10.0.0.7"]
    delivery = Delivery.objects.create(endpoint=endpoint, event_id="ev_1-4-1", kind="your_turn", payload={"id": "x"})
    retry_at = services.delivery_send(delivery_id=delivery.pk)
    attempt = endpoint.attempts.get()
    assert not attempt.ok and attempt.error == "refused: url_private" and attempt.status_code is None
    delivery.refresh_from_db()
    assert delivery.status == DeliveryStatus.PENDING and retry_at is not None


def test_the_system_resolver_is_the_default():
    assert targets.resolve is targets.system_resolve
