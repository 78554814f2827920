"""Edits as data: what ``fix`` means to change, before anything touches a file.

The planner turns a Report into these; the transformer applies them to one module. Keeping them
as plain values lets ``--diff``, the summary and the tests talk about an edit without running it.
Every edit says where it comes from (``origin``: a verdict such as ``decorate`` or a rule code such
as ``TF201``), the codes behind it (``reasons``) and whether it is safe (behaviour unchanged).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar


@dataclass(frozen=True)
class TensorSpecData:
    """One ``tf.TensorSpec``: ``None`` in ``shape`` for a dimension that varied between calls."""

    shape: tuple[int | None, ...] | None  # None: unknown rank
    dtype: str  # "float32", "int64", ...

    def source(self, tf: str) -> str:
        shape = "None" if self.shape is None else "[" + ", ".join("None" if d is None else str(d) for d in self.shape) + "]"
        return f"{tf}.TensorSpec(shape={shape}, dtype={tf}.{self.dtype})"


@dataclass(frozen=True)
class Edit:
    """Base of every edit. ``kind`` names it in summaries (``decorate``, ``TF201`` ...)."""

    origin: str
    reasons: tuple[str, ...] = ()
    safe: bool = True
    description: str = ""

    @property
    def kind(self) -> str:
        return self.origin

    @property
    def label(self) -> str:
        """Short name for summaries: ``decorate Trainer.step``, ``TF201 at line 14``."""
        return self.origin


@dataclass(frozen=True)
class FunctionEdit(Edit):
    """An edit on the decorator of one function, located by its qualname; ``train_step#2`` is the
    second definition of ``train_step`` in the file (``model.local_id``)."""

    qualname: str = ""

    @property
    def label(self) -> str:
        return f"{self.origin} {self.qualname}"


@dataclass(frozen=True)
class DecoratorOptions(FunctionEdit):
    """tf.function options an edit sets; ``None`` leaves an option as it is (or unset).

    When ``input_signature`` does not fit the function's parameters (defaults, ``*args``,
    a different count), the transformer falls back to ``reduce_retracing=True``.
    """

    input_signature: tuple[TensorSpecData, ...] | None = None
    reduce_retracing: bool | None = None
    jit_compile: bool | None = None

    @property
    def label(self) -> str:
        options = self.options_text()
        return f"{self.origin} {self.qualname}" + (f" ({options})" if options else "")

    def options_text(self) -> str:
        parts = []
        if self.input_signature is not None:
            parts.append("input_signature")
        if self.reduce_retracing is not None:
            parts.append(f"reduce_retracing={self.reduce_retracing}")
        if self.jit_compile is not None:
            parts.append(f"jit_compile={self.jit_compile}")
        return ", ".join(parts)


@dataclass(frozen=True)
class AddDecorator(DecoratorOptions):
    """Make an eager function a tf.function (with options when the verdict asks for them)."""


@dataclass(frozen=True)
class RemoveDecorator(FunctionEdit):
    """Make a tf.function eager again: ``@tf.function``, ``@tf.function(...)``, ``f = tf.function(f)``."""


@dataclass(frozen=True)
class SetDecoratorOptions(DecoratorOptions):
    """Change an existing tf.function's options."""


@dataclass(frozen=True)
class PassAsTensors(FunctionEdit):
    """Python numbers that retrace a tf.function on every new value, passed as tensors at its call
    sites in the same module: ``train_step(x, step)`` -> ``train_step(x, tf.constant(step, tf.float32))``.

    No decorator option can do this (``reduce_retracing`` generalises shapes, not Python values).
    ``arguments`` are (parameter, dtype) pairs that ``run`` replayed as tensors: one trace, same
    results. The function's own code is unchanged; only the calls are.
    """

    arguments: tuple[tuple[str, str], ...] = ()

    @property
    def label(self) -> str:
        return f"{self.origin} {self.qualname} (pass {', '.join(n for n, _ in self.arguments)} as tensors)"


@dataclass(frozen=True)
class GraphPerCall(FunctionEdit):
    """One tf.function of ``callee`` each time the function ``qualname`` runs: at its top
    ``train_step_fn = tf.function(train_step)``, and its calls of ``train_step`` go through
    ``train_step_fn``. For a function that ``run`` saw handed new objects (a second model, a fresh
    optimizer) that built variables after its first call: one tf.function for the whole program
    cannot trace that (only a first trace may create variables, TF401); one per call of the
    caller that receives those objects can, and that is how graph mode was priced."""

    callee: str = ""

    @property
    def label(self) -> str:
        return f"{self.origin} {self.callee} (one tf.function per call of {self.qualname})"


@dataclass(frozen=True)
class Location:
    """Where a rule fix applies. ``function`` + ``def_offset`` survive lines added above the def
    (decorators, an import), so a report stays usable after an earlier fix; ``line`` is the
    absolute fallback. ``col`` is 0-based in UTF-8 bytes, as ``ast`` and findings give it; ``span`` is the function's
    def-to-end line count in the report, to notice that the code changed since."""

    line: int
    col: int
    end_line: int
    function: str | None = None  # qualname, ``#n`` for the n-th definition (``model.local_id``)
    def_offset: int | None = None  # line - def line of ``function``
    span: int | None = None
    cell: int | None = None  # notebooks: where the user sees ``line`` (1-based cell, line in it)
    cell_line: int | None = None

    def where(self) -> str:
        """``line 14``, or in a notebook ``cell 3, line 2`` (not the line of the joined cells)."""
        return f"cell {self.cell}, line {self.cell_line}" if self.cell is not None else f"line {self.line}"


@dataclass(frozen=True)
class RuleEdit(Edit):
    """A fix that comes from one finding of one rule (``rule``: its code; its safety is the rule's)."""

    rule: ClassVar[str]
    location: Location = field(default_factory=lambda: Location(0, 0, 0))

    @property
    def label(self) -> str:
        where = f" in {self.location.function}" if self.location.function else ""
        return f"{self.origin} at {self.location.where()}{where}"


@dataclass(frozen=True)
class PrintToTfPrint(RuleEdit):
    """TF201: ``print(...)`` in graph code runs once per trace; ``tf.print`` runs on every call."""

    rule = "TF201"


@dataclass(frozen=True)
class RangeToTfRange(RuleEdit):
    """TF307: ``for i in range(n)`` with ``n`` a Python int unrolls n times while tracing;
    ``tf.range(n)`` makes one TensorFlow loop (its loop variable a tensor: an unsafe fix)."""

    rule = "TF307"


@dataclass(frozen=True)
class DisableRunEagerly(RuleEdit):
    """TF405: ``tf.config.run_functions_eagerly(True)`` left on: set it to ``False``."""

    rule = "TF405"


# rule code -> the edit that fixes its findings (rules with ``fix_by = "edit"``)
RULE_EDITS: dict[str, type[RuleEdit]] = {e.rule: e for e in (PrintToTfPrint, RangeToTfRange, DisableRunEagerly)}


@dataclass
class Skipped:
    """An edit that was planned or asked for but not applied, with the one-line reason."""

    path: str
    what: str
    reason: str

    def __str__(self) -> str:
        return f"{self.path}: {self.what}: {self.reason}"
