"""Observing the project's functions while the real program runs, without changing its results.

Why wrappers and not ``sys.setprofile``: a profiler hook fires on every Python call, including
all of TensorFlow's and Keras's, and slows an eager program by 2-5x; a wrapper on the project's
own functions costs a few microseconds per call of those functions only.

Each observed function gets a ``FunctionStats``: calls, own time (exclusive: time spent in nested
observed functions is charged to them, not to the caller), inclusive time, the callers seen, the
distinct argument signatures in the order they appeared (keyed the way tf.function keys its trace
cache: tensors by dtype and shape, Python scalars by value, other objects by identity), and a
bounded sample of real calls for replay, with tensors copied to host NumPy so that later mutation
of the arguments does not matter (``HostTensor``), under a global memory budget.

Functions already decorated with tf.function are observed from outside (calls, graph time, and
traces from ``experimental_get_tracing_count``); their Python function (``python_function``) is
what replay runs eagerly. Calls made while tracing (symbolic tensors) are counted, not timed.
No TensorFlow import here: tensors are recognised by duck typing, per type, once.
"""

from __future__ import annotations

import functools
import inspect
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

DEFAULT_MEMORY_BUDGET = 512 * 1024 * 1024
MAX_SAMPLES_PER_FUNCTION = 6  # the first calls, then the first call of each new signature
MAX_SIGNATURES_KEPT = 64  # distinct signatures remembered in detail per function
_SCALARS = (bool, int, float, complex, str, bytes, type(None))
_SCALAR_SET = frozenset(_SCALARS)


@dataclass
class HostTensor:
    """A tensor argument of a sampled call, copied to host memory (NumPy); replay rebuilds it."""

    array: Any
    dtype: str

    @property
    def nbytes(self) -> int:
        return int(getattr(self.array, "nbytes", 0))


@dataclass
class CallSample:
    """One real call kept for replay: positional and keyword arguments, tensors on the host."""

    args: tuple
    kwargs: dict
    signature: int  # index into FunctionStats.signatures
    nbytes: int = 0


@dataclass
class SignatureSeen:
    """One distinct argument signature: when it first appeared and how often."""

    key: Any
    first_call: int  # 0-based call index
    count: int = 0
    named: dict[str, Any] | None = None  # tfadvisor.runtime.signature format, for explanations


@dataclass
class FunctionStats:
    """Everything observed about one function of the project."""

    qualname: str
    module: str
    filename: str
    line: int
    function: Callable[..., Any]  # the Python function replay runs (python_function for tf.function)
    tf_function: Any = None  # the tf.function object when the code already decorates it
    is_method: bool = False
    calls: int = 0
    own_s: float = 0.0
    inclusive_s: float = 0.0
    errors: int = 0
    traced_calls: int = 0  # calls seen with symbolic tensors (inside someone else's tracing)
    traces: int = 0  # tf.function traces observed (already-decorated functions only)
    traced_s: float = 0.0  # time of the calls that traced (already-decorated functions only)
    first_s: float | None = None  # the first call (inclusive): eager warm-up, or the first trace
    # What the program itself used the tf.function's graph for (seen at run time): its options,
    # its concrete functions (get_concrete_function, pretty_printed_concrete_signatures, an export),
    # variables its first trace created. Why undecorating it would change the program.
    created_variables: int = 0
    concrete_requests: int = 0
    # Arguments whose variables grew during a call with a new signature after the first call (a
    # second model or optimizer building its weights): as a tf.function that call would trace
    # again and create variables, which raises (TF401). Eager functions only.
    late_variables: list[str] = field(default_factory=list)
    callers: dict[str | None, int] = field(default_factory=dict)
    signatures: list[SignatureSeen] = field(default_factory=list)
    samples: list[CallSample] = field(default_factory=list)
    samples_dropped: int = 0
    signatures_overflow: int = 0  # calls whose signature was not kept (more than MAX_SIGNATURES_KEPT)
    _index: dict[Any, int] = field(default_factory=dict, repr=False)
    _depth: int = 0

    key: str = ""  # "module:qualname", set once (read on every observed call)

    def __post_init__(self) -> None:
        self.key = f"{self.module}:{self.qualname}"

    @property
    def decorated(self) -> bool:
        return self.tf_function is not None


def _not_for_autograph(entity: Any) -> Any:
    """Mark tfadvisor's bookkeeping as AutoGraph artifacts, as ``tf.autograph.experimental.
    do_not_convert`` does (the same attribute, without importing TensorFlow here): a tf.function
    tracing an observed call runs it as plain Python instead of trying to convert it and printing
    "could not transform <bound method Observer._enter ...>" into the user's output. The user's
    function inside the wrapper is still converted as usual."""
    entity.autograph_info__ = None
    return entity


