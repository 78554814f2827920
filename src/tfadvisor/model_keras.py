"""The data of a Keras training that `run` observed and measured (``RunSummary.keras``).

Kept apart from ``model.py`` so that Keras's part of a `run` report has one home: the runtime
(``runtime/keras/``) fills it, the advice (``advice/keras.py``) decides on it, renderers and
``fix`` (``fix/keras_edits.py``) read it. Plain dataclasses that map one-to-one onto the JSON
schema's ``$defs/kerasTraining``; adding a field is fine, renaming one is a schema change.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Literal

from tfadvisor.model import Verdict

PipelineEditKind = Literal["parallel_map", "prefetch", "cache"]


@dataclass
class CallSite:
    """Where the project's code made a call (``compile``, ``fit``, a ``Dataset`` method). Lines are
    1-based; columns 0-based in UTF-8 bytes, as ``ast`` gives them; the end is the call's closing
    parenthesis, which tells apart the calls of one chain (``a.map(f).batch(8)``)."""

    path: str
    line: int
    col: int
    end_line: int
    end_col: int
    method: str  # "compile", "fit", "map", "batch", ...


@dataclass
class PipelineStage:
    """One transformation of the ``tf.data`` pipeline fed to ``fit``, as the project's code wrote it."""

    method: str  # Dataset method: "map", "batch", "shuffle", "prefetch", "cache", ...
    site: CallSite | None  # None: not made by the project's code (a library built it)
    parallel: bool | None = None  # map: num_parallel_calls given
    random: bool | None = None  # map: its function draws random numbers (or runs Python): never cached


@dataclass
class KerasTrial:
    """One configuration of the same model on the same steps: compile options and pipeline edits."""

    name: str  # "as compiled", "jit_compile=True", ...
    options: dict[str, Any] = field(default_factory=dict)  # compile options set on top of the program's
    pipeline: list[str] = field(default_factory=list)  # pipeline edits applied (PipelineEditKind)
    data: Literal["fixed batches", "program's data"] = "fixed batches"
    step_s: float | None = None  # steady state, seconds per training step (median over executions)
    first_s: float | None = None  # the first execution (tracing, XLA compile)
    steps: int = 0  # steps timed
    equivalent: bool | None = None  # same losses and weights as "as compiled" from the same start
    differences: list[str] = field(default_factory=list)
    error: str | None = None


@dataclass
class PipelineEdit:
    """One edit of the input pipeline that ``fix`` applies at the call the project made."""

    kind: PipelineEditKind
    site: CallSite  # parallel_map: the map call; prefetch/cache: the call whose result gets it


@dataclass
class KerasTraining:
    """One compiled model's training in the observed run, what was measured, and the advice."""

    id: str  # "path::<compile>@line", so findings and rows can point at it
    model: str  # the model's name ("sequential")
    model_class: str
    compile_site: CallSite | None
    compiled: dict[str, Any] = field(default_factory=dict)  # run_eagerly, jit_compile, steps_per_execution in force
    fit_calls: int = 0
    fit_s: float = 0.0
    fit_steps: int = 0  # training steps the program ran (optimizer iterations)
    steps_per_epoch: int | None = None
    evaluate_calls: int = 0
    evaluate_s: float = 0.0
    predict_calls: int = 0
    predict_s: float = 0.0
    data: str = ""  # "tf.data.Dataset", "NumPy arrays", ...
    batch_callbacks: list[str] = field(default_factory=list)  # the program's callbacks that act per batch
    pipeline: list[PipelineStage] = field(default_factory=list)
    trials: list[KerasTrial] = field(default_factory=list)
    input_share: float | None = None  # share of a step spent waiting on data, as the program feeds it
    verdict: Verdict = Verdict.KEEP  # reconfigure: change compile options / the pipeline
    options: dict[str, Any] = field(default_factory=dict)  # compile options advised
    pipeline_edits: list[PipelineEdit] = field(default_factory=list)
    speedup: float | None = None  # as compiled / advised, per step on the program's data
    projected_s: float | None = None  # the observed fit time after the advice
    saved_s: float | None = None
    equivalent: bool | None = None  # the advised compile options gave the same losses and weights
    why: str = ""
    assumptions: list[str] = field(default_factory=list)
    skipped: str | None = None  # why nothing was measured

    @property
    def advised(self) -> bool:
        return self.verdict.edits_code and bool(self.options or self.pipeline_edits)


def _build(cls: type, data: dict[str, Any]) -> Any:
    names = {f.name for f in fields(cls)}
    return cls(**{k: v for k, v in data.items() if k in names})


def _site(d: Any) -> CallSite | None:
    return _build(CallSite, d) if isinstance(d, dict) else None


def training_from_dict(d: dict[str, Any]) -> KerasTraining:
    """Inverse of ``dataclasses.asdict`` (unknown keys ignored: later schema additions)."""
    t = _build(KerasTraining, d)
    t.verdict = Verdict(t.verdict)
    t.compile_site = _site(d.get("compile_site"))
    t.pipeline = [_stage(s) for s in d.get("pipeline") or []]
    t.trials = [_build(KerasTrial, x) for x in d.get("trials") or []]
    t.pipeline_edits = [PipelineEdit(kind=e["kind"], site=_site(e["site"]))  # type: ignore[arg-type]
                        for e in d.get("pipeline_edits") or [] if isinstance(e, dict) and _site(e.get("site"))]
    return t


def _stage(d: dict[str, Any]) -> PipelineStage:
    stage = _build(PipelineStage, d)
    stage.site = _site(d.get("site"))
    return stage
