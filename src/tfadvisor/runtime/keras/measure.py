"""Measuring the observed Keras trainings: the options ``advice/keras.py`` asks about, on the
user's own model and data, within a time budget, with the model put back as it was.

Per training (biggest ``fit`` time first), in this order (docs/decisions/0017-keras-fit.md):

1. fixed batches: the first batches of the program's own training data, drawn once and kept;
2. compile options on those batches (``trials.run_trial``): as compiled, the same with other
   random draws (what randomness alone changes), ``run_eagerly=False`` where it was on, then the
   candidates of ``advice.keras.candidates``, each compared with "as compiled" for equivalence;
3. the program's own data: as compiled against the chosen options, which gives the share of a
   step spent waiting on data; where that share matters and the project built the ``tf.data``
   pipeline, the pipeline rebuilt with ``num_parallel_calls``/``prefetch`` and with ``cache()``;
4. as compiled against the advice, measured again alternately (the machine may be shared), and
   ``advice.keras.decide``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tfadvisor.advice import keras as advice
from tfadvisor.model import Verdict
from tfadvisor.model_keras import KerasTraining, KerasTrial, PipelineEdit
from tfadvisor.runtime.keras.observe import CallRecord, CompileRecord, KerasObserver
from tfadvisor.runtime.keras.pipeline import Pipeline, describe, rebuild
from tfadvisor.runtime.keras.trials import (
    ModelState,
    Outcome,
    compile_arguments,
    distance,
    fixed_batches,
    run_trial,
    time_once,
)

MAX_TRAININGS = 3  # models measured per run, biggest fit time first
TARGET_TRIAL_S = 1.5  # timed steps per trial aim at this long (less when the budget is short)
MAX_EPOCH_S = 5.0  # the program's data is timed over a whole epoch when one takes at most this long
MIN_TIMED_STEPS = 10
MAX_TIMED_STEPS = 400
MIN_BUDGET_S = 5.0
ROUNDS = 3  # interleaved passes over the configurations on the program's data

Progress = Callable[[str], None]


def summarize(record: CompileRecord, observer: KerasObserver) -> KerasTraining:
    """What the run observed of one compiled model (no measurement)."""
    model = record.model
    site = record.site
    fits = [c for c in record.calls if c.kind == "fit"]
    fit_calls, fit_s = record.total("fit")
    evaluate_calls, evaluate_s = record.total("evaluate")
    predict_calls, predict_s = record.total("predict")
    name = str(getattr(model, "name", "model"))
    training = KerasTraining(
        id=f"{site.path}::<compile>@{site.line}" if site else f"<keras>::{name}",
        model=name, model_class=type(model).__name__, compile_site=site, compiled=dict(record.in_force),
        fit_calls=fit_calls, fit_s=round(fit_s, 6), fit_steps=sum(c.steps for c in fits),
        evaluate_calls=evaluate_calls, evaluate_s=round(evaluate_s, 6),
        predict_calls=predict_calls, predict_s=round(predict_s, 6),
    )
    main = _main_fit(record)
    if main is None:
        return training
    data = _fit_data(main)
    training.data = _data_kind(data.get("x"))
    training.batch_callbacks = _batch_callbacks(_fit_argument(main, "callbacks"))
    training.steps_per_epoch = _steps_per_epoch(main, data)
    pipeline = describe(observer, data.get("x")) if training.data == "tf.data.Dataset" else None
    if pipeline is not None:
        training.pipeline = pipeline.stages
    return training


def measure(record: CompileRecord, observer: KerasObserver, training: KerasTraining, budget_s: float,
            progress: Progress | None = None) -> None:
    """Fill ``training``'s trials and advice within ``budget_s`` seconds; the model is put back as
    the program left it whatever happens."""
    main = _main_fit(record)
    if main is None:
        training.skipped = "no fit call of the project's code"
        return
    data = _fit_data(main)
    if training.data not in ("tf.data.Dataset", "NumPy arrays", "tensors", "PyDataset"):
        training.skipped = f"training data of type {training.data} cannot be read twice"
        return
    if budget_s < MIN_BUDGET_S:
        training.skipped = "replay budget used up"
        return
    state = ModelState.save(record.model, compile_arguments(record.model, record.kwargs))
    compiles = advice.xla_compiles(
        validates=any(_fit_argument(c, "validation_data") is not None or _fit_argument(c, "validation_split")
                      for c in record.calls if c.kind == "fit"),
        evaluates=training.evaluate_calls > 0, predicts=training.predict_calls > 0,
        partial_batches=_partial_batches(data))
    try:
        measurement = _Measurement(training, state, data, observer, budget_s, progress, compiles)
        given = _fit_argument(main, "steps_per_epoch")
        measurement.program_steps_per_epoch = given if isinstance(given, int) and given > 0 else None
        measurement.run()
    finally:
        state.restore()


class _Measurement:
    def __init__(self, training: KerasTraining, state: ModelState, data: dict[str, Any], observer: KerasObserver,
                 budget_s: float, progress: Progress | None, xla_compiles: int = 1):
        self.training = training
        self.state = state
        self.data = data
        self.observer = observer
        self.deadline = time.perf_counter() + budget_s
        self.budget_s = budget_s
        self.progress = progress
        compiled = training.compiled
        self.setup = advice.Setup(
            run_eagerly=bool(compiled.get("run_eagerly")), jit_compile=bool(compiled.get("jit_compile")),
            steps_per_execution=int(compiled.get("steps_per_execution") or 1),
            steps_per_epoch=training.steps_per_epoch, batch_callbacks=bool(training.batch_callbacks),
            epochs=training.fit_steps / training.steps_per_epoch if training.steps_per_epoch else 1.0)
        values = advice.steps_per_execution(self.setup, 0.0)
        self.spe = max(values, default=None)  # the equivalence steps hold whole executions of every value
        self.steps_eq = self.spe or 8
        self.observed_step_s = training.fit_s / training.fit_steps if training.fit_steps else None
        self.compiled_first: KerasTrial | None = None
        self.xla_compiles = xla_compiles
        self.program_steps_per_epoch: int | None = None  # fit's steps_per_epoch, when the program gave one

    # -- steps and time ----------------------------------------------------------------------------

    def left(self) -> float:
        return self.deadline - time.perf_counter()

    def time_limit(self) -> float:
        """Seconds of timed steps per trial: ``TARGET_TRIAL_S``, less on a short budget."""
        return min(TARGET_TRIAL_S, self.budget_s / 16)

    def timed_steps(self, program_data: bool) -> tuple[int | None, int, float]:
        """(steps per epoch, epochs, time limit) of a timed fit. Fixed batches repeat: whole
        executions until the time limit. The program's data runs its own epochs, as the program
        ran them: a warm-up epoch and a timed one where an epoch is short (its start refills shuffle
        buffers: part of what a step costs), else part of one epoch until the time limit."""
        unit = self.spe or 1
        epoch_s = self.epoch_s()
        if program_data and self.training.steps_per_epoch:
            if epoch_s is not None and epoch_s <= min(MAX_EPOCH_S, self.budget_s / 16):
                timed = 2 if epoch_s <= MAX_EPOCH_S / 2 else 1  # the faster of two, when they are short
                return None, 1 + timed, 4 * MAX_EPOCH_S
            return None, 1, self.time_limit()
        return max(MIN_TIMED_STEPS, int(math.ceil(MAX_TIMED_STEPS / unit) * unit)), 1, self.time_limit()

    def epoch_s(self) -> float | None:
        t = self.training
        if not (t.fit_steps and t.steps_per_epoch):
            return None
        return t.fit_s / t.fit_steps * t.steps_per_epoch

    def affordable(self, step_s: float | None, eq_steps: int, program_data: bool = False) -> bool:
        epochs = self.timed_steps(True)[1] if program_data else 1
        timed = epochs * (self.epoch_s() or 0.0) if epochs > 1 else self.time_limit()
        return self.left() > 3.0 + timed + 2.0 * (step_s or 0.05) * eq_steps

    # -- the phases ------------------------------------------------------------------------------

    def run(self) -> None:
        t = self.training
        fixed = fixed_batches(self.data, self.steps_eq)
        if fixed is None:
            t.skipped = "the training data could not be drawn as fit draws it"
            return
        fixed_ds = fixed[0]
        chosen = self.compile_options(fixed_ds)
        if chosen is not None:
            self.program_data(chosen, chosen)

    def trial(self, name: str, options: dict[str, Any], *, eq_data: Any, time_data: dict[str, Any],
              step_s: float | None, pipeline: tuple[str, ...] = (), reseed: int | None = None,
              program_data: bool = False) -> Outcome | None:
        if not self.affordable(step_s, self.steps_eq if eq_data is not None else 0, program_data):
            self.training.assumptions.append(f"{name}: not measured (replay budget used up)")
            return None
        if self.progress:
            self.progress(f"{self.training.model}: {name}")
        trial = KerasTrial(name=name, options=dict(options), pipeline=list(pipeline),
                           data="program's data" if program_data else "fixed batches")
        steps, epochs, limit = self.timed_steps(program_data)
        outcome = run_trial(self.state, trial, eq_data=eq_data, time_data=time_data,
                            steps_eq=self.steps_eq if eq_data is not None else 0,
                            steps_time=0 if reseed is not None else steps, epochs=epochs,
                            time_limit_s=limit, reseed=reseed)
        if reseed is None:
            self.training.trials.append(trial)
        return outcome

    def compile_options(self, fixed: Any) -> KerasTrial | None:
        """Compile options on fixed batches: the chosen trial (as compiled when nothing beat it)."""
        t = self.training
        on_fixed = {"x": fixed}
        base = self.trial(advice.AS_COMPILED, {}, eq_data=fixed, time_data=on_fixed, step_s=self.observed_step_s)
        if base is None or base.trial.error or base.snapshot is None:
            t.skipped = "the model could not be trained again" + (f" ({base.trial.error})" if base else "")
            return None
        start = self.state.start_values()
        noise_run = self.trial("as compiled, other random draws", {}, eq_data=fixed, time_data=on_fixed,
                               step_s=None, reseed=1)
        noise = distance(base.snapshot, noise_run.snapshot, start) if noise_run and noise_run.snapshot else None
        if noise is not None and max(noise) > 0:
            t.assumptions.append("the same steps from the same start do not give the same weights (random draws or "
                                 "nondeterministic kernels): results compared within what other draws change")
        results: list[KerasTrial] = []
        graph_step = base.trial.step_s
        graph = advice.base_options(self.setup)
        if graph:
            eager_off = self.trial("run_eagerly=False", graph, eq_data=fixed, time_data=on_fixed,
                                   step_s=(base.trial.step_s or 0.0) / 3)
            if eager_off is not None:
                self._judge(eager_off, base, noise, start)
                results.append(eager_off.trial)
                graph_step = eager_off.trial.step_s if advice.usable(eager_off.trial) else None
            if graph_step is None:
                return base.trial
        graph_trial = results[-1] if results else base.trial
        singles: list[KerasTrial] = []
        for candidate in advice.candidates(self.setup, graph_step):
            outcome = self.trial(candidate.name, candidate.options, eq_data=fixed, time_data=on_fixed,
                                 step_s=graph_step)
            if outcome is not None:
                self._judge(outcome, base, noise, start)
                singles.append(outcome.trial)
        together = advice.combination(graph_trial, singles)
        if together is not None:
            outcome = self.trial(together.name, together.options, eq_data=fixed, time_data=on_fixed,
                                 step_s=graph_step)
            if outcome is not None:
                self._judge(outcome, base, noise, start)
                singles.append(outcome.trial)
        results += singles
        chosen = advice.choose(base.trial, results)
        t.equivalent = chosen.equivalent if chosen is not base.trial else None
        return chosen

    def _judge(self, outcome: Outcome, base: Outcome, noise: tuple[float, float] | None, start: dict[str, Any]) -> None:
        trial = outcome.trial
        if trial.error or outcome.snapshot is None or base.snapshot is None:
            return
        logs, weights = distance(base.snapshot, outcome.snapshot, start)
        trial.equivalent = advice.equivalent(logs, weights, noise)
        if not trial.equivalent:
            trial.differences.append(f"final logs differ by {logs:.2%}, weights by {weights:.1%} of the distance "
                                     f"they moved over {self.steps_eq} steps")

    def program_data(self, chosen: KerasTrial, compute: KerasTrial) -> None:
        """On the program's own data, timed in interleaved rounds (each configuration's fastest pass
        counts: a shared machine only ever slows a pass): as compiled, the chosen options without
        XLA, the same with each pipeline edit combination, and the chosen options with XLA when they
        have it; then the decision (XLA's only if it beats the rest by ``XLA_GAIN``, compiles paid)."""
        t = self.training
        xla = dict(chosen.options) if chosen.options.get("jit_compile") else None
        options = {k: v for k, v in chosen.options.items() if k != "jit_compile"}
        pipeline = describe(self.observer, self.data.get("x")) if t.data == "tf.data.Dataset" else None
        variants = [_Variant(advice.AS_COMPILED, {}, (), self.data)]
        if options:
            variants.append(_Variant(_name(options), options, (), self.data))
        if xla:
            variants.append(_Variant(_name(xla), xla, (), self.data))
        if pipeline is not None:
            variants += self._pipeline_variants(pipeline, options)
        if len(variants) == 1:
            t.why = "no compile option or pipeline edit measured faster with the same results"
            return
        trials = self.rounds(variants)
        base = trials[0]
        plain = trials[1] if options else base
        if not advice.usable(base):
            t.why = "the program's data could not be measured again" + (f" ({base.error})" if base.error else "")
            return
        fixed = next((x for x in t.trials if x.data == "fixed batches" and x.options == options), compute)
        if fixed.step_s and plain.step_s:  # the same options on batches already in memory
            t.input_share = round(max(0.0, 1.0 - fixed.step_s / plain.step_s), 4)
        edited = [x for x in trials if x.pipeline]
        for x in edited:  # the first epoch fills the cache at the speed without it
            if "cache" in x.pipeline and x.step_s:
                without = next((y.step_s for y in edited if y.pipeline == [e for e in x.pipeline if e != "cache"]),
                               plain.step_s)
                x.step_s = advice.cache_step_s(x.step_s, without or x.step_s, self.setup.epochs)
        best = advice.choose(plain, edited, key="pipeline") if advice.usable(plain) else base
        edits = list(best.pipeline)
        if best is base or not advice.usable(best):
            options, edits, best = {}, [], base
        decision = self.decision(base, best, options, edits, fixed)
        xla_trial = next((x for x in trials if xla and x.options == xla and not x.pipeline), None)
        if xla and xla_trial is not None and advice.usable(xla_trial):
            decision = advice.prefer(decision, self.decision(base, xla_trial, xla, [], compute))
        self.apply(decision)
        if decision.pipeline and t.verdict is Verdict.RECONFIGURE and pipeline is not None:
            t.pipeline_edits = _pipeline_edits(pipeline, decision.pipeline)

    def _pipeline_variants(self, pipeline: Pipeline, options: dict[str, Any]) -> list[_Variant]:
        out = []
        possible = [e for e, ok in (("parallel_map", pipeline.parallel_possible),
                                    ("prefetch", pipeline.prefetch_possible)) if ok]
        point = pipeline.cache_point()
        if point is not None:
            size = pipeline.cache_bytes(point)
            if size is not None and size <= advice.CACHE_MAX_BYTES:
                possible.append("cache")
            elif size is not None:
                self.training.assumptions.append(f"cache() not tried: it would hold {size / 2**20:.0f} MiB")
        for these in advice.pipeline_candidates(possible):
            try:
                dataset = rebuild(pipeline, these)
            except Exception as exc:
                self.training.assumptions.append(f"pipeline with {', '.join(these)} could not be built: {exc}")
                continue
            name = ", ".join(([_name(options)] if options else []) + list(these))
            out.append(_Variant(name, options, these, {"x": dataset}))
        return out

    def rounds(self, variants: list[_Variant]) -> list[KerasTrial]:
        """``ROUNDS`` passes over the variants, every other one in reverse order (as compiled and the
        advice each get an early and a late pass, and the model compiles less often); a variant's
        fastest pass is its step time. Rounds stop when the budget would not pay for one more."""
        t = self.training
        trials = [KerasTrial(name=v.name, options=dict(v.options), pipeline=list(v.edits), data="program's data")
                  for v in variants]
        whole = self.timed_steps(True)[1] > 1
        epoch_steps = self.program_steps_per_epoch
        cost = (self.epoch_s() or 0.0) if whole else self.time_limit()
        for number in range(ROUNDS):
            order = list(range(len(variants)))
            if number % 2:
                order.reverse()
            if number and self.left() < 3.0 + len(variants) * (cost + 1.0):
                t.assumptions.append(f"program's data measured in {number} round{'s' if number != 1 else ''} "
                                     "(replay budget)")
                break
            for index in order:
                variant, trial = variants[index], trials[index]
                if trial.error or self.left() < 2.0 + cost:
                    continue
                if self.progress:
                    self.progress(f"{t.model}: {variant.name} on the program's data")
                timing = time_once(self.state, variant.options, variant.data, whole_epoch=whole,
                                   epoch_steps=epoch_steps, time_limit_s=self.time_limit(),
                                   warmup_steps=max(2, 2 * (self.spe or 1)) if variant.options.get(
                                       "steps_per_execution") else 3)
                if timing.error:
                    trial.error = timing.error
                elif timing.step_s and (trial.step_s is None or timing.step_s < trial.step_s):
                    trial.step_s, trial.steps = timing.step_s, timing.steps
                if timing.first_s is not None and trial.first_s is None:
                    trial.first_s = timing.first_s
        t.trials += trials
        return trials

    def one_time_cost(self, options: dict[str, Any], program: tuple[KerasTrial, KerasTrial],
                      compute: KerasTrial) -> float:
        """What the advice costs once: its warm-up's extra cost on the program's data over as
        compiled's (tracing, XLA's compile), and with XLA at least a compile for each function and
        batch shape the program uses (test, predict, a last partial batch), priced like the train
        step's on fixed batches."""
        if not options:
            return 0.0
        fixed_base = next((x for x in self.training.trials if x.name == advice.AS_COMPILED), None)
        cost = _one_time(program, (fixed_base, compute))
        if options.get("jit_compile") and fixed_base is not None and fixed_base.first_s is not None:
            per_compile = max([(x.first_s or 0.0) - fixed_base.first_s for x in self.training.trials
                               if x.options.get("jit_compile") and x.data == "fixed batches" and x.first_s is not None],
                              default=0.0)
            cost = max(cost, per_compile * self.xla_compiles)
        return cost

    def decision(self, base: KerasTrial, best: KerasTrial, options: dict[str, Any], edits: list[str],
                 compute: KerasTrial) -> advice.KerasDecision:
        t = self.training
        compiled = next((x for x in t.trials if x.data == "program's data" and x.options == options
                         and x.first_s is not None), best)
        extra = self.one_time_cost(options, (base, compiled), compute)
        return advice.decide(base, best, t.fit_s, extra, options=options, pipeline=edits)

    def apply(self, decision: advice.KerasDecision) -> None:
        t = self.training
        t.verdict = decision.verdict
        t.why = decision.why
        t.speedup = None if decision.speedup is None else round(decision.speedup, 3)
        t.projected_s = None if decision.projected_s is None else round(decision.projected_s, 6)
        t.saved_s = None if decision.saved_s is None else round(decision.saved_s, 6)
        if decision.verdict is Verdict.RECONFIGURE:
            t.options = decision.options
            same = next((x for x in t.trials if x.data == "fixed batches" and x.options == decision.options), None)
            t.equivalent = same.equivalent if same is not None and decision.options else None


@dataclass
class _Variant:
    """A configuration timed on the program's data: compile options and the data fit gets."""

    name: str
    options: dict[str, Any]
    edits: tuple[str, ...]
    data: dict[str, Any]


def _one_time(program: tuple[KerasTrial, KerasTrial], fixed: tuple[KerasTrial | None, KerasTrial]) -> float:
    """What the advice adds once (tracing, XLA compiles): the advised first epoch's extra cost over
    as compiled on the program's data when both ran whole epochs, else the first executions on
    fixed batches."""
    base, best = program
    if base.first_s is not None and best.first_s is not None and base.data == best.data == "program's data":
        return max(0.0, best.first_s - base.first_s)
    fixed_base, compute = fixed
    if fixed_base is not None and fixed_base.first_s is not None and compute.first_s is not None:
        return max(0.0, compute.first_s - fixed_base.first_s)
    return 0.0


def _pipeline_edits(pipeline: Pipeline, edits: list[str]) -> list[PipelineEdit]:
    """Where ``fix`` makes each edit: every sequential map; the last stage (prefetch); the cache point."""
    out = []
    if "parallel_map" in edits:
        out += [PipelineEdit("parallel_map", s.site) for s in pipeline.stages
                if s.method == "map" and not s.parallel and s.site is not None]
    if "cache" in edits:
        point = pipeline.cache_point()
        site = pipeline.stages[point].site if point is not None else None
        if site is not None:
            out.append(PipelineEdit("cache", site))
    if "prefetch" in edits and pipeline.stages[-1].site is not None:
        out.append(PipelineEdit("prefetch", pipeline.stages[-1].site))
    return out


def _name(options: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in options.items())


def _main_fit(record: CompileRecord) -> CallRecord | None:
    fits = [c for c in record.calls if c.kind == "fit" and c.error is None]
    return max(fits, key=lambda c: c.wall_s, default=None)


_FIT_PARAMETERS = ("x", "y", "batch_size", "epochs", "verbose", "callbacks", "validation_split", "validation_data",
                   "shuffle", "class_weight", "sample_weight", "initial_epoch", "steps_per_epoch")


def _fit_argument(call: CallRecord, name: str) -> Any:
    if name in call.kwargs:
        return call.kwargs[name]
    index = _FIT_PARAMETERS.index(name)
    return call.args[index] if index < len(call.args) else None


def _fit_data(call: CallRecord) -> dict[str, Any]:
    """``fit``'s data arguments as the program passed them (keyword form)."""
    out = {}
    for name in ("x", "y", "batch_size", "sample_weight", "class_weight"):
        value = _fit_argument(call, name)
        if value is not None:
            out[name] = value
    return out


def _partial_batches(data: dict[str, Any]) -> bool:
    """Whether a last batch can be smaller than the others (another shape to compile); assumed for
    datasets, whose size is not known without reading them."""
    x: Any = data.get("x")
    batch = data.get("batch_size") or 32
    first = next(iter(x.values())) if isinstance(x, dict) else (x[0] if isinstance(x, (list, tuple)) else x)
    try:
        return len(first) % batch != 0
    except TypeError:
        return True


def _data_kind(x: Any) -> str:
    kind = type(x).__name__
    module = type(x).__module__ or ""
    if "tensorflow.python.data" in module:
        return "tf.data.Dataset"
    if kind == "ndarray":
        return "NumPy arrays"
    if "Tensor" in kind:
        return "tensors"
    if any(c.__name__ == "PyDataset" for c in type(x).__mro__):
        return "PyDataset"
    if isinstance(x, (dict, list, tuple)):
        return "NumPy arrays" if all(type(v).__name__ == "ndarray" for v in (x.values() if isinstance(x, dict) else x)) \
            else kind
    return kind


def _steps_per_epoch(call: CallRecord, data: dict[str, Any]) -> int | None:
    given = _fit_argument(call, "steps_per_epoch")
    if isinstance(given, int) and given > 0:
        return given
    x: Any = data.get("x")
    if _data_kind(x) == "tf.data.Dataset":
        try:
            count = int(x.cardinality().numpy())
        except Exception:
            return None
        return count if count > 0 else None
    batch = data.get("batch_size") or 32
    first = next(iter(x.values())) if isinstance(x, dict) else (x[0] if isinstance(x, (list, tuple)) else x)
    try:
        return max(1, math.ceil(len(first) / batch))
    except TypeError:
        return None


def _batch_callbacks(callbacks: Any) -> list[str]:
    """The program's callbacks that act on every batch: with steps_per_execution they would see
    every N-th batch only."""
    out = []
    for cb in callbacks or []:
        cls = type(cb)
        if (cls.__module__ or "").startswith("keras"):
            continue
        for hook in ("on_train_batch_begin", "on_train_batch_end", "on_batch_begin", "on_batch_end"):
            own = next((k for k in cls.__mro__ if hook in vars(k)), None)
            if own is not None and not (own.__module__ or "").startswith("keras"):
                out.append(cls.__name__)
                break
    return out
