"""JSON in the schema `model.SCHEMA_VERSION` names (``schema/report.schema.json``): stable, for machines and `tfadvisor report`."""

from __future__ import annotations

import json
from typing import Any

from tfadvisor.model import Report

# Above this many functions the report is written compact: json's indenting encoder is pure
# Python and peaks at about 5x the text size (116 MB for a 22 MB report at 20,000 files).
INDENT_LIMIT = 5000


def render(report: Report, **_: Any) -> str:
    indent = 2 if len(report.functions) + len(report.findings) <= INDENT_LIMIT else None
    return json.dumps(report.to_dict(), indent=indent, ensure_ascii=False) + "\n"
