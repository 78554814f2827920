"""The data every command produces and every renderer consumes.

Facts, findings, verdicts and measurements are plain dataclasses, kept apart from how they are
shown: the analysis fills them, renderers (``tfadvisor.report``) only read them. ``Report`` maps
one-to-one onto the JSON schema (``schema/report.schema.json``, version ``SCHEMA_VERSION``); adding
a field is fine, renaming or removing one is a schema change.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from enum import Enum
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from tfadvisor.model_keras import KerasTraining

# 2: ``run`` is typed (``RunSummary`` for `run`, ``ProfileSummary`` for `profile`) in the schema
# too; the JSON of version 1 has the same keys, so reports of both versions are read.
SCHEMA_VERSION = 2
READABLE_SCHEMA_VERSIONS = (1, 2)


class Verdict(str, Enum):
    """One answer per function (README.md, "What it says, and why"); the groups below are how the layers ask."""

    DECORATE = "decorate"
    KEEP = "keep"
    RECONFIGURE = "reconfigure"
    UNDECORATE = "undecorate"
    FIX_FIRST = "fix-first"
    LEAVE_EAGER = "leave-eager"

    def __str__(self) -> str:  # so f-strings and rich show "fix-first", not "Verdict.FIX_FIRST"
        return self.value

    # The verdict groups, named once: every layer asks these rather than listing verdicts.
    @property
    def asks_change(self) -> bool:
        """The user is asked to change code (what precision is measured on)."""
        return self is not Verdict.KEEP and self is not Verdict.LEAVE_EAGER

    @property
    def edits_code(self) -> bool:
        """``fix`` can apply it as an edit (fix-first needs a person first)."""
        return self in (Verdict.DECORATE, Verdict.UNDECORATE, Verdict.RECONFIGURE)

    @property
    def runs_as_graph(self) -> bool:
        """The function is a tf.function once the advice is followed."""
        return self in (Verdict.DECORATE, Verdict.KEEP, Verdict.RECONFIGURE)


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    def __str__(self) -> str:
        return self.value

    @property
    def rank(self) -> int:
        return {"info": 0, "warning": 1, "error": 2}[self.value]


# How sure a verdict is: ``certain``; ``speculative`` where it rests on a guess (a value assumed a
# tensor); ``unknown`` where the status quo was kept because evidence was missing (no call site,
# arguments of unknown kind, calls that could not be followed): `tfadvisor run` decides those.
Confidence = Literal["certain", "speculative", "unknown"]
VariableCreation = Literal["none", "guarded", "unguarded"]
Role = Literal["compute", "builder", "io", "other"]


@dataclass
class SkippedCell:
    """A notebook cell left out of the analysis: not Python even the way IPython reads cells."""

    cell: int  # 1-based, counted as Jupyter does (markdown cells included)
    line: int | None  # line in the cell, 1-based, when the reason has one
    reason: str

    def __str__(self) -> str:
        where = f"cell {self.cell}" + (f", line {self.line}" if self.line else "")
        return f"{where}: {self.reason}"


@dataclass
class SkippedLines:
    """Lines of a module left out of the analysis: a top-level block that is not Python on its own
    (the rest of the file did not parse with it and is analysed without it: sources/recover.py)."""

    start: int  # 1-based, inclusive
    end: int  # 1-based, inclusive
    line: int | None  # where Python stopped, when it says
    reason: str

    def __str__(self) -> str:
        where = f"lines {self.start}-{self.end}" if self.end > self.start else f"line {self.start}"
        return f"{where}: {self.reason}" + (f" (line {self.line})" if self.line and self.line != self.start else "")


@dataclass
class FileStatus:
    """One input file: read and parsed (``ok``) or not (``error`` with a one-line reason).

    A notebook is ``ok`` when some of its cells do not parse: those are listed in
    ``skipped_cells`` and every other cell is analysed.
    """

    path: str
    status: Literal["ok", "error"] = "ok"
    error: str | None = None
    skipped_cells: list[SkippedCell] = field(default_factory=list)
    skipped_lines: list[SkippedLines] = field(default_factory=list)  # a module that did not parse whole

    @property
    def summary(self) -> str:
        """One line for people: ``analysed``, ``analysed, 2 cells skipped`` or the error."""
        if self.status == "error":
            return self.error or "error"
        skipped = len(self.skipped_cells)
        if self.skipped_lines:
            count = sum(s.end - s.start + 1 for s in self.skipped_lines)
            return f"analysed without {count} line{'s' if count != 1 else ''} that are not Python"
        return "analysed" + (f", {skipped} cell{'s' if skipped != 1 else ''} skipped" if skipped else "")

    @property
    def skipped(self) -> list[SkippedCell | SkippedLines]:
        """Whatever was left out of an analysed file: notebook cells or a module's lines."""
        return [*self.skipped_cells, *self.skipped_lines]


