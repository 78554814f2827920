"""Call signatures and retrace explanations, modelled on JAX's cache-miss explanations.

A call is flattened to leaves keyed by a readable path (``step``, ``batch['x']``, ``xs[2]``). Each
leaf is described the way tf.function keys its trace cache: tensors and arrays by dtype and shape,
Python scalars and strings by value, other objects by type and identity. When a call traces
again, its leaves are compared with every earlier traced call and the closest one (fewest
differing leaves) explains the retrace: which argument's value, type, dtype or shape changed.
Pure Python: tensors are recognised by duck typing, so this module needs no TensorFlow.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

Leaf = tuple  # ("tensor", dtype, shape) | ("value", type, repr) | ("object", type, id) | ("none",)
Signature = dict[str, Leaf]

_SCALARS = (bool, int, float, complex, str, bytes)
_MAX_DEPTH = 6
_MAX_ITEMS = 64


@dataclass(frozen=True)
class Change:
    """One leaf that differs from the closest earlier trace."""

    path: str
    what: str  # "value" | "type" | "dtype" | "shape" | "added" | "removed" | "object"
    now: str
    before: str

    @property
    def argument(self) -> str:
        """The top-level parameter the leaf belongs to (``batch`` for ``batch['x']``)."""
        for i, ch in enumerate(self.path):
            if ch in "[.":
                return self.path[:i]
        return self.path

    def describe(self) -> str:
        if self.what == "added":
            return f"`{self.path}` is new ({self.now})"
        if self.what == "removed":
            return f"`{self.path}` is gone (was {self.before})"
        if self.what == "object":
            return f"`{self.path}` is a different {self.now} object (tf.function keys objects by identity)"
        label = {"value": "Python value"}.get(self.what, self.what)
        return f"`{self.path}` {label} {self.now} (closest earlier trace: {self.before})"


@dataclass(frozen=True)
class Retrace:
    """A call that traced a new graph, and why."""

    call: int  # 0-based index in the call sequence
    changes: tuple[Change, ...]

    def describe(self) -> str:
        if not self.changes:
            reason = "no argument differs from an earlier trace (a captured value or the function object changed)"
        else:
            reason = "; ".join(c.describe() for c in self.changes)
        return f"call {self.call + 1} traced again: {reason}"


def bind_arguments(fn: Callable[..., Any], args: Sequence[Any], kwargs: Mapping[str, Any]) -> dict[str, Any]:
    """Argument values by parameter name (``arg0``... when the signature is not available)."""
    try:
        bound = inspect.signature(fn).bind(*args, **kwargs)
    except (TypeError, ValueError):
        named = {f"arg{i}": a for i, a in enumerate(args)}
        named.update(kwargs)
        return named
    out: dict[str, Any] = {}
    for name, value in bound.arguments.items():
        param = bound.signature.parameters[name]
        if param.kind is inspect.Parameter.VAR_POSITIONAL:
            for i, v in enumerate(value):
                out[f"{name}[{i}]"] = v
        elif param.kind is inspect.Parameter.VAR_KEYWORD:
            out.update({f"{name}[{k!r}]": v for k, v in value.items()})
        else:
            out[name] = value
    return out


def describe_leaf(value: Any) -> Leaf:
    """How tf.function's trace cache sees one leaf value."""
    if value is None:
        return ("none",)
    if isinstance(value, _SCALARS):
        text = repr(value)
        return ("value", type(value).__name__, text if len(text) <= 60 else text[:57] + "...")
    dtype = getattr(value, "dtype", None)
    shape = getattr(value, "shape", None)
    if dtype is not None and shape is not None:
        dtype_name = getattr(dtype, "name", None) or str(dtype)
        try:
            dims = tuple(None if d is None else int(d) for d in shape)
        except (TypeError, ValueError):
            dims = None
        kind = type(value).__name__
        if "Variable" in kind:
            return ("variable", dtype_name, dims)
        if getattr(value, "ndim", None) == 0 and type(value).__module__ == "numpy":
            return ("value", f"numpy.{dtype_name}", repr(value.item()))
        return ("tensor", dtype_name, dims)
    return ("object", _type_name(value), id(value))


