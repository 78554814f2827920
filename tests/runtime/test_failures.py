"""A function that raises eagerly, exhausts memory, kills its process or hangs: reported as such,
with what was measured so far, never a traceback from tfadvisor."""

from __future__ import annotations

import pytest

from .conftest import ref

pytestmark = pytest.mark.tf


def test_raising_eagerly_is_reported_with_the_exception(profiler):
    r = profiler.profile(ref("raises_eagerly"), ref("one_call"))
    assert not r.ok and r.error_kind == "raised"
    assert "KeyError" in r.measurement.error and "call 1" in r.measurement.error
    assert [mm.mode for mm in r.measurement.modes] == ["eager"]  # graph and XLA not attempted
    assert r.confidence == "speculative"


def test_exhausting_memory_is_reported_as_memory(profiler):
    r = profiler.profile(ref("eats_memory"), ref("one_call"))
    assert r.error_kind == "memory"
    assert "memory" in r.measurement.error


def test_unresolvable_name_is_a_resolve_error(profiler):
    r = profiler.profile(ref("no_such_function"), ref("one_call"))
    assert r.error_kind == "resolve" and "no_such_function" in r.measurement.error


def test_bad_calls_are_a_load_error(profiler):
    r = profiler.profile(ref("scaled"), [(1, 2, 3)])
    assert r.error_kind == "load" and "not an (args, kwargs) pair" in r.measurement.error


@pytest.mark.slow
def test_killing_its_process_then_the_next_profile_still_works(profiler):
    r = profiler.profile(ref("dies"), ref("one_call"))
    assert r.error_kind == "crashed" and "status 3" in r.measurement.error
    again = profiler.profile(ref("scaled"), ref("scaled_calls"), modes=("eager", "graph"))
    assert again.ok and again.measurement.traces == 6  # a new worker took over


@pytest.mark.slow
def test_hanging_hits_the_time_limit_and_keeps_partial_results(profiler):
    r = profiler.profile(ref("hangs"), ref("one_call"), timeout=2)
    assert r.error_kind == "timeout"
    assert "time limit of 2 s" in r.measurement.error


def test_an_exhausted_budget_measures_nothing_and_says_so():
    from tfadvisor.runtime.profile.profiling import Profiler, Target

    with Profiler() as session:  # no worker is started when nothing fits in the budget
        results = session.profile_many([Target(ref("scaled"), ref("scaled_calls"))], budget_s=0)
        assert session._worker is None
    assert results[0].error_kind == "timeout" and "budget" in results[0].measurement.error


@pytest.mark.slow
def test_a_crash_in_graph_mode_keeps_the_eager_measurement(profiler):
    r = profiler.profile(ref("dies_when_traced"), ref("one_call"), modes=("eager", "graph"))
    assert r.error_kind == "crashed" and "status 4" in r.runs["graph"].error.message
    eager = r.runs["eager"]
    assert eager.error is None and eager.stats is not None  # re-timed in a new worker
    assert r.measurement.eager_s is not None and r.measurement.graph_s is None
