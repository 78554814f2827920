"""`fix` never runs the code it edits, and no command opens a network connection.

The network check runs each command in a subprocess whose interpreter (and every Python child
it starts: `run` and `profile` measure in child processes) loads a ``sitecustomize`` that
installs an audit hook (PEP 578) recording name resolution and connections to anything but a
Unix socket. The commands must leave that log empty. (`check` never running code is
tests/check/test_check_cli.py::test_check_never_imports_tensorflow_nor_runs_the_code.)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

TFADVISOR = [sys.executable, "-m", "tfadvisor"]

SITECUSTOMIZE = '''
import os, socket, sys

_LOG = os.environ["TFA_NETWORK_LOG"]
_EVENTS = {"socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyaddr", "socket.connect",
           "socket.sendto", "socket.sendmsg", "http.client.connect", "urllib.Request", "ftplib.connect",
           "smtplib.connect", "poplib.connect", "imaplib.open", "nntplib.connect", "telnetlib.Telnet.open"}


def _hook(event, args):
    if event not in _EVENTS:
        return
    if event in ("socket.connect", "socket.sendto", "socket.sendmsg"):
        sock = args[0]
        if getattr(sock, "family", None) == getattr(socket, "AF_UNIX", None):
            return  # local IPC is not the network
    with open(_LOG, "a") as handle:
        handle.write(f"{os.getpid()} {sys.argv[:3]} {event} {args[1:]!r}\\n")


sys.addaudithook(_hook)
'''

EVIL = '''import tensorflow as tf
open({marker!r}, "w").write("ran")
import sys
sys.exit(3)


def compute(x, w):
    y = tf.matmul(x, w)
    for _ in range(10):
        y = tf.nn.relu(y) * 0.5 + tf.tanh(y)
    return tf.reduce_sum(y)


@tf.function
def step(x):
    print("value", x)
    return tf.square(x)
'''

PROGRAM = '''import tensorflow as tf


def step(x):
    for _ in range(8):
        x = tf.nn.relu(x) * 0.5 + 1.0
    return tf.reduce_sum(x)


def calls():
    return [((tf.ones([4, 4]),), {}) for _ in range(3)]


if __name__ == "__main__":
    for _ in range(5):
        step(tf.ones([4, 4]))
'''


@pytest.fixture
def audited(tmp_path: Path):
    """(env, log path): subprocesses with this env record every network attempt in the log."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(SITECUSTOMIZE)
    log = tmp_path / "network.log"
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(site), env.get("PYTHONPATH", "")) if p)
    env["TFA_NETWORK_LOG"] = str(log)
    env["TF_CPP_MIN_LOG_LEVEL"] = "2"
    env["NO_COLOR"] = "1"
    return env, log


def _run(args: list[str], cwd: Path, env: dict[str, str], timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


def test_the_audit_hook_sees_a_connection(tmp_path: Path, audited) -> None:
    """The detector works: a real attempt (to a closed local port) is recorded."""
    env, log = audited
    code = ("import socket\ns = socket.socket()\ns.settimeout(1)\n"
            "try:\n    s.connect(('127.0.0.1', 9))\nexcept OSError:\n    pass\n"
            "socket.getaddrinfo('localhost', 80)\n")
    _run([sys.executable, "-c", code], tmp_path, env)
    text = log.read_text()
    assert "socket.connect" in text and "socket.getaddrinfo" in text


def test_fix_never_runs_the_code_it_edits(tmp_path: Path, audited) -> None:
    env, log = audited
    marker = tmp_path / "was_run"
    (tmp_path / "evil.py").write_text(EVIL.format(marker=str(marker)))
    script = ("import sys\nfrom tfadvisor.cli.main import main\n"
              "try:\n    main(['fix', 'evil.py', '--unsafe-fixes'], standalone_mode=False)\n"
              "except SystemExit as exc:\n    print('exit', exc.code)\n"
              "assert 'tensorflow' not in sys.modules, 'fix imported TensorFlow'\nprint('done')\n")
    result = _run([sys.executable, "-c", script], tmp_path, env, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "done" in result.stdout and "exit 3" not in result.stdout
    assert not marker.exists(), "fix executed the module it edits"
    fixed = (tmp_path / "evil.py").read_text()
    assert "tf.print(" in fixed and "sys.exit(3)" in fixed  # edited, not run
    assert not log.exists(), log.read_text()


def test_static_commands_open_no_network_connection(tmp_path: Path, audited, schema_valid) -> None:
    env, log = audited
    (tmp_path / "prog.py").write_text(PROGRAM)
    (tmp_path / "bad.py").write_text("import tensorflow as tf\n\n@tf.function\ndef f(x):\n    print(x)\n    return x\n")
    commands = [
        ["check", ".", "-f", "json", "-o", "check.json"],
        ["check", ".", "-f", "sarif", "-o", "check.sarif"],
        ["check", ".", "-f", "html", "-o", "check.html"],
        ["report", "check.json", "-f", "html", "-o", "again.html"],
        ["explain", "TF201"],
        ["rules"],
        ["fix", ".", "--diff"],
        ["fix", ".", "--unsafe-fixes"],
    ]
    for args in commands:
        result = _run([*TFADVISOR, *args], tmp_path, env, timeout=180)
        assert result.returncode in (0, 1), (args, result.stderr[-2000:])
        assert "Traceback" not in result.stderr, (args, result.stderr[-2000:])
    schema_valid(json.loads((tmp_path / "check.json").read_text()))
    assert not log.exists(), log.read_text()


@pytest.mark.slow
@pytest.mark.tf
def test_run_and_profile_open_no_network_connection(tmp_path: Path, audited, schema_valid) -> None:
    pytest.importorskip("tensorflow")
    env, log = audited
    (tmp_path / "prog.py").write_text(PROGRAM)
    run = _run([*TFADVISOR, "run", "--budget", "20", "-f", "json", "-o", "run.json", "-q", "prog.py"], tmp_path, env)
    assert run.returncode == 0, run.stderr[-3000:]
    schema_valid(json.loads((tmp_path / "run.json").read_text()))
    profile = _run([*TFADVISOR, "profile", "prog.py:step", "--calls", "prog.py:calls", "--modes", "eager,graph",
                    "--timeout", "60", "--format", "json", "-o", "profile.json", "-q"], tmp_path, env)
    assert profile.returncode == 0, profile.stderr[-3000:]
    schema_valid(json.loads((tmp_path / "profile.json").read_text()))
    assert not log.exists(), log.read_text()
