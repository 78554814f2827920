"""`check` when one of its worker processes dies (the OOM killer, a stray signal): no traceback, no
files lost; what the dead worker held is retried once in a fresh pool, and files that kill their
worker every time are reported with a one-line reason while the rest of the tree is analysed.

The death is real and deterministic: a script wraps ``tfadvisor.check._analyze_chunk`` so that the
worker analysing a chosen file SIGKILLs itself (workers are forked, so they run the wrapper).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tfadvisor.check import PARALLEL_THRESHOLD, WORKER_DIED

GOOD = "import tensorflow as tf\n\n\ndef f(x, w):\n    return tf.reduce_sum(tf.matmul(x, w) * 2.0 + tf.nn.relu(x))\n"

SCRIPT = r"""
import json, os, signal, sys
import tfadvisor.check as check

root, poison, mode = sys.argv[1], sys.argv[2], sys.argv[3]
once = mode == "once"
real = check._analyze_chunk
marker = os.path.join(root, ".killed-once")


def dying(args):
    paths = args[0]
    if any(os.path.basename(p) == poison for p in paths):
        if not once or not os.path.exists(marker):
            open(marker, "w").close()
            os.kill(os.getpid(), signal.SIGKILL)
    return real(args)


check._analyze_chunk = dying
if mode == "slow-submit":  # the worker dies while later chunks are still being submitted
    import time
    from concurrent.futures import ProcessPoolExecutor
    submit = ProcessPoolExecutor.submit

    def slow_submit(self, *args, **kwargs):
        future = submit(self, *args, **kwargs)
        time.sleep(0.2)
        return future

    ProcessPoolExecutor.submit = slow_submit
report = check.check_paths([root], jobs=2)
print(json.dumps(report.to_dict()))
"""

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers are forked on Linux only")


def _tree(root: Path, files: int) -> None:
    for i in range(files):
        (root / f"m{i:03d}.py").write_text(GOOD.replace("def f(", f"def f{i}("))


def _check(root: Path, poison: str, mode: str) -> dict:
    result = subprocess.run([sys.executable, "-c", SCRIPT, str(root), poison, mode], capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "Traceback" not in result.stderr, result.stderr[-3000:]
    assert (root / ".killed-once").exists(), "the injection did not run: the test proves nothing"
    return json.loads(result.stdout)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    _tree(tmp_path, PARALLEL_THRESHOLD * 3)
    return tmp_path


def test_a_worker_killed_once_loses_nothing(tree: Path, schema_valid) -> None:
    data = _check(tree, "m010.py", "once")
    schema_valid(data)
    assert len(data["files"]) == PARALLEL_THRESHOLD * 3
    assert all(f["status"] == "ok" for f in data["files"]), [f for f in data["files"] if f["status"] != "ok"]
    assert len(data["functions"]) == PARALLEL_THRESHOLD * 3
    assert [f["path"] for f in data["files"]] == sorted(f["path"] for f in data["files"])  # order kept


@pytest.mark.parametrize("mode", ["always", "slow-submit"])
def test_a_file_that_always_kills_its_worker_is_reported_and_the_rest_analysed(tree: Path, schema_valid,
                                                                               mode: str) -> None:
    data = _check(tree, "m010.py", mode)
    schema_valid(data)
    status = {f["path"].rsplit("/", 1)[-1]: f for f in data["files"]}
    assert len(status) == PARALLEL_THRESHOLD * 3
    assert status["m010.py"]["status"] == "error" and status["m010.py"]["error"] == WORKER_DIED
    ok = [f for f in data["files"] if f["status"] == "ok"]
    assert len(ok) >= PARALLEL_THRESHOLD * 2, "a dying worker took most of the tree with it"
    assert {fn["path"] for fn in data["functions"]} == {f["path"] for f in ok}


def test_runs_are_consecutive_paths_of_about_equal_bytes(tmp_path: Path) -> None:
    """The workers' runs keep every path once, in order (the report's order is the paths'), hold
    at most 64 files, and no run but one file's own is far heavier than the mean: a big file no
    longer drags 63 others into one long run (benchmarks/schedule.py replays the schedule)."""
    from tfadvisor.check import _chunk

    paths = []
    for i in range(200):
        path = tmp_path / f"m{i:03d}.py"
        path.write_text(GOOD * (40 if i % 50 == 7 else 1))  # four big files among small ones
        paths.append(str(path))
    paths.append(str(tmp_path / "gone.py"))  # a file that vanished still gets a place (reported later)
    chunks, weights = _chunk(paths, 2)
    assert [p for run in chunks for p in run] == paths
    assert max(len(run) for run in chunks) <= 64
    sizes = {p: (Path(p).stat().st_size if Path(p).exists() else 0) for p in paths}
    assert weights == [sum(sizes[p] for p in run) for run in chunks]
    mean = sum(weights) / len(weights)
    assert all(w <= 2 * mean or len(run) == 1 or sizes[run[-1]] > mean for run, w in zip(chunks, weights, strict=True))
