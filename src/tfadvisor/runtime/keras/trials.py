"""Bounded training runs of the user's own model with other compile options, state put back after.

A trial recompiles the model with the program's own ``compile`` arguments plus the options under
test (the same optimizer object, so its slots and step count are the program's), starts from the
state the program left (every model and optimizer variable, including Keras's seed-generator
states, and the process's random state: ``ModelState``), and runs ``fit`` for a few steps twice:
once on ``steps_eq`` steps whose end state is compared between options (same batches, same start:
``fixed_batches``), once on ``steps_time`` steps that are timed per execution by a callback. After
the last trial the model is recompiled as the program had it and every variable is assigned back.
"""

from __future__ import annotations

import contextlib
import io
import time
from dataclasses import dataclass, field
from typing import Any

from tfadvisor.model_keras import KerasTrial
from tfadvisor.runtime.rng import RandomState, seed_all

MAX_FIXED_BYTES = 256 * 1024 * 1024  # batches kept in memory for the fixed-batch trials


@dataclass
class Snapshot:
    """The end state of the equivalence steps: the last epoch's logs and each weight, as NumPy."""

    logs: dict[str, float]
    weights: dict[str, Any]


@dataclass
class Outcome:
    trial: KerasTrial
    snapshot: Snapshot | None = None


@dataclass
class ModelState:
    """Every variable of the model and its optimizer, and the random state, saved to put back."""

    model: Any
    compile_kwargs: dict[str, Any]
    values: list[tuple[Any, Any]] = field(default_factory=list)
    random: RandomState | None = None
    # The options the model is compiled with now (None: as the program left it): a trial with the
    # same options reuses the traced (and XLA-compiled) train function instead of compiling again.
    current: dict[str, Any] | None = None

    @classmethod
    def save(cls, model: Any, compile_kwargs: dict[str, Any]) -> ModelState:
        state = cls(model, dict(compile_kwargs))
        seen: set[int] = set()
        for v in _variables(model):
            if id(v) not in seen:
                seen.add(id(v))
                state.values.append((v, v.numpy()))
        state.random = RandomState()
        return state

    def rewind(self) -> None:
        for v, value in self.values:
            v.assign(value)

    def start_values(self) -> dict[str, Any]:
        return {_name(v): value for v, value in self.values if _is_weight(v)}

    def restore(self) -> None:
        """The model compiled as the program had it, every variable and the random state as found."""
        try:
            with _quiet():
                self.model.compile(**self.compile_kwargs)
                self.current = None
        finally:
            self.rewind()
            if self.random is not None:
                self.random.restore()


def _variables(model: Any) -> list[Any]:
    out = list(getattr(model, "variables", []))
    optimizer = getattr(model, "optimizer", None)
    if optimizer is not None:
        out += list(getattr(optimizer, "variables", []))
    return out


def _name(v: Any) -> str:
    return str(getattr(v, "path", None) or getattr(v, "name", "?"))


def _is_weight(v: Any) -> bool:
    """A model weight whose value the training computes (not a seed state or a counter)."""
    name = _name(v)
    return "seed_generator" not in name and "iteration" not in name


def compile_arguments(model: Any, recorded: dict[str, Any]) -> dict[str, Any]:
    """The program's ``compile`` arguments, with the model's own optimizer object (a string such
    as ``"adam"`` would build a new optimizer without the program's slots)."""
    kwargs = dict(recorded)
    if getattr(model, "optimizer", None) is not None:
        kwargs["optimizer"] = model.optimizer
    return kwargs