class Observer:
    """Holds the stats of every observed function and the per-thread stack of active calls."""

    def __init__(self, memory_budget: int = DEFAULT_MEMORY_BUDGET, max_samples: int = MAX_SAMPLES_PER_FUNCTION):
        self.memory_budget = memory_budget
        self.max_samples = max_samples
        self.memory_used = 0
        self.active = True
        self.functions: dict[str, FunctionStats] = {}
        self._local = threading.local()
        self._kinds: dict[type, str] = {}
        self._swapped: list[tuple[Any, type]] = []  # tf.functions observed in place, their own class

    # -- wrapping -------------------------------------------------------------------------------

    def wrap(self, obj: Any, *, is_method: bool = False) -> Any:
        """Return an observing stand-in for a function or tf.function (anything else unchanged)."""
        if _is_tf_function(obj):
            return _observe_tf_function(obj, self._stats_for(obj.python_function, obj, is_method), self)
        if not inspect.isfunction(obj) or getattr(obj, "__tfadvisor_observed__", False):
            return obj
        if inspect.isgeneratorfunction(obj) or inspect.iscoroutinefunction(obj) or inspect.isasyncgenfunction(obj):
            return obj  # time is spent in next(), not in the call; never a tf.function candidate
        return self._wrap_function(obj, self._stats_for(obj, None, is_method))

    def wrap_class(self, cls: type) -> type:
        """Wrap the methods a class body defines (plain, static, class methods and tf.functions)."""
        prefix = cls.__qualname__ + "."
        for name, value in list(vars(cls).items()):
            if name.startswith("__") and name not in ("__call__",):
                continue
            target = value.__func__ if isinstance(value, (staticmethod, classmethod)) else value
            inner = target.python_function if _is_tf_function(target) else target  # type: ignore[union-attr]
            if not inspect.isfunction(inner) or not inner.__qualname__.startswith(prefix):
                continue  # assigned from elsewhere, or a nested helper
            wrapped = self.wrap(target, is_method=not isinstance(value, staticmethod))
            if wrapped is target:
                continue  # not wrapped, or a tf.function observed in place
            if isinstance(value, staticmethod):
                wrapped = staticmethod(wrapped)
            elif isinstance(value, classmethod):
                wrapped = classmethod(wrapped)
            try:
                setattr(cls, name, wrapped)
            except (AttributeError, TypeError):
                pass
        return cls

    def _stats_for(self, fn: Callable[..., Any], tf_function: Any, is_method: bool) -> FunctionStats:
        # Where the user wrote it: a decorator's wrapper (tf.autograph.experimental.do_not_convert,
        # functools.wraps) has its code in the decorator's file, TensorFlow's site-packages included.
        code = getattr(inspect.unwrap(fn), "__code__", fn.__code__)
        stats = FunctionStats(
            qualname=fn.__qualname__,
            module=fn.__module__ or "",
            filename=code.co_filename,
            line=code.co_firstlineno,
            function=fn,
            tf_function=tf_function,
            is_method=is_method,
        )
        key = stats.key
        existing = self.functions.get(key)
        if existing is not None and existing.filename == stats.filename:
            return existing  # the same function wrapped twice (re-import): one record
        self.functions[key] = stats
        return stats

    def _wrap_function(self, fn: Callable[..., Any], stats: FunctionStats) -> Callable[..., Any]:
        enter, leave = self._enter, self._leave

        @functools.wraps(fn)
        def observed(*args: Any, **kwargs: Any) -> Any:
            token = enter(stats, args, kwargs)
            if token is None:
                return fn(*args, **kwargs)
            failed = True
            try:
                result = fn(*args, **kwargs)
                failed = False
                return result
            finally:
                leave(stats, token, failed)

        observed.__tfadvisor_observed__ = True  # type: ignore[attr-defined]
        observed.__tfadvisor_stats__ = stats  # type: ignore[attr-defined]
        return observed

    # -- per call -------------------------------------------------------------------------------

    def _stack(self) -> list:
        stack = getattr(self._local, "stack", None)
        if stack is None:
            stack = self._local.stack = []
        return stack

    @_not_for_autograph
    def _enter(self, stats: FunctionStats, args: tuple, kwargs: dict) -> list | None:
        """Record the call's signature (and maybe a sample); push a frame. None: don't time it."""
        if not self.active:
            return None
        t0 = time.perf_counter()
        try:
            key_of = self._key
            key = tuple([(t, v) if (t := type(v)) in _SCALAR_SET else key_of(v) for v in args])
            if kwargs:
                key = (key, tuple([(k, key_of(v)) for k, v in kwargs.items()]))
        except _Symbolic:
            stats.traced_calls += 1
            return None
        except Exception:  # an argument we cannot describe: still count and time the call
            key = ("unknown",)
        index = stats._index.get(key)
        call_number = stats.calls
        holders = None
        if index is None and call_number > 0 and stats.tf_function is None:
            holders = _variable_counts(args, kwargs)  # a new signature after the first call
        if index is None:
            if len(stats.signatures) < MAX_SIGNATURES_KEPT:
                index = len(stats.signatures)
                stats._index[key] = index
                named = _named_signature(stats.function, args, kwargs)
                stats.signatures.append(SignatureSeen(key, call_number, named=named))
            else:
                index = -1
                stats.signatures_overflow += 1
        if index >= 0:
            seen = stats.signatures[index]
            seen.count += 1
            if len(stats.samples) < self.max_samples and (seen.count == 1 or call_number < 3):
                self._sample(stats, args, kwargs, index, seen)
        stack = self._stack()
        caller = stack[-1][0].key if stack else None
        stats.callers[caller] = stats.callers.get(caller, 0) + 1
        stats.calls += 1
        stats._depth += 1
        frame = [stats, 0.0, t0, 0.0, holders]  # stats, time in nested observed calls, entry, start, variables
        stack.append(frame)
        frame[3] = time.perf_counter()
        return frame

    @_not_for_autograph
    def _leave(self, stats: FunctionStats, frame: list, failed: bool) -> None:
        end = time.perf_counter()
        stack = self._stack()
        if stack and stack[-1] is frame:
            stack.pop()
        elapsed = end - frame[3]
        stats.own_s += elapsed - frame[1]
        stats._depth -= 1
        if stats._depth == 0:
            stats.inclusive_s += elapsed
            if stats.first_s is None:
                stats.first_s = elapsed
        if failed:
            stats.errors += 1
        if frame[4]:
            grown = [name for name, (holder, count) in frame[4].items() if _count_variables(holder) > count]
            if grown:
                stats.late_variables.extend(n for n in grown if n not in stats.late_variables)
        if stack:  # the caller's own time excludes this call and its bookkeeping
            stack[-1][1] += time.perf_counter() - frame[2]

    def _sample(self, stats: FunctionStats, args: tuple, kwargs: dict, index: int, seen: SignatureSeen) -> None:
        try:
            if self.memory_used >= self.memory_budget:
                stats.samples_dropped += 1
                return
            sizes = [0]
            copied_args = tuple(_host_copy(a, sizes) for a in args)
            copied_kwargs = {k: _host_copy(v, sizes) for k, v in kwargs.items()}
        except Exception:
            stats.samples_dropped += 1
            return
        if self.memory_used + sizes[0] > self.memory_budget:
            stats.samples_dropped += 1
            return
        self.memory_used += sizes[0]
        stats.samples.append(CallSample(copied_args, copied_kwargs, index, sizes[0]))

    def _key(self, value: Any) -> Any:
        """A hashable key that changes exactly when tf.function would trace again (approximately)."""
        cls = type(value)
        if cls in _SCALAR_SET:
            return (cls, value)
        if cls is tuple or cls is list:
            key_of = self._key
            return (cls, tuple([(t, v) if (t := type(v)) in _SCALAR_SET else key_of(v) for v in value]))
        if cls is dict:
            return (cls, tuple([(k, self._key(v)) for k, v in value.items()]))
        kind = self._kinds.get(cls)
        if kind is None:
            kind = self._kinds[cls] = _classify(cls)
        if kind == "eager":
            return (cls, value.dtype, value._shape_tuple())
        if kind == "array":  # numpy dtypes hash fast; str(dtype) is slow Python code
            return (cls, value.dtype, value.shape)
        if kind == "variable":
            return (cls, value.dtype, tuple(value.shape))
        if kind == "symbolic":
            raise _Symbolic
        return (cls, id(value))

    # -- results --------------------------------------------------------------------------------

    def stop(self) -> None:
        """Stop observing: wrappers become plain pass-throughs (replay must not record itself), and
        the tf.functions observed in place get their own class back."""
        self.active = False
        self.release()

    def release(self) -> None:
        """Give every tf.function observed in place its own class back."""
        for function, base in reversed(self._swapped):
            try:
                function.__class__ = base
            except TypeError:
                pass
        self._swapped.clear()

    def observed(self) -> list[FunctionStats]:
        """Functions that were called, most inclusive time first."""
        return sorted((s for s in self.functions.values() if s.calls or s.traced_calls), key=lambda s: -s.inclusive_s)


