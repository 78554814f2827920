"""`tfadvisor run [options] SCRIPT [-- ARGS...]` / `tfadvisor run -m MODULE [-- ARGS...]`.

Runs the program once as Python would, observing the project's functions, then replays the
sampled calls of the functions that matter (eager against graph and XLA) within ``--budget``
seconds and reports, per function, what decorating (or reconfiguring) it would have saved in
that run. The report is always written, also when the program fails or is interrupted; a first
version is written before replay starts so that nothing is lost if replay crashes.

Exit status: the program's own (0 when it ran to the end), 2 for tfadvisor usage errors and when
TensorFlow is not installed.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import sys
from typing import TYPE_CHECKING, Any

import click

from tfadvisor.cli.entry import hand_over
from tfadvisor.cli.options import output_options, require_tensorflow

if TYPE_CHECKING:
    from tfadvisor.measure import RunHooks, RunResult
    from tfadvisor.model import Report

EXIT_USAGE = 2
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmg]?)i?b?\s*$", re.IGNORECASE)


def parse_size(text: str) -> int:
    """``512MB``, ``1G``, ``200k``, ``1048576`` -> bytes."""
    match = _SIZE.match(text)
    if not match:
        raise click.BadParameter(f"{text!r} is not a size (examples: 512MB, 2G, 100000)")
    number, unit = float(match.group(1)), match.group(2).lower()
    return int(number * {"": 1, "k": 1024, "m": 1024**2, "g": 1024**3}[unit])


class _RunCommand(click.Command):
    """Says where the program's own options go when one is given without `--`."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.NoSuchOption as exc:
            exc.message = exc.message.rstrip(".")  # type: ignore[misc]  # click's documented way to reword + "; the program's own arguments go after `--`: tfadvisor run SCRIPT -- ARGS"
            raise


@click.command(name="run", cls=_RunCommand)
@click.option("-m", "module", metavar="MODULE", help="Run a module, as `python -m MODULE`.")
@click.option("--project", type=click.Path(file_okay=False, exists=True), help="Folder whose functions are observed (default: the script's folder; the current folder with -m).")
@click.option("--budget", type=click.FloatRange(min=0), default=None,
              help="Seconds for replaying and measuring after the program ends, shared by the functions' share of "
                   "the run [default: 0.75 x the program's own run time, at least 3 s; 0: observation only].")
@click.option("--memory-budget", default="512MB", show_default=True, help="Memory for sampled calls kept for replay.")
@output_options(formats=("text", "json", "sarif", "github", "html"))
@click.argument("argv", nargs=-1, type=click.UNPROCESSED, metavar="SCRIPT [-- ARGS...]")
def run(module: str | None, project: str | None, budget: float | None, memory_budget: str, fmt: str,
        output: str | None, quiet: bool, argv: tuple[str, ...]) -> None:
    """Run a program once, observed, and measure eager against graph on the calls it made.

    The program's own arguments go after `--` (tfadvisor's options may come before or after
    SCRIPT). Exits with the program's exit status.

    \b
    tfadvisor run train.py -- --epochs 3
    tfadvisor run train.py --format json --output run.json
    tfadvisor run --budget 60 -m mypkg.train -- --epochs 3
    """
    require_tensorflow("run")
    args = list(argv)
    if module is None:
        if not args or args[0] == "--":
            raise click.UsageError("give a SCRIPT to run (or -m MODULE)")
        target = args.pop(0)
    else:
        target = module
    if args and args[0] == "--":
        args.pop(0)
    try:
        memory = parse_size(memory_budget)
    except click.BadParameter as exc:
        click.echo(f"tfadvisor: --memory-budget: {exc.message}", err=True)
        sys.exit(EXIT_USAGE)
    _check_config(target, is_module=module is not None, project=project)
    hand_over(functools.partial(execute, target, args, is_module=module is not None, project=project,
                                budget_s=budget, memory_budget=memory, fmt=fmt, output=output, quiet=quiet))