def fixed_batches(data: dict[str, Any], count: int) -> tuple[Any, int, float] | None:
    """Up to ``count`` batches of the program's training data as ``fit`` would see them, kept in
    memory, as a dataset that repeats them (every trial then trains on the same batches); also how
    many were kept and the seconds per batch it took to draw them (the pipeline alone)."""
    import tensorflow as tf
    from keras.src.trainers.data_adapters import get_data_adapter

    try:
        adapter = get_data_adapter(x=data.get("x"), y=data.get("y"), sample_weight=data.get("sample_weight"),
                                   batch_size=data.get("batch_size"), shuffle=False)
        dataset = adapter.get_tf_dataset()
    except Exception:
        return None
    batches: list[Any] = []
    shapes = None
    size = 0
    start = time.perf_counter()
    for batch in dataset.take(count):
        these = [tuple(t.shape) for t in tf.nest.flatten(batch)]
        if shapes is None:
            shapes = these
        elif these != shapes:
            continue  # a last partial batch: the trials compare full batches
        batches.append(batch)
        size += sum(int(t.numpy().nbytes) for t in tf.nest.flatten(batch))
        if size > MAX_FIXED_BYTES:
            break
    per_batch = (time.perf_counter() - start) / max(1, len(batches))
    if not batches:
        return None
    stacked = tf.nest.map_structure(lambda *xs: tf.stack(xs), *batches)
    return tf.data.Dataset.from_tensor_slices(stacked).repeat(), len(batches), per_batch


def run_trial(state: ModelState, trial: KerasTrial, *, eq_data: Any, time_data: dict[str, Any],
              steps_eq: int, steps_time: int | None, time_limit_s: float, epochs: int = 1,
              reseed: int | None = None) -> Outcome:
    """One configuration: ``steps_eq`` steps from the saved start (end state kept for comparison;
    ``reseed`` perturbs the seeds to see what randomness alone changes), then timed steps on
    ``time_data`` (``fit``'s data arguments): ``epochs`` epochs of ``steps_time`` steps (None: the
    data's own epochs), stopped ``time_limit_s`` after the first execution. With ``epochs`` >= 2 the
    step time is that of the last whole epoch after the first (start-of-epoch costs such as filling
    a shuffle buffer included, as the program pays them); else the executions' trimmed mean.
    Never raises: an error is the trial's."""
    model = state.model
    outcome = Outcome(trial)
    first: tuple[int, float] | None = None  # (steps in the first execution, its seconds from fit's start)
    try:
        with _quiet():
            state.rewind()
            seed_all()
            if state.current != trial.options:
                state.current = None
                model.compile(**{**state.compile_kwargs, **trial.options})
                state.current = dict(trial.options)
            if eq_data is not None and steps_eq:
                if reseed is not None:
                    _perturb_seeds(model, reseed)
                clock = _clock()
                history = model.fit(eq_data, epochs=1, steps_per_epoch=steps_eq, verbose=0, callbacks=[clock])
                first = clock.first()
                outcome.snapshot = Snapshot(_last_logs(history), _weights(model))
            if steps_time != 0 and reseed is None:
                clock = _clock(time_limit_s)
                model.fit(**time_data, epochs=epochs, steps_per_epoch=steps_time, verbose=0, callbacks=[clock])
                first = first or clock.first()
                whole = _whole_epoch(clock)
                trial.step_s, trial.steps = whole or _steady(clock.ends)
                if whole is not None:  # the first epoch's one-time costs: every trace and XLA compile
                    before, begin, after, end = clock.epochs[0]  # (a last partial batch is another shape)
                    first = (after - before, end - begin)
        if first is not None:  # what the first execution (or epoch) cost beyond its steps
            trial.first_s = max(0.0, first[1] - first[0] * (trial.step_s or 0.0))
    except Exception as exc:  # the option does not work for this model: that is the trial's result
        trial.error = _one_line(exc)
    return outcome


@dataclass
class Timing:
    """One timed pass of a configuration on the program's data."""

    step_s: float | None = None
    steps: int = 0
    first_s: float | None = None  # the warm-up's cost beyond its steps (only when it compiled)
    error: str | None = None


