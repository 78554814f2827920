"""Renderers: one ``Report``, many formats. Each format is one module with ``render(report, **options) -> str``.

Renderers are imported lazily so that ``check --format json`` never pays for matplotlib.
"""

from __future__ import annotations

import importlib
from typing import Any

from tfadvisor.model import Report

RENDERERS: dict[str, str] = {
    "text": "tfadvisor.report.text",
    "json": "tfadvisor.report.json_format",
    "sarif": "tfadvisor.report.sarif",
    "github": "tfadvisor.report.github",
    "html": "tfadvisor.report.html",
}
FORMATS = tuple(RENDERERS)


def render(report: Report, fmt: str, **options: Any) -> str:
    """Render ``report`` in format ``fmt`` (one of ``FORMATS``)."""
    module = importlib.import_module(RENDERERS[fmt])
    return module.render(report, **options)
