"""Replaying the sampled calls of one observed function: eager against graph (and XLA), in-process.

Why in the observing process and not in the engine's child process (``supervisor``): a sampled
call of a real program holds live objects (the Keras model, its optimizer, ``self``, variables)
that cannot be pickled to a child or rebuilt there. The program has ended when replay starts, so
running its functions again here is safe; what replay changes (variables, the Python state it
can reach) is saved first and restored afterwards. The building blocks are the engine's:
``timing.measure`` (calibrated steady state), ``equivalence.to_plain``/``differences`` (results
compared with dtype-aware tolerances) and ``signature.explain`` (why a call retraced).

Each function gets a wall-clock limit (SIGALRM in the main thread); a replay that raises or
overruns is reported for that function only.
"""

from __future__ import annotations

import contextlib
import copy
import io
import signal
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from tfadvisor.runtime.equivalence import differences, to_plain
from tfadvisor.runtime.observe import CallSample, FunctionStats, HostTensor
from tfadvisor.runtime.timing import TimingConfig, measure

_PLAIN_STATE = (list, dict, set, int, float, bool, str)


@dataclass
class Tensorized:
    """The function with its Python-number arguments passed as tensors (what input_signature does)."""

    dtypes: dict[str, str] = field(default_factory=dict)  # argument path -> dtype that worked
    graph_s: float | None = None
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
    tensorized: Tensorized | None = None
    error: str | None = None  # the replay itself failed (eager call raised, time limit)
    seconds: float = 0.0
    has_tensors: bool = False  # any tensor among the arguments or results


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


def replay(stats: FunctionStats, *, limit_s: float, run_xla: bool = True) -> Replay:
    """Measure one function on its sampled calls within ``limit_s`` seconds; never raises."""
    out = Replay(stats.key)
    start = time.perf_counter()
    if not stats.samples:
        out.error = "no call was sampled (memory budget reached, or only called while tracing)"
        return out
    state = _State(stats)
    try:
        with _time_limit(limit_s), contextlib.redirect_stdout(io.StringIO()):
            _replay(stats, out, state, limit_s, run_xla)
    except ReplayTimeout:
        if out.eager_s is not None and (out.graph_s is not None or out.graph_error is not None):
            # the core numbers are in; only the optional phases (other signatures, tensors, XLA) are missing
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


def _replay(stats: FunctionStats, out: Replay, state: _State, limit_s: float, run_xla: bool) -> None:
    import tensorflow as tf

    started = time.perf_counter()
    fn = stats.function
    sample = _main_sample(stats)
    args, kwargs = materialize(sample.args), materialize(sample.kwargs)
    per_mode = TimingConfig(budget_s=max(0.05, min(1.0, limit_s / 8)), max_rounds=20)

    # Equivalence first, from the same starting state: two calls each (graph side effects show on the second).
    eager_results, eager_printed = _two_calls(fn, args, kwargs)
    out.has_tensors = _has_tensor((args, kwargs)) or _has_tensor(eager_results)
    eager_plain = (eager_results, state.snapshot_variables(), state.snapshot_python())
    state.restore()
    eager_args = call_args = args
    if stats.tf_function is not None:
        graph = stats.tf_function
        if stats.is_method and args:
            graph = graph.__get__(args[0], type(args[0]))
            call_args = args[1:]
    else:
        graph = tf.function(fn)
    try:
        first = time.perf_counter()
        graph(*call_args, **kwargs)
        out.graph_first_s = time.perf_counter() - first
        state.restore()
        graph_results, graph_printed = _two_calls(graph, call_args, kwargs)
        graph_plain = (graph_results, state.snapshot_variables(), state.snapshot_python())
        diffs = differences(eager_plain[0], graph_plain[0], "result")
        diffs += differences(eager_plain[1], graph_plain[1], "variables")
        for label in eager_plain[2]:
            diffs += differences(eager_plain[2][label], graph_plain[2].get(label), label)
        if eager_printed != graph_printed:
            diffs.append(
                f"printed output: {eager_printed.count(chr(10))} lines in two calls eagerly, "
                f"{graph_printed.count(chr(10))} under tf.function (print runs only while tracing)"
            )
        out.differences = diffs
        out.equivalent = not diffs
    except ReplayTimeout:
        raise
    except Exception as exc:
        out.graph_error = _one_line(exc)
    state.restore()

    out.eager_s = measure(lambda: fn(*eager_args, **kwargs), config=per_mode).median
    state.restore()
    if out.graph_error is None:
        out.graph_s = measure(lambda: graph(*call_args, **kwargs), config=per_mode).median
        state.restore()
        if stats.tf_function is None:
            out.trace_s = max(0.0, out.graph_first_s - out.graph_s)
            extra = _other_signature_traces(stats, graph, out.graph_s, state)
            if extra:
                out.trace_s = (out.trace_s + sum(extra)) / (1 + len(extra))
        else:
            out.trace_s = _fresh_trace_time(stats.function, eager_args, kwargs, out.graph_s, state)
        if stats.tf_function is not None:
            out.tensorized = _tensorized(stats, eager_plain, state, per_mode)
    if run_xla and out.has_tensors and time.perf_counter() - started > 0.6 * limit_s:
        out.xla_error = f"timeout: skipped, the replay's time limit ({limit_s:.0f} s) was nearly used"
    elif run_xla and out.has_tensors:
        try:
            xla = tf.function(fn, jit_compile=True)
            compile_start = time.perf_counter()
            xla_results, _ = _two_calls(xla, eager_args, kwargs)
            two_calls_s = time.perf_counter() - compile_start
            out.xla_equivalent = not differences(eager_results, xla_results, "result")
            state.restore()
            out.xla_s = measure(lambda: xla(*eager_args, **kwargs), config=per_mode).median
            out.xla_first_s = max(out.xla_s, two_calls_s - out.xla_s)  # XLA's compile time is its price
        except ReplayTimeout:
            raise
        except Exception as exc:
            out.xla_error = _one_line(exc)
        state.restore()


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


