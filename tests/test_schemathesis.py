"""Property-based tests of the whole API against its own OpenAPI document (schemathesis, in
process): no 500 for any input, every status and body as documented, strict bodies refused
when they break the schema. Examples are limited to keep the run near a minute.

Every check runs. One is told what this API means by "accepted": a body that fits the
schema may still name a scenario, a figure or an id that does not exist, or an action the
rules forbid, and the API answers those with 422 and the engine's message (docs/api.md), so
422 counts as a correct answer to schema-valid data; a 400 or a 5xx would still fail."""

from __future__ import annotations

import tempfile
from pathlib import Path

import schemathesis
from api_support import make_app
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig

_FOLDER = tempfile.TemporaryDirectory(prefix="survive-us-schemathesis-")
APP = make_app(Path(_FOLDER.name))
CONFIG = SchemathesisConfig.from_dict({"checks": {"positive_data_acceptance": {
    "expected-statuses": ["2xx", "401", "404", "409", "422"]}}})
schema = schemathesis.openapi.from_wsgi("/openapi.json", APP, config=CONFIG)


@schema.parametrize()
@settings(max_examples=40, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
def test_api_conforms_to_its_openapi(case: schemathesis.Case) -> None:
    case.call_and_validate()
