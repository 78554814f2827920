"""Measuring one function in one mode, inside the child process (imports TensorFlow).

For a mode: load the function and its calls afresh from the same seeds (``rng``; the calls as the
first mode built them), wrap the function (eager: the Python
function; graph: ``tf.function``; xla: ``tf.function(jit_compile=True)``), run the call sequence
once (first-call time, tracing count after every call, retrace reasons, outputs) and snapshot the
observable state (variables, Python containers the function can reach, the ``observe`` hook).
Once every mode is prepared, their steady states are timed together, rounds interleaved, so load
from other processes hits all modes alike (``time_modes``).
"""

from __future__ import annotations

import inspect
import os
import time
import types
from collections.abc import Callable, Mapping
from typing import Any

from tfadvisor.runtime import quiet, reach
from tfadvisor.runtime import signature as sig
from tfadvisor.runtime.equivalence import to_plain
from tfadvisor.runtime.profile.results import ErrorKind, ModeError, ModeRun, Where
from tfadvisor.runtime.profile.specs import JobSpec, Loaded, ResolveError, load_job, shippable_calls
from tfadvisor.runtime.rng import NOISE_SEED, SEED, find_generators, reset_global_generator, seed_all
from tfadvisor.runtime.timing import TimingConfig, measure_interleaved

MAX_COMPARED_CALLS = 20  # outputs kept for the equivalence check
EARLY_MAX_CALLS = 500  # calls timed one by one after the first pass (see _early_calls)
EARLY_BUDGET_S = 0.5
_PLAIN = (list, dict, set, int, float, bool, str, tuple, bytes, complex)

Send = Callable[[tuple], None]


def prepare_mode(spec: JobSpec, mode: str, send: Send, *, want_where: bool,
                 early: bool = True) -> tuple[ModeRun, Callable[[], None] | None]:
    """Load, first pass, state and (with ``early``) the early calls for ``mode``; returns the run and
    the call sequence to time (None when the mode failed). The eager mode also runs its calls a
    second time under another TensorFlow seed (``noise``): what differs there is random. Never
    raises for the user's errors (see ``ModeRun.error``)."""
    import tensorflow as tf

    run = ModeRun(mode=mode, first_pass_pid=os.getpid())  # type: ignore[arg-type]
    try:
        loaded, target, instance, raw, decorated, options = _load(spec, send)
        if want_where:
            send(("where", _where(raw, target, decorated, loaded.fn)))
    except ResolveError as exc:
        run.error = ModeError("resolve", str(exc), phase="load")
        return run, None
    except (Exception, SystemExit) as exc:  # the user's module, calls factory or fresh() raised (or exited)
        run.error = _error(exc, "load", None, eager=True)
        if run.error.kind == "raised":
            run.error.kind = "load"
        return run, None

    if mode == "eager":
        fn = raw
    elif mode == "graph":
        fn = target if decorated else tf.function(raw)
    else:
        fn = tf.function(raw, jit_compile=True, **options)
    calls = loaded.calls
    run.calls = len(calls)
    seed_all(SEED)

    run.phase = "first pass"
    send(("progress", mode, run.phase))
    if not _first_pass(run, fn, target, calls, mode):
        return run, None
    try:
        run.variables, run.state = _observable(loaded, raw, target, instance)
    except Exception as exc:
        run.error = ModeError("load", f"observing state failed: {type(exc).__name__}: {exc}", phase="observe")
        return run, None
    if early:
        run.early_times = _early_calls(fn, calls)
    if mode == "eager":
        _noise_pass(spec, run, send)
    run.phase = "timing"

    def sequence() -> None:
        for args, kwargs in calls:
            fn(*args, **kwargs)

    return run, sequence


def _load(spec: JobSpec, send: Send) -> tuple[Loaded, Any, Any, Any, bool, dict[str, Any]]:
    """The job loaded afresh from the same seeds; the first load of a job ships its calls (when
    plain data) and the starting state of the generators it reaches, for every later mode."""
    seed_all(SEED)
    reset_global_generator()
    loaded = load_job(spec, fresh=True)
    target, instance = _target(loaded)
    raw, decorated, options = _unwrap(target)
    generators = _generators(raw, instance)
    if spec.generator_states is None:
        spec.generator_states = {path: g.state.numpy() for path, g in generators.items()}
        send(("generator-states", spec.generator_states))
    else:
        for path, gen in generators.items():
            if path in spec.generator_states:
                gen.state.assign(spec.generator_states[path])
    if spec.calls_values is None:
        spec.calls_values = shippable_calls(loaded.calls)
        if spec.calls_values is not None:
            send(("calls-values", spec.calls_values))
    return loaded, target, instance, raw, decorated, options


