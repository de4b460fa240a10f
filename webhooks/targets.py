"""Where a webhook may go: the address checks and the one way a delivery connects.

A target is refused unless every address its name resolves to is a public (global unicast)
address: no private, shared (100.64/10), link-local, loopback, unspecified, multicast or
reserved range, in IPv4 or IPv6, nor an IPv6 form that carries such an IPv4 address
(IPv4-mapped ``::ffff:a.b.c.d``, IPv4-compatible, NAT64 ``64:ff9b::/96``, 6to4, Teredo).
Python's ``is_global`` alone is not enough on 3.11 (it reads ``::ffff:127.0.0.1`` as global
before 3.11.9), so the embedded IPv4 address is unwrapped and checked too.

The check runs at registration (a clear 400) and again at every delivery, because DNS can
change in between: :func:`post` resolves the name, checks the addresses, and connects to the
checked address itself (the name goes only into the Host header and TLS's SNI and certificate
check), so no second lookup can swap the address. No redirect is followed (http.client follows
none), there is a timeout for the whole delivery (``WEBHOOKS_TIMEOUT_SECONDS``: connecting, sending
and the whole answer, so a receiver that trickles its answer is cut off; each socket operation is
bounded by it too), and the request carries no cookie or credential of the site.

Only ``https`` is accepted. The test-only setting ``WEBHOOKS_ALLOW_LOOPBACK_FOR_TESTS``
(environment variable of the same name, off by default, never tied to DEBUG) also accepts
loopback receivers (127/8, ::1, or a name resolving only to them), plain ``http`` included (to
loopback only), for the tests' local receiver; every other private range stays refused.
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

from .models import URL_MAX_LENGTH

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
NAT64 = ipaddress.ip_network("64:ff9b::/96")
#: IANA special-purpose ranges refused whatever the Python version's ``is_global`` says of them
#: (3.11 reads some of them as global).
SPECIAL = [
    ipaddress.ip_network(n)
    for n in (
        "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
        "192.0.0.0/24", "192.0.2.0/24", "192.88.99.0/24", "192.168.0.0/16", "198.18.0.0/15",
        "198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/3",
        "::/127", "::ffff:0:0/96", "64:ff9b:1::/48", "100::/64", "2001::/23", "2001:db8::/32",
        "2002::/16", "3fff::/20", "5f00::/16", "fc00::/7", "fe80::/10", "fec0::/10", "ff00::/8",
    )
]  # fmt: skip
#: Read at most this much of a receiver's answer (its body is only logged, shortened).
ANSWER_LIMIT = 4096


class TargetRefused(Exception):
    """The address may not receive webhooks; ``code`` says why (webhooks.errors has the messages)."""

    def __init__(self, code: str, **params: str) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str  # as written (lower case), without brackets
    port: int
    path: str  # path and query, at least "/"


def _embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address.teredo is not None:
        return address.teredo[1]
    if address in NAT64 or int(address) >> 32 == 0:  # NAT64, IPv4-compatible (::a.b.c.d)
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


def is_loopback(address: IPAddress) -> bool:
    if isinstance(address, ipaddress.IPv6Address):
        inner = _embedded_ipv4(address)
        if inner is not None and address.ipv4_mapped is not None:
            return inner.is_loopback
        return address.is_loopback
    return address.is_loopback


def address_allowed(address: IPAddress, *, allow_loopback: bool = False) -> bool:
    """Whether a webhook may be sent to ``address`` (see the module docstring)."""
    if allow_loopback and is_loopback(address):
        return True
    candidates: list[IPAddress] = [address]
    if isinstance(address, ipaddress.IPv6Address):
        if address.scope_id:
            return False
        inner = _embedded_ipv4(address)
        if inner is not None:
            candidates.append(inner)
    for candidate in candidates:
        if (
            not candidate.is_global
            or candidate.is_private
            or candidate.is_loopback
            or candidate.is_link_local
            or candidate.is_multicast
            or candidate.is_reserved
            or candidate.is_unspecified
        ):
            return False
        if any(candidate.version == net.version and candidate in net for net in SPECIAL):
            return False
    return True


def parse_target(url: str, *, allow_loopback: bool | None = None) -> Target:
    """The parts of ``url``, or TargetRefused: https (http only for loopback under the test
    setting), a host, no user or password, no fragment."""
    allow = settings.WEBHOOKS_ALLOW_LOOPBACK_FOR_TESTS if allow_loopback is None else allow_loopback
    url = (url or "").strip()
    if not url or len(url) > URL_MAX_LENGTH or any(ch.isspace() or ord(ch) < 32 for ch in url):
        raise TargetRefused("url_invalid")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise TargetRefused("url_invalid") from None
    host = (parts.hostname or "").lower()
    if parts.scheme not in ("https", "http") or not host:
        raise TargetRefused("url_invalid")
    if parts.username is not None or parts.password is not None or parts.fragment:
        raise TargetRefused("url_credentials")
    if parts.scheme == "http" and not (allow and _may_be_loopback(host)):
        raise TargetRefused("url_not_https")
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return Target(parts.scheme, host, port or (443 if parts.scheme == "https" else 80), path)


def _may_be_loopback(host: str) -> bool:
    """A loopback literal, or a name (whose addresses :func:`checked_address` checks)."""
    try:
        return is_loopback(ipaddress.ip_address(host))
    except ValueError:
        return True


Resolver = Callable[..., list]


def system_resolve(host: str, port: int) -> list[str]:
    """The addresses ``host`` resolves to (the system's resolver)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in infos]


#: Replaced by the tests (a stub resolver): no test sends a packet to a private range.
resolve: Callable[[str, int], list[str]] = system_resolve


def _literal(text: str) -> list[IPAddress] | None:
    try:
        return [ipaddress.ip_address(text)]
    except ValueError:
        return None


def checked_address(target: Target, *, allow_loopback: bool | None = None) -> str:
    """The address to connect to for ``target``: its literal address, or the first its name
    resolves to, once every resolved address passed :func:`address_allowed`."""
    allow = settings.WEBHOOKS_ALLOW_LOOPBACK_FOR_TESTS if allow_loopback is None else allow_loopback
    addresses = _literal(target.host)
    if addresses is None:
        try:
            found = resolve(target.host, target.port)
        except (OSError, UnicodeError):
            raise TargetRefused("url_unresolved", host=target.host) from None
        if any("%" in a for a in found):  # a scoped (link-local) address
            raise TargetRefused("url_private", host=target.host)
        addresses = [address for text in found for address in (_literal(text) or [])]
        if len(addresses) != len(found):
            raise TargetRefused("url_unresolved", host=target.host)
    if not addresses:
        raise TargetRefused("url_unresolved", host=target.host)
    for address in addresses:
        if not address_allowed(address, allow_loopback=allow):
            raise TargetRefused("url_private", host=target.host)
        if target.scheme == "http" and not is_loopback(address):  # plain http: loopback only
            raise TargetRefused("url_not_https")
    return str(addresses[0])


def check_url(url: str) -> Target:
    """Registration's check of ``url``: its form and where its name points now."""
    target = parse_target(url)
    checked_address(target)
    return target


# ---------------------------------------------------------------- sending


class _Deadline:
    """The one deadline of a whole delivery. The socket timeout bounds each connect, send and
    read alone, so a receiver that trickles its answer a byte at a time would hold the worker
    for as long as it likes; :meth:`abort` (a timer at ``WEBHOOKS_TIMEOUT_SECONDS``, see
    :func:`post`) shuts the connection's socket down, which ends whatever send or read is
    under way, and refuses a connection made after it."""

    def __init__(self) -> None:
        self.expired = threading.Event()
        self._raw: socket.socket | None = None
        self._lock = threading.Lock()

    def connected(self, raw: socket.socket) -> socket.socket:
        with self._lock:
            self._raw = raw
            if self.expired.is_set():
                raw.close()
                raise TimeoutError("timed out")
        return raw

    def abort(self) -> None:
        with self._lock:
            self.expired.set()
            if self._raw is not None:
                try:
                    self._raw.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass  # closed already


class _PinnedHTTPConnection(http.client.HTTPConnection):
    """Connects to the checked address, whatever the host name says."""

    def __init__(self, host: str, port: int, *, address: str, timeout: float, deadline: _Deadline) -> None:
        super().__init__(host, port, timeout=timeout)
        self._address = address
        self._deadline = deadline

    def connect(self) -> None:
        self.sock = self._deadline.connected(socket.create_connection((self._address, self.port), self.timeout))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    """TLS to the checked address, with the host name for SNI and the certificate check."""

    def __init__(
        self, host: str, port: int, *, address: str, timeout: float, context: ssl.SSLContext, deadline: _Deadline
    ) -> None:
        super().__init__(host, port, timeout=timeout, context=context)
        self._address = address
        self._tls = context
        self._deadline = deadline

    def connect(self) -> None:
        raw = self._deadline.connected(socket.create_connection((self._address, self.port), self.timeout))
        self.sock = self._tls.wrap_socket(raw, server_hostname=self.host)


@dataclass
class Answer:
    status: int | None
    error: str
    duration_ms: int

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


def post(url: str, body: bytes, headers: dict[str, str]) -> Answer:
    """POST ``body`` to ``url`` once, checking the address connected to (see the module
    docstring); never raises for the receiver's or the network's failures."""
    started = time.monotonic()

    def answer(status: int | None, error: str) -> Answer:
        return Answer(status, error[:200], int((time.monotonic() - started) * 1000))

    try:
        target = parse_target(url)
        address = checked_address(target)
    except TargetRefused as refused:
        return answer(None, "refused: %s" % refused.code)
    timeout = settings.WEBHOOKS_TIMEOUT_SECONDS
    deadline = _Deadline()
    connection: http.client.HTTPConnection
    if target.scheme == "https":
        connection = _PinnedHTTPSConnection(
            target.host,
            target.port,
            address=address,
            timeout=timeout,
            context=ssl.create_default_context(),
            deadline=deadline,
        )
    else:
        connection = _PinnedHTTPConnection(
            target.host, target.port, address=address, timeout=timeout, deadline=deadline
        )
    timer = threading.Timer(max(0.0, timeout - (time.monotonic() - started)), deadline.abort)
    timer.daemon = True
    timer.start()
    try:
        connection.request("POST", target.path, body=body, headers=headers)
        response = connection.getresponse()
        response.read(ANSWER_LIMIT)
        status = response.status
    except (OSError, http.client.HTTPException, ssl.SSLError) as error:
        if deadline.expired.is_set():
            return answer(None, "TimeoutError: timed out: no whole answer within %g s" % timeout)
        return answer(None, "%s: %s" % (type(error).__name__, error))
    finally:
        timer.cancel()
        connection.close()
    if 300 <= status < 400:
        return answer(status, "redirect not followed")
    return answer(status, "" if 200 <= status < 300 else "HTTP %d" % status)