# Observing a tf.function without replacing it. The object the program holds must stay a real
# tf.function: SavedModel exports only ``Function`` objects (a stand-in made ``tf.saved_model.save``
# of a tf.Module lose its ``__call__``: "'_UserObject' object is not callable" after loading), and
# ``get_concrete_function``, ``pretty_printed_concrete_signatures``, ``isinstance`` checks and Keras
# tracking all look at the object itself. So the object keeps its identity, state and options and
# only its class changes, to a subclass whose ``__call__`` times the call and counts traces. A
# method bound per instance is made by TensorFlow as ``type(original)(...)``, so it observes too.
# ``Observer.release`` puts the original class back; bound functions made meanwhile keep the
# subclass, which passes calls straight through once observation stops.
_OBSERVING_CLASSES: weakref.WeakKeyDictionary[Any, type] = weakref.WeakKeyDictionary()


def _observe_tf_function(function: Any, stats: FunctionStats, observer: Observer) -> Any:
    """Make ``function`` (a tf.function object) report its calls to ``observer``; returns it."""
    base = type(function)
    if getattr(base, "_tfadvisor_base", None) is not None:  # observed before (an earlier cell)
        base = base._tfadvisor_base
    cls = _OBSERVING_CLASSES.get(function)
    if cls is None:
        cls = _observing_class(base)
        _OBSERVING_CLASSES[function] = cls
    cls._tfadvisor_stats = stats  # type: ignore[attr-defined]
    cls._tfadvisor_observer = observer  # type: ignore[attr-defined]
    function.__class__ = cls
    observer._swapped.append((function, base))
    return function


