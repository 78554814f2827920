"""What a user sees of `tfadvisor run`: their program's output, then the report, and no noise of
the tool's own making (issue 22, found by running an installed wheel on a small project).

Each program is run twice in a subprocess, with ``python`` and with ``tfadvisor run``: what
``tfadvisor run`` adds to stderr must be the tool's own one-line messages only, never TensorFlow's
retracing warnings or XLA logs from the replays, nor tfadvisor's frames in the program's traceback.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("tensorflow")

# Runs to the end. `scale` retraces on 4 calls: too few for TensorFlow's own warning in the program,
# while the replays (its options, other signatures) trace it more than 5 times. `plain` carries
# TensorFlow's own decorator (its wrapper's code is in site-packages). `branchy` fails as a graph.
# `step` pays as a graph and keeps its decorator.
PROGRAM = '''\
import tensorflow as tf

w = tf.Variable(tf.random.normal([8, 8]))


@tf.function
def scale(x, factor):
    y = x
    for _ in range(5):
        y = tf.tanh(y * factor)
    return y


@tf.autograph.experimental.do_not_convert
def plain(x):
    y = x
    for _ in range(8):
        y = tf.tanh(y) + 1.0
    return y


def branchy(x):
    if tf.reduce_sum(x) > 0:
        return x * 2.0
    y = x
    for _ in range(10):
        y = tf.tanh(y)


@tf.function
def step(x):
    y = x
    for _ in range(20):
        y = tf.tanh(tf.matmul(y, w)) + x * 0.5
    return tf.reduce_sum(y)


for i in range(4):
    scale(tf.ones([3]), float(i))
for _ in range(30):
    plain(tf.ones([4]))
    branchy(tf.ones([4]))
for _ in range(100):
    step(tf.ones([2, 8]))
print("done")
'''

# Fails inside a tf.function, in a helper that `run` observes through its wrapper.
CRASHING = '''\
import tensorflow as tf


def helper(x):
    return tf.reshape(x, [3, 3])


@tf.function
def step(x):
    return helper(x) * 2.0


step(tf.ones([4]))
'''

# TensorFlow's start-up lines (oneDNN, CPU features): the same with and without tfadvisor.
_STARTUP = re.compile(r"oneDNN|cpu_feature_guard|AVX|absl::InitializeLog|rebuild TensorFlow")


def _stderr_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip() and not _STARTUP.search(line)]


def _python(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200"}
    env.pop("TF_CPP_MIN_LOG_LEVEL", None)  # the logs a user gets by default
    return subprocess.run([sys.executable, *args], cwd=tmp_path, capture_output=True, text=True, timeout=600, env=env)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Any, Any, dict]]:
    tmp_path = tmp_path_factory.mktemp("user_output")
    (tmp_path / "prog.py").write_text(PROGRAM)
    (tmp_path / "crash.py").write_text(CRASHING)
    out: dict[str, tuple[Any, Any, dict]] = {}
    for name in ("prog", "crash"):
        plain = _python(tmp_path, f"{name}.py")
        text = _python(tmp_path, "-m", "tfadvisor", "run", "--budget", "60", f"{name}.py")
        _python(tmp_path, "-m", "tfadvisor", "run", "-q", "--budget", "60", "-f", "json", "-o", f"{name}.json",
                f"{name}.py")
        out[name] = (plain, text, json.loads((tmp_path / f"{name}.json").read_text()))
    return out


@pytest.mark.slow
def test_the_replays_write_nothing_to_the_users_stderr(runs) -> None:
    plain, text, _ = runs["prog"]
    assert plain.returncode == 0 and text.returncode == 0, text.stderr[-3000:]
    assert not any("retracing" in line for line in _stderr_lines(plain.stderr)), plain.stderr  # the premise
    added = _stderr_lines(text.stderr)
    assert not any("retracing" in line or "XLA" in line or re.match(r"[IWE]\d{4} ", line) for line in added), added
    assert text.stdout.startswith("done\n")  # the program's own output first, as python prints it


@pytest.mark.slow
def test_findings_name_the_users_file_never_tensorflows(runs) -> None:
    _, _, as_json = runs["prog"]
    report = as_json
    assert {f["path"] for f in report["findings"]} <= {"prog.py"}, report["findings"]
    plain = next(fn for fn in report["functions"] if fn["qualname"] == "plain")
    assert plain["path"] == "prog.py" and plain["line"] == 15  # its `def`, not TensorFlow's wrapper


@pytest.mark.slow
def test_a_graph_error_is_reported_by_what_went_wrong_not_by_in_user_code(runs) -> None:
    _, text, as_json = runs["prog"]
    row = next(r for r in as_json["run"]["table"] if r["qualname"] == "branchy")
    assert "in user code" not in row["why"] and "else branch must also have a return statement" in row["why"], row
    assert "in user code:" not in text.stdout


@pytest.mark.slow
def test_table_columns_say_what_they_hold(runs) -> None:
    """``time`` is the time as the program ran (graph time for a tf.function, so not "eager");
    a percentage of the run only on a row whose advice changes the code."""
    _, text, as_json = runs["prog"]
    header = next(line for line in text.stdout.splitlines() if line.startswith("#"))
    assert header.split()[:5] == ["#", "function", "calls", "time", "share"]
    assert "functions observed" in text.stdout and "1 functions" not in text.stdout
    table = as_json["run"]["table"]
    advised = {r["qualname"] for r in table if r["advised"]}
    for line in text.stdout.splitlines():
        cells = line.split()
        if len(cells) > 2 and cells[0].isdigit() and cells[1] in {r["qualname"] for r in table}:
            if cells[1] not in advised:
                assert not re.search(r"\([+-]\d+%\)", line), line


@pytest.mark.slow
def test_the_users_traceback_shows_the_users_frames(runs) -> None:
    plain, text, as_json = runs["crash"]
    assert plain.returncode == text.returncode == 1
    trace = text.stderr[text.stderr.index("Traceback"):]
    assert "tfadvisor" not in trace.split("\ntfadvisor: ")[0], trace  # no file of ours, no frame of ours
    assert "tf__observed" not in trace and "observe.py" not in trace, trace
    assert 'File "crash.py", line 5, in helper' in trace and 'File "crash.py", line 10, in step' in trace
    error = as_json["run"]["error"]
    assert error.startswith("ValueError: Cannot reshape a tensor with 4 elements"), error
