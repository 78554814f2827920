"""Pure parts of `run`: retrace projections, coverage by graph callers, option parsing."""

from __future__ import annotations

import click
import numpy as np
import pytest

from tfadvisor.advice.measured import MeasuredDecision
from tfadvisor.cli.run import parse_size
from tfadvisor.model import Verdict
from tfadvisor.runtime.run.observe import FunctionStats, SignatureSeen
from tfadvisor.runtime.run.projection import Projection, retrace_options, uncovered


def _stats(name: str, callers: dict | None = None) -> FunctionStats:
    s = FunctionStats(name, "m", "m.py", 1, print)
    s.callers = callers or {None: 1}
    s.calls = sum(s.callers.values())
    return s


def _args(*keys):
    return (tuple, tuple(keys))


def test_shape_retraces_are_avoided_by_reduce_retracing():
    s = _stats("f")
    s.signatures = [SignatureSeen(_args((np.ndarray, "float32", (n, 4))), i) for i, n in enumerate((32, 16, 8))]
    assert retrace_options(s) == {"distinct_signatures": 3, "with_reduce_retracing": 2, "with_numbers_as_tensors": 1}


def test_python_number_retraces_need_tensors():
    s = _stats("f")
    s.signatures = [SignatureSeen(_args((np.ndarray, "float32", (2,)), (int, i)), i) for i in range(5)]
    assert retrace_options(s) == {"distinct_signatures": 5, "with_reduce_retracing": 5, "with_numbers_as_tensors": 1}


def test_calls_from_a_graph_caller_are_covered():
    outer = Projection(_stats("outer"), "m.py::outer", "m.py")
    outer.decision = MeasuredDecision(Verdict.DECORATE)
    other = Projection(_stats("other"), "m.py::other", "m.py")
    other.decision = MeasuredDecision(Verdict.LEAVE_EAGER)
    cell = Projection(_stats("cell", {"m:outer": 90, "m:other": 10}), "m.py::cell", "m.py")
    by_key = {p.stats.key: p for p in (outer, other, cell)}
    assert uncovered(cell, by_key) == pytest.approx(0.1)
    assert cell.covered_by == ["m.py::outer"]


def test_parse_size():
    assert parse_size("512MB") == 512 * 1024**2
    assert parse_size("2g") == 2 * 1024**3
    assert parse_size("1000") == 1000
    with pytest.raises(click.BadParameter):
        parse_size("lots")


def test_a_decorated_function_with_python_side_effects_needs_its_graph():
    """Its print runs once per trace as written and on every call undecorated: a measurement that
    finds eager faster must not take the decorator off (trace_print.py's ``encode``: `fix --from`
    made the program print ten lines where it printed one)."""
    from tfadvisor.check import check_source
    from tfadvisor.runtime.run.projection import needs_graph

    report = check_source("import tensorflow as tf\n\n@tf.function\ndef encode(x):\n"
                          "    print('tracing encode for', x.shape)\n    return x * 2\n")
    static = next(f for f in report.functions if f.qualname == "encode")
    stats = _stats("encode")
    stats.tf_function = object()  # observed as decorated
    assert any("side effects" in reason for reason in needs_graph(Projection(stats, static.id, "m.py", static=static)))
    quiet = check_source("import tensorflow as tf\n\n@tf.function\ndef encode(x):\n    return x * 2\n")
    static = next(f for f in quiet.functions if f.qualname == "encode")
    assert needs_graph(Projection(stats, static.id, "m.py", static=static)) == []
