"""Keras training: which compile options and pipeline edits to try, and which to advise.

Pure decisions (no TensorFlow): ``runtime/keras/measure.py`` measures what ``candidates`` and
``pipeline_candidates`` ask for and hands the trials back to ``decide``. The rules, and why each
threshold is what it is, are in docs/decisions/0017-keras-fit.md:

1. Compile options are measured on fixed batches from the same start (``runtime/keras/trials.py``):
   ``run_eagerly=False`` when the program left it on; then, on top of it, ``jit_compile=True``,
   ``steps_per_execution=N`` (for steps short enough that per-step overhead matters, and no
   callback of the program acting per batch), and both when each pays alone. A trial counts only
   if it ran and its loss and weights match the program's configuration within what randomness
   alone changes.
2. The fastest such trial is the candidate; an option in it that does not earn ``OPTION_GAIN``
   (``XLA_GAIN`` for ``jit_compile``) over the same trial without it is dropped (no XLA compile or
   coarser logging for nothing).
3. The input pipeline, where the project built it: every combination of ``num_parallel_calls``,
   ``prefetch`` and ``cache()`` after its deterministic prefix (``pipeline_candidates``), measured
   on the program's data with the chosen options; kept by the same rule.
4. The whole advice must make the program's own fit steps ``MIN_SPEEDUP`` faster, measured on its
   data, net of one-time costs (XLA's compiles), else the training is ``keep`` (never a slower
   program).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tfadvisor.advice import policy
from tfadvisor.model import Finding, FixInfo, Severity, Verdict
from tfadvisor.model_keras import CallSite, KerasTraining, KerasTrial
from tfadvisor.rules import get_rule

OPTION_GAIN = 1.1  # an option (or pipeline edit) must make the step this much faster than without it
# XLA asks more, as advice/policy.py does for tf.function options: it compiles once per function
# and input shape (train, test, predict; a last partial batch is another shape), for seconds each
# on CPU, and its kernels can be slower (convolutions). The benchmark's time-series program lost
# its whole per-step gain to those compiles (docs/decisions/0017-keras-fit.md).
XLA_GAIN = policy.OPTION_GAIN
MIN_SPEEDUP = 1.1  # the advice as a whole, per step on the program's own data
SPE_MAX_STEP_S = 0.05  # steps_per_execution only pays where a step is this short (per-step overhead is ~1 ms)
SPE_VALUES = (32, 128)  # steps_per_execution tried (per-step overhead and callbacks, amortised)
CACHE_MAX_BYTES = 1 << 30  # a cache larger than this is not advised (memory)
EQ_LOGS = 0.01  # relative difference of the final logged loss/metrics
EQ_WEIGHTS = 0.05  # weight difference relative to how far training moved the weights
NOISE_FACTOR = 2.0  # ... plus this many times what other random draws alone change

AS_COMPILED = "as compiled"


@dataclass(frozen=True)
class Setup:
    """What the program did, in the units planning needs."""

    run_eagerly: bool
    jit_compile: bool
    steps_per_execution: int
    steps_per_epoch: int | None
    batch_callbacks: bool
    epochs: float = 1.0  # training steps / steps per epoch: how often a cache is read


@dataclass(frozen=True)
class Candidate:
    name: str
    options: dict[str, Any]


def base_options(setup: Setup) -> dict[str, Any]:
    """What every candidate sets: graph mode, where the program turned it off."""
    return {"run_eagerly": False} if setup.run_eagerly else {}


def candidates(setup: Setup, graph_step_s: float | None) -> list[Candidate]:
    """The compile options to measure one by one on top of ``base_options`` (``graph_step_s``: a
    step's time in graph mode, measured; steps_per_execution only pays on short steps)."""
    base = base_options(setup)
    out = []
    if not setup.jit_compile:
        out.append(Candidate("jit_compile=True", {**base, "jit_compile": True}))
    for spe in steps_per_execution(setup, graph_step_s):
        out.append(Candidate(f"steps_per_execution={spe}", {**base, "steps_per_execution": spe}))
    return out


def combination(graph: KerasTrial, singles: list[KerasTrial]) -> Candidate | None:
    """All the options together (the best value of each), measured only when each alone earned
    ``OPTION_GAIN`` over ``graph`` (the program's configuration in graph mode): an option that does
    not pay alone is not advised, so its combination need not be measured."""
    winners = [t for t in singles if usable(t) and (t.step_s or 0.0) * _gain(t.options) <= (graph.step_s or 0.0)]
    best: dict[str, KerasTrial] = {}
    for t in sorted(winners, key=lambda t: -(t.step_s or 0.0)):
        for key in t.options:
            if key != "run_eagerly":
                best[key] = t  # the fastest trial setting this option wins
    if len(set(map(id, best.values()))) < 2:
        return None
    options: dict[str, Any] = {}
    for t in best.values():
        options.update(t.options)
    return Candidate(", ".join(f"{k}={v}" for k, v in options.items() if k != "run_eagerly"), options)


def steps_per_execution(setup: Setup, step_s: float | None) -> list[int]:
    """The values to try: none when it is already set, when a callback acts per batch (it would see
    every N-th batch only) or when a graph step is long enough that the loop's overhead is noise;
    else ``SPE_VALUES`` halved until an epoch holds two executions (distinct values only)."""
    if setup.steps_per_execution > 1 or setup.batch_callbacks or step_s is None or step_s > SPE_MAX_STEP_S:
        return []
    out: list[int] = []
    for value in SPE_VALUES:
        while setup.steps_per_epoch and value > setup.steps_per_epoch // 2:
            value //= 2  # at least two executions an epoch
        if value >= 4 and value not in out:
            out.append(value)
    return out


def equivalent(logs: float, weights: float, noise: tuple[float, float] | None) -> bool:
    """Same results: the final logs and the weights after the same steps from the same start agree
    within ``EQ_LOGS``/``EQ_WEIGHTS`` plus ``NOISE_FACTOR`` times what other random draws change."""
    noise_logs, noise_weights = noise or (0.0, 0.0)
    return logs <= EQ_LOGS + NOISE_FACTOR * noise_logs and weights <= EQ_WEIGHTS + NOISE_FACTOR * noise_weights


def usable(trial: KerasTrial) -> bool:
    return trial.error is None and trial.step_s is not None and trial.step_s > 0 and trial.equivalent is not False


def choose(baseline: KerasTrial, trials: list[KerasTrial], key: str = "options") -> KerasTrial:
    """The fastest usable trial, with every option (or edit) that does not earn ``OPTION_GAIN`` over
    the same trial without it dropped; ``baseline`` unless that beats it by ``OPTION_GAIN``.
    ``key``: ``options`` (compile) or ``pipeline`` (edits)."""
    ok = [t for t in trials if usable(t)]
    if not ok or not usable(baseline):
        return baseline
    best = _lightest(min(ok, key=lambda t: t.step_s or 0.0), ok, key)
    if (best.step_s or 0.0) * OPTION_GAIN > (baseline.step_s or 0.0):
        return baseline
    return _larger_spe(best, ok) if key == "options" else best


SPE_TIE = 1.05  # a larger steps_per_execution this close to the fastest is taken instead


def _larger_spe(best: KerasTrial, ok: list[KerasTrial]) -> KerasTrial:
    """The same options with a larger ``steps_per_execution`` when it measured as fast (within
    ``SPE_TIE``): more steps per call never cost per step, and at a few milliseconds a step two
    values differ by less than the noise (text program: 2.88 ms at 32, 2.95 ms at 64; by hand 128
    ran its fit 1.2x faster than 32)."""
    value = best.options.get("steps_per_execution")
    if not value:
        return best
    rest = {k: v for k, v in best.options.items() if k != "steps_per_execution"}
    larger = [t for t in ok if (t.options.get("steps_per_execution") or 0) > value
              and {k: v for k, v in t.options.items() if k != "steps_per_execution"} == rest
              and (t.step_s or 0.0) <= (best.step_s or 0.0) * SPE_TIE]
    return max(larger, key=lambda t: t.options["steps_per_execution"], default=best)


def _lightest(best: KerasTrial, ok: list[KerasTrial], key: str) -> KerasTrial:
    while True:
        lighter = None
        for item in _items(best, key):
            without = next((t for t in ok if _items(t, key) == _items(best, key) - {item}), None)
            if without is not None and (without.step_s or 0.0) <= (best.step_s or 0.0) * _gain(dict([item]) if isinstance(item, tuple) else {}):
                lighter = without
                break
        if lighter is None:
            return best
        best = lighter


def _gain(options: dict[str, Any] | Any) -> float:
    """What an option must earn: ``XLA_GAIN`` for ``jit_compile``, else ``OPTION_GAIN``."""
    return XLA_GAIN if isinstance(options, dict) and options.get("jit_compile") else OPTION_GAIN


def xla_compiles(validates: bool, evaluates: bool, predicts: bool, partial_batches: bool) -> int:
    """How many XLA compiles a program makes with ``jit_compile=True``: one per Keras function it
    uses (train; test for validation or evaluate; predict), twice where a last batch is partial."""
    functions = 1 + (validates or evaluates) + predicts
    return functions * (2 if partial_batches else 1)


def _items(trial: KerasTrial, key: str) -> frozenset[Any]:
    if key == "pipeline":
        return frozenset(trial.pipeline)
    return frozenset((k, v) for k, v in trial.options.items() if k != "run_eagerly")


def pipeline_candidates(possible: list[str]) -> list[tuple[str, ...]]:
    """The pipeline edits to measure, as sets: every combination of the possible ones, with
    ``prefetch`` in each where it is possible (it only overlaps the step with the next batch). Each
    is measured because on a small machine parallel maps can compete with the step for cores (the
    text program on 2 cores: 1.6x slower with ``num_parallel_calls``, faster with ``cache()``)."""
    others = [e for e in possible if e != "prefetch"]
    base = ("prefetch",) if "prefetch" in possible else ()
    out = []
    for mask in range(1 << len(others)):
        chosen = tuple(e for i, e in enumerate(others) if mask >> i & 1)
        if base + chosen:
            out.append(base + chosen)
    return out


def cache_step_s(with_cache: float, without: float, epochs: float) -> float:
    """A step's time over the whole training with a cache: the first epoch fills it at the speed
    without it; the others read it."""
    if epochs <= 1:
        return without
    return (without + (epochs - 1) * with_cache) / epochs


@dataclass
class KerasDecision:
    verdict: Verdict
    options: dict[str, Any] = field(default_factory=dict)
    pipeline: list[str] = field(default_factory=list)
    speedup: float | None = None
    projected_s: float | None = None
    saved_s: float | None = None
    why: str = ""


def decide(baseline: KerasTrial | None, advised: KerasTrial | None, fit_s: float, extra_first_s: float = 0.0,
           *, options: dict[str, Any] | None = None, pipeline: list[str] | None = None) -> KerasDecision:
    """The verdict from the program's own data: ``baseline`` (as compiled, the pipeline as written)
    against ``advised`` (the chosen options and edits), both steady seconds per step; ``fit_s`` the
    observed fit time the speed-up is projected onto, ``extra_first_s`` one-time costs it adds (XLA's
    compile)."""
    options, pipeline = dict(options or {}), list(pipeline or [])
    what = _describe(options, pipeline)
    if not what:
        return KerasDecision(Verdict.KEEP, why="no compile option or pipeline edit measured faster with the same results")
    if baseline is None or advised is None or not usable(baseline) or not usable(advised):
        return KerasDecision(Verdict.KEEP, why=f"{what} could not be measured on the program's data")
    speedup = (baseline.step_s or 0.0) / (advised.step_s or 1.0)
    projected = fit_s / speedup + max(0.0, extra_first_s)
    if speedup < MIN_SPEEDUP:
        return KerasDecision(Verdict.KEEP, speedup=speedup, projected_s=fit_s, saved_s=0.0,
                             why=f"{what}: only {speedup:.2f}x per step on the program's data; advising needs {MIN_SPEEDUP}x")
    if projected >= fit_s:
        return KerasDecision(Verdict.KEEP, speedup=speedup, projected_s=fit_s, saved_s=0.0,
                             why=f"{what}: {speedup:.2f}x per step, but its one-time cost ({extra_first_s:.1f} s: "
                                 f"tracing{', XLA compiles' if options.get('jit_compile') else ''}) is more than it "
                                 f"saves over this run's fit ({fit_s:.1f} s)")
    return KerasDecision(Verdict.RECONFIGURE, options, pipeline, speedup, projected, fit_s - projected,
                         f"{what}: {speedup:.2f}x faster per training step on the program's data, same results")


def prefer(without_xla: KerasDecision, with_xla: KerasDecision | None) -> KerasDecision:
    """XLA's advice only when its projected fit time, compiles included, beats the advice without
    it by ``XLA_GAIN``: the time-series program's XLA gain per step (1.6x) was eaten by the compiles
    of its train and validation functions, while ``steps_per_execution`` alone paid."""
    if with_xla is None or with_xla.verdict is not Verdict.RECONFIGURE or with_xla.projected_s is None:
        return without_xla
    if without_xla.verdict is Verdict.RECONFIGURE and without_xla.projected_s is not None:
        return with_xla if with_xla.projected_s * XLA_GAIN <= without_xla.projected_s else without_xla
    return with_xla


def _describe(options: dict[str, Any], pipeline: list[str]) -> str:
    words = [f"{k}={v}" for k, v in options.items()]
    names = {"parallel_map": "num_parallel_calls=AUTOTUNE", "prefetch": "prefetch", "cache": "cache()"}
    words += [names.get(p, p) for p in pipeline]
    return ", ".join(words)


# -- findings ----------------------------------------------------------------------------------

INPUT_BOUND_NOTE = 0.3  # a step waiting this much on data is reported even when no edit helped


def findings(t: KerasTraining) -> list[Finding]:
    """TF606 at the compile() call for advised options; TF607 at the pipeline for advised edits (or,
    as a note, for a step that waits on data that no edit helped)."""
    out: list[Finding] = []
    projected = _projection(t)
    if t.verdict is Verdict.RECONFIGURE and t.options and t.compile_site is not None:
        words = ", ".join(f"{k}={v}" for k, v in t.options.items())
        out.append(_finding("TF606", t.compile_site, t.id,
                            f"compile({words}): {_speed(t)} for {t.model}'s fit, same losses and weights over "
                            f"the same steps{projected}"))
    sites = [e.site for e in t.pipeline_edits]
    share = f"a step waits on data {100 * (t.input_share or 0):.0f}% of its time"
    if t.verdict is Verdict.RECONFIGURE and sites:
        names = {"parallel_map": "num_parallel_calls=tf.data.AUTOTUNE on map (line {})",
                 "prefetch": ".prefetch(tf.data.AUTOTUNE) after line {}", "cache": ".cache() after line {}"}
        words = "; ".join(names[e.kind].format(e.site.line) for e in t.pipeline_edits)
        out.append(_finding("TF607", sites[0], t.id, f"{share}: {words}{'' if t.options else ': ' + _speed(t)}"
                            f"{'' if t.options else projected}"))
    elif (t.input_share or 0.0) >= INPUT_BOUND_NOTE and t.pipeline:
        first = next((s.site for s in t.pipeline if s.site is not None), None)
        if first is not None:
            out.append(_finding("TF607", first, t.id, f"{share}; no pipeline edit measured faster", Severity.INFO))
    return out


def _speed(t: KerasTraining) -> str:
    return f"{t.speedup:.2f}x faster per training step" if t.speedup else "faster"


def _projection(t: KerasTraining) -> str:
    if t.saved_s is None or not t.fit_s:
        return ""
    return f"; projected saving {t.saved_s:.2f} s of {t.fit_s:.2f} s in fit"


def _finding(code: str, site: CallSite, function: str, message: str, severity: Severity | None = None) -> Finding:
    rule = get_rule(code)
    assert rule is not None
    return Finding(rule=code, severity=severity or rule.severity, path=site.path, line=site.line, col=site.col,
                   end_line=site.end_line, end_col=site.end_col, function=function, message=message,
                   fix=FixInfo(safe=rule.fix == "safe", description=rule.fix_description) if rule.fix != "none" else None)
