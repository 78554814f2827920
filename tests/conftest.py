"""Shared test helpers: every JSON report a test produces is validated against the shipped schema."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

# The conformance test package, imported while tests/ leads sys.path: tests/benchmarks puts
# benchmarks/ first, where the script benchmarks/conformance.py would otherwise be found under the
# same name by tests that import conformance.variants later (a partial run failed that way).
import conformance  # noqa: F401
import jsonschema
import pytest
from hypothesis import HealthCheck, Phase, settings

# Hypothesis profiles for every folder: bounded ("ci", the default) and a local soak ("long":
# `./dev test --hypothesis-profile=long`). tests/robustness reads them through robust_settings().
_COMMON = {"deadline": None, "suppress_health_check": list(HealthCheck), "derandomize": False}
settings.register_profile("ci", max_examples=25, phases=(Phase.explicit, Phase.reuse, Phase.generate), **_COMMON)
settings.register_profile("long", max_examples=1000, **_COMMON)

_SCHEMA = json.loads(resources.files("tfadvisor").joinpath("schema/report.schema.json").read_text())


def validate_report(data: dict[str, Any]) -> None:
    jsonschema.validate(data, _SCHEMA)


@pytest.fixture
def schema_valid():
    return validate_report
