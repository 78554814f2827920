"""Shared by the tests that run whole programs under ``tfadvisor run`` in a fresh interpreter."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable

import pytest

QUIET = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"}  # TensorFlow's C++ logs off: outputs compare as printed


@pytest.fixture(scope="session")
def run_quiet() -> Callable[..., subprocess.CompletedProcess]:
    """``run_quiet(cmd, cwd)``: the command's completed process, output captured as text."""
    def run(cmd: list[str], cwd) -> subprocess.CompletedProcess:
        return subprocess.run(cmd, cwd=cwd, env=QUIET, capture_output=True, text=True, timeout=600)
    return run