def time_once(state: ModelState, options: dict[str, Any], data: dict[str, Any], *, whole_epoch: bool,
              epoch_steps: int | None, time_limit_s: float, warmup_steps: int) -> Timing:
    """Time ``options`` on ``data`` (``fit``'s data arguments) once: compiled first if the model has
    other options (then ``warmup_steps`` steps trace it, and XLA compiles, untimed), then one whole
    epoch (``whole_epoch``: its start, which refills shuffle buffers, included as the program pays
    it) or part of one until ``time_limit_s``. The model keeps the options, so the next pass with
    the same options compiles nothing. ``epoch_steps``: the program's ``steps_per_epoch`` when it
    gave one (an endless dataset). Never raises."""
    model = state.model
    out = Timing()
    try:
        with _quiet():
            state.rewind()
            seed_all()
            warmup = None
            if state.current != options:
                state.current = None
                model.compile(**{**state.compile_kwargs, **options})
                state.current = dict(options)
                clock = _clock()
                start = time.perf_counter()
                model.fit(**data, epochs=1, steps_per_epoch=warmup_steps, verbose=0, callbacks=[clock])
                warmup = (clock.ends[-1][0] if clock.ends else warmup_steps, time.perf_counter() - start)
            clock = _clock(None if whole_epoch else time_limit_s)
            model.fit(**data, epochs=1, steps_per_epoch=epoch_steps or (None if whole_epoch else MAX_STEPS),
                      verbose=0, callbacks=[clock])
            if whole_epoch and clock.epochs and clock.epochs[0][3] is not None:
                before, begin, after, end = clock.epochs[0]
                out.step_s, out.steps = (end - begin) / max(1, after - before), after - before
            else:
                out.step_s, out.steps = _steady(clock.ends)
            if warmup is not None and out.step_s:
                out.first_s = max(0.0, warmup[1] - warmup[0] * out.step_s)
    except Exception as exc:
        out.error = _one_line(exc)
    return out


MAX_STEPS = 100_000  # a partial epoch's bound: the time limit stops it first


def _perturb_seeds(model: Any, offset: int) -> None:
    """Other random draws for the same steps: TensorFlow's global seed and Keras's seed states moved."""
    import tensorflow as tf

    tf.random.set_seed(offset)
    for v in getattr(model, "variables", []):
        if "seed_generator" in _name(v):
            v.assign(v + offset)


MIN_EXECUTIONS = 4  # a timed fit is not stopped before this many executions


def _clock(limit_s: float | None = None) -> Any:
    """A callback that stamps the end of every execution (one per ``steps_per_execution`` steps) with
    the steps run so far (across epochs) and, ``limit_s`` after the first execution ended (tracing
    is not counted), stops the fit: Keras checks ``stop_training`` after every execution."""
    import keras

    class Clock(keras.callbacks.Callback):
        def __init__(self) -> None:
            super().__init__()
            self.ends: list[tuple[int, float]] = []
            self.start = time.perf_counter()
            self.offset = 0  # steps of the epochs before this one
            self.epochs: list[list[Any]] = []  # [steps before, begin time, steps at its end, end time]

        def first(self) -> tuple[int, float] | None:
            return (self.ends[0][0], self.ends[0][1] - self.start) if self.ends else None

        def on_train_begin(self, logs: Any = None) -> None:
            self.start = time.perf_counter()

        def on_epoch_begin(self, epoch: int, logs: Any = None) -> None:
            self.offset = self.ends[-1][0] if self.ends else 0
            self.epochs.append([self.offset, time.perf_counter(), None, None])

        def on_epoch_end(self, epoch: int, logs: Any = None) -> None:
            if self.epochs:
                self.epochs[-1][2:] = [self.ends[-1][0] if self.ends else 0, time.perf_counter()]

        def on_train_batch_end(self, batch: int, logs: Any = None) -> None:
            now = time.perf_counter()
            self.ends.append((self.offset + batch + 1, now))
            if (limit_s is not None and len(self.ends) >= MIN_EXECUTIONS
                    and now - self.ends[0][1] > limit_s):
                self.model.stop_training = True

    return Clock()


