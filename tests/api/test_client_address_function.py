"""The client's address comes from one function (api/client_address.py), driven by
TRUSTED_PROXY_COUNT: a header the client writes never chooses whom a rate limit counts."""

from __future__ import annotations

import pytest
from django.core import checks
from django.test import RequestFactory

from api.client_address import address_bucket, client_address, client_address_bucket


def _request(remote="203.0.113.9", forwarded=None):
    extra = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return RequestFactory().get("/", **extra)


def test_by_default_the_socket_address_counts_and_the_header_is_ignored(settings):
    settings.TRUSTED_PROXY_COUNT = 0
    assert client_address(_request(forwarded="198.51.100.1")) == "203.0.113.9"
    assert client_address(_request(forwarded="198.51.100.1, 198.51.100.2")) == "203.0.113.9"


def test_one_proxy_the_rightmost_entry_is_the_client(settings):
    settings.TRUSTED_PROXY_COUNT = 1
    # The client wrote "1.1.1.1, 2.2.2.2"; our load balancer appended what it saw.
    request = _request(remote="10.0.0.2", forwarded="1.1.1.1, 2.2.2.2, 198.51.100.7")
    assert client_address(request) == "198.51.100.7"


def test_two_proxies_the_second_entry_from_the_right_is_the_client(settings):
    settings.TRUSTED_PROXY_COUNT = 2
    request = _request(remote="10.0.0.3", forwarded="6.6.6.6, 198.51.100.7, 10.0.0.2")
    assert client_address(request) == "198.51.100.7"


@pytest.mark.parametrize(
    "forwarded", [None, "", " , ", "not-an-address", "198.51.100.7, garbage", "198.51.100.7;drop table", "999.1.1.1"]
)
def test_missing_or_malformed_headers_fall_back_to_the_socket(settings, forwarded):
    settings.TRUSTED_PROXY_COUNT = 1
    assert client_address(_request(remote="10.0.0.2", forwarded=forwarded)) == "10.0.0.2"


def test_a_header_shorter_than_the_proxy_chain_falls_back_to_the_socket(settings):
    """Fewer entries than proxies: the request did not come through them all, so the
    leftmost entry (the client's own writing) is not believed."""
    settings.TRUSTED_PROXY_COUNT = 2
    assert client_address(_request(remote="10.0.0.3", forwarded="6.6.6.6")) == "10.0.0.3"


def test_rotating_the_client_written_part_never_changes_the_address(settings):
    settings.TRUSTED_PROXY_COUNT = 1
    seen = {client_address(_request(remote="10.0.0.2", forwarded="10.%d.0.1, 198.51.100.7" % i)) for i in range(50)}
    assert seen == {"198.51.100.7"}


def test_ipv6_clients_count_per_64(settings):
    settings.TRUSTED_PROXY_COUNT = 0
    one = client_address_bucket(_request(remote="2001:db8:1:2::1"))
    other = client_address_bucket(_request(remote="2001:db8:1:2:ffff::9"))
    assert one == other == "2001:db8:1:2::/64"
    assert client_address_bucket(_request(remote="2001:db8:1:3::1")) != one
    assert address_bucket("::ffff:198.51.100.7") == "198.51.100.7"
    assert address_bucket("198.51.100.7") == "198.51.100.7"


def _warning_ids() -> set[str | None]:
    return {message.id for message in checks.run_checks(tags=[checks.Tags.security])}


def test_behind_a_load_balancer_without_a_trusted_proxy_the_site_warns(settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.TRUSTED_PROXY_COUNT = 0
    assert "maatasite.W001" in _warning_ids()
    settings.TRUSTED_PROXY_COUNT = 1
    assert "maatasite.W001" not in _warning_ids()
    settings.SECURE_PROXY_SSL_HEADER = None
    settings.TRUSTED_PROXY_COUNT = 0
    assert "maatasite.W001" not in _warning_ids()
