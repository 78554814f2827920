"""Comparing what two execution modes produced: outputs, variables and Python-visible state.

Values are first made plain (``to_plain``, in the child): tensors and variables become NumPy
arrays, containers stay containers, anything else becomes an ``Opaque`` (type and short repr),
so results cross the process boundary with plain pickle. ``differences`` then compares two plain
values with dtype-aware tolerances (graph mode may fuse or reorder float ops) and treats NaN as
equal to NaN. Random draws are judged against eager's own noise: ``noisy_paths`` compares two
eager runs from the same state (stateful random ops reseeded differently), and where they disagree
``differences`` compares what can be compared (structure, shape, dtype, statistics), never the
values. Needs NumPy, not TensorFlow.
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
        return {"__set__": sorted(_short_repr(v) for v in value)[:_MAX_ITEMS]}
    numpy = getattr(value, "numpy", None)
    if callable(numpy) and hasattr(value, "dtype"):
        try:
            return np.array(numpy())
        except Exception:  # symbolic tensor leaked out of a graph, deleted variable...
            return Opaque(_type_name(value), _short_repr(value))
    return Opaque(_type_name(value), _short_repr(value))


# Where eager disagrees with itself (stateful random ops, nondeterministic kernels), values cannot
# be compared; what can be: structure, shape, dtype and, for float arrays of at least this many
# elements, their mean and spread.
STATS_MIN_SIZE = 30


@dataclass(frozen=True)
class Noise:
    """What eager's own second run showed about one value: it differed, and its statistics."""

    stats: tuple[tuple[float, float], tuple[float, float]] | None = None  # (mean, std) of both eager runs


def differences(eager: Any, other: Any, path: str, limit: int = 5, noise: dict[str, Noise] | None = None) -> list[str]:
    """Readable differences between two plain values, at most ``limit`` of them. Paths in ``noise``
    (from ``noisy_paths``) are random: compared by structure, shape, dtype and statistics only."""
    out: list[tuple[str, str]] = []
    _diff(eager, other, path, out, limit, noise or {})
    return [message for _, message in out]


def noisy_paths(first: Any, again: Any, path: str) -> dict[str, Noise]:
    """Where two eager runs from the same starting state disagree, and how (``Noise``)."""
    out: list[tuple[str, str]] = []
    _diff(first, again, path, out, 10_000, {})
    found: dict[str, Noise] = {}
    for where, _ in out:
        a, b = _at(first, again, path, where)
        found[where] = Noise(_stats(a, b))
    return found


def _at(first: Any, again: Any, root: str, where: str) -> tuple[Any, Any]:
    """The two values at ``where`` (a path ``_diff`` wrote), or (None, None) if not reachable."""
    a, b = first, again
    rest = where[len(root):]
    while rest.startswith("["):
        end = rest.index("]")
        token = rest[1:end]
        rest = rest[end + 1:]
        try:
            if isinstance(a, dict):
                key = next(k for k in a if repr(k) == token)
                a, b = a[key], b[key]
            else:
                a, b = a[int(token)], b[int(token)]
        except (StopIteration, ValueError, KeyError, IndexError, TypeError):
            return None, None
    return a, b


def _stats(a: Any, b: Any) -> tuple[tuple[float, float], tuple[float, float]] | None:
    if not (isinstance(a, np.ndarray) and isinstance(b, np.ndarray)) or a.dtype.kind != "f" or a.size < STATS_MIN_SIZE:
        return None
    with np.errstate(all="ignore"):
        return (float(np.nanmean(a)), float(np.nanstd(a))), (float(np.nanmean(b)), float(np.nanstd(b)))


