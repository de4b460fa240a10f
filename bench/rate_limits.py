"""How many requests with a new X-Forwarded-For on each get through each rate limit before
its 429, against a real gunicorn (2 workers) sharing its counters in Redis.

    .venv/bin/python bench/rate_limits.py [--attempts 40] [--cache redis://127.0.0.1:6379/3]
                                          [--database postgres://postgres@127.0.0.1:5432/maatasite_bench_limits]

The hostile tester's method: every request carries a fresh, plausible X-Forwarded-For.
Each phase speaks from a loopback source address of its own (127.r.p.1), so the phases do
not spend each other's per-address budgets. Two servers run in turn with the production
defaults (TRUSTED_PROXY_COUNT=0):

* ``per address``: as configured, API_RATE_AUTH and PAGE_RATE_AUTH hold first;
* ``per account / per target``: the per-address budgets lifted, so that the budget of
  failed sign-ins per account and address, and the mail budget per target address, show.
  Here each mail request comes from another source address too.

Prints, per limit, the requests that got through before the first 429 (``none`` means no
429 in ``--attempts``). Tasks run in-process and mail is dropped.
"""

from __future__ import annotations

import argparse
import functools
import http.client
import json
import os
import random
import re
import urllib.parse
import uuid

from _common import django_migrated, ensure_database, gunicorn, site_environment

PASSWORD = "bench-password-123"


class Client:
    """HTTP from one loopback source address, keeping cookies (for the pages' CSRF token)."""

    def __init__(self, base: str, source: str) -> None:
        parsed = urllib.parse.urlsplit(base)
        self.host, self.port, self.source = parsed.hostname, parsed.port, source
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, *, body: bytes | None = None, headers: dict | None = None):
        connection = http.client.HTTPConnection(self.host, self.port, timeout=30, source_address=(self.source, 0))
        try:
            all_headers = dict(headers or {})
            if self.cookies:
                all_headers["Cookie"] = "; ".join("%s=%s" % item for item in self.cookies.items())
            connection.request(method, path, body=body, headers=all_headers)
            response = connection.getresponse()
            text = response.read().decode("utf-8", "replace")
            for header, value in response.getheaders():
                if header.lower() == "set-cookie":
                    name, _, rest = value.partition("=")
                    self.cookies[name.strip()] = rest.split(";")[0]
            return response.status, text
        finally:
            connection.close()

    def form_post(self, path: str, fields: dict, forwarded: str) -> int:
        _status, page = self.request("GET", path)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        data = dict(fields, csrfmiddlewaretoken=token.group(1) if token else "")
        status, _text = self.request(
            "POST",
            path,
            body=urllib.parse.urlencode(data).encode(),
            headers={
                "Content-Type": "application/x-www-form-urlencoded",
                "X-Forwarded-For": forwarded,
                "Referer": "http://%s:%d%s" % (self.host, self.port, path),
            },
        )
        return status

    def api_post(self, path: str, payload: dict, forwarded: str) -> int:
        status, _text = self.request(
            "POST",
            path,
            body=json.dumps(payload).encode(),
            headers={"Content-Type": "application/json", "X-Forwarded-For": forwarded},
        )
        return status


