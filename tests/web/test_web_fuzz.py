"""A fuzz of the HTTP API from its OpenAPI description (schemathesis, in `make test`): for
whatever is sent, no 500 and every answer as the description says (status, content type,
body schema, ``Allow`` of a 405), bad data refused; a refusal is a 4xx of one line.

Not checked: that every schema-valid request is accepted (schemathesis' ``positive data
acceptance``). A request of the right shape may still be refused for what it means, a 400
the description documents: an army id that is not bundled, a list breaking chapter I-D…
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance
from web_support import new_game, settle

from confrontation.web.app import create_app

STORE = Path(tempfile.mkdtemp(prefix="confrontation-fuzz-")) / "games.db"
app = create_app(str(STORE))
schema = schemathesis.openapi.from_asgi("/openapi.json", app)


@pytest.fixture(scope="module")
def games() -> Iterator[None]:
    """Two games for the fuzz to find (1: over; 2: waiting for a person); the server's store
    closed at the end."""
    with TestClient(app) as client:
        settle(client, new_game(client, ["random", "random"], rounds=1)["id"], [])
        settle(client, new_game(client, ["person", "random"], rounds=1)["id"], [])
        yield


@schema.parametrize()
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
def test_the_api_answers_every_request_as_described(
    case: schemathesis.Case[Any], games: None
) -> None:
    response = case.call_and_validate(excluded_checks=[positive_data_acceptance])
    assert response.status_code < 500, response.text
    if response.status_code >= 400:
        detail = response.json()["detail"]
        assert isinstance(detail, str) and detail and "\n" not in detail
