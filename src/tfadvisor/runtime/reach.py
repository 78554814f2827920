"""What a function can reach: the globals it names (nested code included) and its closure cells.

Both measuring paths compare the state a call can change: `profile`'s child reads it in each mode
(``profile/modes.py``; every mode starts in a fresh process), `run`'s replay also puts it back in
place after every phase (``run/replay_state.py``). Each name comes with its holder (the module's
globals, or a closure cell behind the same ``get`` / ``[name] =`` interface) so it can be put back.
No TensorFlow import: variables are recognised by their interface.
"""

from __future__ import annotations

import types
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Reached:
    label: str  # "global `name`" or "closure `name`": how reports name it
    name: str
    value: Any
    holder: Any  # the module's globals, or a CellHolder

    @property
    def is_global(self) -> bool:
        return not isinstance(self.holder, CellHolder)


class CellHolder:
    """A closure cell with the dict interface globals have (``get``, item assignment)."""

    def __init__(self, cell: Any) -> None:
        self.cell = cell

    def get(self, name: str, default: Any = None) -> Any:
        try:
            return self.cell.cell_contents
        except ValueError:  # an empty cell (the name is not bound yet)
            return default

    def __setitem__(self, name: str, value: Any) -> None:
        self.cell.cell_contents = value


def function_of(raw: Any) -> types.FunctionType | None:
    """The plain Python function behind a function, a bound method or a tf.function's method."""
    func = raw
    if isinstance(func, types.MethodType):
        func = func.__func__
    func = getattr(func, "weakrefself_func__", func)
    if isinstance(func, types.MethodType):
        func = func.__func__
    return func if isinstance(func, types.FunctionType) else None


def code_names(code: types.CodeType) -> set[str]:
    """Global names the code uses, its nested functions, lambdas and comprehensions included."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= code_names(const)
    return names


def reachable(raw: Any) -> list[Reached]:
    """The globals ``raw`` names (sorted) that exist, then its bound closure cells."""
    func = function_of(raw)
    if func is None:
        return []
    out = [Reached(f"global `{name}`", name, func.__globals__[name], func.__globals__)
           for name in sorted(code_names(func.__code__)) if name in func.__globals__]
    for name, cell in zip(func.__code__.co_freevars, func.__closure__ or (), strict=False):
        holder = CellHolder(cell)
        try:
            out.append(Reached(f"closure `{name}`", name, cell.cell_contents, holder))
        except ValueError:
            pass
    return out


def is_variable(obj: Any) -> bool:
    """A tf.Variable (any of its classes) or a Keras variable: something with ``assign`` and ``numpy``."""
    return "Variable" in type(obj).__name__ and hasattr(obj, "assign") and hasattr(obj, "numpy")
