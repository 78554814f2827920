"""JSON, schema version 1 (``schema/report.schema.json``): stable, for machines and `tfadvisor report`."""

from __future__ import annotations

import json
from typing import Any

from tfadvisor.model import Report


def render(report: Report, **_: Any) -> str:
    return json.dumps(report.to_dict(), indent=2, ensure_ascii=False) + "\n"
