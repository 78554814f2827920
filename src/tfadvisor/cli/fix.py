"""`tfadvisor fix`: apply the verdicts and the safe fixes to the code, formatting kept."""

from __future__ import annotations

import json
from collections import Counter
from typing import TYPE_CHECKING

import click

from tfadvisor.model import Report, ReportFormatError
from tfadvisor.sources import discover

if TYPE_CHECKING:  # libcst is imported only when `fix` runs: every other command starts faster
    from tfadvisor.fix.engine import FileOutcome


MAX_ROUNDS = 5  # check -> fix rounds when fixing from a fresh check (see _fix_to_fixed_point)


def _codes(values: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(c.strip() for v in values for c in v.split(",") if c.strip())


def _load_report(path: str) -> Report:
    try:
        with open(path, encoding="utf-8") as handle:
            raw = json.load(handle)
    except OSError as exc:
        raise click.ClickException(f"{path}: cannot read: {exc.strerror or exc}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise click.ClickException(f"{path}: not a JSON report: {str(exc).splitlines()[0]}") from None
    try:
        return Report.from_dict(raw)
    except ReportFormatError as exc:
        raise click.ClickException(f"{path}: {exc}") from None


def _static_report(paths: list[str]) -> Report:
    """A fresh `check` of the files, with the project's [tool.tfadvisor] configuration."""
    try:
        from tfadvisor.check import check_paths
        from tfadvisor.config import ConfigError, find_config, load_config
    except ImportError:
        raise click.ClickException(
            "the static analysis is not available in this build; pass a report with --from REPORT.json") from None
    try:
        config = load_config(find_config(paths[0] if paths else "."))
    except ConfigError as exc:
        raise click.ClickException(str(exc)) from None
    return check_paths(paths, config=config)


def _summary(outcomes: list[FileOutcome], *, diff: bool) -> tuple[str, bool]:
    """The text summary and whether any file had an error."""
    lines: list[str] = []
    changed = [o for o in outcomes if o.changed and (o.written or diff)]
    kinds = Counter(e.kind for o in changed for e in o.applied)
    verb = "would fix" if diff else "fixed"
    if changed:
        detail = ", ".join(f"{k} {n}" for k, n in sorted(kinds.items()))
        lines.append(f"{verb} {len(changed)} file{'s' if len(changed) != 1 else ''}: "
                     f"{sum(kinds.values())} edit{'s' if sum(kinds.values()) != 1 else ''} ({detail})")
        for o in changed:
            lines.append(f"  {o.path}: " + "; ".join(e.label for e in o.applied))
            lines.extend(f"    note: {n}" for n in o.notes)
    else:
        lines.append("nothing to fix")
    skipped = [s for o in outcomes for s in o.skipped]
    if skipped:
        lines.append(f"skipped {len(skipped)}:")
        lines.extend(f"  {s}" for s in skipped)
    errors = [o for o in outcomes if o.error]
    if errors:
        lines.append(f"left untouched {len(errors)}:")
        lines.extend(f"  {o.path}: {o.error}" for o in errors)
    return "\n".join(lines) + "\n", bool(errors)


def _fix_to_fixed_point(outcomes: list[FileOutcome], files: list[str], options,
                        report: Report) -> tuple[list[FileOutcome], Report]:
    """Check and fix again while the last round wrote something (at most MAX_ROUNDS in all).

    A fix changes the facts its verdicts came from: with ``print`` turned into ``tf.print`` a
    function may no longer have enough tensor work to be worth a graph, so a second ``fix`` would
    undecorate it. Like ruff, ``fix`` reaches the fixed point itself, so running it twice changes
    nothing. Outcomes are merged per file: every round's edits, the last round's skips.
    """
    from tfadvisor.fix.engine import run_plan
    from tfadvisor.fix.planner import plan

    merged = {o.path: o for o in outcomes}
    for _ in range(MAX_ROUNDS - 1):
        if not any(o.written for o in outcomes):
            break
        report = _static_report(files)
        outcomes = run_plan(plan(report, options), files, write=True)
        for o in outcomes:
            first = merged.setdefault(o.path, o)
            if first is not o:
                first.absorb(o)
    return list(merged.values()), report


@click.command(name="fix")
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("--diff", is_flag=True, help="Print a unified diff and change nothing; exit 1 if there would be changes.")
@click.option("--from", "from_report", metavar="REPORT.json", type=click.Path(dir_okay=False),
              help="Use the verdicts and measurements of a `run`/`check` JSON report instead of a fresh check.")
@click.option("--unsafe-fixes", is_flag=True, help="Also apply unsafe fixes and speculative verdicts.")
@click.option("--select", multiple=True, metavar="CODES",
              help="Only these rule codes or prefixes, or verdicts (comma-separated: TF2,decorate).")
@click.option("--ignore", multiple=True, metavar="CODES", help="Never these rule codes, prefixes or verdicts.")
def fix(paths: tuple[str, ...], diff: bool, from_report: str | None, unsafe_fixes: bool,
        select: tuple[str, ...], ignore: tuple[str, ...]) -> None:
    """Apply the verdicts (add or remove @tf.function, set its options) and the safe fixes.

    Only the files named (or found under the folders named) are touched. Writes are atomic and
    skipped for a file that changed since it was read; fixed code that would not parse is never
    written. Exit status: 0 done, 1 with --diff when there would be changes, or when a file had
    to be left untouched.
    """
    from tfadvisor.fix.engine import run_plan, unified_diff
    from tfadvisor.fix.planner import Options, plan

    files = list(discover(paths))
    if from_report:
        report = _load_report(from_report)
    else:
        report = _static_report(files)
    options = Options(unsafe=unsafe_fixes, select=_codes(select), ignore=_codes(ignore))
    outcomes = run_plan(plan(report, options), files, write=not diff)
    if not diff and not from_report:
        outcomes, report = _fix_to_fixed_point(outcomes, files, options, report)
    if diff:
        for outcome in outcomes:
            click.echo(unified_diff(outcome), nl=False)
    text, errors = _summary(outcomes, diff=diff)
    unreadable = [f for f in report.files if f.status == "error"]
    if unreadable:  # files the analysis could not read or parse are left as they are: say so
        text += f"could not analyse {len(unreadable)} (left untouched):\n"
        text += "".join(f"  {f.path}: {f.error}\n" for f in unreadable)
    click.echo(text, nl=False, err=diff)
    if errors or (diff and any(o.changed for o in outcomes)):
        raise SystemExit(1)
