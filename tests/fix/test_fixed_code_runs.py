"""The fixed fixtures are real TensorFlow code: they run, and behave as the fix says (slow: imports TF).

One child process runs them all, so TensorFlow is imported once.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from casekit import FIXTURES

CHILD = textwrap.dedent(r'''
    import contextlib, io, json, os, sys
    os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
    import tensorflow as tf
    out = {}

    import importlib.util

    def load(case, which):
        """Import from the real file, so AutoGraph can read the source."""
        name = f"{case}_{which[:-3]}"
        spec = importlib.util.spec_from_file_location(name, os.path.join(sys.argv[1], case, which))
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        return vars(module)

    # TF201: print runs once per trace, the fixed tf.print on every call (tf.print writes to stderr).
    for which in ("before.py", "after.py"):
        ns = load("rule_TF201_fstring", which)
        stdout, stderr = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(stdout):
            for n in (1, 2, 3):
                ns["step"](tf.ones([2]), tf.constant(n))
        # tf.print goes to the process's stderr file descriptor, not sys.stderr: count calls instead
        out[which] = stdout.getvalue().count("step ")

    # input_signature built by fix: one trace for three batch sizes, same results as before.
    before = load("reconfigure_input_signature", "before.py")
    after = load("reconfigure_input_signature", "after.py")
    m_before, m_after = before["Model"](), after["Model"]()
    same = True
    for batch in (4, 7, 9):
        x, mask = tf.ones([batch, 3]), tf.ones([batch, 2])
        same &= bool(tf.reduce_all(m_before.predict(x, mask) == m_after.predict(x, mask)))
    out["traces_before"] = m_before.predict.experimental_get_tracing_count()
    out["traces_after"] = m_after.predict.experimental_get_tracing_count()
    out["same"] = same

    # TF307: with Python ints (a literal, an int argument) range unrolls while tracing; tf.range
    # of the same bound is one TensorFlow loop: the same value from a graph a fraction the size.
    b, a = load("rule_TF307_range", "before.py"), load("rule_TF307_range", "after.py")
    x = tf.ones([5])
    out["range"] = [(float(b["total"](x, n)), float(a["total"](x, n))) for n in (150, 160)]
    out["range_ops"] = [len(ns["total"].get_concrete_function(x, 150).graph.get_operations()) for ns in (b, a)]

    # Python ints passed as tensors at the call sites: one trace per `scale`, not one per step.
    for which in ("before.py", "after.py"):
        ns = load("reconfigure_pass_as_tensors", which)
        ns["main"](tf.ones([4]))
        out["as_tensors_" + which] = ns["train_step"].experimental_get_tracing_count()
        out["as_tensors_value_" + which] = float(tf.reduce_sum(ns["train_step"](tf.ones([4]), tf.constant(3.0))))
    print("RESULT " + json.dumps(out))
''')


@pytest.mark.slow
@pytest.mark.tf
def test_fixed_fixtures_run_under_tensorflow() -> None:
    pytest.importorskip("tensorflow")
    proc = subprocess.run([sys.executable, "-c", CHILD, str(FIXTURES)], capture_output=True, text=True, timeout=300)
    line = next((l for l in proc.stdout.splitlines() if l.startswith("RESULT ")), None)
    assert line, proc.stderr[-2000:]
    out = json.loads(line[len("RESULT "):])
    assert out["before.py"] == 1  # Python print: once, while tracing
    assert out["after.py"] == 0  # nothing on Python's stdout any more: tf.print prints per call
    assert out["traces_before"] == 3 and out["traces_after"] == 1
    assert out["same"]
    (b150, a150), (b160, a160) = out["range"]
    assert b150 == a150 == 5 * sum(range(150)) + 200 * 1.0 + 3 * 2.0 and b160 == a160
    ops_before, ops_after = out["range_ops"]
    assert ops_after * 10 < ops_before  # 350 unrolled iterations against two loops
    assert out["as_tensors_before.py"] == 21 and out["as_tensors_after.py"] == 2  # 10 + 10 ints + 1 tensor
    assert out["as_tensors_value_before.py"] == out["as_tensors_value_after.py"]
