"""Replaying the sampled calls of one observed function: eager against graph (and XLA), in-process.

Why in the observing process and not in the engine's child process (``supervisor``): a sampled
call of a real program holds live objects (the Keras model, its optimizer, ``self``, variables)
that cannot be pickled to a child or rebuilt there. The program has ended when replay starts, so
running its functions again here is safe; what replay changes (variables, the Python state it
can reach) is saved first and put back in place after every phase (``replay_state``: same
objects, same values), and every phase starts from the same seeds and generator states
(``rng``). The building blocks are the engine's:
``timing.measure`` (calibrated steady state), ``equivalence.to_plain``/``differences`` (results
compared with dtype-aware tolerances) and ``signature.explain`` (why a call retraced).

Each function gets a wall-clock limit (SIGALRM in the main thread); a replay that raises or
overruns is reported for that function only.
"""

from __future__ import annotations

import contextlib
import io
import signal
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from tfadvisor.advice.policy import RETRACING_TRACES
from tfadvisor.runtime import quiet
from tfadvisor.runtime.equivalence import Noise, differences, noisy_paths, to_plain
from tfadvisor.runtime.rng import NOISE_SEED, SEED, seed_all
from tfadvisor.runtime.run.observe import CallSample, FunctionStats, HostTensor
from tfadvisor.runtime.run.replay_state import ReplayState
from tfadvisor.runtime.timing import TimingConfig, measure


@dataclass
class OptionRun:
    """The function as a tf.function with one option, replayed on the observed signatures."""

    name: str  # "reduce_retracing", or "input_signature" (Python numbers as tensors, shapes relaxed)
    dtypes: dict[str, str] = field(default_factory=dict)  # input_signature: argument path -> dtype that worked
    graph_s: float | None = None  # per call, the main signature, steady state
    trace_s: float | None = None  # its first call minus a steady one
    traces: int | None = None  # traces over the replayed signatures
    equivalent: bool | None = None
    differences: list[str] = field(default_factory=list)
    error: str | None = None


@dataclass
class Replay:
    """What replay measured for one function (per-call seconds, steady state)."""

    key: str
    eager_s: float | None = None
    graph_s: float | None = None
    graph_first_s: float | None = None
    trace_s: float | None = None
    xla_s: float | None = None
    xla_first_s: float | None = None  # the first XLA call: trace and compile included
    xla_error: str | None = None
    xla_equivalent: bool | None = None  # XLA's first two results against eager's (RNG kernels differ)
    graph_error: str | None = None
    equivalent: bool | None = None
    differences: list[str] = field(default_factory=list)
    random_values: list[str] = field(default_factory=list)  # where eager's two runs drew differently
    options: dict[str, OptionRun] = field(default_factory=dict)
    error: str | None = None  # the replay itself failed (eager call raised, time limit)
    seconds: float = 0.0
    has_tensors: bool = False  # any tensor among the arguments or results
    # What it printed differs between modes (print runs only while tracing); lines that announce a
    # trace ("tracing ...") are left out, as ``check`` leaves such prints alone (TF201). Whether the
    # rest counts as a difference is the projection's call: it knows what ``check`` said.
    printed_difference: str | None = None

    @property
    def tensorized(self) -> OptionRun | None:
        """Python numbers passed as tensors (what ``fix`` does at call sites for ``as_tensors``)."""
        return self.options.get("input_signature")


class ReplayTimeout(Exception):
    pass


def materialize(value: Any) -> Any:
    """Host copies back to tensors (same dtype), containers rebuilt, other objects as they are."""
    cls = type(value)
    if cls is HostTensor:
        import tensorflow as tf

        return tf.constant(value.array, dtype=value.dtype)
    if cls is tuple or cls is list:
        return cls(materialize(v) for v in value)
    if cls is dict:
        return {k: materialize(v) for k, v in value.items()}
    return value


