"""Failure injection for `run` and `profile`, through the CLIs, in subprocesses with time limits.

`run`: the user program raises, calls ``sys.exit(3)``, calls ``os._exit(4)``, segfaults
(``ctypes.string_at(0)``), loops until it gets SIGINT (or SIGTERM, what a CI time limit sends);
during replay a function kills its process, exhausts memory or hangs.
`profile`: the measured function raises, calls ``sys.exit(3)``, segfaults, kills its process,
exhausts memory or hangs (``--timeout``), and the ``profile`` process itself gets SIGINT.

What must hold: the report file is written for what completed (valid JSON, schema-valid, never a
half-written file: reports go through ``write_atomic``), the exit status says what happened, no
traceback from tfadvisor, and no measuring child is left running.

Every scenario costs a TensorFlow import, so they run together, a few at a time, the first time
any test here asks for them; with pytest-xdist the workers share one set of results through a
lock file in pytest's shared temporary folder (the documented pattern for session fixtures).
"""

from __future__ import annotations

import fcntl
import json
import os
import signal
import subprocess
import sys
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.tf]

CONCURRENCY = 2  # each scenario imports TensorFlow and replays; more at once starves replays on 2 cores
CALLS = 60  # calls of each function in the `run` programs
SCENARIO_TIMEOUT_S = 240.0  # per subprocess: a hang of tfadvisor itself fails the test, it never blocks CI

PROGRAM = '''
import ctypes, os, signal, sys, time
import tensorflow as tf

STATE = {{"replaying": False}}
CALLS = 60


def step(x):
    if STATE["replaying"]:
        {in_replay}
    for _ in range(8):
        x = tf.nn.relu(tf.matmul(x, x)) * 1e-3
    return tf.reduce_sum(x)


def other(x):
    if STATE["replaying"]:
        {other_in_replay}
    for _ in range(8):
        x = tf.tanh(tf.matmul(x, x)) * 0.5
    return tf.reduce_sum(x)


def main():
    x = tf.ones([256, 256])
    for _ in range(CALLS):  # real work (8 matmuls a call), so each is well above run's 0.5%-of-the-run
        # replay threshold even when TensorFlow's import is slow or the program then idles until SIGINT
        step(x)
        other(x)
    {at_end}


main()
STATE["replaying"] = True
'''

FUNCTIONS = '''
import ctypes, os, signal, sys, time
import tensorflow as tf


def calls():
    return [((tf.ones([4, 4]),), {})]


def raises(x):
    raise KeyError("no such column")


def exits(x):
    sys.exit(3)


def segfault(x):
    ctypes.string_at(0)


def killed(x):
    os.kill(os.getpid(), signal.SIGKILL)


def eats_memory(x):
    return bytearray(1 << 42)  # 4 TB: refused at once, nothing is really allocated


def hangs(x):
    open(os.environ["TFA_READY"], "w").close()
    while True:
        time.sleep(0.05)
'''

LOOP_FOREVER = 'open(os.environ["TFA_READY"], "w").close()\n    while True:\n        time.sleep(0.05)'


@dataclass
class Scenario:
    name: str
    command: list[str]
    program: str = ""  # prog.py for `run`
    send: int | None = None  # signal sent to tfadvisor once TFA_READY exists
    report: str = "report.json"


@dataclass
class Outcome:
    rc: int | None
    stdout: str
    stderr: str
    wall_s: float
    report: Any = None  # parsed JSON, or None if the file is missing
    report_error: str | None = None
    leaked_pids: list[int] = field(default_factory=list)
    timed_out: bool = False


def _run_program(at_end: str = "pass", in_replay: str = "pass", other_in_replay: str = "pass") -> str:
    return PROGRAM.format(at_end=at_end, in_replay=in_replay, other_in_replay=other_in_replay)


RUN = ["run", "--budget", "60", "-f", "json", "-o", "report.json", "-q", "prog.py"]


def _profile(function: str, *extra: str) -> list[str]:
    return ["profile", f"fns.py:{function}", "--calls", "fns.py:calls", "--modes", "eager,graph",
            "--format", "json", "-o", "report.json", "-q", *extra]