def _diff(a: Any, b: Any, path: str, out: list[tuple[str, str]], limit: int, noise: dict[str, Noise]) -> None:
    if len(out) >= limit:
        return
    if path in noise:
        _diff_random(a, b, path, out, noise[path])
        return
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        _diff_arrays(a, b, path, out)
        return
    if type(a) is not type(b) and not (_is_number(a) and _is_number(b)):
        out.append((path, f"{path}: {_kind(a)} eagerly, {_kind(b)} under tf.function"))
        return
    if isinstance(a, (list, tuple)):
        if len(a) != len(b):
            out.append((path, f"{path}: {len(a)} items eagerly, {len(b)} under tf.function"))
            return
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            _diff(x, y, f"{path}[{i}]", out, limit, noise)
        return
    if isinstance(a, dict):
        if set(a) != set(b):
            only_a = sorted(map(str, set(a) - set(b)))
            only_b = sorted(map(str, set(b) - set(a)))
            out.append((path, f"{path}: keys {only_a} only eagerly, {only_b} only under tf.function"))
            return
        for key in a:
            _diff(a[key], b[key], f"{path}[{key!r}]", out, limit, noise)
        return
    if isinstance(a, float) or isinstance(b, float):
        if not _close(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64), "float64"):
            out.append((path, f"{path}: {a!r} eagerly, {b!r} under tf.function"))
        return
    if isinstance(a, Opaque):
        if a.type != b.type:
            out.append((path, f"{path}: {a.type} eagerly, {b.type} under tf.function"))
        return  # same type: identity-based objects cannot be compared across processes
    if a != b:
        out.append((path, f"{path}: {_short_repr(a)} eagerly, {_short_repr(b)} under tf.function"))


def _diff_random(a: Any, b: Any, path: str, out: list[tuple[str, str]], noise: Noise) -> None:
    """A value eager itself does not reproduce: same kind, shape and dtype, and (float arrays) a
    mean and spread within what eager's two runs make plausible."""
    if isinstance(a, np.ndarray) and isinstance(b, np.ndarray):
        if a.shape != b.shape:
            out.append((path, f"{path}: shape {list(a.shape)} eagerly, {list(b.shape)} under tf.function"))
        elif a.dtype != b.dtype and not (a.dtype.kind in "fc" and b.dtype.kind in "fc"):
            out.append((path, f"{path}: dtype {a.dtype} eagerly, {b.dtype} under tf.function"))
        elif noise.stats is not None and b.dtype.kind == "f" and not _plausible(noise.stats, b):
            out.append((path, f"{path}: random values with another distribution under tf.function "
                              f"(mean {float(np.nanmean(b)):.3g}, eagerly {noise.stats[0][0]:.3g})"))
        return
    if _is_number(a) and _is_number(b) or type(a) is type(b):
        return
    out.append((path, f"{path}: {_kind(a)} eagerly, {_kind(b)} under tf.function"))


def _plausible(stats: tuple[tuple[float, float], tuple[float, float]], b: np.ndarray) -> bool:
    """Whether ``b``'s mean and spread could come from the distribution eager drew from: the mean
    within five of eager's own run-to-run gaps (or standard errors), the spread within 3x."""
    (m1, s1), (m2, s2) = stats
    with np.errstate(all="ignore"):
        mean, std = float(np.nanmean(b)), float(np.nanstd(b))
    if not np.isfinite(mean) and np.isfinite(m1):
        return False
    scale = max(abs(m1 - m2), s1 / np.sqrt(b.size), s2 / np.sqrt(b.size), 1e-6 * max(1.0, abs(m1)))
    if abs(mean - (m1 + m2) / 2) > 5 * scale + abs(m1 - m2) / 2:
        return False
    spread = max(s1, s2, 1e-12)
    return std <= 3 * spread and std >= min(s1, s2) / 3


def _diff_arrays(a: Any, b: Any, path: str, out: list[tuple[str, str]]) -> None:
    if not isinstance(a, np.ndarray) or not isinstance(b, np.ndarray):
        if _is_number(a) and _is_number(b):
            a, b = np.asarray(a), np.asarray(b)
        else:
            out.append((path, f"{path}: {_kind(a)} eagerly, {_kind(b)} under tf.function"))
            return
    if a.shape != b.shape:
        out.append((path, f"{path}: shape {list(a.shape)} eagerly, {list(b.shape)} under tf.function"))
        return
    if a.dtype != b.dtype and not (a.dtype.kind in "fc" and b.dtype.kind in "fc"):
        out.append((path, f"{path}: dtype {a.dtype} eagerly, {b.dtype} under tf.function"))
        return
    if not _close(a, b, str(a.dtype)):
        detail = ""
        if a.dtype.kind in "fciu" and a.size:
            with np.errstate(all="ignore"):
                gap = np.nanmax(np.abs(a.astype(np.complex128) - b.astype(np.complex128)))
            detail = f" (max abs difference {float(gap):.3g})"
        out.append((path, f"{path}: values differ{detail}"))


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
