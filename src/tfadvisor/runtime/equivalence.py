"""Comparing what two execution modes produced: outputs, variables and Python-visible state.

Values are first made plain (``to_plain``, in the child): tensors and variables become NumPy
arrays, containers stay containers, anything else becomes an ``Opaque`` (type and short repr),
so results cross the process boundary with plain pickle. ``differences`` then compares two plain
values with dtype-aware tolerances (graph mode may fuse or reorder float ops) and treats NaN as
equal to NaN. Needs NumPy, not TensorFlow.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

_MAX_DEPTH = 8
_MAX_ITEMS = 1000

# (rtol, atol) by dtype kind/size: graph and XLA fuse and reorder float ops, so floats get a
# tolerance scaled to their precision; integers, booleans and strings must match exactly.
TOLERANCES: dict[str, tuple[float, float]] = {
    "float16": (1e-2, 1e-3),
    "bfloat16": (2e-2, 1e-2),
    "float32": (1e-4, 1e-5),
    "float64": (1e-7, 1e-9),
    "complex64": (1e-4, 1e-5),
    "complex128": (1e-7, 1e-9),
}


@dataclass(frozen=True)
class Opaque:
    """A value that is neither a tensor, an array, a scalar nor a container: its type and repr."""

    type: str
    repr: str


def to_plain(value: Any, depth: int = 0) -> Any:
    """Tensors and variables to NumPy, containers recursively, other objects to ``Opaque``."""
    if value is None or isinstance(value, (bool, int, float, complex, str, bytes)):
        return value
    if isinstance(value, np.ndarray):
        return value.copy()
    if isinstance(value, np.generic):
        return value.item() if not isinstance(value, (np.floating, np.complexfloating)) else np.asarray(value)
    if depth >= _MAX_DEPTH:
        return Opaque(_type_name(value), _short_repr(value))
    if isinstance(value, (list, tuple)):
        items = [to_plain(v, depth + 1) for v in list(value)[:_MAX_ITEMS]]
        return items if isinstance(value, list) else tuple(items)
    if isinstance(value, dict):
        return {_key(k): to_plain(v, depth + 1) for k, v in list(value.items())[:_MAX_ITEMS]}
    if isinstance(value, (set, frozenset)):
        return {"__set__": sorted((_short_repr(v) for v in value))[:_MAX_ITEMS]}
    numpy = getattr(value, "numpy", None)
    if callable(numpy) and hasattr(value, "dtype"):
        try:
            return np.array(numpy())
        except Exception:  # symbolic tensor leaked out of a graph, deleted variable...
            return Opaque(_type_name(value), _short_repr(value))
    return Opaque(_type_name(value), _short_repr(value))


def differences(eager: Any, other: Any, path: str, limit: int = 5) -> list[str]:
    """Readable differences between two plain values, at most ``limit`` of them."""
    out: list[str] = []
    _diff(eager, other, path, out, limit)
    return out


def _diff(a: Any, b: Any, path: str, out: list[str], limit: int) -> None:
    if len(out) >= limit:
        return
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        _diff_arrays(a, b, path, out)
        return
    if type(a) is not type(b) and not (_is_number(a) and _is_number(b)):
        out.append(f"{path}: {_kind(a)} eagerly, {_kind(b)} under tf.function")
        return
    if isinstance(a, (list, tuple)):
        if len(a) != len(b):
            out.append(f"{path}: {len(a)} items eagerly, {len(b)} under tf.function")
            return
        for i, (x, y) in enumerate(zip(a, b)):
            _diff(x, y, f"{path}[{i}]", out, limit)
        return
    if isinstance(a, dict):
        if set(a) != set(b):
            only_a = sorted(map(str, set(a) - set(b)))
            only_b = sorted(map(str, set(b) - set(a)))
            out.append(f"{path}: keys {only_a} only eagerly, {only_b} only under tf.function")
            return
        for key in a:
            _diff(a[key], b[key], f"{path}[{key!r}]", out, limit)
        return
    if isinstance(a, float) or isinstance(b, float):
        if not _close(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64), "float64"):
            out.append(f"{path}: {a!r} eagerly, {b!r} under tf.function")
        return
    if isinstance(a, Opaque):
        if a.type != b.type:
            out.append(f"{path}: {a.type} eagerly, {b.type} under tf.function")
        return  # same type: identity-based objects cannot be compared across processes
    if a != b:
        out.append(f"{path}: {_short_repr(a)} eagerly, {_short_repr(b)} under tf.function")


def _diff_arrays(a: Any, b: Any, path: str, out: list[str]) -> None:
    if not isinstance(a, np.ndarray) or not isinstance(b, np.ndarray):
        if _is_number(a) and _is_number(b):
            a, b = np.asarray(a), np.asarray(b)
        else:
            out.append(f"{path}: {_kind(a)} eagerly, {_kind(b)} under tf.function")
            return
    if a.shape != b.shape:
        out.append(f"{path}: shape {list(a.shape)} eagerly, {list(b.shape)} under tf.function")
        return
    if a.dtype != b.dtype and not (a.dtype.kind in "fc" and b.dtype.kind in "fc"):
        out.append(f"{path}: dtype {a.dtype} eagerly, {b.dtype} under tf.function")
        return
    if not _close(a, b, str(a.dtype)):
        detail = ""
        if a.dtype.kind in "fciu" and a.size:
            with np.errstate(all="ignore"):
                gap = np.nanmax(np.abs(a.astype(np.complex128) - b.astype(np.complex128)))
            detail = f" (max abs difference {float(gap):.3g})"
        out.append(f"{path}: values differ{detail}")


def _close(a: np.ndarray, b: np.ndarray, dtype: str) -> bool:
    if a.dtype.kind in "fc" or b.dtype.kind in "fc":
        rtol, atol = TOLERANCES.get(dtype, TOLERANCES["float32"])
        try:
            return bool(np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=True))
        except TypeError:
            return bool(np.array_equal(a, b))
    return bool(np.array_equal(a, b))


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float, complex, np.ndarray)) and not isinstance(x, bool)


def _kind(x: Any) -> str:
    if isinstance(x, Opaque):
        return x.type
    if isinstance(x, np.ndarray):
        return f"array {x.dtype}{list(x.shape)}"
    if isinstance(x, (list, tuple, dict)):
        return f"{type(x).__name__} of {len(x)}"
    return type(x).__name__


def _key(k: Any) -> Any:
    return k if isinstance(k, (str, int, float, bool, tuple)) or k is None else _short_repr(k)


def _short_repr(value: Any) -> str:
    try:
        text = repr(value)
    except Exception:
        text = f"<{type(value).__name__}>"
    return text if len(text) <= 80 else text[:77] + "..."


def _type_name(value: Any) -> str:
    cls = type(value)
    return cls.__name__ if cls.__module__ == "builtins" else cls.__qualname__