def _observing_class(base: type) -> type:
    """A subclass of ``base`` (TensorFlow's ``Function``) that observes each call from outside."""

    @_not_for_autograph
    def __call__(self: Any, *args: Any, **kwargs: Any) -> Any:
        cls = type(self)
        observer, stats = cls._tfadvisor_observer, cls._tfadvisor_stats
        instance = self.__dict__.get("_tfadvisor_instance")
        sample_args = (instance(),) + args if instance is not None else args
        token = observer._enter(stats, sample_args, kwargs)
        if token is None:
            return base.__call__(self, *args, **kwargs)
        before = _tracing_count(self)
        failed = True
        try:
            result = base.__call__(self, *args, **kwargs)
            failed = False
            return result
        finally:
            new = _tracing_count(self) - before
            if new > 0:
                stats.traces += new
                stats.traced_s += time.perf_counter() - token[3]
                stats.created_variables = max(stats.created_variables, _created_variables(self))
            observer._leave(stats, token, failed)

    def get_concrete_function(self: Any, *args: Any, **kwargs: Any) -> Any:
        type(self)._tfadvisor_stats.concrete_requests += 1
        return base.get_concrete_function(self, *args, **kwargs)  # type: ignore[attr-defined]

    def pretty_printed_concrete_signatures(self: Any, *args: Any, **kwargs: Any) -> Any:
        type(self)._tfadvisor_stats.concrete_requests += 1
        return base.pretty_printed_concrete_signatures(self, *args, **kwargs)  # type: ignore[attr-defined]

    def __get__(self: Any, instance: Any, owner: Any = None) -> Any:
        bound = base.__get__(self, instance, owner)  # type: ignore[attr-defined]
        if instance is not None and bound is not self and isinstance(bound, base):
            try:
                bound.__dict__.setdefault("_tfadvisor_instance", weakref.ref(instance))
            except TypeError:  # not weakly referenceable: sampled calls lack ``self``
                pass
        return bound

    return type(base.__name__, (base,), {
        "__call__": __call__, "__get__": __get__, "get_concrete_function": get_concrete_function,
        "pretty_printed_concrete_signatures": pretty_printed_concrete_signatures, "__module__": base.__module__,
        "__qualname__": base.__qualname__, "__doc__": base.__doc__, "_tfadvisor_base": base,
    })


class _Symbolic(Exception):
    """An argument is a symbolic tensor: the call happens while something else traces."""


def _is_tf_function(obj: Any) -> bool:
    return hasattr(obj, "python_function") and hasattr(obj, "experimental_get_tracing_count") and not isinstance(obj, type)