def replay(stats: FunctionStats, *, limit_s: float, run_xla: bool = True, try_tensors: bool = False) -> Replay:
    """Measure one function on its sampled calls within ``limit_s`` seconds; never raises, and
    leaves every object it touched as it found it (``replay_state``). ``try_tensors``: replay its
    Python numbers as tensors even without retraces seen (``check`` says they change from call to
    call, which a short run may not show)."""
    out = Replay(stats.key)
    start = time.perf_counter()
    if not stats.samples:
        out.error = "no call was sampled (memory budget reached, or only called while tracing)"
        return out
    try:
        state = ReplayState(stats)
    except Exception as exc:  # a reachable object that cannot be read: not replayed, nothing touched
        out.error = f"replay failed: cannot save the state it could change: {_one_line(exc)}"
        return out
    try:
        with _time_limit(limit_s), contextlib.redirect_stdout(io.StringIO()), quiet.measuring():
            _replay(stats, out, state, limit_s, run_xla, try_tensors)
    except ReplayTimeout:
        if out.eager_s is not None and (out.graph_s is not None or out.graph_error is not None):
            # the core numbers are in; only the optional phases (other signatures, options, XLA) are missing
            if out.xla_s is None and out.xla_error is None:
                out.xla_error = f"timeout: not measured within the replay's time limit ({limit_s:.0f} s)"
        else:
            out.error = f"replay stopped after its time limit ({limit_s:.0f} s)"
    except KeyboardInterrupt:
        out.error = "replay interrupted"
        raise
    except Exception as exc:  # the eager call itself failed on replay
        out.error = f"replay failed: {_one_line(exc)}"
    finally:
        try:
            state.restore()
        except Exception:
            pass
        out.seconds = time.perf_counter() - start
    return out


def _fresh(state: ReplayState, tf_seed: int = SEED) -> None:
    """Every phase starts from the state the program left, with the same seeds."""
    state.restore()
    seed_all(tf_seed)


@dataclass
class _Observed:
    """Two calls' results, the variables and the Python state after them, and what was printed."""

    results: Any
    variables: list[Any]
    python: dict[str, Any]
    printed: str


def _observe_two_calls(fn: Callable[..., Any], args: tuple, kwargs: dict, state: ReplayState) -> _Observed:
    results, printed = _two_calls(fn, args, kwargs)
    return _Observed(results, state.snapshot_variables(), state.snapshot_python(), printed)


def _noise(first: _Observed, again: _Observed) -> dict[str, Noise]:
    noise = noisy_paths(first.results, again.results, "result")
    noise.update(noisy_paths(first.variables, again.variables, "variables"))
    for label in first.python:
        noise.update(noisy_paths(first.python[label], again.python.get(label), label))
    return noise


def _compare(eager: _Observed, other: _Observed, noise: dict[str, Noise]) -> list[str]:
    diffs = differences(eager.results, other.results, "result", noise=noise)
    diffs += differences(eager.variables, other.variables, "variables", noise=noise)
    for label in eager.python:
        diffs += differences(eager.python[label], other.python.get(label), label, noise=noise)
    return diffs