def _whole_epoch(clock: Any) -> tuple[float, int] | None:
    """Seconds per step of the fastest whole epoch after the first (one that ran as many steps as
    the first): on a shared machine the fastest is the one the neighbours disturbed least."""
    epochs = [e for e in clock.epochs if e[3] is not None]
    if len(epochs) < 2:
        return None
    full = epochs[0][2] - epochs[0][0]
    times = [end - begin for before, begin, after, end in epochs[1:] if after - before == full and full > 0]
    return (min(times) / full, full * len(times)) if times else None


QUANTILE = 0.25  # of the executions' per-step times: robust to a neighbour's bursts, unlike the mean


def _steady(ends: list[tuple[int, float]]) -> tuple[float | None, int]:
    """Seconds per step after the first execution (tracing, iterator start): the ``QUANTILE`` of
    the executions' per-step times, weighted by their steps. A low quantile rather than the mean
    because the machine may be shared: every disturbance makes an execution slower, never faster,
    and options are compared with each other, each measured at another moment."""
    if len(ends) < 2:
        return None, 0
    rates = []
    for (step_a, t_a), (step_b, t_b) in zip(ends, ends[1:], strict=False):
        steps = step_b - step_a
        if steps <= 0:
            continue
        rates.append(((t_b - t_a) / steps, steps))
    if not rates:
        return None, 0
    rates.sort()
    total_steps = sum(s for _, s in rates)
    seen = 0
    for rate, steps in rates:
        seen += steps
        if seen >= QUANTILE * total_steps:
            return rate, total_steps
    return rates[-1][0], total_steps


def _last_logs(history: Any) -> dict[str, float]:
    """The epoch's losses (``loss`` and per-output ``*_loss``). Not the other metrics: a metric object
    the program passed to compile is reused by every trial's compile, and its first use after the
    program's own evaluate logs another value for the same predictions (seen with
    ``BinaryAccuracy(threshold=0.0)``); the weights and the loss are what training computes."""
    out = {}
    for key, values in (getattr(history, "history", None) or {}).items():
        if values and "loss" in key:
            try:
                out[key] = float(values[-1])
            except (TypeError, ValueError):
                pass
    return out


def _weights(model: Any) -> dict[str, Any]:
    return {_name(v): v.numpy() for v in getattr(model, "variables", []) if _is_weight(v)}


def distance(a: Snapshot, b: Snapshot, start: dict[str, Any]) -> tuple[float, float]:
    """(largest relative difference of a logged value, largest weight difference relative to how far
    the weights moved from ``start`` over the steps): the units ``advice/keras.equivalent`` reads."""
    import numpy as np

    logs = 0.0
    for key, value in a.logs.items():
        if key in b.logs:
            other: Any = b.logs[key]
            if not (np.isfinite(value) and np.isfinite(other)):
                logs = max(logs, 0.0 if value == other else float("inf"))
                continue
            logs = max(logs, abs(value - other) / max(abs(value), 1e-6))
    weights = 0.0
    for name, value in a.weights.items():
        weight: Any = b.weights.get(name)
        if weight is None or getattr(weight, "shape", None) != getattr(value, "shape", None):
            weights = float("inf")
            continue
        moved = float(np.linalg.norm((value - start[name]).astype("float64"))) if name in start else 0.0
        diff = float(np.linalg.norm((value - weight).astype("float64")))
        scale = moved + 1e-6 * (float(np.linalg.norm(value.astype("float64"))) + 1.0)
        weights = max(weights, diff / scale)
    return logs, weights


@contextlib.contextmanager
def _quiet() -> Any:
    """The trials' prints and warnings are not the program's output."""
    import warnings

    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()), \
            warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0][:200]}" if text else type(exc).__name__