def _variable_counts(args: tuple, kwargs: dict) -> dict[str, tuple[Any, int]] | None:
    """Objects among the arguments (and ``self``'s attributes) that hold variables (Keras models,
    layers, optimizers, tf.Modules), with how many they hold now."""
    out: dict[str, tuple[Any, int]] = {}
    candidates = [(f"arg[{i}]", a) for i, a in enumerate(args)] + [(k, v) for k, v in kwargs.items()]
    if args and not _has_variables(args[0]) and hasattr(args[0], "__dict__"):
        try:
            candidates += [(f"self.{k}", v) for k, v in vars(args[0]).items() if not k.startswith("_")]
        except TypeError:
            pass
    for name, value in candidates:
        if type(value) in _SCALAR_SET or not _has_variables(value):
            continue
        count = _count_variables(value)
        if count >= 0:
            out[name] = (value, count)
    return out or None


def _has_variables(value: Any) -> bool:
    try:
        return not isinstance(value, type) and hasattr(type(value), "variables")
    except Exception:
        return False


def _count_variables(holder: Any) -> int:
    try:
        return len(holder.variables)
    except Exception:
        return -1


def _created_variables(fn: Any) -> int:
    """Variables a tf.function's first trace created (TensorFlow keeps weak references to them)."""
    try:
        return len(fn._created_variables or ())
    except Exception:
        return 0


def graph_uses(stats: FunctionStats) -> list[str]:
    """What the program used a tf.function's graph for, as seen at run time: reasons it must stay
    a tf.function whatever eager and graph cost per call (undecorating would change the program)."""
    fn = stats.tf_function
    if fn is None:
        return []
    out = []
    if getattr(fn, "input_signature", None) is not None:
        out.append("its decorator sets input_signature")
    if getattr(fn, "_jit_compile", None):
        out.append("its decorator sets jit_compile")
    if stats.concrete_requests:
        out.append(f"its concrete functions were asked for {stats.concrete_requests} time(s) "
                   "(get_concrete_function, concrete signatures or an export)")
    if stats.created_variables:
        out.append(f"its first trace created {stats.created_variables} variable(s): undecorated, their "
                   "initializers would run eagerly (random ones draw other values)")
    return out


def _tracing_count(fn: Any) -> int:
    try:
        return int(fn.experimental_get_tracing_count())
    except Exception:
        return 0


def _classify(cls: type) -> str:
    """How a type's values take part in tf.function's cache key; decided once per type."""
    name = cls.__name__
    if name == "EagerTensor" and hasattr(cls, "_shape_tuple"):
        return "eager"
    if name in ("SymbolicTensor", "Tensor", "KerasTensor") and hasattr(cls, "dtype"):
        return "symbolic"
    if cls.__module__ == "numpy" and name == "ndarray":
        return "array"
    if "Variable" in name and hasattr(cls, "assign") and hasattr(cls, "dtype"):
        return "variable"
    return "object"


def _host_copy(value: Any, sizes: list[int], depth: int = 0) -> Any:
    """Copy tensors and arrays to host NumPy; keep containers' structure; objects by reference."""
    cls = type(value)
    if cls in _SCALARS:
        return value
    if depth < 8 and (cls is tuple or cls is list):
        return cls(_host_copy(v, sizes, depth + 1) for v in value)
    if depth < 8 and cls is dict:
        return {k: _host_copy(v, sizes, depth + 1) for k, v in value.items()}
    kind = _classify(cls)
    if kind == "eager":
        array = value.numpy()  # a scalar string tensor gives bytes, not an array
        sizes[0] += len(array) if isinstance(array, bytes) else int(array.nbytes)
        return HostTensor(array, value.dtype.name)
    if kind == "array":
        sizes[0] += int(value.nbytes)
        return value.copy()
    return value  # variables, models, optimizers, other objects: the live object


def _named_signature(fn: Callable[..., Any], args: tuple, kwargs: dict) -> dict[str, Any] | None:
    """The signature in ``tfadvisor.runtime.signature`` format (path -> leaf), for explanations."""
    from tfadvisor.runtime import signature as sigmod

    try:
        named = sigmod.bind_arguments(fn, args, kwargs)
        return sigmod.signature_of(named)
    except Exception:
        return None


def stats_of(wrapper: Any) -> FunctionStats | None:
    """The stats behind an observing wrapper (None for anything else)."""
    return getattr(wrapper, "__tfadvisor_stats__", None)
