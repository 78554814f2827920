"""`tfadvisor profile MODULE:FUNCTION --calls MODULE:FACTORY`: measure one function, eager against graph.

The measurement runs in a child process (``tfadvisor.runtime``); this module only parses the
command line, shows progress and hands the report to a renderer (``report/profile_text.py``
for text). Exit status: 0 measured, 1 the function
could not be measured (raised eagerly, timed out, exhausted memory, killed its process),
2 bad input (a MODULE:NAME that does not resolve; TensorFlow not installed), 130 interrupted (Ctrl-C; what was measured is
still reported).
"""

from __future__ import annotations

import sys

import click

from tfadvisor import ui
from tfadvisor.report import FORMATS
from tfadvisor.report.output import emit

_MODES = ("eager", "graph", "xla")


def _modes(_ctx: click.Context, _param: click.Parameter, value: str) -> tuple[str, ...]:
    modes = tuple(m.strip() for m in value.split(",") if m.strip())
    bad = [m for m in modes if m not in _MODES]
    if bad or "eager" not in modes:
        raise click.BadParameter(f"a comma-separated subset of {','.join(_MODES)} that includes eager")
    return modes


@click.command(name="profile")
@click.argument("target", metavar="MODULE:FUNCTION")
@click.option("--calls", "calls", required=True, metavar="MODULE:FACTORY",
              help="A function returning the calls to measure: a list of (args, kwargs) pairs.")
@click.option("--fresh", metavar="MODULE:FACTORY",
              help="Builds fresh state for each mode (an object whose method FUNCTION is, a Keras model).")
@click.option("--observe", metavar="MODULE:FUNCTION",
              help="Returns {name: value} of Python state to compare between eager and graph.")
@click.option("--timeout", type=click.FloatRange(min=0.1), default=60.0, show_default=True,
              help="Seconds allowed per mode.")
@click.option("--modes", default="eager,graph,xla", show_default=True, callback=_modes,
              help="Modes to measure (comma-separated).")
@click.option("--expected-calls", type=click.IntRange(min=1),
              help="How many calls the real workload makes (default: as many as --calls gives).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True)
@click.option("--output", "-o", type=click.Path(dir_okay=False, writable=True), help="Write the report here.")
@click.option("--quiet", "-q", is_flag=True, help="No progress on stderr.")
def profile(target: str, calls: str, fresh: str | None, observe: str | None, timeout: float,
            modes: tuple[str, ...], expected_calls: int | None, fmt: str, output: str | None, quiet: bool) -> None:
    """Measure MODULE:FUNCTION eagerly, as a tf.function and with XLA, on the given calls.

    \b
    MODULE is a dotted module name (importable from here) or a path to a .py file:
      tfadvisor profile mypkg.train:train_step --calls mypkg.train:sample_calls
      tfadvisor profile train.py:Trainer.step --calls train.py:calls --fresh train.py:Trainer
    """
    from tfadvisor.cli.options import require_tensorflow

    require_tensorflow("profile")
    from tfadvisor.runtime.profile.profiling import profile as run_profile
    from tfadvisor.runtime.profile.specs import ResolveError, parse_ref

    try:
        refs = [parse_ref(x) for x in (target, calls, fresh, observe) if x]
    except ResolveError as exc:
        _fail(str(exc), 2)
    for ref in refs:
        if ref.module.endswith(".py") and not _exists(ref.module):
            _fail(f"no such file: {ref.module}", 2)

    try:
        with ui.status(f"measuring {target} ({', '.join(modes)}), each mode in a child process", quiet=quiet):
            result = run_profile(target, calls, fresh=fresh, observe=observe, modes=modes, timeout=timeout,
                                 expected_calls=expected_calls)
    except KeyboardInterrupt:  # outside a measurement (the measuring child is stopped by then)
        _fail("interrupted", 130)
    if result.error_kind == "resolve":
        _fail(result.measurement.error.split(": ", 2)[-1] if result.measurement.error else "cannot resolve", 2)

    from tfadvisor.report import render

    color = fmt == "text" and output is None and ui.console().is_terminal
    emit(render(result.report(), fmt, color=color), output)
    if result.error_kind == "interrupted":
        click.echo("tfadvisor profile: interrupted; reported what was measured", err=True)
        sys.exit(130)
    if not result.ok:
        sys.exit(1)


def _exists(path: str) -> bool:
    import os

    return os.path.isfile(path)


def _fail(message: str, status: int) -> None:
    click.echo(f"tfadvisor profile: {message}", err=True)
    sys.exit(status)