def _check_config(target: str, *, is_module: bool, project: str | None) -> None:
    """A broken [tool.tfadvisor] (or a pyproject.toml that is not TOML) stops `run` before the
    program starts, as it stops `check`: the static part of the report would silently lose it."""
    from tfadvisor.config import ConfigError, find_config, load_config
    from tfadvisor.runtime.run.session import project_root

    try:
        load_config(find_config(project_root(target, is_module, project)))
    except ConfigError as exc:
        click.echo(f"tfadvisor: {exc}", err=True)
        sys.exit(EXIT_USAGE)


def execute(target: str, args: list[str], *, is_module: bool, project: str | None, budget_s: float | None,
            memory_budget: int, fmt: str, output: str | None, quiet: bool) -> int:
    """The whole command; returns the exit status. Kept apart from click so tests can call it."""
    # Only what runs the program is imported before it: the reports, the terminal and the
    # renderers come after, when the program (and TensorFlow) has run (issue 21: --budget 0 overhead).
    from tfadvisor.measure import measure_program

    terminal = _Terminal(fmt, output, quiet)
    if not terminal.usable:
        return EXIT_USAGE
    with terminal:  # the program starts early in this short function (cli/entry.py says why)
        result = measure_program(target, args, is_module=is_module, project=project, budget_s=budget_s,
                                 memory_budget=memory_budget, hooks=terminal.hooks())
    return terminal.show(result)


class _Terminal:
    """What `run` shows around the program: its messages, the replay's progress bar (from the
    first replayed function on, never over the program's own output), checkpoints of the report
    with ``--output``, and the report at the end."""

    def __init__(self, fmt: str, output: str | None, quiet: bool) -> None:
        self.fmt, self.output, self.quiet = fmt, output, quiet
        self.usable = not output or os.path.isdir(os.path.dirname(os.path.abspath(output)))
        if not self.usable:
            click.echo(f"tfadvisor: --output: folder of {output!r} does not exist", err=True)
        self._replaying = contextlib.ExitStack()
        self._bar: Any = None

    def __enter__(self) -> _Terminal:
        return self

    def __exit__(self, kind: Any, exc: Any, tb: Any) -> None:
        self._replaying.close()

    def hooks(self) -> RunHooks:
        from tfadvisor.measure import RunHooks

        return RunHooks(saved=self._checkpoint if self.output else None, ended=self._ended, progress=self._advance)

    def show(self, result: RunResult) -> int:
        from tfadvisor.report import render
        from tfadvisor.report.output import emit, write_atomic
        from tfadvisor.ui import console

        color = self.fmt == "text" and self.output is None and console().is_terminal
        text = render(result.report, self.fmt, color=color)
        if self.output:
            write_atomic(self.output, text)
            if not self.quiet:
                self._errors().print(f"tfadvisor: report written to {self.output}", markup=False)
        elif not (self.quiet and self.fmt == "text"):
            emit(text, None)
        return result.exit_status

    def _errors(self) -> Any:
        from tfadvisor.ui import err_console

        return err_console(quiet=self.quiet)

    def _checkpoint(self, report: Report) -> None:  # only with --output: no report built otherwise
        from tfadvisor.report import render
        from tfadvisor.report.output import write_atomic

        try:
            write_atomic(str(self.output), render(report, self.fmt, color=False))
        except Exception:  # the last report is written at the end; a failed checkpoint loses nothing yet
            pass

    def _ended(self, outcome: str, status: int, error: str | None) -> None:
        if outcome == "not-found":
            click.echo(f"tfadvisor: {error}", err=True)
        elif outcome != "ok":
            self._errors().print(f"tfadvisor: the program ended with exit status {status}"
                                 + (f" ({error})" if error else "") + "; reporting what ran", markup=False)

    def _advance(self, done: int, total: int, name: str) -> None:
        from tfadvisor.ui import progress

        if self._bar is None:
            self._bar = self._replaying.enter_context(progress("replaying", quiet=self.quiet))
        self._bar.update(description=f"replaying {name}", total=total)
        self._bar.advance(done - self._bar.completed)
