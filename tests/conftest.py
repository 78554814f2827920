"""Shared test helpers: every JSON report a test produces is validated against the shipped schema."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import jsonschema
import pytest

_SCHEMA = json.loads(resources.files("tfadvisor").joinpath("schema/report.schema.json").read_text())


def validate_report(data: dict[str, Any]) -> None:
    jsonschema.validate(data, _SCHEMA)


@pytest.fixture
def schema_valid():
    return validate_report
