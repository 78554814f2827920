"""Shared fixtures for the notebook tests."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest

from tfadvisor.sources import cells


@pytest.fixture
def without_ipython(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """IPython absent (or broken): importing it fails, as in an install without it."""
    for name in ("IPython", "IPython.core", "IPython.core.inputtransformer2"):
        monkeypatch.setitem(sys.modules, name, None)
    cells._manager.cache_clear()
    yield
    cells._manager.cache_clear()


@pytest.fixture(scope="session")
def ipython_shell(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    """A real IPython shell, as a notebook kernel runs cells (its profile in a temporary folder)."""
    import os

    from IPython.core.interactiveshell import InteractiveShell

    os.environ["IPYTHONDIR"] = str(tmp_path_factory.mktemp("ipython"))
    yield InteractiveShell.instance()
    InteractiveShell.clear_instance()