def _replay(stats: FunctionStats, out: Replay, state: ReplayState, limit_s: float, run_xla: bool,
            try_tensors: bool = False) -> None:
    import tensorflow as tf

    started = time.perf_counter()
    fn = stats.function
    sample = _main_sample(stats)
    args, kwargs = materialize(sample.args), materialize(sample.kwargs)
    per_mode = TimingConfig(budget_s=max(0.05, min(1.0, limit_s / 8)), max_rounds=20)

    # Equivalence first, from the same starting state: two calls each (graph side effects show on
    # the second); eager twice, the second time with TensorFlow's global seed changed, to tell
    # random draws (which no mode reproduces) from real differences.
    _fresh(state)
    eager = _observe_two_calls(fn, args, kwargs, state)
    out.has_tensors = _has_tensor((args, kwargs)) or _has_tensor(eager.results)
    _fresh(state, NOISE_SEED)
    noise = _noise(eager, _observe_two_calls(fn, args, kwargs, state))
    out.random_values = sorted(noise)[:5]
    eager_args = call_args = args
    if stats.tf_function is not None:
        graph = stats.tf_function
        if stats.is_method and args:
            graph = graph.__get__(args[0], type(args[0]))
            call_args = args[1:]
    else:
        graph = tf.function(fn)
    try:
        _fresh(state)
        first = time.perf_counter()
        graph(*call_args, **kwargs)
        out.graph_first_s = time.perf_counter() - first
        _fresh(state)
        observed = _observe_two_calls(graph, call_args, kwargs, state)
        diffs = _compare(eager, observed, noise)
        out.printed_difference = printed_difference(eager.printed, observed.printed)
        out.differences = diffs
        out.equivalent = not diffs
    except ReplayTimeout:
        raise
    except Exception as exc:
        out.graph_error = _one_line(exc)
    _fresh(state)

    out.eager_s = measure(lambda: fn(*eager_args, **kwargs), config=per_mode).median
    _fresh(state)
    if out.graph_error is None:
        out.graph_s = measure(lambda: graph(*call_args, **kwargs), config=per_mode).median
        _fresh(state)
        if stats.tf_function is None and out.graph_first_s is not None:
            out.trace_s = max(0.0, out.graph_first_s - out.graph_s)
            extra = _other_signature_traces(stats, graph, out.graph_s, state)
            if extra:
                out.trace_s = (out.trace_s + sum(extra)) / (1 + len(extra))
        else:
            out.trace_s = _fresh_trace_time(stats.function, eager_args, kwargs, out.graph_s, state)
        if len(stats.signatures) + (1 if stats.signatures_overflow else 0) >= RETRACING_TRACES:
            for name in ("input_signature", "reduce_retracing"):
                out.options[name] = _option(stats, name, eager, noise, state, per_mode)
        elif try_tensors and any(_has_number(s.args) or _has_number(s.kwargs) for s in stats.samples):
            out.options["input_signature"] = _option(stats, "input_signature", eager, noise, state, per_mode)
    run_xla = run_xla and out.has_tensors and out.graph_error is None and stats.tf_function is not None  # policy: XLA reconfigures
    if run_xla and time.perf_counter() - started > 0.6 * limit_s:
        out.xla_error = f"timeout: skipped, the replay's time limit ({limit_s:.0f} s) was nearly used"
    elif run_xla:
        try:
            xla = tf.function(fn, jit_compile=True)
            _fresh(state)
            compile_start = time.perf_counter()
            xla_results, _ = _two_calls(xla, eager_args, kwargs)
            two_calls_s = time.perf_counter() - compile_start
            out.xla_equivalent = not differences(eager.results, xla_results, "result", noise=noise)
            _fresh(state)
            out.xla_s = measure(lambda: xla(*eager_args, **kwargs), config=per_mode).median
            out.xla_first_s = max(out.xla_s, two_calls_s - out.xla_s)  # XLA's compile time is its price
        except ReplayTimeout:
            raise
        except Exception as exc:
            out.xla_error = _one_line(exc)
        _fresh(state)


def printed_difference(eager: str, graph: str) -> str | None:
    """How the printed output of two calls differs, trace announcements left out; None if alike."""
    def kept(text: str) -> list[str]:
        return [line for line in text.splitlines() if "trac" not in line.lower()]

    e, g = kept(eager), kept(graph)
    if e == g:
        return None
    return (f"printed output: {len(e)} lines in two calls eagerly, {len(g)} under tf.function "
            "(print runs only while tracing)")


def _two_calls(fn: Callable[..., Any], args: tuple, kwargs: dict) -> tuple[Any, str]:
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        first = to_plain(fn(*args, **kwargs))  # now: a returned variable changes with the next call
        second = to_plain(fn(*args, **kwargs))
    return (first, second), buffer.getvalue()


def _main_sample(stats: FunctionStats) -> CallSample:
    """A call of the most frequent signature, preferring one that was not the program's first call."""
    best = max(range(len(stats.signatures)), key=lambda i: stats.signatures[i].count) if stats.signatures else 0
    matching = [s for s in stats.samples if s.signature == best] or stats.samples
    return matching[1] if len(matching) > 1 else matching[0]


def _other_signature_traces(stats: FunctionStats, graph: Any, graph_s: float, state: ReplayState) -> list[float]:
    """Trace times for up to three other observed signatures (new shapes, new Python values)."""
    main = _main_sample(stats).signature
    times: list[float] = []
    seen = {main}
    for sample in stats.samples:
        if sample.signature in seen or len(times) >= 3:
            continue
        seen.add(sample.signature)
        try:
            args, kwargs = materialize(sample.args), materialize(sample.kwargs)
            start = time.perf_counter()
            graph(*args, **kwargs)
            times.append(max(0.0, time.perf_counter() - start - graph_s))
        except ReplayTimeout:
            raise
        except Exception:
            pass
        _fresh(state)
    return times


def _fresh_trace_time(fn: Callable[..., Any], args: tuple, kwargs: dict, graph_s: float, state: ReplayState) -> float | None:
    """Trace cost of an already-decorated function: first call of a fresh tf.function of it."""
    import tensorflow as tf

    try:
        fresh = tf.function(fn)
        start = time.perf_counter()
        fresh(*args, **kwargs)
        return max(0.0, time.perf_counter() - start - graph_s)
    except ReplayTimeout:
        raise
    except Exception:
        return None
    finally:
        _fresh(state)