def _other_signature_traces(stats: FunctionStats, graph: Any, graph_s: float, state: _State) -> list[float]:
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
        state.restore()
    return times


def _fresh_trace_time(fn: Callable[..., Any], args: tuple, kwargs: dict, graph_s: float, state: _State) -> float | None:
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
        state.restore()


def _tensorized(stats: FunctionStats, eager_plain: tuple, state: _State, config: TimingConfig) -> Tensorized:
    """Replay with Python numbers as tensors (int32, else float32): do the observed retraces go away?"""
    import tensorflow as tf

    result = Tensorized()
    fn = stats.function
    distinct: dict[int, CallSample] = {}
    for sample in stats.samples:
        distinct.setdefault(sample.signature, sample)
    main = _main_sample(stats)
    candidates = [main] + [s for i, s in distinct.items() if i != main.signature][:3]
    if not any(_has_number(s.args) or _has_number(s.kwargs) for s in candidates):
        result.error = "no Python number among the arguments"
        return result
    for dtype in (tf.int32, tf.float32):
        graph = tf.function(fn, reduce_retracing=True)
        try:
            outputs = None
            for sample in candidates:
                args = _numbers_to_tensors(materialize(sample.args), dtype, result.dtypes, "arg")
                kwargs = _numbers_to_tensors(materialize(sample.kwargs), dtype, result.dtypes, "kw")
                value = to_plain(graph(*args, **kwargs))
                if sample is main:
                    second = to_plain(graph(*args, **kwargs))
                    outputs = ((value, second), state.snapshot_variables(), state.snapshot_python())
                    state.restore()
                    result.graph_s = measure(lambda: graph(*args, **kwargs), config=config).median
                state.restore()
            result.traces = int(graph.experimental_get_tracing_count())
            result.error = None
            if outputs is not None:
                diffs = differences(eager_plain[0], outputs[0], "result")
                diffs += differences(eager_plain[1], outputs[1], "variables")
                result.differences = diffs
                result.equivalent = not diffs
            return result
        except ReplayTimeout:
            raise
        except Exception as exc:
            result.error = _one_line(exc)
            result.dtypes.clear()
            state.restore()
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