SCENARIOS = [
    Scenario("run_raises", RUN, _run_program('raise ValueError("boom")')),
    Scenario("run_exit3", RUN, _run_program("sys.exit(3)")),
    Scenario("run_os_exit", RUN, _run_program("os._exit(4)")),
    Scenario("run_segfault", RUN, _run_program("ctypes.string_at(0)")),
    Scenario("run_sigint", RUN, _run_program(LOOP_FOREVER), send=signal.SIGINT),
    Scenario("run_sigterm", RUN, _run_program(LOOP_FOREVER), send=signal.SIGTERM),
    Scenario("run_replay_killed", RUN, _run_program(in_replay="os.kill(os.getpid(), signal.SIGKILL)")),
    Scenario("run_replay_memory_and_hang", ["run", "--budget", "8", *RUN[3:]],
             _run_program(in_replay="bytearray(1 << 42)", other_in_replay="while True:\n            pass")),
    Scenario("profile_raises", _profile("raises")),
    Scenario("profile_exit3", _profile("exits")),
    Scenario("profile_segfault", _profile("segfault")),
    Scenario("profile_killed", _profile("killed")),
    Scenario("profile_memory", _profile("eats_memory")),
    Scenario("profile_hang", _profile("hangs", "--timeout", "3")),
    Scenario("profile_sigint", _profile("hangs", "--timeout", "120"), send=signal.SIGINT),
]
BY_NAME = {s.name: s for s in SCENARIOS}


def _pids_with_token(token: str) -> list[int]:
    """Processes still alive that carry this scenario's token in their environment."""
    found = []
    needle = f"TFA_SCENARIO={token}".encode()
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as handle:
                if needle in handle.read().split(b"\0"):
                    found.append(int(entry))
        except OSError:
            continue
    return found


