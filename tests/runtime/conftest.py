"""Shared measuring session for the TensorFlow tests: one child worker (one TF import) per module."""

from __future__ import annotations

import pytest

from tfadvisor.runtime.profile.profiling import Profiler
from tfadvisor.runtime.timing import TimingConfig

FIXTURES = "runtime.tfa_fixtures"
FAST = TimingConfig(budget_s=0.25, min_rounds=5, max_rounds=25)


@pytest.fixture(scope="module")
def profiler():
    pytest.importorskip("tensorflow")
    with Profiler(timing=FAST, fresh_first_calls=False) as session:  # one TF start for the module
        yield session


def ref(name: str) -> str:
    return f"{FIXTURES}:{name}"
