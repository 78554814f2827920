"""ui.py: colour, quietness and progress follow the terminal, NO_COLOR and --quiet."""

from __future__ import annotations

import io
import os
import pty
import subprocess
import sys

from tfadvisor import ui

SCRIPT = """
import sys
from tfadvisor import ui
quiet = "--quiet" in sys.argv
ui.console(quiet=quiet).print("[red]hello[/red]")
with ui.progress("working", total=3, quiet=quiet) as bar:
    for _ in bar.track(range(3)):
        pass
print("active" if bar.active else "inactive", bar.completed, file=sys.stderr)
"""


def _run_in_pty(args: list[str], env: dict[str, str]) -> str:
    """Run a child with stdout and stderr on a real pseudo-terminal; return what it printed."""
    leader, follower = pty.openpty()
    proc = subprocess.Popen(args, stdout=follower, stderr=follower, stdin=subprocess.DEVNULL, env=env)
    os.close(follower)
    chunks = []
    while True:
        try:
            data = os.read(leader, 4096)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=60)
    os.close(leader)
    return b"".join(chunks).decode("utf-8", "replace")


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TERM")}
    env["TERM"] = "xterm-256color"
    env.update(extra)
    return env


def test_piped_output_is_plain_and_progress_silent() -> None:
    proc = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=_env(), timeout=60)
    assert proc.stdout == "hello\n"
    assert "\x1b" not in proc.stdout + proc.stderr
    assert proc.stderr.strip() == "inactive 3"


def test_terminal_gets_colour_and_a_progress_bar() -> None:
    out = _run_in_pty([sys.executable, "-c", SCRIPT], _env())
    assert "\x1b[31m" in out or "\x1b[1;31m" in out, out
    assert "active 3" in out and "inactive" not in out


def test_no_color_on_a_terminal_drops_colour_but_keeps_the_text() -> None:
    out = _run_in_pty([sys.executable, "-c", SCRIPT], _env(NO_COLOR="1"))
    assert "hello" in out
    assert "\x1b[31m" not in out


def test_quiet_on_a_terminal_prints_nothing_and_draws_no_bar() -> None:
    out = _run_in_pty([sys.executable, "-c", SCRIPT, "--quiet"], _env())
    assert "hello" not in out
    assert out.strip() == "inactive 3"


def test_console_to_a_stringio_is_plain() -> None:
    buf = io.StringIO()
    c = ui.console(buf)
    c.print("[bold]x[/bold] " + "y" * 150)
    assert "\x1b" not in buf.getvalue()
    assert buf.getvalue().count("\n") == 1  # no hard wrapping when not a terminal


def test_status_is_silent_when_piped() -> None:
    buf = io.StringIO()
    with ui.status("busy", file=buf):
        pass
    assert buf.getvalue() == ""


def test_wants_color_needs_a_terminal_and_no_no_color(monkeypatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert ui.wants_color(io.StringIO()) is False
    leader, follower = pty.openpty()
    with os.fdopen(follower, "w") as tty:
        monkeypatch.setenv("TERM", "xterm")
        assert ui.wants_color(tty) is True
        monkeypatch.setenv("NO_COLOR", "1")
        assert ui.wants_color(tty) is False
    os.close(leader)
