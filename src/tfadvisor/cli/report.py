"""`tfadvisor report REPORT.json`: render a saved JSON report in another format.

Why: `run` is slow (it runs the program and measures it); its JSON is the record. From it, any
format can be made later without measuring again: SARIF for code scanning, annotations for CI, HTML
with plots for people. A file that is not a tfadvisor report, is of another schema version or is
truncated is refused with one clear line and exit status 2.
"""

from __future__ import annotations

import json
import os

import click

from tfadvisor.model import Report, ReportFormatError
from tfadvisor.report import FORMATS, render
from tfadvisor.report.output import emit
from tfadvisor.ui import err_console, status, wants_color


class BadReport(click.ClickException):
    """Bad input: exit status 2, like a usage error, with a one-line message."""

    exit_code = 2


def load_report(path: str) -> Report:
    """Read a tfadvisor JSON report, or raise ``BadReport`` saying what is wrong with it."""
    if os.path.isdir(path):
        raise BadReport(f"{path}: is a folder, not a report file")
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        raise BadReport(f"{path}: cannot read: {exc.strerror or exc}") from None
    if not data.strip():
        raise BadReport(f"{path}: empty file, not a tfadvisor report")
    try:
        raw = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise BadReport(f"{path}: not a tfadvisor report (not UTF-8 text)") from None
    except json.JSONDecodeError as exc:
        end = len(data.decode("utf-8").rstrip())
        truncated = exc.pos >= end - 1 and exc.msg.startswith(("Expecting", "Unterminated"))
        what = "truncated JSON (the file ends early)" if truncated else f"invalid JSON: {exc.msg}"
        raise BadReport(f"{path}: {what} at line {exc.lineno}, column {exc.colno}") from None
    try:
        return Report.from_dict(raw)
    except ReportFormatError as exc:
        raise BadReport(f"{path}: {exc}") from None
    except (AttributeError, KeyError, TypeError, ValueError) as exc:  # shapes from_dict does not foresee
        raise BadReport(f"{path}: malformed tfadvisor report ({type(exc).__name__}: {exc})") from None


@click.command(name="report")
@click.argument("report_file", metavar="REPORT.json", type=click.Path(dir_okay=True, allow_dash=False))
@click.option("--format", "-f", "fmt", type=click.Choice(FORMATS), default="text", show_default=True,
              help="Output format.")
@click.option("--output", "-o", metavar="FILE", type=click.Path(dir_okay=False, writable=True),
              help="Write here (atomically) instead of stdout.")
@click.option("--root", metavar="DIR", type=click.Path(file_okay=False, exists=True),
              help="Folder the report's paths are relative to (for source lines); default: the current one.")
@click.option("--quiet", "-q", is_flag=True, help="Print nothing but the report.")
def report(report_file: str, fmt: str, output: str | None, root: str | None, quiet: bool) -> None:
    """Render a saved JSON report (from `check`, `run` or `profile`) as text, json, sarif, github or html.

    \b
    tfadvisor run train.py --format json -o run.json
    tfadvisor report run.json --format html -o report.html
    tfadvisor report run.json --format sarif -o tfadvisor.sarif
    """
    loaded = load_report(report_file)
    try:
        with status(f"rendering {fmt}", quiet=quiet):
            color = fmt == "text" and not (output and output != "-") and wants_color()
            text = render(loaded, fmt, root=root, color=color)
    except ModuleNotFoundError as exc:
        if not (exc.name or "").startswith(("tfadvisor", "matplotlib")):
            raise
        hint = " (pip install 'tfadvisor[html]')" if (exc.name or "").startswith("matplotlib") else ""
        raise click.ClickException(f"format {fmt!r} is not available: {exc.name} is missing{hint}") from None
    try:
        emit(text, output)
    except OSError as exc:
        raise click.ClickException(f"{output}: cannot write: {exc.strerror or exc}") from None
    if output and output != "-":
        err_console(quiet=quiet).print(f"wrote {output} ({fmt})")