def _option(stats: FunctionStats, name: str, eager: _Observed, noise: dict[str, Noise], state: ReplayState,
            config: TimingConfig) -> OptionRun:
    """Replay with an option against retracing over the observed signatures (the main one and up to
    three others): ``reduce_retracing=True`` as the calls were, or ``input_signature``: Python
    numbers as tensors (int32, else float32) and shapes relaxed, which is what an input_signature
    built from the observed signatures does. Do the retraces go away, and do results still match?"""
    import tensorflow as tf

    result = OptionRun(name)
    fn = stats.function
    distinct: dict[int, CallSample] = {}
    for sample in stats.samples:
        distinct.setdefault(sample.signature, sample)
    main = _main_sample(stats)
    candidates = [main] + [s for i, s in distinct.items() if i != main.signature][:3]
    if name == "input_signature" and not any(_has_number(s.args) or _has_number(s.kwargs) for s in candidates):
        dtypes: tuple[Any, ...] = (None,)  # tensors only: reduce_retracing relaxes their shapes as a signature would
    else:
        dtypes = (tf.int32, tf.float32) if name == "input_signature" else (None,)
    for dtype in dtypes:
        graph = tf.function(fn, reduce_retracing=True)
        try:
            observed = None
            for sample in candidates:
                args, kwargs = materialize(sample.args), materialize(sample.kwargs)
                if dtype is not None:
                    args = _numbers_to_tensors(args, dtype, result.dtypes, "arg")
                    kwargs = _numbers_to_tensors(kwargs, dtype, result.dtypes, "kw")
                _fresh(state)
                if sample is main:
                    first = time.perf_counter()
                    graph(*args, **kwargs)
                    first_s = time.perf_counter() - first
                    _fresh(state)
                    observed = _observe_two_calls(graph, args, kwargs, state)
                    _fresh(state)
                    result.graph_s = measure(lambda: graph(*args, **kwargs),  # noqa: B023 (called at once)
                                             config=config).median
                    result.trace_s = max(0.0, first_s - result.graph_s)
                else:
                    graph(*args, **kwargs)
            _fresh(state)
            result.traces = int(graph.experimental_get_tracing_count())
            result.error = None
            if observed is not None:
                result.differences = _compare(eager, observed, noise)
                result.equivalent = not result.differences
            return result
        except ReplayTimeout:
            raise
        except Exception as exc:
            result.error = _one_line(exc)
            result.dtypes.clear()
            _fresh(state)
    return result


def _numbers_to_tensors(value: Any, dtype: Any, used: dict[str, str], path: str) -> Any:
    import tensorflow as tf

    cls = type(value)
    if cls is int or cls is float:
        target = tf.float32 if cls is float else dtype
        used[path] = target.name
        return tf.constant(value, dtype=target)
    if cls is tuple or cls is list:
        return cls(_numbers_to_tensors(v, dtype, used, f"{path}[{i}]") for i, v in enumerate(value))
    if cls is dict:
        return {k: _numbers_to_tensors(v, dtype, used, f"{path}[{k!r}]") for k, v in value.items()}
    return value


def _has_number(value: Any) -> bool:
    cls = type(value)
    if cls is int or cls is float:
        return True
    if cls in (tuple, list):
        return any(_has_number(v) for v in value)
    if cls is dict:
        return any(_has_number(v) for v in value.values())
    return False


def _has_tensor(value: Any, depth: int = 0) -> bool:
    if depth > 6:
        return False
    if isinstance(value, (list, tuple)):
        return any(_has_tensor(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return any(_has_tensor(v, depth + 1) for v in value.values())
    name = type(value).__name__
    return name in ("EagerTensor", "ndarray", "ResourceVariable", "Variable") or (
        hasattr(value, "dtype") and hasattr(value, "shape") and hasattr(value, "numpy")
    )


@contextlib.contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    """Raise ReplayTimeout in the main thread after ``seconds`` (no limit off the main thread)."""
    if threading.current_thread() is not threading.main_thread() or seconds <= 0:
        yield
        return

    def _alarm(signum: int, frame: Any) -> None:
        raise ReplayTimeout()

    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


_one_line = quiet.error_line  # "ValueError: Cannot reshape ...", not "ValueError: in user code:"
