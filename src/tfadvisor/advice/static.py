"""The decision model from static facts alone: one verdict per function, with reasons.

A function decorated today is judged as it is (keep / reconfigure / undecorate / fix-first); an
eager one as it would be (decorate / fix-first / leave-eager). Hazards are the findings of the
function's would-be graph code (itself and its callees). Measurements, where present, override
the performance guesses here (``advice.measured``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tfadvisor.analysis.project import Linked, Project
from tfadvisor.model import Confidence, Facts, Severity, Verdict

# A function with fewer tensor ops than this (itself and its callees; no loop, no model call) gains
# little or loses from graph mode: a tf.function call costs about as much as a handful of eager ops
# on CPU (the accuracy corpus measured 4-9 op functions at 0.3-0.9x over hundreds of calls). Below
# it we say leave-eager / undecorate, labelled a static estimate; `min-tensor-ops` in the config.
MIN_TENSOR_OPS = 8

_IO_CODES = ("TF201", "TF206")
_BEHAVIOUR_FAMILIES = "24"  # TF2xx side effects and TF4xx state/exceptions change behaviour
_BUILDER_NAMES = ("__init__", "build", "build_model", "get_model", "make_model", "create_model")


@dataclass
class Hazard:
    rule: str
    severity: Severity
    speculative: bool
    where: str  # qualname of the function the hazard is in


@dataclass
class Decision:
    verdict: Verdict
    reasons: list[str] = field(default_factory=list)
    confidence: Confidence = "certain"
    assumptions: list[str] = field(default_factory=list)


def facts_of(project: Project, linked: Linked) -> Facts:
    fn = linked.fn
    tensor = [n for n, p in linked.params.items() if p.kind == "tensor"]
    primitive = [n for n, p in linked.params.items() if p.kind == "primitive"]
    unknown = [n for n, p in linked.params.items() if p.kind not in ("tensor", "primitive")]
    work = project.tensor_work[fn.id]
    return Facts(
        tensor_computation=work > 0,
        tensor_params=tensor, primitive_params=primitive, unknown_params=unknown,
        python_side_effects=project.side_effect[fn.id] is not None,
        recursive=linked.recursive,
        creates_variables=project.variables[fn.id],  # type: ignore[arg-type]
        role=role_of(linked, work),
    )


def role_of(linked: Linked, tensor_work: int) -> str:
    """compute / builder / io / other, from what the function does itself and through callees.

    Drivers (a ``main`` that builds an optimizer, loops over steps and prints) and reporters (that
    read tensor values back with ``.numpy()`` or ``float()``) are ``io``: they stay eager.
    """
    fn = linked.fn
    if fn.builds and (fn.name in _BUILDER_NAMES or fn.tensor_ops <= fn.builds
                      or fn.name.startswith(("build", "make_", "create_", "get_"))):
        if fn.name not in ("call", "__call__", "train_step", "test_step") and not fn.io_calls:
            return "builder"
    if fn.eager_reads or (fn.io_calls and (fn.builds or tensor_work <= 2 * fn.io_calls)):
        return "io"
    if fn.builds and fn.tensor_ops <= fn.builds:
        return "builder"
    if tensor_work > 0:
        return "compute"
    if fn.io_calls:
        return "io"
    return "other"


def decide(project: Project, linked: Linked, facts: Facts, hazards: list[Hazard],
           tensor_ops: int, to_decorate: frozenset[str] | set[str] = frozenset(),
           min_tensor_ops: int = MIN_TENSOR_OPS) -> Decision:
    """The verdict for one function (see DESIGN.md "Verdicts").

    ``to_decorate`` holds the functions already judged ``decorate`` (callers are judged before
    their callees): a function whose every caller is, or will be, graph code is covered by them.
    """
    if linked.decorated:
        decision = _decorated(project, linked, facts, hazards, tensor_ops, min_tensor_ops)
    else:
        decision = _eager(project, linked, facts, hazards, tensor_ops, min_tensor_ops)
        if decision.verdict is Verdict.DECORATE and _covered(project, linked, to_decorate):
            decision = Decision(Verdict.LEAVE_EAGER, ["TF505"],
                                assumptions=["every caller is, or is advised to be, a tf.function: they convert it"])
    guessed = [f"{name} assumed a {'tensor' if p.kind == 'tensor' else 'Python value'} ({p.evidence})"
               for name, p in linked.params.items() if p.guessed]
    if (guessed and decision.verdict is not Verdict.LEAVE_EAGER) or any(h.speculative for h in hazards):
        decision.confidence = "speculative"
    decision.assumptions = guessed + decision.assumptions
    if any(h.speculative for h in hazards):
        decision.assumptions.append("some findings assume a value is a tensor (marked speculative)")
    decision.reasons = list(dict.fromkeys(decision.reasons))
    return decision


def _covered(project: Project, linked: Linked, to_decorate: frozenset[str] | set[str]) -> bool:
    callers = linked.callers
    if linked.fn.is_method and linked.fn.name in project.unresolved_methods:
        return False  # called on objects whose class we could not tell: callers we cannot see
    return bool(callers) and all(
        c is not None and c.id != linked.fn.id and (c.id in project.graph_roots or c.id in to_decorate)
        for c, _ in callers)


def _serious(hazards: list[Hazard]) -> list[str]:
    """Hazards that make code behave differently or fail under tf.function (not mere slowness)."""
    return [h.rule for h in hazards if h.severity is Severity.ERROR
            or (h.severity is Severity.WARNING and h.rule[2] in _BEHAVIOUR_FAMILIES)]


def _small(fn, tensor_ops: int, min_tensor_ops: int) -> bool:  # type: ignore[no-untyped-def]
    return tensor_ops < min_tensor_ops and not fn.loops and not fn.model_calls


def _too_small(tensor_ops: int) -> list[str]:
    return [f"only {tensor_ops} tensor op(s), no loop: graph mode gains little here "
            f"(static estimate; measure with `tfadvisor run`)"]


def _decorated(project: Project, linked: Linked, facts: Facts, hazards: list[Hazard],
               tensor_ops: int, min_tensor_ops: int) -> Decision:
    serious = _serious(hazards)
    if facts.role == "builder":
        return Decision(Verdict.UNDECORATE, ["TF504", *serious])
    if linked.recursive:
        return Decision(Verdict.FIX_FIRST, ["TF404", *serious])
    if serious:
        return Decision(Verdict.FIX_FIRST, serious)
    if not facts.tensor_computation:
        return Decision(Verdict.UNDECORATE, ["TF502"], assumptions=["no TensorFlow op found in it or its callees"])
    varying = [n for n, p in linked.params.items() if p.varying and p.kind != "tensor"]
    if varying:
        return Decision(Verdict.RECONFIGURE, ["TF503", "TF101"],
                        assumptions=[f"{', '.join(varying)} change from call to call: one trace per value"])
    if _covered(project, linked, frozenset()):
        return Decision(Verdict.UNDECORATE, ["TF505"])
    if not facts.tensor_params and not facts.unknown_params and facts.primitive_params:
        return Decision(Verdict.UNDECORATE, ["TF502"], assumptions=["takes only Python values"])
    if _small(linked.fn, tensor_ops, min_tensor_ops):
        return Decision(Verdict.UNDECORATE, ["TF602"], confidence="speculative", assumptions=_too_small(tensor_ops))
    return Decision(Verdict.KEEP)


def _is_test(fn) -> bool:  # type: ignore[no-untyped-def]
    base = fn.path.replace("\\", "/").rsplit("/", 1)[-1]
    return fn.name.startswith(("test", "setUp", "tearDown")) or base.endswith("_test.py") or base.startswith("test_")


def _eager(project: Project, linked: Linked, facts: Facts, hazards: list[Hazard], tensor_ops: int,
           min_tensor_ops: int) -> Decision:
    fn = linked.fn
    if facts.role == "builder":
        return Decision(Verdict.LEAVE_EAGER, ["TF504"])
    if facts.role == "io":
        return Decision(Verdict.LEAVE_EAGER, [h for h in _serious(hazards) if h in _IO_CODES],
                        assumptions=["does I/O or reads tensor values: it drives or reports the computation"])
    if not facts.tensor_computation:
        reason = "does I/O, no tensor work" if facts.role == "io" else "no tensor work"
        return Decision(Verdict.LEAVE_EAGER, ["TF502"], assumptions=[reason])
    if fn.is_generator:
        return Decision(Verdict.LEAVE_EAGER, ["TF207"], assumptions=["a generator: AutoGraph does not convert it"])
    cls = project.class_of(fn)
    if fn.name == "call" and cls is not None and cls.keras:
        return Decision(Verdict.LEAVE_EAGER, ["TF406"],
                        assumptions=["Keras compiles a layer's call itself: decorate the train step that calls it"])
    if linked.recursive:
        return Decision(Verdict.LEAVE_EAGER, ["TF404"])
    if _covered(project, linked, frozenset()):
        return Decision(Verdict.LEAVE_EAGER, ["TF505"], assumptions=["every caller is already graph code"])
    if fn.name.startswith("__") and fn.name not in ("__call__",):
        return Decision(Verdict.LEAVE_EAGER, [], assumptions=[f"{fn.name} is not a computation entry point"])
    if _is_test(fn):
        return Decision(Verdict.LEAVE_EAGER, [], assumptions=["a test: it drives the code under test"])
    if not facts.tensor_params and not fn.model_calls:
        # Without a tensor argument there is nothing for a graph to take in: library plumbing,
        # visitors, hooks. Judging it fix-first would report every hazard of its callees.
        return Decision(Verdict.LEAVE_EAGER, [], assumptions=["takes no tensor argument"])
    if not facts.tensor_params and not facts.unknown_params and facts.primitive_params:
        return Decision(Verdict.LEAVE_EAGER, ["TF503"], assumptions=["takes only Python values: each new value would retrace"])
    if fn.numpy_calls and fn.numpy_calls >= fn.tensor_ops:
        return Decision(Verdict.LEAVE_EAGER, ["TF206"],
                        assumptions=["works mostly in NumPy: under tf.function NumPy runs once, while tracing"])
    serious = _serious(hazards)
    varying = [n for n, p in linked.params.items() if p.varying and p.kind != "tensor"]
    if serious or varying:
        reasons = serious + (["TF101"] if varying else [])
        assumptions = [f"{', '.join(varying)} change from call to call: pass them as tensors"] if varying else []
        return Decision(Verdict.FIX_FIRST, reasons, assumptions=assumptions)
    if _small(fn, tensor_ops, min_tensor_ops):
        return Decision(Verdict.LEAVE_EAGER, ["TF602"], confidence="speculative", assumptions=_too_small(tensor_ops))
    return Decision(Verdict.DECORATE, ["TF501"])