def function_id(path: str, qualname: str, definition: int = 1) -> str:
    """A function's id: ``path::qualname``. A file that defines the same qualname again (a notebook
    redefining ``train_step`` in a later cell) gives its n-th definition, n >= 2, the id
    ``path::qualname#n``, counted in source order (cell order for notebooks)."""
    return f"{path}::{qualname}" + (f"#{definition}" if definition > 1 else "")


def local_id(fid: str) -> str:
    """``qualname`` or ``qualname#n``: the part of an id that finds the definition in its file."""
    return fid.rsplit("::", 1)[-1]


def split_local_id(local: str) -> tuple[str, int]:
    """(qualname, n) for ``qualname#n``; n is 1 for a plain qualname."""
    qualname, sep, number = local.rpartition("#")
    if sep and number.isdigit() and int(number) >= 2:
        return qualname, int(number)
    return local, 1


@dataclass
class Facts:
    """What the analysis knows about one function, independent of any verdict."""

    tensor_computation: bool = False
    tensor_params: list[str] = field(default_factory=list)
    primitive_params: list[str] = field(default_factory=list)
    unknown_params: list[str] = field(default_factory=list)
    python_side_effects: bool = False
    recursive: bool = False
    creates_variables: VariableCreation = "none"
    role: Role = "other"
    # Why it must stay a tf.function whatever a measurement says (its graph is exported, its
    # concrete functions are used, it is a distributed step, its decorator sets input_signature or
    # jit_compile): analysis/project.py, ``Linked.needs_graph``. A measured report never advises
    # undecorating such a function.
    needs_graph: list[str] = field(default_factory=list)


@dataclass
class FixInfo:
    safe: bool
    description: str


@dataclass
class Finding:
    """One rule firing at one place. Lines are 1-based, columns 0-based (as ``ast``)."""

    rule: str
    severity: Severity
    path: str
    line: int
    col: int
    end_line: int
    end_col: int
    function: str | None
    message: str
    fix: FixInfo | None = None
    # Not in schema v1's required set: where in a notebook the finding is ("cell 3, line 2").
    cell: int | None = None
    cell_line: int | None = None
    suppressed: bool = False

    def sort_key(self) -> tuple:
        return (self.path, self.line, self.col, self.rule)


@dataclass
class ModeMeasurement:
    """One execution mode (eager, graph, xla) of one function, measured in a child process."""

    mode: Literal["eager", "graph", "xla"]
    first_call_s: float | None = None
    per_call_s: float | None = None  # steady-state median
    iqr_s: float | None = None
    rounds: int = 0
    outliers: int = 0
    traces: int | None = None
    error: str | None = None


@dataclass
class Measurement:
    """The ``measurement`` object of the schema: eager against graph for one function."""

    calls: int
    eager_s: float | None = None  # per call, steady state
    graph_s: float | None = None
    trace_s: float | None = None  # first-call overhead of graph mode (trace + compile)
    traces: int | None = None
    xla_s: float | None = None
    break_even_calls: float | None = None
    saved_s: float | None = None  # over ``calls`` calls; negative means graph mode loses time
    saved_interval_s: list[float] | None = None
    equivalent: bool | None = None
    modes: list[ModeMeasurement] = field(default_factory=list)
    retraces: list[str] = field(default_factory=list)
    differences: list[str] = field(default_factory=list)
    error: str | None = None
    # Whether jit_compile=True gave the same results as eager (None: not measured). Plain graph
    # equivalence (``equivalent``) says nothing about XLA, whose kernels (e.g. stateless RNG) differ.
    xla_equivalent: bool | None = None
    # Argument signatures seen, in ``runtime.signature`` form ({"x": ["tensor", "float32", [32, 3]]}),
    # from which ``fix`` builds an ``input_signature`` (None for dimensions that varied).
    signatures: list[dict[str, Any]] | None = None
    # Python-number arguments that, passed as tensors of these dtypes, traced once with the same
    # results when ``run`` replayed them ({"step": "float32"}); ``fix`` wraps them at call sites.
    as_tensors: dict[str, str] | None = None
    # The tf.function option the verdict applies ("reduce_retracing", "input_signature",
    # "jit_compile"), if any; ``saved_s`` is then the saving with that option (advice/policy.py).
    option: str | None = None
    # Where eager itself drew other values from the same state (stateful random ops): compared
    # between modes by shape, dtype and statistics, not by value.
    random_values: list[str] = field(default_factory=list)
    # The measured policy's own verdict, before static facts of the same function had their say
    # (a static fix-first or veto can override it: advice/measured.py, _merge_static).
    policy_verdict: str | None = None


AdviceEditKind = Literal["decorate", "decorate-per-call", "undecorate", "set-option", "pass-as-tensors"]


