"""`tfadvisor check PATH...`: static verdicts and findings. Never imports or runs the code.

Exit status, as linters have it (ruff reports a file it cannot parse as an error and exits 1; mypy
and pytest stop with a usage error on a path that does not exist): 0 nothing at or above
``--fail-on``; 1 findings at or above it, or a file that could not be analysed (syntax error,
binary, unreadable, not a notebook), counted as an error; 2 a usage error: a named PATH that does
not exist, a bad option or configuration. The files that can be analysed are always analysed and
reported first. ``--fail-on never`` exits 0 except for usage errors.
"""

from __future__ import annotations

import os
import sys

import click

from tfadvisor.cli.options import output_options, split_codes
from tfadvisor.config import ConfigError, find_config, load_config
from tfadvisor.model import Report, Severity

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


@click.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=str, readable=False))
@output_options(formats=("text", "json", "sarif", "github", "html"))
@click.option("--select", help="Only these rules (codes or prefixes, comma-separated: TF2,TF301).")
@click.option("--ignore", help="Skip these rules (codes or prefixes, comma-separated).")
@click.option("--exclude", multiple=True, help="Glob of files or folders to skip (repeatable).")
@click.option("--config", "config_path", type=click.Path(dir_okay=False), help="Config file (default: nearest pyproject.toml with [tool.tfadvisor]).")
@click.option("--fail-on", type=click.Choice(["error", "warning", "info", "never"]), help="Lowest severity that makes the exit status 1 (default: warning).")
@click.option("--show-suppressed", is_flag=True, help="Also list findings silenced by `# tfadvisor: ignore`.")
@click.option("-v", "--verbose", is_flag=True, help="List every function, not only those whose verdict asks for a change.")
@click.option("-j", "--jobs", type=click.IntRange(1, 64), help="Worker processes (default: all cores).")
def check(paths: tuple[str, ...], fmt: str, output: str | None, quiet: bool, select: str | None,
          ignore: str | None, exclude: tuple[str, ...], config_path: str | None, fail_on: str | None,
          show_suppressed: bool, verbose: bool, jobs: int | None) -> None:
    """Say, for every function under PATHS, whether it should be a @tf.function.

    Exit status: 0 nothing at or above --fail-on; 1 findings at or above it, or a file that could
    not be analysed (syntax error, binary, broken notebook); 2 usage error (a PATH that does not
    exist, a bad option or configuration). The rest is analysed and reported either way.
    """
    from tfadvisor.check import check_paths
    from tfadvisor.report import render
    from tfadvisor.report.output import emit
    from tfadvisor.ui import console, progress

    if not paths:
        paths = (".",)
    missing = [p for p in paths if not os.path.lexists(p)]
    try:
        config = load_config(config_path or find_config(paths[0]))
        config = config.with_overrides(
            select=split_codes(select), ignore=split_codes(ignore),
            extend_exclude=(*config.extend_exclude, *exclude) if exclude else None,
            fail_on=fail_on)
        from tfadvisor.config import check_code_pattern
        from tfadvisor.rules import all_rules

        known = {r.code for r in all_rules()}
        for code in (*(split_codes(select) or ()), *(split_codes(ignore) or ())):
            check_code_pattern(code, known, "--select/--ignore")
    except ConfigError as exc:
        click.echo(f"tfadvisor: {exc}", err=True)
        sys.exit(EXIT_USAGE)

    with progress("checking", quiet=quiet) as bar:
        def advance(done: int, total: int) -> None:
            bar.update(total=total)
            bar.advance(done - bar.completed)

        report = check_paths(paths, config=config, jobs=jobs, progress=advance)

    color = fmt == "text" and output is None and console().is_terminal
    text = render(report, fmt, color=color, verbose=verbose, show_suppressed=show_suppressed)
    if not (quiet and fmt == "text"):
        emit(text, output)
    if missing and (quiet or fmt != "text" or output is not None):  # the text report already says so
        for path in missing:
            click.echo(f"tfadvisor: {path}: no such file or directory", err=True)
    sys.exit(exit_status(report, config.fail_on, missing))


def exit_status(report: Report, fail_on: str, missing: list[str]) -> int:
    """2 for a named path that does not exist; else 1 for findings at or above ``fail_on`` or a
    file that could not be analysed (an error, as ruff counts one); else 0."""
    if missing:
        return EXIT_USAGE
    if fail_on == "never":
        return EXIT_OK
    if any(f.status == "error" for f in report.files):
        return EXIT_FINDINGS
    rank = Severity(fail_on).rank
    failing = any(f.severity.rank >= rank for f in report.findings if not f.suppressed)
    return EXIT_FINDINGS if failing else EXIT_OK
