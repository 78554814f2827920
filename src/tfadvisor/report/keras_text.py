"""Text view of the Keras trainings of a `run` report: what was measured, per model, and the advice.

Reads only ``RunSummary.keras`` (``model_keras.KerasTraining``), so a saved report re-renders the
same; ``report/run_text.py`` prints it after the ranked table.
"""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from tfadvisor.model import RunSummary
from tfadvisor.model_keras import KerasTraining


def render(out: Console, run: RunSummary) -> None:
    for t in run.keras:
        out.print()
        out.print(_heading(t), markup=False, soft_wrap=True)
        if t.skipped:
            out.print(f"  not measured: {t.skipped}", markup=False, soft_wrap=True)
            continue
        if t.trials:
            out.print(_trials(t))
        out.print(f"  {t.verdict.value}: {t.why}" if t.why else f"  {t.verdict.value}", markup=False, soft_wrap=True)
        for note in t.assumptions:
            out.print(f"  note: {note}", markup=False, soft_wrap=True)


def _heading(t: KerasTraining) -> str:
    where = f" (compile at {t.compile_site.path}:{t.compile_site.line})" if t.compile_site else ""
    options = ", ".join(f"{k}={v}" for k, v in t.compiled.items())
    data = f"; data: {t.data}" if t.data else ""
    waits = f", a step waits on data {100 * t.input_share:.0f}% of its time" if t.input_share is not None else ""
    return (f"keras: {t.model}{where}: fit {t.fit_s:.2f} s over {t.fit_steps} step{'s' if t.fit_steps != 1 else ''} "
            f"({options}){data}{waits}")


def _trials(t: KerasTraining) -> Table:
    table = Table(box=None, pad_edge=False, show_edge=False, header_style="bold")
    for name, justify in (("  trial", "left"), ("data", "left"), ("ms/step", "right"), ("first", "right"),
                          ("same results", "left")):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for trial in t.trials:
        same = "-" if trial.equivalent is None else ("yes" if trial.equivalent else "no: " + "; ".join(trial.differences))
        step = f"{1e3 * trial.step_s:.2f}" if trial.step_s else "-"
        first = f"{trial.first_s:.2f} s" if trial.first_s is not None else "-"
        name = trial.name.replace(", program's data", "")
        table.add_row(f"  {name}", trial.data, step if not trial.error else f"error: {trial.error}", first, same)
    return table
