"""The served OpenAPI schema equals the committed snapshot (maatasite/openapi.yaml).

Every change to what mobile clients are promised is then a reviewed diff: change the
endpoints, run ``make schema``, and commit the snapshot with the change.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

SNAPSHOT = Path(__file__).resolve().parent.parent / "maatasite" / "openapi.yaml"


@pytest.mark.django_db
def test_served_schema_matches_the_committed_snapshot(client):
    response = client.get("/api/v1/schema/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    served = response.content.decode()
    committed = SNAPSHOT.read_text(encoding="utf-8")
    if served != committed:
        diff = "".join(
            difflib.unified_diff(
                committed.splitlines(keepends=True),
                served.splitlines(keepends=True),
                "maatasite/openapi.yaml (committed)",
                "/api/v1/schema/ (served)",
            )
        )
        lines = diff.splitlines()
        shown = "\n".join(lines[:200]) + (f"\n… {len(lines) - 200} more lines" if len(lines) > 200 else "")
        pytest.fail(
            "The served API schema differs from the snapshot; if the change is meant, run "
            f"`make schema` and commit maatasite/openapi.yaml.\n{shown}"
        )
