"""Running a driver as a plain program (for ``tfadvisor run``), kept out of the observed script."""

from __future__ import annotations

import importlib
from typing import Any, Callable


class PlainHarness:
    """The driver's ``h`` without measuring: calls go straight through."""

    def __init__(self) -> None:
        self.outputs: list[Any] = []

    def project(self, name: str) -> Any:
        return importlib.import_module(f"mlproj.{name}")

    def call(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        return fn(*args, **kwargs)


def run_driver(function_id: str) -> None:
    from corpus.index import ENTRIES

    module = function_id.split("::", 1)[0][: -len(".py")].replace("/", ".")
    ENTRIES[function_id].driver(importlib.import_module(module), PlainHarness())