def signature_of(named: Mapping[str, Any]) -> Signature:
    """Flatten named arguments into ``path -> leaf``."""
    out: Signature = {}
    for name, value in named.items():
        _flatten(name, value, out, 0)
    return out


def _flatten(path: str, value: Any, out: Signature, depth: int) -> None:
    if depth < _MAX_DEPTH and isinstance(value, (list, tuple)) and len(value) <= _MAX_ITEMS:
        out[path] = ("container", _type_name(value), len(value))
        for i, item in enumerate(value):
            _flatten(f"{path}[{i}]", item, out, depth + 1)
    elif depth < _MAX_DEPTH and isinstance(value, dict) and len(value) <= _MAX_ITEMS:
        out[path] = ("container", _type_name(value), len(value))
        for key, item in value.items():
            _flatten(f"{path}[{key!r}]", item, out, depth + 1)
    else:
        out[path] = describe_leaf(value)


def compare(now: Signature, before: Signature) -> list[Change]:
    """What differs between two signatures, leaf by leaf (containers by type and length only)."""
    changes: list[Change] = []
    for path, leaf in now.items():
        old = before.get(path)
        if old is None:
            if not _under_changed_container(path, now, before):
                changes.append(Change(path, "added", _show(leaf), "-"))
            continue
        if leaf == old:
            continue
        changes.extend(_leaf_changes(path, leaf, old))
    for path, old in before.items():
        if path not in now and not _under_changed_container(path, now, before):
            changes.append(Change(path, "removed", "-", _show(old)))
    return changes


def explain(call: int, now: Signature, earlier: Sequence[Signature]) -> Retrace:
    """Why call ``call`` traced again: its differences from the closest earlier traced signature
    (the most recent one among equally close)."""
    best: list[Change] | None = None
    for sig in earlier:
        changes = compare(now, sig)
        if best is None or len(changes) <= len(best):  # ties: the most recent trace
            best = changes
    return Retrace(call, tuple(best or ()))


def _leaf_changes(path: str, leaf: Leaf, old: Leaf) -> list[Change]:
    if leaf[0] != old[0] or (leaf[0] in ("value", "object", "container") and leaf[1] != old[1]):
        return [Change(path, "type", _show(leaf), _show(old))]
    kind = leaf[0]
    if kind in ("tensor", "variable"):
        out = []
        if leaf[1] != old[1]:
            out.append(Change(path, "dtype", leaf[1], old[1]))
        if leaf[2] != old[2]:
            out.append(Change(path, "shape", _shape(leaf[2]), _shape(old[2])))
        return out
    if kind == "value":
        return [Change(path, "value", leaf[2], old[2])]
    if kind == "container":
        return [Change(path, "length", str(leaf[2]), str(old[2]))]
    return [Change(path, "object", leaf[1], leaf[1])]


def _under_changed_container(path: str, now: Signature, before: Signature) -> bool:
    """Items of a container whose length changed are reported once, by the container."""
    for prefix, leaf in now.items():
        if leaf[0] == "container" and path.startswith(prefix + "[") and before.get(prefix) != leaf:
            return True
    return False


def _show(leaf: Leaf) -> str:
    kind = leaf[0]
    if kind in ("tensor", "variable"):
        return f"{kind} {leaf[1]}{_shape(leaf[2])}"
    if kind == "value":
        return f"{leaf[1]} {leaf[2]}"
    if kind == "container":
        return f"{leaf[1]} of length {leaf[2]}"
    if kind == "none":
        return "None"
    return str(leaf[1])


def _shape(dims: Any) -> str:
    if dims is None:
        return "[unknown rank]"
    return "[" + ", ".join("?" if d is None else str(d) for d in dims) + "]"


def _type_name(value: Any) -> str:
    cls = type(value)
    return cls.__name__ if cls.__module__ == "builtins" else f"{cls.__module__}.{cls.__qualname__}"