@dataclass
class AdviceEdit:
    """One change to the code that an advice asks for, in the terms ``fix`` applies it."""

    kind: AdviceEditKind
    # decorate / set-option: the tf.function option it sets ("reduce_retracing", "input_signature",
    # "jit_compile"); None for a plain ``@tf.function``.
    option: str | None = None
    # pass-as-tensors: parameter -> dtype, wrapped as ``tf.constant(value, dtype)`` where it is called.
    arguments: dict[str, str] | None = None
    # decorate-per-call: the function (its id) that makes one tf.function of this one each time it
    # runs (``step_fn = tf.function(step)`` at its top, its calls through ``step_fn``): the run
    # handed the function new objects that built variables after its first call, which one
    # tf.function for the whole program cannot trace (TF401).
    caller: str | None = None


@dataclass
class Advice:
    """The measured answer for one function, made once by the policy (``advice/measured.py``) and
    read as it is by every renderer, by ``fix --from`` (its ``edits``, nothing recomputed) and by
    ``profile``: what to do, with which option, what it saves, and on what it rests."""

    verdict: Verdict
    why: str = ""
    option: str | None = None  # the tf.function option the advice sets, if any
    saving_s: float | None = None  # the advice's saving against the code as it is (None: not claimed)
    edits: list[AdviceEdit] = field(default_factory=list)
    step: str = ""  # the policy step that decided (advice/policy.py)
    calls: int = 0  # calls the run (or profile) made
    # The run was too short to repay tracing: graph mode pays back after this many calls, and the
    # advice holds for a workload that makes more (a longer run of the same program).
    pays_back_after: float | None = None
    needs_graph: list[str] = field(default_factory=list)  # why it stays a tf.function, if it must


@dataclass
class FunctionReport:
    id: str
    path: str
    qualname: str
    line: int
    end_line: int
    decorated: bool
    facts: Facts
    verdict: Verdict
    reasons: list[str] = field(default_factory=list)
    confidence: Confidence = "certain"
    assumptions: list[str] = field(default_factory=list)
    measurement: Measurement | None = None
    # The measured answer (``run``, ``profile``); None for ``check``, whose verdict is the answer.
    advice: Advice | None = None
    # Notebooks: where the ``def`` is (``line`` indexes the cells joined, as findings' ``line``).
    cell: int | None = None
    cell_line: int | None = None


@dataclass
class RunRow:
    """One line of `run`'s table: a function of the observed program, biggest (inclusive time) first."""

    rank: int
    id: str
    qualname: str
    calls: int
    uncovered_calls: int  # calls not made from inside a function advised to run as a graph
    eager_s: float  # observed inclusive time over all calls
    own_s: float
    share: float  # of the program's wall time
    projected_s: float | None  # the same calls after the advised change
    saved_s: float | None  # the advice's saving against the code as it is
    verdict: Verdict
    advised: bool  # the verdict edits code (Verdict.edits_code)
    why: str
    decorated: bool
    signatures: int  # distinct argument signatures seen
    traces_observed: int | None
    traced_calls: int
    errors: int
    covered_by: list[str] = field(default_factory=list)
    replayed: bool = False
    replay_error: str | None = None
    samples: int = 0
    as_tensors: dict[str, str] | None = None
    retraces: dict[str, int] | None = None