def _execute(scenario: Scenario, base: Path) -> Outcome:
    folder = base / scenario.name
    folder.mkdir()
    (folder / "prog.py").write_text(scenario.program or "")
    (folder / "fns.py").write_text(FUNCTIONS)
    token = uuid.uuid4().hex
    ready = folder / "ready"
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", NO_COLOR="1", TFA_READY=str(ready), TFA_SCENARIO=token)
    command = [sys.executable, "-m", "tfadvisor", *scenario.command]
    start = time.monotonic()
    proc = subprocess.Popen(command, cwd=folder, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            # a shell's background job ignores SIGINT, and children inherit that
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    timed_out = False
    if scenario.send is not None:
        while not ready.exists() and proc.poll() is None and time.monotonic() - start < SCENARIO_TIMEOUT_S:
            time.sleep(0.1)
        time.sleep(0.5)
        if proc.poll() is None:
            proc.send_signal(scenario.send)
    try:
        stdout, stderr = proc.communicate(timeout=max(1.0, SCENARIO_TIMEOUT_S - (time.monotonic() - start)))
    except subprocess.TimeoutExpired:
        timed_out = True
        proc.kill()
        stdout, stderr = proc.communicate()
    wall = time.monotonic() - start
    time.sleep(0.5)
    leaked = _pids_with_token(token)
    for pid in leaked:  # our own scenario's processes, by pid: never left behind
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    outcome = Outcome(proc.returncode, stdout.decode(errors="replace")[-4000:], stderr.decode(errors="replace")[-6000:],
                      wall, leaked_pids=leaked, timed_out=timed_out)
    path = folder / scenario.report
    if path.exists():
        try:
            outcome.report = json.loads(path.read_text())
        except (ValueError, UnicodeDecodeError) as exc:
            outcome.report_error = f"not JSON: {exc}"
    leftovers = [p.name for p in folder.iterdir() if p.name.startswith(".report.json") or p.name.endswith(".tmp")]
    if leftovers:
        outcome.report_error = (outcome.report_error or "") + f" temporary files left: {leftovers}"
    return outcome


@pytest.fixture(scope="session")
def outcomes(tmp_path_factory) -> dict[str, Outcome]:
    """Every scenario's outcome, computed once for all xdist workers."""
    pytest.importorskip("tensorflow")
    # pytest-xdist workers have basetemp <session>/popen-gwN: share <session>; alone, use basetemp
    # itself (its parent is shared by every pytest run on the machine).
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    results = shared / "tfa-failure-injection.json"
    with open(shared / "tfa-failure-injection.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if results.exists():
            data = json.loads(results.read_text())
        else:
            where = tmp_path_factory.mktemp("failure-injection")
            with ThreadPoolExecutor(max_workers=CONCURRENCY) as pool:
                done = dict(zip(BY_NAME, pool.map(lambda s: _execute(s, where), SCENARIOS)))
            data = {name: asdict(o) for name, o in done.items()}
            results.write_text(json.dumps(data))
    return {name: Outcome(**o) for name, o in data.items()}


def _common(o: Outcome, schema_valid) -> dict:
    """The report exists and is whole, no tfadvisor traceback, nothing left running."""
    assert not o.timed_out, f"tfadvisor itself hung (killed after {SCENARIO_TIMEOUT_S} s)\n{o.stderr}"
    assert not o.leaked_pids, f"measuring processes left running: {o.leaked_pids}"
    assert o.report_error is None, o.report_error
    assert o.report is not None, f"no report written (exit {o.rc})\n{o.stderr}"
    schema_valid(o.report)
    assert "tfadvisor/" not in _tracebacks(o.stderr), o.stderr
    return o.report


def _tracebacks(stderr: str) -> str:
    """Traceback text from stderr (the user's own traceback is expected; tfadvisor frames are not)."""
    return "\n".join(line for line in stderr.splitlines() if line.startswith("  File "))


def _function(report: dict, qualname: str) -> dict:
    return next(fn for fn in report["functions"] if fn["qualname"] == qualname)


# -- run: the user program ---------------------------------------------------------------------


@pytest.mark.parametrize("name, status, outcome, error", [
    ("run_raises", 1, "exception", "ValueError: boom"),
    ("run_exit3", 3, "exit", "sys.exit(3)"),
    ("run_sigint", 130, "interrupted", "KeyboardInterrupt"),
])
def test_run_reports_what_ran_whatever_the_program_does(outcomes, schema_valid, name, status, outcome, error) -> None:
    o = outcomes[name]
    report = _common(o, schema_valid)
    assert o.rc == status, o.stderr
    assert report["run"]["outcome"] == outcome and report["run"]["exit_status"] == status
    assert error in (report["run"]["error"] or "")
    step = _function(report, "step")
    assert step["measurement"]["calls"] == CALLS  # observed before the program ended
    assert step["measurement"]["graph_s"] is not None  # and replayed after it


@pytest.mark.parametrize("name, status, what", [
    ("run_os_exit", 4, "os._exit()"),
    ("run_segfault", -signal.SIGSEGV, "a segfault"),  # the report is written from the signal handler
    ("run_sigterm", -signal.SIGTERM, "SIGTERM"),
])
def test_run_reports_what_ran_when_the_program_dies_hard(outcomes, schema_valid, name, status, what) -> None:
    o = outcomes[name]
    assert o.rc in (status, 128 - status), o.stderr  # died with the program, or said so the shell's way
    report = _common(o, schema_valid)
    assert _function(report, "step")["measurement"]["calls"] == CALLS


def test_run_keeps_the_first_report_when_replay_kills_the_process(outcomes, schema_valid) -> None:
    o = outcomes["run_replay_killed"]
    assert o.rc == -signal.SIGKILL, o.stderr  # the exit status says it was killed
    report = _common(o, schema_valid)  # the report written before replay started
    assert report["run"]["outcome"] == "ok"
    assert _function(report, "step")["measurement"]["calls"] == CALLS


def _row(report: dict, qualname: str) -> dict:
    return next(row for row in report["run"]["table"] if row["qualname"] == qualname)


def test_run_reports_a_replay_that_exhausts_memory_or_hangs_and_goes_on(outcomes, schema_valid) -> None:
    o = outcomes["run_replay_memory_and_hang"]
    report = _common(o, schema_valid)
    assert o.rc == 0, o.stderr  # the program itself ran fine
    step, other = _row(report, "step"), _row(report, "other")
    assert step["replayed"] and "MemoryError" in (step["replay_error"] or ""), step
    assert other["replayed"] and "time limit" in (other["replay_error"] or ""), other
    assert report["run"]["replay_s"] < 60, report["run"]  # the hang was cut at its limit (--budget 8)


def test_run_puts_a_failed_replay_in_the_function_measurement(outcomes) -> None:
    report = outcomes["run_replay_memory_and_hang"].report
    assert report is not None
    for qualname in ("step", "other"):
        assert _function(report, qualname)["measurement"]["error"], qualname


# -- profile: the measured function ------------------------------------------------------------


@pytest.mark.parametrize("name, words", [
    ("profile_raises", ("KeyError", "no such column")),
    ("profile_exit3", ("exit", "3")),
    ("profile_segfault", ("SIGSEGV",)),
    ("profile_killed", ("SIGKILL",)),
    ("profile_memory", ("memory",)),
    ("profile_hang", ("time limit",)),
])
def test_profile_reports_a_function_that_fails_its_process(outcomes, schema_valid, name, words) -> None:
    o = outcomes[name]
    report = _common(o, schema_valid)
    assert o.rc == 1, (o.rc, o.stderr)  # "could not be measured"
    measurement = report["functions"][0]["measurement"]
    text = json.dumps(measurement)
    assert all(w.lower() in text.lower() for w in words), measurement["error"]
    assert measurement["modes"] and measurement["modes"][0]["mode"] == "eager"


def test_profile_interrupted_writes_what_it_measured_and_exits_130(outcomes, schema_valid) -> None:
    o = outcomes["profile_sigint"]
    assert o.rc == 130, (o.rc, o.stderr)
    report = _common(o, schema_valid)
    assert report["run"]["error_kind"] == "interrupted"
    assert "interrupted" in report["functions"][0]["measurement"]["error"]


def test_profile_interrupted_leaves_no_child_running(outcomes) -> None:
    o = outcomes["profile_sigint"]
    assert not o.timed_out and not o.leaked_pids, (o.leaked_pids, o.stderr)
