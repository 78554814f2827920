"""What an in-process replay may change, saved first and put back in place after every phase.

Why in place: the replayed function runs on the program's own objects (a notebook's live model, a
global ``weights = {"h1": tf.Variable(...)}`` that a Keras optimizer was built on). Restoring by
replacing anything with a copy breaks them: a deep-copied dict of variables holds *new* variables
the optimizer has never seen (``ValueError: Unknown variable``), and a notebook's model would be
silently swapped. So nothing is ever copied that holds a variable, tensor, module, layer or
optimizer: variables get their values back by ``assign``, plain containers (lists, dicts, sets,
and tuples' mutable items) get their own original elements back, Python scalars their original
value, and random state (``runtime/rng.py``) its seeds and generator states. Identity and values
are as found.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tfadvisor.runtime import reach
from tfadvisor.runtime.equivalence import to_plain
from tfadvisor.runtime.rng import RandomState, find_generators
from tfadvisor.runtime.run.observe import FunctionStats

_PLAIN_STATE = (list, dict, set, int, float, bool)
_MAX_DEPTH = 6
_MAX_ITEMS = 100_000


@dataclass
class _Contents:
    """A plain container and its original items (each an object, or the _Contents of one)."""

    obj: Any
    items: list[Any]


def snapshot(obj: Any, depth: int = 0, memo: dict[int, Any] | None = None) -> Any:
    """References to ``obj``'s items (recursively through plain containers), never copies of them."""
    memo = {} if memo is None else memo
    cls = type(obj)
    if cls not in (list, dict, set, tuple) or depth > _MAX_DEPTH:
        return obj
    if id(obj) in memo:
        return memo[id(obj)]
    shot = _Contents(obj, [])
    memo[id(obj)] = shot
    if cls is dict:
        shot.items = [(k, snapshot(v, depth + 1, memo)) for k, v in list(obj.items())[:_MAX_ITEMS]]
    elif cls is set:
        shot.items = list(obj)
    else:
        shot.items = [snapshot(v, depth + 1, memo) for v in list(obj)[:_MAX_ITEMS]]
    return shot


def restore(shot: Any, done: set[int] | None = None) -> Any:
    """Put a ``snapshot`` back in place; returns the original object."""
    if not isinstance(shot, _Contents):
        return shot
    done = set() if done is None else done
    obj = shot.obj
    if id(obj) in done:
        return obj
    done.add(id(obj))
    if type(obj) is dict:
        items = [(k, restore(v, done)) for k, v in shot.items]
        if len(obj) != len(items) or any(k not in obj or obj[k] is not v for k, v in items):
            obj.clear()
            obj.update(items)
    elif type(obj) is set:
        if obj != set(shot.items):
            obj.clear()
            obj.update(shot.items)
    elif type(obj) is list:
        items = [restore(v, done) for v in shot.items]
        if len(obj) != len(items) or any(a is not b for a, b in zip(obj, items, strict=False)):
            obj[:] = items
    else:  # a tuple cannot change; its mutable items are restored in place
        for v in shot.items:
            restore(v, done)
    return obj


class ReplayState:
    """The state a replay of ``stats``'s function can change: reachable variables (generators'
    state included), plain Python data it can reach, and the process's random state."""

    def __init__(self, stats: FunctionStats):
        self.fn = stats.function
        roots = [r.value for r in reach.reachable(self.fn)]
        for sample in stats.samples:
            roots.extend(sample.args)
            roots.extend(sample.kwargs.values())
        self.variables = find_variables(roots)
        self.saved_variables = [(v, v.numpy()) for v in self.variables]
        self.python = python_roots(self.fn, stats)
        self.saved_python = {label: snapshot(obj) for label, (holder, name, obj) in self.python.items()}
        self.random = RandomState(find_generators(roots))

    def snapshot_variables(self) -> list[Any]:
        return [to_plain(v) for v in self.variables]

    def snapshot_python(self) -> dict[str, Any]:
        return {label: to_plain(holder.get(name, obj)) for label, (holder, name, obj) in self.python.items()}

    def restore(self) -> None:
        """Everything back as found (before each phase, and at the end)."""
        for var, value in self.saved_variables:
            var.assign(value)
        for label, (holder, name, _obj) in self.python.items():
            holder[name] = restore(self.saved_python[label])
        self.random.restore()


def find_variables(roots: list[Any]) -> list[Any]:
    found: dict[int, Any] = {}
    for obj in roots:
        for var in _variables_of(obj):
            found.setdefault(id(var), var)
    for gen in find_generators(roots):
        found.setdefault(id(gen.state), gen.state)
    return list(found.values())


def _variables_of(obj: Any, depth: int = 0) -> list[Any]:
    if depth > 3 or obj is None or isinstance(obj, (type, str, bytes, int, float, bool)):
        return []
    if reach.is_variable(obj):
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
            return [v for v in list(variables) if reach.is_variable(v)]
    except Exception:
        return []
    return []


def _is_tensor(obj: Any) -> bool:
    """A tensor kept in a global or an attribute: under tf.function a symbolic one leaks there
    (TF204), which comparing it shows; restoring puts the original object back."""
    return type(obj).__name__ in ("EagerTensor", "SymbolicTensor", "Tensor")


def python_roots(fn: Callable[..., Any], stats: FunctionStats) -> dict[str, tuple[Any, str, Any]]:
    """Plain data (and tensors) the function can reach: ``label -> (holder, name, object)``, the
    holder being its module's globals, a closure cell or ``self.__dict__``."""
    out: dict[str, tuple[Any, str, Any]] = {}
    for r in reach.reachable(fn):
        if isinstance(r.value, _PLAIN_STATE) or r.is_global and _is_tensor(r.value):
            out[r.label] = (r.holder, r.name, r.value)
    if stats.is_method and stats.samples and stats.samples[0].args:
        attrs = getattr(stats.samples[0].args[0], "__dict__", None)
        if isinstance(attrs, dict):
            for name, value in list(attrs.items()):
                if not name.startswith("_") and (isinstance(value, _PLAIN_STATE) or _is_tensor(value)):
                    out[f"`self.{name}`"] = (attrs, name, value)
    return out
