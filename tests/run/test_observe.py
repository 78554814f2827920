"""Observation: results unchanged, own time not double counted, signatures and samples recorded.

These run real fixture programs in-process through ``run_program`` (no TensorFlow needed).
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from tfadvisor.runtime.run.observe import HostTensor, Observer
from tfadvisor.runtime.run.hook import ProjectScope, instrument
from tfadvisor.runtime.run.session import run_program

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
NESTED = os.path.join(FIXTURES, "nested.py")


@pytest.fixture(scope="module")
def nested_run():
    result, observer = run_program(NESTED, ["--flag", "x"])
    return result, {s.qualname: s for s in observer.observed()}


def test_program_output_is_unchanged_by_observation(nested_run, capfd):
    plain = subprocess.run([sys.executable, NESTED, "--flag", "x"], capture_output=True, text=True, check=True)
    run_program(NESTED, ["--flag", "x"])
    observed = capfd.readouterr().out
    assert observed == plain.stdout
    assert "argv ['--flag', 'x']" in plain.stdout


def test_own_time_is_not_double_counted(nested_run):
    _, stats = nested_run
    inner, outer = stats["inner"], stats["outer"]
    assert inner.calls == 5 and outer.calls == 1
    assert inner.own_s >= 5 * 0.02  # it slept that long
    assert outer.own_s < 0.5 * inner.own_s  # the sleeps are charged to inner only
    assert outer.inclusive_s >= inner.inclusive_s
    assert inner.callers == {"__main__:outer": 5}


def test_signatures_follow_tf_function_cache_keys(nested_run):
    _, stats = nested_run
    shapes = stats["shapes"]
    assert shapes.calls == 4
    # (2,3) & 1 twice, then a new shape, then a new Python value: three distinct signatures
    assert [s.count for s in shapes.signatures] == [2, 1, 1]
    assert [s.first_call for s in shapes.signatures] == [0, 2, 3]
    assert shapes.signatures[2].named["step"] == ("value", "int", "2")


def test_samples_are_copies_made_at_call_time(nested_run):
    _, stats = nested_run
    sample = stats["shapes"].samples[0]
    assert isinstance(sample.args[0], np.ndarray)
    assert (sample.args[0] == 1.0).all()  # the program set the array to 100 after the calls


def test_methods_of_every_kind_are_observed_but_not_generators_or_properties(nested_run):
    result, stats = nested_run
    assert result.exit_status == 0 and result.outcome == "ok"
    for name in ("Box.get", "Box.double", "Box.make", "main"):
        assert stats[name].calls == 1, name
    assert "numbers" not in stats and "Box.twice" not in stats


def test_memory_budget_bounds_the_samples():
    observer = Observer(memory_budget=50)
    run_program(NESTED, [], observer=observer)
    shapes = next(s for s in observer.observed() if s.qualname == "shapes")
    assert observer.memory_used <= 50
    assert shapes.samples_dropped >= 1
    assert shapes.calls == 4  # calls are still counted when samples are not kept


def test_library_code_is_outside_the_project():
    scope = ProjectScope([FIXTURES])
    assert scope.contains(NESTED)
    assert not scope.contains(np.__file__)
    assert not scope.contains(os.__file__)
    assert not scope.contains(os.path.join(FIXTURES, ".venv", "lib", "site-packages", "x.py"))


def test_instrument_keeps_line_numbers_and_syntax_errors():
    code = instrument("def f():\n    return 1\n\n\nclass A:\n    def g(self):\n        raise ValueError\n", "m.py")
    assert code.co_filename == "m.py"
    with pytest.raises(SyntaxError):
        instrument("def f(:\n", "bad.py")


def test_host_tensor_counts_bytes():
    assert HostTensor(np.zeros(10, dtype="float32"), "float32").nbytes == 40


def test_module_mode_and_import_hook():
    proj = os.path.join(FIXTURES, "proj")
    cwd = os.getcwd()
    os.chdir(proj)
    try:
        result, observer = run_program("runpkg.train", ["4"], is_module=True)
    finally:
        os.chdir(cwd)
        for name in [m for m in sys.modules if m == "runpkg" or m.startswith("runpkg.")]:
            del sys.modules[name]
    assert result.exit_status == 4 and result.outcome == "exit"
    keys = {s.key for s in observer.observed()}
    assert {"runpkg.helpers:scale", "__main__:main"} <= keys


@pytest.mark.tf
def test_autograph_never_tries_to_convert_tfadvisors_wrappers():
    """Issue 13: a tf.function calling observed functions printed "AutoGraph could not transform
    <bound method Observer._enter ...> ... report this to the TensorFlow team" into the user's
    output. The wrappers' bookkeeping is an AutoGraph artifact now; the user's code is still
    converted (``helper``'s tensor ``if`` works in the graph)."""
    program = os.path.join(FIXTURES, "graph_calls.py")
    code = ("import sys; from tfadvisor.runtime.run.session import run_program\n"
            "result, observer = run_program(sys.argv[1], [])\n"
            "print(result.outcome, sorted((s.qualname, s.traced_calls > 0) for s in observer.observed()))\n")
    env = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "2", "AUTOGRAPH_VERBOSITY": "1"}
    out = subprocess.run([sys.executable, "-c", code, program], capture_output=True, text=True, timeout=300, env=env)
    assert out.returncode == 0, out.stderr
    assert "result [8.0, 8.0, 8.0]" in out.stdout
    assert "ok [('Scaler.scale', True), ('helper', True), ('inner', True), ('step', False)]" in out.stdout
    for stream in (out.stdout, out.stderr):
        assert "could not transform" not in stream and "report this to the TensorFlow team" not in stream
