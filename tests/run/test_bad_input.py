"""Bad input for `tfadvisor run`: the report is always written, the program's status is kept.

Each case runs the real CLI in a subprocess on a tiny program (no TensorFlow), as a user would.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

CASES = {
    "exits.py": ("def f(x):\n    return x + 1\n\nprint(f(1))\nraise SystemExit(3)\n", 3, "exit"),
    "raises.py": ("def f(x):\n    return 1 / x\n\nf(0)\n", 1, "exception"),
    "syntax.py": ("def f(x:\n", 1, "exception"),
    "imports.py": ("import tfadvisor_no_such_module\n", 1, "exception"),
    "interrupted.py": ("def f():\n    raise KeyboardInterrupt\n\nf()\n", 130, "interrupted"),
    "ok.py": ("import sys\n\ndef f(x):\n    return x * 2\n\nprint(f(21), sys.argv[1:])\n", 0, "ok"),
}


def _run(tmp_path, *args, **kwargs):
    return subprocess.run([sys.executable, "-m", "tfadvisor", "run", *args], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120, **kwargs)


@pytest.mark.parametrize("name", sorted(CASES))
def test_report_written_and_status_kept(tmp_path, monkeypatch, capsys, name, schema_valid):
    """In-process through the command's ``execute`` (the CLI itself is covered below)."""
    from tfadvisor.cli.run import execute

    source, status, outcome = CASES[name]
    (tmp_path / name).write_text(source)
    monkeypatch.chdir(tmp_path)
    code = execute(name, ["--an-arg"], is_module=False, project=None, budget_s=10, memory_budget=1 << 20,
                   fmt="json", output="out.json", quiet=False)
    out, err = capsys.readouterr()
    assert code == status, err
    data = json.loads((tmp_path / "out.json").read_text())
    schema_valid(data)
    assert data["run"]["exit_status"] == status and data["run"]["outcome"] == outcome
    assert "tfadvisor/runtime" not in err  # the program's traceback, without our frames
    if status:
        assert "exit status" in err
    if name == "ok.py":
        assert "42 ['--an-arg']" in out
    if name in ("exits.py", "raises.py"):
        assert [f["qualname"] for f in data["functions"]] == ["f"]  # what ran is reported
    if name == "raises.py":
        assert "ZeroDivisionError" in data["run"]["error"] and 'File "raises.py", line 2' in err


def test_missing_script_is_one_line_and_still_reported(tmp_path, schema_valid):
    proc = _run(tmp_path, "--format", "json", "--output", "out.json", "nope.py")
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines()[0] == "tfadvisor: can't open file 'nope.py': no such file"
    assert "Traceback" not in proc.stderr
    data = json.loads((tmp_path / "out.json").read_text())
    schema_valid(data)
    assert data["run"]["outcome"] == "not-found"


def test_usage_errors_exit_2(tmp_path):
    assert _run(tmp_path).returncode == 2
    proc = _run(tmp_path, "--memory-budget", "lots", "x.py")
    assert proc.returncode == 2 and "--memory-budget" in proc.stderr and "Traceback" not in proc.stderr


def test_text_report_on_stdout_after_the_program(tmp_path):
    (tmp_path / "ok.py").write_text(CASES["ok.py"][0])
    proc = _run(tmp_path, "ok.py")
    assert proc.returncode == 0
    out = proc.stdout
    assert out.index("42 [") < out.index("tfadvisor run ok.py")
    assert "f" in out and "no change advised" in out


def test_ctrl_c_in_the_program_still_reports(tmp_path, schema_valid):
    (tmp_path / "slow.py").write_text(
        "import time\n\ndef tick(i):\n    time.sleep(0.05)\n    return i\n\n"
        "print('started', flush=True)\nfor i in range(2000):\n    tick(i)\n"
    )
    proc = subprocess.Popen([sys.executable, "-m", "tfadvisor", "run", "--format", "json", "--output", "out.json",
                             "slow.py"], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            # a shell's background job ignores SIGINT, and children inherit that
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert proc.stdout.readline().startswith("started")
    time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    data = json.loads((tmp_path / "out.json").read_text())
    schema_valid(data)
    assert data["run"]["outcome"] == "interrupted"
    tick = next(f for f in data["functions"] if f["qualname"] == "tick")
    assert tick["measurement"]["calls"] >= 1
    assert not os.path.exists(tmp_path / ".tfadvisor-*.tmp")


def test_sigterm_is_handled_like_ctrl_c(tmp_path, schema_valid):
    (tmp_path / "forever.py").write_text(
        "import time\n\ndef tick(i):\n    time.sleep(0.01)\n    return i\n\n"
        "print('started', flush=True)\ni = 0\nwhile True:\n    tick(i)\n    i += 1\n"
    )
    proc = subprocess.Popen([sys.executable, "-m", "tfadvisor", "run", "-q", "--format", "json", "--output", "out.json",
                             "forever.py"], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout.readline().startswith("started")
    time.sleep(0.5)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err
    data = json.loads((tmp_path / "out.json").read_text())
    schema_valid(data)
    assert data["run"]["outcome"] == "terminated"
    assert next(f for f in data["functions"] if f["qualname"] == "tick")["measurement"]["calls"] >= 1


def test_os_exit_in_the_program_still_writes_the_report(tmp_path, schema_valid):
    (tmp_path / "hard.py").write_text("import os\n\ndef f(x):\n    return x * 2\n\nfor i in range(5):\n    f(i)\nos._exit(4)\n")
    proc = _run(tmp_path, "-q", "--format", "json", "--output", "out.json", "hard.py")
    assert proc.returncode == 4, proc.stderr
    data = json.loads((tmp_path / "out.json").read_text())
    schema_valid(data)
    assert data["run"]["error"] == "os._exit(4)"
    assert data["functions"][0]["measurement"]["calls"] == 5


def test_the_program_runs_from_a_shallow_stack(tmp_path):
    """TensorFlow scans every Python frame under an op it creates; the frames under the observed
    program are tfadvisor's own, few and stopped early in short functions: click has returned
    before the program starts (``cli/entry.py``), and the set-up functions are done."""
    (tmp_path / "prog.py").write_text(
        "import sys\n"
        "f, frames = sys._getframe(), []\n"
        "while f:\n"
        "    frames.append((f.f_code.co_filename, f.f_code.co_name, f.f_lasti))\n"
        "    f = f.f_back\n"
        "print(repr(frames))\n")
    proc = _run(tmp_path, "--budget", "0", "-q", "prog.py")
    assert proc.returncode == 0, proc.stderr
    frames = eval(proc.stdout.strip().splitlines()[-1])  # noqa: S307 - our own program's repr
    below = [(path, name, lasti) for path, name, lasti in frames[1:] if "tfadvisor" in path]
    assert not [f for f in frames if f"{os.sep}click{os.sep}" in f[0]], frames
    assert len(below) <= 8 and all(lasti < 400 for _, _, lasti in below), below


def test_the_collector_leaves_what_existed_before_the_program(tmp_path):
    """A full collection walks every tracked object; this tool's parsed sources and facts are set
    aside (``gc.freeze``) so the program's collections cost what they cost alone, and the program's
    own garbage is still collected."""
    (tmp_path / "prog.py").write_text(
        "import gc\n"
        "class Node:\n"
        "    pass\n"
        "a, b = Node(), Node()\n"
        "a.other, b.other = b, a\n"
        "del a, b\n"
        "print(gc.get_freeze_count() > 0, gc.collect() >= 2)\n")
    proc = _run(tmp_path, "--budget", "0", "-q", "prog.py")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "True True"