@dataclass
class RunSummary:
    """What `run` records about the whole program run and its replay; ``table`` ranks its functions."""

    target: str = ""
    module: bool = False
    argv: list[str] = field(default_factory=list)
    exit_status: int = 0
    outcome: str = "ok"  # ok, exit, exception, interrupted, terminated, crashed, not-found, syntax-error
    error: str | None = None
    wall_s: float = 0.0
    observed_functions: int = 0
    replayed_functions: int = 0
    budget_s: float = 0.0
    # How the replay budget was set and spent (runtime/run/budget.py): "0.75 x the program's 8.1 s
    # run", "--budget 30 s"; functions share it by their share of the run at stake.
    budget_basis: str = ""
    replay_s: float = 0.0
    replay_interrupted: bool = False
    memory_budget_bytes: int = 0
    memory_used_bytes: int = 0
    projected_saved_s: float = 0.0  # the advised rows' savings
    table: list[RunRow] = field(default_factory=list)
    # Keras models the program trained with fit, measured and advised (model_keras.py); each has a row too.
    keras: list[KerasTraining] = field(default_factory=list)

    def facts(self) -> dict[str, Any]:
        """The run-level facts without the table, in schema order (for renderers)."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name not in ("table", "keras")}


@dataclass
class ProfileSummary:
    """What `profile` records about its target beyond the one function entry."""

    target: str = ""
    error_kind: str | None = None  # crash, timeout, memory, ... when the measurement failed

    def facts(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass
class Report:
    """Everything one command found: the single object that every renderer reads."""

    files: list[FileStatus] = field(default_factory=list)
    functions: list[FunctionReport] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    command: str = "check"
    # Run-level data: the observed program and its ranked table for `run`, the target for `profile`.
    run: RunSummary | ProfileSummary | None = None

    def to_dict(self) -> dict[str, Any]:
        from tfadvisor import __version__

        out: dict[str, Any] = {
            "schema": SCHEMA_VERSION,
            "tool": {"name": "tfadvisor", "version": __version__},
            "command": self.command,
            "files": [_clean(asdict(f)) for f in self.files],
            "functions": [_clean(asdict(f)) for f in self.functions],
            "findings": [_clean(asdict(f)) for f in self.findings],
        }
        if self.run is not None:
            out["run"] = _clean(asdict(self.run))
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Report:
        """Inverse of ``to_dict``; raises ``ReportFormatError`` for anything that is not ours."""
        if not isinstance(data, dict) or data.get("tool", {}).get("name") != "tfadvisor":
            raise ReportFormatError("not a tfadvisor report (no tool.name 'tfadvisor')")
        if data.get("schema") not in READABLE_SCHEMA_VERSIONS:
            readable = " and ".join(map(str, READABLE_SCHEMA_VERSIONS))
            raise ReportFormatError(
                f"report has schema version {data.get('schema')!r}; this tfadvisor reads {readable}"
            )
        try:
            return cls(
                files=[_file_from_dict(f) for f in data.get("files", [])],
                functions=[_function_from_dict(f) for f in data.get("functions", [])],
                findings=[_finding_from_dict(f) for f in data.get("findings", [])],
                command=data.get("command", "check"),
                run=_run_from_dict(data.get("run"), data.get("command", "check")),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ReportFormatError(f"malformed report: {exc}") from exc

    def function(self, function_id: str) -> FunctionReport | None:
        return next((f for f in self.functions if f.id == function_id), None)


class ReportFormatError(ValueError):
    """A report file that tfadvisor cannot read back."""


def _clean(d: dict[str, Any]) -> dict[str, Any]:
    """Enums to their values, recursively (asdict keeps Enum members)."""
    out: dict[str, Any] = {}
    for key, value in d.items():
        if isinstance(value, Enum):
            value = value.value
        elif isinstance(value, dict):
            value = _clean(value)
        elif isinstance(value, list):
            value = [_clean(v) if isinstance(v, dict) else (v.value if isinstance(v, Enum) else v) for v in value]
        out[key] = value
    return out


def _build(cls: type, data: dict[str, Any]) -> Any:
    """Construct a dataclass from a dict, ignoring unknown keys (later schema additions)."""
    names = {f.name for f in fields(cls)}
    return cls(**{k: v for k, v in data.items() if k in names})


def _file_from_dict(d: dict[str, Any]) -> FileStatus:
    status = _build(FileStatus, d)
    status.skipped_cells = [_build(SkippedCell, c) for c in d.get("skipped_cells") or []]
    status.skipped_lines = [_build(SkippedLines, c) for c in d.get("skipped_lines") or []]
    return status


def _finding_from_dict(d: dict[str, Any]) -> Finding:
    finding = _build(Finding, d)
    finding.severity = Severity(finding.severity)
    if isinstance(finding.fix, dict):
        finding.fix = _build(FixInfo, finding.fix)
    return finding


def _function_from_dict(d: dict[str, Any]) -> FunctionReport:
    fn = _build(FunctionReport, d)
    fn.facts = _build(Facts, d["facts"])
    fn.verdict = Verdict(d["verdict"])
    if isinstance(d.get("measurement"), dict):
        m = _build(Measurement, d["measurement"])
        m.modes = [_build(ModeMeasurement, x) for x in d["measurement"].get("modes", [])]
        fn.measurement = m
    if isinstance(d.get("advice"), dict):
        advice = _build(Advice, d["advice"])
        advice.verdict = Verdict(advice.verdict)
        advice.edits = [_build(AdviceEdit, e) for e in d["advice"].get("edits") or []]
        fn.advice = advice
    return fn


def _run_from_dict(d: Any, command: str) -> RunSummary | ProfileSummary | None:
    if not isinstance(d, dict):
        return None
    if command == "profile":
        return _build(ProfileSummary, d)
    summary = _build(RunSummary, d)
    summary.table = [_row_from_dict(r) for r in d.get("table") or []]
    from tfadvisor.model_keras import training_from_dict

    summary.keras = [training_from_dict(t) for t in d.get("keras") or [] if isinstance(t, dict)]
    return summary


def _row_from_dict(d: dict[str, Any]) -> RunRow:
    row = _build(RunRow, d)
    row.verdict = Verdict(row.verdict)
    return row