def _first_pass(run: ModeRun, fn: Callable[..., Any], target: Any, calls: list, mode: str) -> bool:
    """Each call once, timed, with outputs, traces and retrace reasons; False if a call raised."""
    counter = getattr(fn, "experimental_get_tracing_count", None)
    traced_sigs: list[sig.Signature] = []
    count = 0
    for i, (args, kwargs) in enumerate(calls):
        start = time.perf_counter()
        try:
            out = fn(*args, **kwargs)
        except (Exception, SystemExit) as exc:  # sys.exit() in user code is its failure, not ours
            run.error = _error(exc, run.phase, i, eager=mode == "eager")
            run.traces = counter() if counter else None
            return False
        run.call_times.append(time.perf_counter() - start)
        if i < MAX_COMPARED_CALLS:
            run.outputs.append(to_plain(out))
        if counter is not None:
            now = counter()
            if now > count:
                signature = sig.signature_of(sig.bind_arguments(target, args, kwargs))
                if traced_sigs:
                    run.retraces.append(sig.explain(i, signature, traced_sigs))
                traced_sigs.append(signature)
                run.traced_calls.append(i)
                count = now
    run.traces = count if counter else None
    return True


def _observable(loaded: Loaded, raw: Any, target: Any, instance: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """The variables and the Python state the function can reach, made plain."""
    variables = _variables(raw, target, instance, loaded.calls)
    state = _python_state(raw, instance, loaded.calls)
    if loaded.observe is not None:
        observed = _call_observe(loaded.observe, instance)
        state.update({f"observe()[{k!r}]": to_plain(v) for k, v in dict(observed).items()})
    return variables, state


def _noise_pass(spec: JobSpec, run: ModeRun, send: Send) -> None:
    """Eager once more from the same state, TensorFlow's global seed changed (``rng.NOISE_SEED``):
    values that come out different were drawn by stateful random ops, which a graph draws
    differently too, so they are compared by statistics, not values. Best effort: a failure here
    only means no value is known to be random."""
    try:
        loaded, target, instance, raw, _, _ = _load(spec, send)
        seed_all(NOISE_SEED)
        again = ModeRun(mode="eager")
        if _first_pass(again, raw, target, loaded.calls, "eager"):
            variables, state = _observable(loaded, raw, target, instance)
            run.noise = (again.outputs, variables, state)
    except (Exception, SystemExit):
        run.noise = None


def _generators(raw: Any, instance: Any) -> dict[str, Any]:
    """The tf.random.Generator objects the function reaches, by a path stable across loads."""
    found: dict[str, Any] = {}
    for label, obj in _reachable(raw, instance):
        for gen in find_generators([obj]):
            found.setdefault(f"{label}#{len(found)}", gen)
    return found


def _early_calls(fn: Callable[..., Any], calls: list) -> list[float]:
    """Per-call times of up to ``EARLY_MAX_CALLS`` calls right after the first pass (the call
    sequence cycled, at most ``EARLY_BUDGET_S``): what a short workload pays before the steady
    state. Measured: ``sgd_step`` of benchmarks/profile_accuracy.py takes 0.33 ms a call as a
    tf.function over its first 200 calls in a fresh process, 0.21 ms after. A call that raises ends
    the phase (the steady-state timing meets the error again and reports it)."""
    times: list[float] = []
    spent = 0.0
    while calls and len(times) < EARLY_MAX_CALLS and spent < EARLY_BUDGET_S:
        args, kwargs = calls[len(times) % len(calls)]
        start = time.perf_counter()
        try:
            fn(*args, **kwargs)
        except (Exception, SystemExit):
            break
        times.append(time.perf_counter() - start)
        spent += times[-1]
    return times


def time_modes(prepared: dict[str, tuple[ModeRun, Callable[[], None]]], timing: TimingConfig) -> None:
    """Steady-state time of every prepared mode, rounds interleaved; fills ``stats`` or ``error``."""
    stats, errors = measure_interleaved({mode: seq for mode, (_, seq) in prepared.items()}, config=timing)
    for mode, (run, _) in prepared.items():
        if mode in errors:
            run.error = _error(errors[mode], "timing", None, eager=mode == "eager")
            continue
        s = stats[mode]
        n = max(run.calls, 1)
        s.median, s.q1, s.q3, s.mean = s.median / n, s.q1 / n, s.q3 / n, s.mean / n
        s.samples = [x / n for x in s.samples]
        run.stats = s
        run.phase = "done"


def _target(loaded: Loaded) -> tuple[Any, Any]:
    """The callable to measure, and the instance it is bound to (from ``fresh()``), if any."""
    fn = loaded.fn
    if loaded.fresh is None:
        return fn, getattr(fn, "__self__", None)
    obj = loaded.fresh()
    name = (getattr(fn, "__qualname__", None) or getattr(fn, "__name__", "") or "").split(".")
    if fn is not None and len(name) > 1 and "<locals>" not in name[-2:] and hasattr(obj, name[-1]):
        return getattr(obj, name[-1]), obj
    if callable(obj):
        return obj, getattr(obj, "__self__", obj)
    raise TypeError(f"fresh() returned a {type(obj).__name__} that is not callable and has no {name[-1]!r}")


def _unwrap(target: Any) -> tuple[Any, bool, dict[str, Any]]:
    """(Python function, is it a tf.function, the options to keep for XLA)."""
    if hasattr(target, "experimental_get_tracing_count") and hasattr(target, "python_function"):
        raw = getattr(target, "__wrapped__", None) or target.python_function
        options = {"input_signature": getattr(target, "input_signature", None)}
        if getattr(target, "_reduce_retracing", False):
            options["reduce_retracing"] = True
        return raw, True, options
    return target, False, {}


def _where(raw: Any, target: Any, decorated: bool, fn: Any) -> Where | None:
    func = inspect.unwrap(getattr(raw, "__func__", raw)) if callable(raw) else raw
    func = getattr(func, "weakrefself_func__", func)
    if isinstance(func, types.MethodType):
        func = func.__func__
    if not isinstance(func, types.FunctionType):
        call = getattr(type(target), "call", None) or getattr(type(target), "__call__", None)  # noqa: B004 (the method itself)
        func = call if isinstance(call, types.FunctionType) else None
    if func is None:
        return None
    try:
        lines, first = inspect.getsourcelines(func)
        path = inspect.getsourcefile(func) or func.__code__.co_filename
    except (OSError, TypeError):
        lines, first, path = [""], func.__code__.co_firstlineno, func.__code__.co_filename
    rel = os.path.relpath(path) if not os.path.relpath(path).startswith("..") else path
    qualname = getattr(fn, "__qualname__", None) or func.__qualname__
    return Where(rel, qualname, max(first, 1), max(first, 1) + max(len(lines), 1) - 1, decorated)


def _error(exc: BaseException, phase: str, call: int | None, *, eager: bool) -> ModeError:
    text = str(exc)
    name = type(exc).__name__
    kind: ErrorKind = "memory" if isinstance(exc, MemoryError) or name == "ResourceExhaustedError" else "raised"
    return ModeError(kind, f"{name}: {_headline(text)}", detail=text[:4000], exc_type=name, call=call, phase=phase)


_headline = quiet.headline  # the line of an AutoGraph error that says what went wrong; run uses it too


def _call_observe(observe: Any, instance: Any) -> Any:
    try:
        params: Mapping[str, Any] = inspect.signature(observe).parameters
    except (TypeError, ValueError):
        params = {}
    return observe(instance) if len(params) == 1 and instance is not None else observe()


def _reachable(raw: Any, instance: Any) -> list[tuple[str, Any]]:
    """(label, object) for what the function can reach: globals it names, closure cells, self."""
    out = [(r.label, r.value) for r in reach.reachable(raw)]
    if instance is not None:
        out.append(("`self`", instance))
    return out


def _variables(raw: Any, target: Any, instance: Any, calls: list) -> dict[str, Any]:
    """Values of the tf.Variables the function can reach (by a stable path, not TF's names)."""
    found: dict[str, Any] = {}
    seen: set[int] = set()

    def add(label: str, obj: Any) -> None:
        if reach.is_variable(obj):
            if id(obj) not in seen:
                seen.add(id(obj))
                found[label] = to_plain(obj)
            return
        variables = getattr(obj, "variables", None)
        if variables is None or isinstance(obj, type) or inspect.ismodule(obj):
            return
        try:
            items = list(variables() if callable(variables) else variables)
        except Exception:
            return
        for i, var in enumerate(items):
            if reach.is_variable(var) and id(var) not in seen:
                seen.add(id(var))
                found[f"{label}.variables[{i}]"] = to_plain(var)  # TF's names differ per mode

    for label, obj in _reachable(raw, instance):
        add(label, obj)
        if label == "`self`" and hasattr(obj, "__dict__"):
            for name, value in vars(obj).items():
                if not name.startswith("_"):
                    add(f"`self.{name}`", value)
    if target is not instance:
        add("function", target)
    if calls:
        for name, value in sig.bind_arguments(target, *calls[0]).items():
            add(f"argument `{name}`", value)
    return found


def _python_state(raw: Any, instance: Any, calls: list) -> dict[str, Any]:
    """Plain Python data the function can reach and might mutate: lists, dicts, counters..."""
    state: dict[str, Any] = {}
    for label, obj in _reachable(raw, instance):
        if label == "`self`":
            for name, value in getattr(obj, "__dict__", {}).items():
                if not name.startswith("_") and isinstance(value, _PLAIN):
                    state[f"`self.{name}`"] = to_plain(value)
        elif isinstance(obj, _PLAIN) and not isinstance(obj, (str, bytes)) or isinstance(obj, (int, float)):
            state[label] = to_plain(obj)
    for i, (args, kwargs) in enumerate(calls[:MAX_COMPARED_CALLS]):
        for name, value in sig.bind_arguments(raw, args, kwargs).items():
            if isinstance(value, (list, dict, set)):
                state[f"argument `{name}` of call {i + 1}"] = to_plain(value)
    return state