def forged(i: int) -> str:
    return "10.%d.%d.%d" % (i // 65536 % 256, i // 256 % 256, i % 256)


def through(send, attempts: int) -> str:
    """Requests answered before the first 429 (``send(i)`` returns a status)."""
    for i in range(attempts):
        if send(i) == 429:
            return str(i)
    return "none in %d" % attempts


def prepare(run: str) -> dict:
    django_migrated()
    from django.contrib.auth import get_user_model

    User = get_user_model()
    names = {}
    for role in ("owner", "victim", "root"):
        name = "rl%s%s" % (run, role)
        if role == "root":
            User.objects.create_superuser(name, name + "@example.org", PASSWORD)
        else:
            User.objects.create_user(name, name + "@example.org", PASSWORD)
        names[role] = name
    pending = "rl%spending" % run
    User.objects.create_user(pending, pending + "@example.org", PASSWORD, is_active=False, email_confirmed=False)
    names["pending"] = pending
    return names


def per_address_phases(base: str, names: dict, run: str, attempts: int, octet: int) -> None:
    def source(phase: int) -> str:
        return "127.%d.%d.1" % (octet, phase)

    owner = names["owner"]
    rows = [
        (
            "API token, wrong passwords",
            "API_RATE_AUTH",
            lambda c, i: c.api_post(
                "/api/v1/auth/token/",
                {"username": owner, "password": "guess%d" % i, "name": "x", "scopes": ["read"]},
                forged(i),
            ),
        ),
        (
            "API password reset",
            "API_RATE_AUTH",
            lambda c, i: c.api_post(
                "/api/v1/auth/password/reset/", {"email": "nobody%d-%s@example.org" % (i, run)}, forged(i)
            ),
        ),
        (
            "page login, wrong passwords",
            "PAGE_RATE_AUTH",
            lambda c, i: c.form_post("/accounts/login/", {"username": owner, "password": "guess%d" % i}, forged(i)),
        ),
        (
            "page password reset",
            "PAGE_RATE_AUTH",
            lambda c, i: c.form_post(
                "/accounts/password/reset/", {"email": "nobody%d-%s@example.org" % (i, run)}, forged(i)
            ),
        ),
        (
            "page sign-up",
            "PAGE_RATE_AUTH",
            lambda c, i: c.form_post(
                "/accounts/signup/",
                {
                    "username": "rl%snew%d" % (run, i),
                    "email": "rl%snew%d@example.org" % (run, i),
                    "password1": PASSWORD + "x",
                    "password2": PASSWORD + "x",
                },
                forged(i),
            ),
        ),
        (
            "page confirmation resend",
            "PAGE_RATE_AUTH",
            lambda c, i: c.form_post(
                "/accounts/confirm/resend/", {"email": "nobody%d-%s@example.org" % (i, run)}, forged(i)
            ),
        ),
        (
            "admin login, wrong passwords",
            "PAGE_RATE_AUTH",
            lambda c, i: c.form_post(
                "/admin/login/", {"username": names["root"], "password": "guess%d" % i}, forged(i)
            ),
        ),
    ]
    for phase, (name, limit, send) in enumerate(rows, start=1):
        client = Client(base, source(phase))
        print("  %-34s %-28s %s" % (name, limit, through(functools.partial(send, client), attempts)))


def per_account_phases(base: str, names: dict, run: str, attempts: int, octet: int) -> None:
    owner, victim = names["owner"], names["victim"]
    stranger = Client(base, "127.%d.1.1" % octet)
    print(
        "  %-34s %-28s %s"
        % (
            "page login, one account",
            "ACCOUNT_RATE_LOGIN_FAILURES",
            through(
                lambda i: stranger.form_post(
                    "/accounts/login/", {"username": owner, "password": "guess%d" % i}, forged(i)
                ),
                attempts,
            ),
        )
    )
    api_stranger = Client(base, "127.%d.2.1" % octet)
    print(
        "  %-34s %-28s %s"
        % (
            "API token, one account",
            "ACCOUNT_RATE_LOGIN_FAILURES",
            through(
                lambda i: api_stranger.api_post(
                    "/api/v1/auth/token/",
                    {"username": owner + "@example.org", "password": "guess%d" % i, "name": "x", "scopes": ["read"]},
                    forged(i),
                ),
                attempts,
            ),
        )
    )
    owner_client = Client(base, "127.%d.3.1" % octet)
    status = owner_client.form_post("/accounts/login/", {"username": owner, "password": PASSWORD}, "10.9.9.9")
    print("  %-34s %-28s %s" % ("the owner, from their address", "", "HTTP %d (302: signed in)" % status))

    def each_from_another_address(send):
        return lambda i: send(Client(base, "127.%d.%d.%d" % (octet, 10 + i // 250, 1 + i % 250)), i)

    print(
        "  %-34s %-28s %s"
        % (
            "page reset mails to one victim",
            "ACCOUNT_RATE_MAIL",
            through(
                each_from_another_address(
                    lambda c, i: c.form_post("/accounts/password/reset/", {"email": victim + "@example.org"}, forged(i))
                ),
                attempts,
            ),
        )
    )
    print(
        "  %-34s %-28s %s"
        % (
            "API reset mails, same victim",
            "ACCOUNT_RATE_MAIL (shared)",
            through(
                each_from_another_address(
                    lambda c, i: c.api_post(
                        "/api/v1/auth/password/reset/", {"email": victim + "@example.org"}, forged(i)
                    )
                ),
                attempts,
            ),
        )
    )
    print(
        "  %-34s %-28s %s"
        % (
            "resend mails to one address",
            "ACCOUNT_RATE_MAIL",
            through(
                each_from_another_address(
                    lambda c, i: c.form_post(
                        "/accounts/confirm/resend/", {"email": names["pending"] + "@example.org"}, forged(i + 100)
                    )
                ),
                attempts,
            ),
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--attempts", type=int, default=40)
    parser.add_argument("--cache", default=os.environ.get("CACHE_URL", "redis://127.0.0.1:6379/3"))
    parser.add_argument(
        "--database",
        default=os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/maatasite_bench_limits"),
    )
    args = parser.parse_args()
    env = site_environment(args.database)
    ensure_database(args.database)
    run = uuid.uuid4().hex[:6]
    names = prepare(run)
    defaults = {
        "API_RATE_AUTH": "10/min",
        "API_RATE_IP": "300/min",
        "API_RATE_USER": "120/min",
        "PAGE_RATE_AUTH": "10/min",
        "ACCOUNT_RATE_LOGIN_FAILURES": "10/hour",
        "ACCOUNT_RATE_MAIL": "5/hour",
        "TRUSTED_PROXY_COUNT": "0",
        "CACHE_URL": args.cache,
    }
    octet = random.randrange(1, 250)
    print("bench/rate_limits.py: a new X-Forwarded-For on every request, gunicorn 2 workers, cache %s" % args.cache)
    print("requests through before the first 429:")
    with gunicorn({**env, **defaults}, 2) as base:
        per_address_phases(base, names, run, args.attempts, octet)
    lifted = {**defaults, "API_RATE_AUTH": "100000/min", "API_RATE_IP": "100000/min", "PAGE_RATE_AUTH": "100000/min"}
    print("per account and per target (per-address budgets lifted):")
    with gunicorn({**env, **lifted}, 2) as base:
        per_account_phases(base, names, run, args.attempts, (octet + 1) % 250 + 1)


if __name__ == "__main__":
    main()
