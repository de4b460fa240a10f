"""schemathesis against the live schema on the test server: no 5xx, and every response
(status code, content type, headers, body) matches the documented schema.

Bounded: a few examples per operation (``API_FUZZ_EXAMPLES``, default 8), positive
generation only, no shrinking, deterministic; about a minute in all. The signed-in
user holds a live game and challenges, and a tournament is open, so ids in the generated paths sometimes hit.
"""

from __future__ import annotations

import os

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.generation import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from api import services as api_services
from games import services as game_services
from tournaments import services as tournament_services

from .conftest import make_user, start_game

EXAMPLES = int(os.environ.get("API_FUZZ_EXAMPLES", "8"))
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]


@pytest.fixture
def fuzz_target(live_server, transactional_db):
    """(schema, headers): the live schema and a Bearer token of a player with games."""
    fuzzer, rival = make_user("fuzzer"), make_user("rival")
    start_game(fuzzer, rival, "onitama", {"cards": "base"})
    start_game(rival, fuzzer, "maatatahay", {"variant": "first"})
    game_services.challenge_create(challenger=rival, opponent=fuzzer, kind="onitama")
    cup = tournament_services.tournament_create(actor=None, name="Fuzz cup", kind="onitama", format="swiss")
    tournament_services.tournament_open_registration(tournament_id=cup.pk, actor=None)
    _token, secret = api_services.token_create(user=fuzzer, name="fuzz", scopes=["read", "play"])
    schema = schemathesis.openapi.from_url(live_server.url + "/api/v1/schema/?format=json")
    schema.config.update(base_url=live_server.url)
    schema.config.generation.update(
        modes=[GenerationMode.POSITIVE], max_examples=EXAMPLES, no_shrink=True, deterministic=True, database="none"
    )
    return schema, {"Authorization": "Bearer " + secret}


def _fuzz(operation, headers):
    @given(case=operation.as_strategy())
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
        phases=[Phase.explicit, Phase.generate],
    )
    def run(case):
        case.call_and_validate(headers=headers, checks=CHECKS)

    run()


@pytest.mark.services
def test_every_operation_answers_within_its_schema(fuzz_target):
    schema, headers = fuzz_target
    failures, operations = [], 0
    for result in schema.get_all_operations():
        operation = result.ok()
        operations += 1
        try:
            _fuzz(operation, headers)
        except Exception as error:  # collect every operation's failure, then report them all
            failures.append("%s %s: %s" % (operation.method.upper(), operation.path, str(error)[:2000]))
    assert operations >= 25
    assert not failures, "\n\n".join(failures)