class _State:
    """The state a replay can change: reachable variables, and plain Python data it can reach."""

    def __init__(self, stats: FunctionStats):
        self.fn = stats.function
        roots = list(_reachable(self.fn))
        for sample in stats.samples:
            roots.extend(("argument", a) for a in sample.args)
            roots.extend(("argument", v) for v in sample.kwargs.values())
        self.variables = _find_variables([obj for _, obj in roots])
        self.saved_variables = [(v, v.numpy()) for v in self.variables]
        self.python = _python_roots(self.fn, stats)
        self.saved_python = {label: _copy_plain(obj) for label, (holder, name, obj) in self.python.items()}

    def snapshot_variables(self) -> list[Any]:
        return [to_plain(v) for v in self.variables]

    def snapshot_python(self) -> dict[str, Any]:
        return {label: to_plain(_current(holder, name, obj)) for label, (holder, name, obj) in self.python.items()}

    def restore(self) -> None:
        for var, value in self.saved_variables:
            var.assign(value)
        for label, (holder, name, obj) in self.python.items():
            _restore_plain(holder, name, obj, self.saved_python[label])


def _reachable(fn: Callable[..., Any]) -> Iterator[tuple[str, Any]]:
    code = getattr(fn, "__code__", None)
    if code is None:
        return
    globals_ = getattr(fn, "__globals__", {})
    for name in code.co_names:
        if name in globals_:
            yield name, globals_[name]
    for name, cell in zip(code.co_freevars, getattr(fn, "__closure__", None) or ()):
        try:
            yield name, cell.cell_contents
        except ValueError:
            pass


def _find_variables(roots: list[Any]) -> list[Any]:
    found: dict[int, Any] = {}
    for obj in roots:
        for var in _variables_of(obj):
            found.setdefault(id(var), var)
    return list(found.values())


def _variables_of(obj: Any, depth: int = 0) -> list[Any]:
    if depth > 3 or obj is None or isinstance(obj, (type, str, bytes, int, float, bool)):
        return []
    if _is_variable(obj):
        return [obj]
    if isinstance(obj, (list, tuple)):
        return [v for item in obj[:256] for v in _variables_of(item, depth + 1)]
    if isinstance(obj, dict):
        return [v for item in list(obj.values())[:256] for v in _variables_of(item, depth + 1)]
    if type(obj).__module__ in ("builtins", "numpy") or callable(obj) and not hasattr(obj, "variables"):
        return []
    try:
        variables = getattr(obj, "variables", None)
        if variables is not None and not callable(variables):
            return [v for v in list(variables) if _is_variable(v)]
    except Exception:
        return []
    return []


def _is_variable(obj: Any) -> bool:
    cls = type(obj)
    return "Variable" in cls.__name__ and hasattr(obj, "assign") and hasattr(obj, "numpy")


def _python_roots(fn: Callable[..., Any], stats: FunctionStats) -> dict[str, tuple[Any, str, Any]]:
    """Plain data the function can reach: ``label -> (holder dict, name, object)``."""
    out: dict[str, tuple[Any, str, Any]] = {}
    globals_ = getattr(fn, "__globals__", {})
    code = getattr(fn, "__code__", None)
    for name in getattr(code, "co_names", ()):
        value = globals_.get(name)
        if name in globals_ and isinstance(value, _PLAIN_STATE) and not isinstance(value, str):
            out[f"global `{name}`"] = (globals_, name, value)
    if stats.is_method and stats.samples and stats.samples[0].args:
        self = stats.samples[0].args[0]
        attrs = getattr(self, "__dict__", None)
        if isinstance(attrs, dict):
            for name, value in list(attrs.items()):
                if not name.startswith("_") and isinstance(value, (list, dict, set, int, float, bool)):
                    out[f"`self.{name}`"] = (attrs, name, value)
    return out


def _copy_plain(obj: Any) -> Any:
    try:
        return copy.deepcopy(obj)
    except Exception:
        return copy.copy(obj)


def _current(holder: dict, name: str, obj: Any) -> Any:
    return holder.get(name, obj) if isinstance(obj, (int, float, bool)) else obj


def _restore_plain(holder: dict, name: str, obj: Any, saved: Any) -> None:
    if isinstance(obj, list):
        obj[:] = saved
    elif isinstance(obj, (dict, set)):
        obj.clear()
        obj.update(saved)
    else:
        holder[name] = saved


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


def _one_line(exc: BaseException) -> str:
    lines = [line for line in str(exc).strip().splitlines() if line.strip()]
    text = lines[0] if lines else ""
    if len(text) > 300:
        text = text[:297] + "..."
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
