"""Keras's part of one `run`: observe while the program runs, measure after, add to the report.

``measure.py`` (the library entry point) drives it: ``install`` before the program starts,
``remove`` when it ends, ``measure`` within its share of the replay budget, and ``extend`` on every
report it builds (checkpoints too), which adds the trainings (``RunSummary.keras``), one table row
each and their findings. Importing this module imports no TensorFlow.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from tfadvisor.model import Report, RunRow, RunSummary
from tfadvisor.model_keras import KerasTraining
from tfadvisor.runtime.keras.observe import KerasObserver
from tfadvisor.runtime.run.hook import ProjectScope

BUDGET_SHARE = 0.8  # of a given --budget, when the program trained a Keras model (functions get the rest)
# Without --budget (runtime/run/budget.py gives functions a share of the program's run), Keras's
# trials get this many times the program's fit time, within these bounds: a handful of configurations,
# each timed for an epoch or two of the program's data, plus compiles (docs/decisions/0017-keras-fit.md).
AUTO_FACTOR = 5.0
AUTO_MIN_S = 60.0
AUTO_MAX_S = 180.0


def keras_budget(given_s: float | None, fit_s: float) -> float:
    """Seconds for measuring the Keras trainings: a share of ``--budget`` when given (0: none), else
    ``AUTO_FACTOR`` x the observed fit time, between ``AUTO_MIN_S`` and ``AUTO_MAX_S``."""
    if given_s is not None:
        return max(0.0, given_s * BUDGET_SHARE)
    return min(AUTO_MAX_S, max(AUTO_MIN_S, AUTO_FACTOR * fit_s))


class KerasSession:
    def __init__(self, project_root: str):
        self.observer = KerasObserver(ProjectScope([project_root]))
        self.trainings: list[KerasTraining] = []
        self.measured = False
        self.replay_s = 0.0

    def install(self) -> None:
        self.observer.install()

    def remove(self) -> None:
        self.observer.remove()

    def observed(self) -> bool:
        return bool(self.observer.trainings())

    def fit_s(self) -> float:
        return sum(r.total("fit")[1] for r in self.observer.trainings())

    def summarize(self) -> list[KerasTraining]:
        from tfadvisor.runtime.keras.measure import MAX_TRAININGS, summarize

        if not self.measured:
            self.trainings = [summarize(r, self.observer) for r in self.observer.trainings()[:MAX_TRAININGS]]
        return self.trainings

    def measure(self, budget_s: float, progress: Callable[[str], None] | None = None,
                checkpoint: Callable[[], None] | None = None) -> float:
        """Measure each training (biggest first) within ``budget_s`` seconds in all; the seconds spent."""
        from tfadvisor.runtime.keras.measure import measure

        start = time.perf_counter()
        records = self.observer.trainings()
        trainings = self.summarize()
        self.measured = True
        for index, (record, training) in enumerate(zip(records, trainings, strict=False)):
            left = budget_s - (time.perf_counter() - start)
            share = left / max(1, len(trainings) - index)
            try:
                measure(record, self.observer, training, share, progress)
            except KeyboardInterrupt:
                training.skipped = "interrupted (Ctrl-C)"
                break
            except Exception as exc:  # measuring must never lose the report
                training.skipped = f"measurement failed: {type(exc).__name__}: {exc}"
            if checkpoint:
                checkpoint()
        self.replay_s = time.perf_counter() - start
        return self.replay_s

    def extend(self, report: Report) -> Report:
        """The report with the trainings, their rows (ranked with the functions' by time) and findings."""
        from tfadvisor.advice.keras import findings

        run = report.run
        trainings = self.summarize()
        if not isinstance(run, RunSummary) or not trainings:
            return report
        run.keras = trainings
        wall = run.wall_s or 1e-9
        ids = {t.id for t in trainings}
        rows = [r for r in run.table if r.id not in ids] + [_row(t, wall) for t in trainings]
        rows.sort(key=lambda r: -r.eager_s)
        for rank, row in enumerate(rows, 1):
            row.rank = rank
        run.table = rows
        run.replay_s = round(run.replay_s + self.replay_s, 3)
        run.projected_saved_s = round(sum(r.saved_s or 0.0 for r in rows if r.advised), 6)
        for t in trainings:
            report.findings.extend(findings(t))
        report.findings.sort(key=lambda f: f.sort_key())
        return report


def _row(t: KerasTraining, wall: float) -> RunRow:
    """One line of the run table for a model's training: its fit time, and the advice's saving."""
    return RunRow(
        rank=0, id=t.id, qualname=f"{t.model}.fit", calls=t.fit_calls, uncovered_calls=t.fit_calls,
        eager_s=t.fit_s, own_s=t.fit_s, share=round(t.fit_s / wall, 4),
        projected_s=t.projected_s, saved_s=t.saved_s, verdict=t.verdict, advised=t.advised,
        why=t.skipped or t.why or "not measured yet", decorated=True, signatures=0, traces_observed=None,
        traced_calls=0, errors=0, replayed=bool(t.trials),
    )
