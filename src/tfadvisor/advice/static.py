"""The decision model from static facts alone: one verdict per function, with reasons.

Precision first: a verdict that asks for a change (decorate, undecorate, reconfigure, fix-first)
needs positive evidence; where the analysis cannot know, the verdict is the status quo (``keep``
for a tf.function, ``leave-eager`` for eager code) with what was not seen, and the advice to
measure with ``tfadvisor run``. Role and payoff come before hazards: a function nobody should
decorate is ``leave-eager``, whatever would go wrong if it were.

Each verdict is reached by named steps, tried in order; the first that decides, decides. The
policy is written out in docs/decisions/0010-precision-on-real-code.md. Measurements, where
present, override the performance guesses here (``advice.measured``).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field

from tfadvisor.analysis import graph_context, tfapi, values
from tfadvisor.analysis.module import looks_like_model
from tfadvisor.analysis.project import EXPORTED, EXPORTED_GRAPH, HANDED_TO_A_TRACER, Linked, ParamFacts, Project
from tfadvisor.analysis.summary import CallSite, FunctionSummary
from tfadvisor.config import MIN_TENSOR_OPS
from tfadvisor.model import Confidence, Facts, Severity, Verdict, function_id
from tfadvisor.rules.tf102_function_created_repeatedly import made_per_call
from tfadvisor.rules.tf206_eager_only_call import keras_eager_api
from tfadvisor.rules.tf406_decorated_keras_call import WEIGHTS_MAY_EXIST
from tfadvisor.wording import names, verb

_IO_CODES = ("TF201", "TF206")
_BEHAVIOUR_FAMILIES = "24"  # TF2xx side effects and TF4xx state/exceptions change behaviour
_BUILDER_NAMES = ("__init__", "build", "build_model", "get_model", "make_model", "create_model")
MEASURE = "measure with `tfadvisor run`"


@dataclass
class Hazard:
    rule: str
    severity: Severity
    speculative: bool


@dataclass
class Decision:
    verdict: Verdict
    reasons: list[str] = field(default_factory=list)
    confidence: Confidence = "certain"
    assumptions: list[str] = field(default_factory=list)
    # Whether following the advice makes this function graph code (its hazards then matter). Not
    # so for a loop asked to move its inline step into a function of its own.
    becomes_graph: bool = True


@dataclass
class Case:
    """What one decision step looks at."""

    project: Project
    linked: Linked
    facts: Facts
    hazards: list[Hazard]
    tensor_ops: int
    min_tensor_ops: int
    to_decorate: frozenset[str] | set[str]
    # of those, the ones that become graphs themselves (decorate, and fix-first that is then
    # decorated): not a loop told to move its inline step out, which stays Python
    as_graphs: frozenset[str] | set[str] = frozenset()

    @property
    def fn(self):
        return self.linked.fn


Step = Callable[[Case], "Decision | None"]


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
        role=role_of(linked, work),  # type: ignore[arg-type]
        needs_graph=list(dict.fromkeys(linked.needs_graph)),
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
           min_tensor_ops: int = MIN_TENSOR_OPS, as_graphs: frozenset[str] | set[str] = frozenset()) -> Decision:
    """The verdict for one function: the first of its steps that decides.

    ``to_decorate`` holds the functions already judged ``decorate`` (callers are judged before
    their callees): a function whose every caller is, or will be, graph code is covered by them.
    """
    case = Case(project, linked, facts, hazards, tensor_ops, min_tensor_ops, to_decorate, as_graphs)
    steps = DECORATED_STEPS if linked.decorated else EAGER_STEPS
    decision = next(d for d in (step(case) for step in steps) if d is not None)
    guessed = [f"{name} assumed a {'tensor' if p.kind == 'tensor' else 'Python value'} ({p.evidence})"
               for name, p in linked.params.items() if p.guessed]
    if guessed and decision.verdict.asks_change:
        decision.confidence = "speculative"
        decision.assumptions = guessed + decision.assumptions
    tf1_eager = project.tf1_eager.get(linked.fn.path)
    if tf1_eager and decision.verdict.asks_change:
        # static advice only: the program needs TensorFlow 1, which `run` cannot measure with
        decision.confidence = "speculative"
        decision.assumptions.append(
            f"written for TensorFlow 1's eager mode ({tf1_eager[2]}, line {tf1_eager[0]}): there "
            f"`tf.contrib.eager.defun` is tf.function's counterpart; `tfadvisor run` measures "
            f"TensorFlow 2 programs only")
    decision.reasons = list(dict.fromkeys(decision.reasons))
    return decision


# -- shared facts ------------------------------------------------------------------------------
# A print that runs once per trace changes what is printed, not what is computed: a finding to fix
# (safely, with tf.print), not a reason to say the function behaves differently.
_NOT_SERIOUS = frozenset({"TF201"})
# Warnings outside the behaviour families that still change what the program computes or make it
# fail: a global or an attribute read once, while tracing, and frozen (PGGAN's fade-in counter stops
# fading); NumPy float64 arguments meeting float32 tensors (TypeError under tf.function only).
_STALE = frozenset({"TF105", "TF106", "TF109"})


def serious(hazards: list[Hazard]) -> list[str]:
    """Hazards, known for sure, that make code behave differently or fail under tf.function."""
    return [h.rule for h in hazards if not h.speculative and h.rule not in _NOT_SERIOUS and (
        h.severity is Severity.ERROR or (h.severity is Severity.WARNING and (
            h.rule[2] in _BEHAVIOUR_FAMILIES or h.rule in _STALE)))]


def _small(case: Case) -> bool:
    fn = case.fn
    return case.tensor_ops < case.min_tensor_ops and not fn.loops and not fn.model_calls


def _varying_python(case: Case) -> list[str]:
    return [n for n, p in case.linked.params.items() if p.varying and p.kind != "tensor"]


def _tf1(case: Case) -> Decision | None:
    marker = case.project.tf1.get(case.fn.path)
    if marker is None:
        return None
    verdict = Verdict.KEEP if case.linked.decorated else Verdict.LEAVE_EAGER
    return Decision(verdict, ["TF100"], assumptions=[f"TensorFlow 1 code ({marker[2]}, line {marker[0]}): out of scope"])


def _other_framework(case: Case) -> Decision | None:
    framework = case.project.other_framework.get(case.fn.path)
    verdict = Verdict.KEEP if case.linked.decorated else Verdict.LEAVE_EAGER
    if framework is None and case.fn.torch_call is not None and not case.linked.decorated:
        # a book chapter that loads IMDB with Keras and trains a PyTorch model: the step is torch's
        return Decision(verdict, assumptions=[f"PyTorch code (it calls {case.fn.torch_call}): out of scope"])
    if framework is None:
        return None
    return Decision(verdict, assumptions=[f"{framework} code (the module imports {framework}, not TensorFlow): out of scope"])


def _test(case: Case) -> Decision | None:
    if not case.project.is_test(case.fn):
        return None
    verdict = Verdict.KEEP if case.linked.decorated else Verdict.LEAVE_EAGER
    return Decision(verdict, assumptions=["test code: it uses tf.function (or not) on purpose"])


# -- eager functions -----------------------------------------------------------------------------
def _already_graph(case: Case) -> Decision | None:
    linked = case.linked
    if linked.eager_reason is not None:
        return Decision(Verdict.LEAVE_EAGER, assumptions=[linked.eager_reason])
    if linked.framework == "keras" and linked.fn.name == "call":
        # with no fit, predict, functional model or tf.function of the checked code around it, it
        # runs eagerly where it is called (heldout43's notebooks that train a model inline)
        why = ("Keras compiles a layer's call itself: decorate the train step that calls it" if linked.graph_root is not None else
               "Keras traces a layer's call itself under fit and predict, and nothing in the checked code "
               "runs this one in a graph: decorate the step that calls it, not call")
        return Decision(Verdict.LEAVE_EAGER, ["TF406"], assumptions=[why])
    if linked.graph_reason is not None and not _called_eagerly_in_loops(case):
        found = _own_findings(case)
        if found and _traced_by_an_api(case):
            # ``ds.map(load)``: traced like a tf.function, so what breaks or changes in a graph
            # (a random.choice frozen at trace time) already does; the fix is due, no decorator.
            # It is due where the finding is: in a helper the map function calls, not in the map
            # function (heldout24, heldout25: judged leave-eager four times in five)
            return Decision(Verdict.FIX_FIRST, found, becomes_graph=False, assumptions=[
                f"{linked.graph_reason}: the findings break or change it there; fix them"])
        return Decision(Verdict.LEAVE_EAGER, ["TF505"], assumptions=[f"already graph code: {linked.graph_reason}"])
    if linked.control_flow is not None:
        return Decision(Verdict.LEAVE_EAGER, assumptions=[
            f"handed to TensorFlow control flow ({linked.control_flow}), which runs it where it is called: "
            f"eagerly from eager code, traced inside a tf.function; decorate the caller, if anything"])
    if _covered(case.project, linked, case.to_decorate, once_ok=True):
        turned_off = [c.qualname for c, _ in linked.callers if c is not None and c.decorator_disabled]
        if turned_off:
            return Decision(Verdict.LEAVE_EAGER, assumptions=[
                f"its caller {turned_off[0]}() is the unit a graph would be (its `@tf.function` is commented "
                f"out): decorating this part alone is not the fix; {MEASURE}"])
        found = _own_findings(case)
        if found and not linked.fn.is_method and all(
                c is not None and (c.id in case.project.graph_roots or c.id in case.as_graphs)
                for c, _ in linked.callers):
            # a helper whose own body holds what breaks its caller's graph (a learning-rate warmup's
            # ``lr.numpy()``, a loss's ``np.clip``): the fix is due here, the decorator is the
            # caller's (heldout33, heldout34: two such helpers judged fix-first, as the steps were)
            return Decision(Verdict.FIX_FIRST, [*found, "TF505"], becomes_graph=False, assumptions=[
                "every caller is, or is advised to be, a tf.function, which runs it in its graph: the "
                "findings here break or change it there; fix them here, no decorator of its own"])
        graph_callers = _graph_callers(case.project, linked, case.to_decorate, once_ok=True)
        if len(graph_callers) < len(linked.callers):
            # ``loss(train_x, train_y)`` reported once per epoch beside the step that calls it
            hot = names([f"{q}()" for q in dict.fromkeys(graph_callers)])
            return Decision(Verdict.LEAVE_EAGER, ["TF505"], assumptions=[
                f"every caller that runs it often ({hot}) is, or is advised to be, a tf.function, which "
                f"converts it; its other calls (once, or now and then) gain little alone"])
        return Decision(Verdict.LEAVE_EAGER, ["TF505"],
                        assumptions=["every caller is, or is advised to be, a tf.function: they convert it"])
    return None


def _own_findings(case: Case) -> list[str]:
    """What breaks or changes it in a graph, found in its own body (not in what it calls). An
    argument changed in place (TF110) is no hazard for code a caller's graph or an API traces: it
    gets a fresh structure for each trace."""
    own = {hit.rule for hit in case.fn.hits if hit.callee is None}
    return [code for code in serious(case.hazards) if code != "TF110" and code in own]


def _dispatches(case: Case) -> Decision | None:
    """``if self.use_tf_function: return self._tf_train_step(x)`` / ``else: return
    self._train_step(x)``: a switch between two functions of the project, with no work of its own.
    The advice is theirs (each is judged for itself; neither is covered by this one). heldout31: a
    translator's Keras-style ``train_step``, told fix-first for what its eager branch does, judged
    leave-eager, with the branch judged fix-first or decorate."""
    fn = case.fn
    if not fn.dispatches or fn.tensor_ops:
        return None
    first, second = (case.project.resolve(fn, fn.module, name) for name in fn.dispatches)
    if first is None or second is None or fn.id in (first.id, second.id):
        return None
    return Decision(Verdict.LEAVE_EAGER, assumptions=[
        f"only picks {first.name}() or {second.name}() on a flag: the advice is theirs"])


def _numpy_only(case: Case) -> Decision | None:
    """A function of a NumPy-only module (analysis/module.py) that no graph code reaches (those were
    decided just before): there is no tensor in it to put in a graph."""
    if case.fn.path not in case.project.numpy_only:
        return None
    return Decision(Verdict.LEAVE_EAGER, assumptions=[
        "NumPy code (the module imports NumPy and no TensorFlow, Keras or project module): nothing to trace"])


def _scores_for_a_step(case: Case) -> Decision | None:
    """A helper that a training step calls (``loss(model, x, y)`` under the step's tape), when that
    step is, or is advised to be, a tf.function: its work runs in the step's graph. Its other calls
    (the loss recorded once per epoch for the curve) gain little on their own: decorate the step,
    not the helper (heldout13, heldout26, heldout27: four such loss helpers told to decorate, judged
    leave-eager by four judges; one more accepted both)."""
    fn, project = case.fn, case.project
    if fn.training_ops or fn.optimizer_steps or project.trains[fn.id] or serious(case.hazards):
        return None  # (a helper with its own findings is fixed where they are: a scheduler's state)
    if "loss" not in fn.name.lower() and not fn.scores:
        return None
    steps = [c for c, _ in case.linked.callers if c is not None and c.id != fn.id and c.training_ops
             and (c.id in project.graph_roots or c.id in case.to_decorate)]
    if not steps:
        return None
    return Decision(Verdict.LEAVE_EAGER, ["TF505"], assumptions=[
        f"the training step {steps[0].qualname}() calls it, and that step is, or is advised to be, a "
        f"tf.function: its work runs in that graph; its other calls (reporting the loss) gain little alone"])


def _predicts_per_step(case: Case) -> Decision | None:
    """``model.predict(state)`` once per environment step: Keras runs its whole predict loop (a
    data adapter, callbacks, its own tf.function) every time, which dwarfs the model (TF 2.21: 65
    ms against 0.36 ms for ``model(x, training=False)`` in a tf.function), and predict cannot run
    in a tf.function. The function stays eager as written, with the direct call said (TF507): blind
    judges of heldout22-27 accepted leave-eager for all ten such functions they judged, and
    fix-first for seven (an acting policy that feeds ``env.step`` a Python int is the simulator's
    loop, not a graph's). Not where Keras drives the training too (``train_on_batch``, ``fit``),
    nor outside a simulator's loop (forecasting or generation helpers: predict's cost is theirs)."""
    fn = case.fn
    if not fn.predicts or fn.steps_env or fn.keras_calls or not case.linked.repeated:
        return None  # a function that steps the environment itself drives the loop: its callee is the step
    if _a_step_itself(fn):
        return None  # a training step that predicts its targets (DQN): the predict is the part to move
        # out, the step worth a graph (heldout33: judged fix-first only); the later steps say so
    if not _under_an_environment_loop(case):
        return None
    return Decision(Verdict.LEAVE_EAGER, ["TF507"], assumptions=[
        "calls Model.predict on every call, which it gets once per environment step: it stays eager as "
        "written; for speed, call the model directly, model(x, training=False), return tensors and do the "
        "NumPy work (argmax, sampling) with TensorFlow ops or in the caller, then decorate it"])


def _under_an_environment_loop(case: Case, depth: int = 3) -> bool:
    """Some function up its callers (a few levels), or a script's top-level loop, steps a
    simulator (``env.step``)."""
    frontier, seen = [case.linked], {case.fn.id}
    for _ in range(depth):
        if any(c is None and case.project.steps_env_at(s) for linked in frontier for c, s in linked.callers):
            return True
        callers = [c for linked in frontier for c, _ in linked.callers if c is not None and c.id not in seen]
        if any(c.steps_env for c in callers):
            return True
        seen.update(c.id for c in callers)
        frontier = [case.project.functions[c.id] for c in callers if c.id in case.project.functions]
    return False


def _role(case: Case) -> Decision | None:
    fn, facts = case.fn, case.facts
    if facts.role == "builder":
        return Decision(Verdict.LEAVE_EAGER, ["TF504"])
    if fn.resets_keras:
        # heldout48: a batch-size probe that clears the session, then tries one training step
        return Decision(Verdict.LEAVE_EAGER, assumptions=[
            "resets Keras's global state on every call (clear_session): a probe or a setup that starts "
            "afresh, not a step a graph would repeat"])
    if facts.creates_variables == "unguarded" and not case.project.trains[fn.id] and not fn.keras_calls:
        per_batch = _fed_per_batch_beside_a_step(case)
        if per_batch is not None:
            # a Conv2D made with fixed weights to blur each batch before the training step: the
            # layer is the part to change (tf.nn ops, or made once), the rest is per-batch work
            # worth a graph (heldout33: a super-resolution degradation pipeline, judged fix-first)
            return Decision(Verdict.FIX_FIRST, ["TF401"], assumptions=[
                f"{per_batch}() calls it on every batch, beside its training step, and it makes Keras layers "
                f"or variables on every call (new weights each time; under tf.function that raises): make "
                f"them once, or use tf.nn ops with the fixed kernels, then decorate it"])
        # ``Conv2D(...)(feat)`` in a helper called per pyramid level: a model being built (new
        # weights on every call), not a step that a graph would repeat (heldout24: judged leave-eager)
        return Decision(Verdict.LEAVE_EAGER, ["TF504"], assumptions=[
            "makes Keras layers or variables on every call (here or in what it calls) and computes no "
            "gradients: it builds a model, it is not a step"])
    if facts.role == "io" and _acts_and_reads(case):
        return _reads_back(case)  # what its callers pass matters less than the read to move out
    if facts.role == "io" and not (_computes_a_step(case) or _scores_and_reads(case) or _trains_batches_inline(case.fn)):
        return Decision(Verdict.LEAVE_EAGER, assumptions=["does I/O or reads tensor values: it drives or reports the computation"])
    if not facts.tensor_computation:
        return Decision(Verdict.LEAVE_EAGER, ["TF502"], assumptions=["no tensor work"])
    shows = _shows_predictions(case)
    if shows is not None:
        return Decision(Verdict.LEAVE_EAGER, assumptions=[
            f"reports: it calls the model, trains and scores nothing, and calls {shows}(), which plots, "
            f"prints or writes"])
    if fn.python_fetches and not fn.training_ops and (fn.loops or _calls_a_training_step(case)):
        return Decision(Verdict.LEAVE_EAGER, assumptions=[
            "feeds the computation: draws its batches in Python (a generator's next_batch, a replay "
            "buffer's sample), which a trace would draw once; decorate the step it hands them to"])
    if fn.io_calls and fn.model_calls and not fn.training_ops and _loops_over_a_dataset(case):
        return Decision(Verdict.LEAVE_EAGER, assumptions=[
            "evaluates and reports: loops over a dataset calling the model, then prints or logs the scores; "
            "the per-batch step inside is the unit a graph would be"])
    keras = next((c for c in (fn, *(callee for _, callee in case.linked.callees)) if c.keras_calls), None)
    if keras is not None:
        by = "" if keras is fn else f" (through {keras.name}())"
        return Decision(Verdict.LEAVE_EAGER, assumptions=[
            f"compiles or trains a Keras model{by} (compile, fit, train_on_batch): Keras makes its own graphs, "
            f"and they cannot run inside a tf.function"])
    if fn.is_generator:
        return Decision(Verdict.LEAVE_EAGER, ["TF207"], assumptions=["a generator: AutoGraph does not convert it"])
    if fn.periodic:
        return Decision(Verdict.LEAVE_EAGER, assumptions=[
            "does its work only every n-th call (under `if step % n == 0:`): a reporter called per batch, "
            "not a step"])
    if case.linked.framework is not None:
        return Decision(Verdict.LEAVE_EAGER, assumptions=[f"{fn.name}() is called by the framework its class extends"])
    if (fn.class_qualname and not case.project.trains[fn.id]
            and graph_context.is_keras_class(case.project.class_bases(fn.module, fn.class_qualname))):
        # A train step written as a method of the model (``gan.step(images)`` per batch) is a step
        # like any other: decorated, its first trace builds the weights and the tape sees them
        # (TensorFlow 2.21, Keras 3). Other methods are layer plumbing.
        return Decision(Verdict.LEAVE_EAGER, assumptions=[
            "a method of a Keras layer or model: decorated, it would build weights inside its own trace; "
            "decorate the train step that calls the model"])
    if case.linked.recursive:
        return Decision(Verdict.LEAVE_EAGER, ["TF404"])
    if fn.name.startswith("__") and fn.name.endswith("__") and fn.name != "__call__":  # not ``__train_step``
        return Decision(Verdict.LEAVE_EAGER, assumptions=[f"{fn.name} is not a computation entry point"])
    if fn.numpy_calls and fn.numpy_calls >= fn.tensor_ops and not (
            _a_step_itself(fn) and fn.model_calls and case.linked.repeated):
        # (a training step called again and again that calls its model and builds its batch in
        # NumPy first, a DQN's replay sample: that part moves out, the step is worth a graph; the
        # later steps say fix-first (heldout33: judged so). One whose forward passes are all
        # Keras predict calls, arrays under the tape, stays as it is (heldout32: judged so))
        return Decision(Verdict.LEAVE_EAGER, ["TF206"],
                        assumptions=["works mostly in NumPy: under tf.function NumPy runs once, while tracing"])
    return None


def _draws_figures(case: Case) -> Decision | None:
    """Computes something (gradients for an attribution map, a forward pass) and draws it with
    matplotlib, without updating anything: a report, run when someone looks. Under tf.function its
    figures would be drawn once, while tracing; the part worth a graph is the computation, and
    only if it runs often (heldout34: integrated gradients plotted for ten test images, told
    fix-first, judged leave-eager). A training step that plots is still a step (``_reads_back``)."""
    fn = case.fn
    if not fn.plots or fn.optimizer_steps or _calls_a_training_step(case):
        return None
    return Decision(Verdict.LEAVE_EAGER, assumptions=[
        "draws figures (matplotlib) of what it computes and updates nothing: a report, not a step"])


def _fed_per_batch_beside_a_step(case: Case) -> str | None:
    """The function whose loop calls this one on each batch (an argument that changes per
    iteration, not a rare call) and also runs a training step (inline, or a step of the project):
    this one transforms the data on the way to that step."""
    project, fn = case.project, case.fn
    if fn.class_qualname and graph_context.is_keras_class(project.class_bases(fn.module, fn.class_qualname)):
        return None  # a layer's own call: the advice is the train step's (TF406)
    for caller, site in _eager_sites(case):
        if caller is None or not site.in_loop or site.rare or not site.varying:
            continue
        linked = project.functions.get(caller.id)
        if caller.trains_inline or (linked is not None and any(
                c.id != fn.id and _a_training_step(project, c) for _, c in linked.callees)):
            return caller.qualname
    return None


def _a_step_itself(fn: FunctionSummary) -> bool:
    """Computes gradients and applies them in its own body: a training step."""
    return bool(fn.training_ops and fn.optimizer_steps)


def _a_training_step(project: Project, fn: FunctionSummary, depth: int = 2) -> bool:
    """Computes and applies gradients, itself or through what it calls (a decorated ``train_step``
    that hands the model to ``inner_step``)."""
    if _a_step_itself(fn):
        return True
    linked = project.functions.get(fn.id)
    return depth > 0 and linked is not None and any(
        c.id != fn.id and _a_training_step(project, c, depth - 1) for _, c in linked.callees)


def _shows_predictions(case: Case) -> str | None:
    """A function that calls the model, neither trains nor scores, and calls a helper of its own
    that plots, prints or writes (``generate_images`` handing its images to ``_data2plot``): a
    reporter, as when it plots itself. That helper's name, if so."""
    fn, project = case.fn, case.project
    if not fn.model_calls or fn.training_ops or fn.scores or fn.optimizer_steps:
        return None
    for _, callee in case.linked.callees:
        if callee.io_calls and role_of(project.functions[callee.id], project.tensor_work[callee.id]) == "io":
            return callee.name
    return None


def _entry_point(case: Case) -> Decision | None:
    """Decorating pays only for a function called many times from eager code, with tensors."""
    project, linked = case.project, case.linked
    eager_sites = _eager_sites(case)
    # A function that makes a model and then trains it in a loop (``main()``: ``Net()``, an optimizer,
    # ``for x, y in ds: train_step(...)``) builds nothing symbolic: its loop's calls are per batch.
    built = [c for c, s in eager_sites if c is not None and not (s.in_loop and project.trains[c.id]) and (
        c.id in project.functional or role_of(project.functions[c.id], project.tensor_work[c.id]) == "builder")]
    if eager_sites and len(built) == len(eager_sites):
        return Decision(Verdict.LEAVE_EAGER, assumptions=[
            f"called while a model is built ({', '.join(dict.fromkeys(c.qualname + '()' for c in built))}): "
            f"it runs once per model, on symbolic inputs, not per batch"])
    if eager_sites and linked.fn.id in project.tf1_only:
        return Decision(Verdict.LEAVE_EAGER, ["TF100"], assumptions=[
            "called only from TensorFlow 1 code (sessions, placeholders): it builds a TF1 graph; out of scope"])
    if not eager_sites:
        return Decision(Verdict.LEAVE_EAGER, confidence="unknown", assumptions=[
            "not seen: a call site in the checked code outside tests; whether a graph pays depends on how "
            "it is called: " + MEASURE])
    if not linked.repeated:
        rare = any(s.in_loop and s.rare for _, s in eager_sites)
        few = [s.written for _, s in eager_sites if s.in_loop and s.written is not None]
        return Decision(Verdict.LEAVE_EAGER, ["TF602"], assumptions=[
            ("called now and then (per epoch, under `if step % n == 0`, or per round of a sweep), "
             "not per batch" if rare else
             f"called {max(few)} times (as its loop says)" if few and max(few) > 1 else
             "called once (its loop runs once, as the code says)" if few else
             "called once (no call site in a loop)") + ": tracing would cost more than it saves; " + MEASURE])
    unknown: list[str] = []
    fresh: list[str] = []
    python: list[str] = []
    remade: list[tuple[str, str, str, str]] = []  # (parameter, what it is, how new ones are made, the fix)
    listed: list[str] = []  # lists that may hold Python numbers (not ``[images, masks]`` written in the call)
    for caller, site in eager_sites:
        if site.on_instance and "self" in site.fresh:
            fresh.append("self")
        for key, pname, kind in project.bind(site, linked.fn):
            rich = project.arg_rich(caller, site, key, kind)
            if values.tensor_like(rich):
                continue  # tensors and NumPy arrays trace once per shape and dtype
            if rich == "container" or isinstance(rich, tuple) or values.is_list(rich):
                # a list or tuple: of tensors it traces once per structure, of Python numbers once
                # per value; its contents are not known here
                if key in site.varying:
                    unknown.append(pname)
                    if rich == "container" or "primitive" in rich:
                        listed.append(pname)
                continue
            kind = values.to_kind(rich)
            declared = linked.params.get(pname)
            if kind == "unknown" and declared is not None and declared.strength == 3:
                kind = declared.kind  # annotated: trust the annotation
            if key in site.varying and kind == "unknown":
                unknown.append(pname)
            elif key in site.varying and kind == "object":
                python.append(pname)
            elif site.in_loop and key in site.fresh:
                fresh.append(pname)
            if key in site.remade and site.in_loop and caller is not None and _runs_again(project, caller):
                what = _makes_variables_lazily(project, caller.module, site.remade[key])
                if what:
                    remade.append((pname, what, f"{caller.qualname}() makes on each of its calls, and "
                                                f"{caller.qualname}() runs more than once", f"make it once, "
                                                f"outside {caller.qualname}(), then decorate"))
            if key in site.made_again:
                what = _makes_variables_lazily(project, caller.module if caller else project.module_of_site(site),
                                               site.made_again[key])
                if what:
                    remade.append((pname, what, f"{'top-level code' if caller is None else caller.qualname + '()'} "
                                                f"makes anew after an earlier call got the one before",
                                   "build each one before its first call (an optimizer: "
                                   "`optimizer.build(model.trainable_variables)`) or make one tf.function "
                                   "per object, then decorate"))
    if python:
        return Decision(Verdict.LEAVE_EAGER, ["TF103"], assumptions=[
            f"{names(list(dict.fromkeys(python)))} {verb(len(set(python)), 'gets', 'get')} Python objects that change "
            f"from call to call (a list that grows, another object each time): each would retrace"])
    if remade:
        # an optimizer first: its slots are made on the first apply_gradients, always lazily
        pname, what, how, fix = sorted(remade, key=lambda r: r[1] != "an optimizer")[0]
        return Decision(Verdict.FIX_FIRST, ["TF103"], assumptions=[
            f"{pname} gets {what} that {how}: as a tf.function each new one would be traced anew, and "
            f"variables it makes on first use would be made on a later call, which TensorFlow refuses "
            f"(ValueError: tf.function only supports singleton tf.Variables); {fix}"])
    if fresh:
        return Decision(Verdict.LEAVE_EAGER, ["TF103"], assumptions=[
            f"{names(list(dict.fromkeys(fresh)))} {verb(len(set(fresh)), 'gets', 'get')} a new Python object on every "
            f"call: each would retrace"])
    if unknown:
        found = serious(case.hazards)
        trains = linked.fn.training_ops or linked.fn.optimizer_steps
        if found and trains and project.heavy[linked.fn.id] and not project.is_test(linked.fn):
            # A training step that would break or change under tf.function whatever its callers
            # pass: what to fix is known, and a graph pays for gradients whatever their shapes. An
            # evaluation or plotting step with unknown inputs (images of varying sizes, NumPy
            # metrics) is left as it is: judges of nine splits accepted leave-eager for all ten
            # such steps, and fix-first for one in ten (docs/decisions/0027-heldout26.md).
            return Decision(Verdict.FIX_FIRST, found, confidence="speculative", assumptions=[
                f"not seen: what its callers pass as {', '.join(dict.fromkeys(unknown))}; whatever that is, the "
                f"findings would break or change it under tf.function: fix them first, then {MEASURE}"])
        return (None if listed else _assume_tensors(case, unknown)) or Decision(Verdict.LEAVE_EAGER, confidence="unknown", assumptions=[
            f"not seen: what its callers pass as {', '.join(dict.fromkeys(unknown))} (tensors would trace once, "
            f"Python values once per value): " + MEASURE])
    known_tensor = [n for n, p in linked.params.items()
                    if (p.kind == "tensor" or p.rich in values.ARRAYS) and not p.guessed]
    if not known_tensor:
        unsure = [n for n, p in linked.params.items() if (p.kind == "unknown" and p.rich == "unknown") or p.guessed]
        if unsure:
            return _assume_tensors(case, unsure) or Decision(Verdict.LEAVE_EAGER, confidence="unknown", assumptions=[
                f"not seen: whether {', '.join(unsure)} are tensors: " + MEASURE])
        # No tensor argument, and the Python ones do not change from call to call (checked above):
        # one trace serves every call (``agent.learn()`` on the agent's own state).
    return None


def _assume_tensors(case: Case, unseen: list[str]) -> Decision | None:
    """A training step (it computes gradients, is called in a loop, is worth a graph) whose callers
    pass values the analysis cannot follow: most likely the batch, a tensor. On the development
    splits judges asked for a change on every such step they judged (decorate or fix-first), and
    for none of the non-steps; so the advice goes on as if they were tensors, said as a guess. A
    step that hands the batch to the project's own update functions (``train()`` calling
    ``update_q_network()`` and ``update_policy()``, no loop) is the step: judges asked to decorate
    it, not the updates inside it (heldout23)."""
    wraps = _calls_a_training_step(case) and not case.fn.loops
    if not ((_computes_a_step(case) or _evaluates(case) or wraps) and case.project.heavy[case.fn.id]):
        return None
    if any(call.callee in unseen and not looks_like_model(call.callee) for call in case.fn.calls):
        return None  # ``loss_fn()``: a function passed in (a new closure per call retraces), not data
    data = [n for n in unseen if not looks_like_model(n)] or unseen  # ``generator``: the model, not data
    return _guessed_change(case, _entry_point, f"assumed: its callers pass tensors as {', '.join(dict.fromkeys(data))} "
                           f"(not seen; a Python number would retrace it once per value): {MEASURE} to confirm")


def _evaluates(case: Case) -> bool:
    """An evaluation step: calls the model and scores it (a loss, a metric's ``update_state``), no
    gradients, no I/O: the twin of a training step, fed the same batches (``val_step(x, y)``)."""
    return _scores_predictions(case.fn) and case.facts.role == "compute"


def _scores_predictions(fn: FunctionSummary) -> bool:
    """Calls the model and scores what it predicts (a loss, a metric), without gradients or I/O."""
    return bool(fn.model_calls and fn.scores) and not (fn.training_ops or fn.io_calls)


def _guessed_change(case: Case, step: Step, why: str) -> Decision | None:
    """The decision the eager steps after ``step`` reach, as a guess saying ``why``, when it asks to
    decorate or fix first; None when it leaves the function as it is."""
    later = next(d for d in (s(case) for s in EAGER_STEPS[EAGER_STEPS.index(step) + 1:]) if d is not None)
    if later.verdict not in (Verdict.DECORATE, Verdict.FIX_FIRST):
        return None
    later.confidence = "speculative"
    later.assumptions = [*later.assumptions, why]
    return later


def _runs_again(project: Project, fn: FunctionSummary) -> bool:
    """Called more than once: from a loop (or from what a loop runs), or from two call sites
    (heldout39: ``training(autoencoder, ...)`` then ``training(model_2dim, ...)``, each making a new
    Adam for the step it runs per batch; TensorFlow 2.21 raises on the second)."""
    linked = project.functions[fn.id]
    return linked.repeated or len(linked.callers) > 1


def _makes_variables_lazily(project: Project, module: str, made: str) -> str | None:
    """"an optimizer" or "a Keras model" when an object of ``made`` makes its variables on first
    use (slots on the first ``apply_gradients``, weights on the first call)."""
    if made.startswith(("keras.optimizers.", "tensorflow.optimizers.")):
        return "an optimizer"
    if tfapi.is_keras_layer(made) or project.is_keras_class_named(module, made):
        return "a Keras model"
    return None


def _eager_sites(case: Case) -> list[tuple[FunctionSummary | None, CallSite]]:
    """The call sites that run it as Python: outside graph code and outside tests (tests drive the
    code, the program does not)."""
    project = case.project
    return [(c, s) for c, s in case.linked.callers
            if (c is None or c.id not in project.graph_roots) and not _in_test(project, c, s)]


def _a_list_of_data(project: Project, rich: values.Rich) -> bool:
    """A list of NumPy arrays, or of objects of one of the project's own classes (task samplers,
    episodes): data a loop feeds a step from. A list of Keras layers or of numbers is structure."""
    if not values.is_list(rich):
        return False
    element = values.list_element(rich)
    return element in values.ARRAYS or (values.is_instance(element) and not project.is_keras_instance(element))


def _called_eagerly_in_loops(case: Case) -> bool:
    """Graph code that the program also calls eagerly, per batch or per epoch (PINN's loss terms,
    inside the decorated step and again for logging after it): those calls run as Python."""
    return _eager_loop_call(case) is not None


def _eager_loop_call(case: Case, called: bool = False) -> str | None:
    """Who calls it as Python in a loop, per batch (not a rare, periodic call), if anyone; with
    ``called``, only a caller the program runs: the module, a function something calls, or a local
    function (made to be handed on: an optuna objective run per trial)."""
    for caller, site in _eager_sites(case):
        if site.in_loop and not site.rare and not (called and caller is not None and case.project.never_run(caller)):
            return f"{caller.qualname}()" if caller is not None else "the module"
    return None


def _in_test(project: Project, caller, site) -> bool:
    if caller is not None:
        return project.is_test(caller)
    return project.is_test_file(project.path_of_site(site))


def _drives_batches(case: Case) -> Decision | None:
    """A function whose loop feeds batches from a Python iterable (NumPy slices, a generator, a
    list, a helper's minibatches) to a training step: a driver. Decorated, the loop would run while
    tracing, over the batches there were then. Decorate the step inside instead."""
    project, fn = case.project, case.fn
    for iterated, trains, callees in fn.batch_loops:
        if not trains and not any(
                (target := project.resolve(fn, fn.module, name)) is not None and project.heavy[target.id]
                for name in callees):
            continue  # no step in the body
        rich = project.values.kind(iterated, fn, fn.module)
        if trains and not fn.periodic and project.heavy[fn.id]:
            # The step is written inline (tape, gradients, update in the loop body): nothing to
            # decorate until it is a function. For a loop run per epoch (called in a loop) judges
            # asked for exactly that, fix-first or leave it; for a driver run once or a few times,
            # or for the program's entry point, they left it as it is (16 such drivers on the
            # development splits, heldout19 among them, leave-eager only), the step to extract noted.
            # So is a driver whose epoch loop nothing in the program runs (a book's library of
            # train_epoch/train functions no script calls: heldout38, judged leave-eager).
            inline, move = ("computes the training step inline (tape, gradients, update)",
                            "move that body into a step function and decorate it; the loop stays Python")
            if _eager_loop_call(case, called=True) is None:
                return Decision(Verdict.LEAVE_EAGER, ["TF508"], assumptions=[
                    f"drives training: its loop over {values.describe(iterated)} {inline}; to gain from a "
                    f"graph, {move}"])
            return Decision(Verdict.FIX_FIRST, ["TF508"], becomes_graph=False, assumptions=[
                f"its loop over {values.describe(iterated)} {inline}: {move}"])
        if rich in ("dataset", "tensor"):
            # AutoGraph would make it a graph loop, but the step inside is the unit to decorate:
            # one graph per step, the loop (logging, checkpoints, early stopping) stays Python
            return Decision(Verdict.LEAVE_EAGER, assumptions=[
                f"drives training: loops over {values.describe(iterated)} and calls the step; decorate the "
                f"step inside it, not the loop"])
        if not (rich in ("numpy", "numpy32", "unknown") or values.is_instance(rich) or str(rich).startswith("iterator:")
                or _a_list_of_data(project, rich)):
            continue  # a list of layers, sizes or settings: structure, unrolled once per trace
        what = values.describe(iterated)
        if rich == "unknown":
            return Decision(Verdict.LEAVE_EAGER, confidence="unknown", assumptions=[
                f"not seen: what it loops over ({what}) to feed its training step; a Python iterable would run "
                f"while tracing, a dataset would become a graph loop: " + MEASURE])
        return Decision(Verdict.LEAVE_EAGER, assumptions=[
            f"drives training from a Python loop over {what}: decorated, the loop would run once, while "
            f"tracing; decorate the step inside it instead"])
    return None


def _drives_through_a_callee(case: Case) -> Decision | None:
    """It calls a function of its own that runs a training loop (a loop whose body computes and
    applies gradients: a fit of fresh variables, an epoch loop): a driver one call away. Decorated,
    that loop would be unrolled while tracing and its variables made per trace; the step inside the
    callee's loop is the unit to decorate."""
    project = case.project
    for _, callee in case.linked.callees:
        if callee.id != case.fn.id and callee.trains_inline and callee.id not in project.graph_roots:
            return Decision(Verdict.LEAVE_EAGER, assumptions=[
                f"drives training through {callee.name}(), whose loop computes and applies gradients; to gain "
                f"from a graph, make that loop's body a step function and decorate it"])
    return None


def _drives_a_step(case: Case) -> Decision | None:
    """Makes what a training step works on, on every call (a model, an optimizer, the variable it
    trains), and runs a training step of the project in a loop: a driver, like a ``main()``. The
    step is the unit a graph would be; this one stays Python (heldout34: a style transfer run per
    video frame, told fix-first for the variables it makes, judged leave-eager; its step judged
    fix-first or decorate)."""
    fn = case.fn
    if not (fn.builds or fn.variables == "unguarded") or fn.training_ops:
        return None
    for site, callee in case.linked.callees:
        if site.in_loop and not site.rare and callee.id != fn.id and _a_step_itself(callee):
            return Decision(Verdict.LEAVE_EAGER, assumptions=[
                f"drives training: makes what the step works on (a model, an optimizer, variables) on every "
                f"call and runs the step {callee.name}() in a loop; the step is the unit to decorate"])
    return None


def _part_of_an_inline_step(case: Case) -> Decision | None:
    """A loss called only from a training loop that computes the step inline (the tape and the
    update in the loop body): the unit worth a graph is that step, once it is a function of its own
    (its loop gets fix-first); decorating this small part alone is not the advice judges gave.
    A part that runs the models it is handed (``g_loss(generator, discriminator, noise)``) holds
    most of the step's work, and as a tf.function its forward and backward passes run as graphs
    under the caller's tape (decision 0045 gives the judges' counts)."""
    if case.fn.training_ops or case.fn.forward_passes:
        return None
    step = _inline_step_of(case.project, case.linked)
    if step is None:
        return None
    return Decision(Verdict.LEAVE_EAGER, assumptions=[
        f"part of the training step {step} writes inline in its loop: make that step a function and "
        f"decorate it, not this part"])


def _inline_step_of(project: Project, linked: Linked, depth: int = 2) -> str | None:
    """Who writes inline (tape and update in a loop body) the training step which every call of
    this function comes from: directly, or through helpers called only from there (a loss of
    losses, ``calc_spatial_losses`` calling ``calc_content_losses``). A script's or notebook's
    top-level loop counts too (heldout38: a loss wrapper called in a notebook's loop over batches,
    told decorate, judged leave-eager in four files)."""
    if not linked.callers:
        return None
    found = None
    for caller, site in linked.callers:
        if caller is None and site.in_step_loop:
            found = found or "the top-level code"
            continue
        if caller is None or caller.id in project.graph_roots:
            return None
        if site.in_loop and caller.training_ops:
            found = found or f"{caller.qualname}()"
            continue
        outer = project.functions.get(caller.id)
        inner = (_inline_step_of(project, outer, depth - 1)
                 if depth > 1 and outer is not None and not caller.training_ops else None)
        if inner is None:
            return None
        found = found or inner
    return found


def _turned_off(case: Case) -> Decision | None:
    """``# @tf.function`` commented out right above: someone tried graph mode here and took it back.
    A hot step that is otherwise safe to decorate (or whose hazard the analysis sees) still gets
    that advice, said as a guess: judges preferred it on 6 of 8 such training steps in held-out
    repositories (often turned off for debugging); anything else stays as the authors left it."""
    if not case.fn.decorator_disabled:
        return None
    if case.fn.disabled_because:  # the author wrote why next to it ("scope name error if enabled")
        return Decision(Verdict.LEAVE_EAGER, confidence="speculative", assumptions=[
            f"`@tf.function` is commented out right above it (\"{case.fn.disabled_because[:80]}\"): someone "
            f"turned graph mode off here; {MEASURE} to see whether it works and pays"])
    guess = _guessed_change(case, _turned_off, "its `@tf.function` is commented out right above it: someone "
                            "turned graph mode off once; check why before putting it back (`tfadvisor run` "
                            "measures whether it works and pays)")
    return guess or Decision(Verdict.LEAVE_EAGER, confidence="speculative", assumptions=[
        f"`@tf.function` is commented out right above it: someone turned graph mode off here; {MEASURE} "
        f"to see whether it works and pays"])


def _payoff(case: Case) -> Decision | None:
    """What pays is a step: a model or layer call, gradients applied, a loop over tensor ops."""
    if case.project.heavy[case.fn.id]:
        return None
    return Decision(Verdict.LEAVE_EAGER, ["TF602"], confidence="speculative", assumptions=[
        f"{case.tensor_ops} tensor op(s) and no model call, gradient or loop: graph mode rarely gains much "
        f"over eager for that (static estimate; {MEASURE})"])


def _computes_a_step(case: Case) -> bool:
    """Computes gradients or calls a model itself, besides what it reads back or logs: a step that
    reports, not a driver (a driver loops and calls steps; a reporter only reads values)."""
    fn = case.fn
    # Gradients, not only a model call: a function that calls the model and plots, prints or
    # decodes what it predicted is a reporter (generate_images, next_char), not a step.
    # A loop over ``range(n)`` that trains inline (the step written in its body) drives training;
    # a loop over batches that does is the inline-step case ``_drives_batches`` answers.
    drives = fn.trains_inline and not any(trains for _, trains, _ in fn.batch_loops)
    return bool(fn.training_ops) and not fn.builds and not fn.long_loops and not drives


def _trains(case: Case) -> bool:
    """Computes gradients or applies them, itself or through a step of the project it calls."""
    fn = case.fn
    return bool(fn.training_ops or fn.optimizer_steps) or _calls_a_training_step(case)


def _calls_a_training_step(case: Case) -> bool:
    """It calls a function of the project that computes and applies gradients."""
    return any(_a_step_itself(callee) for _, callee in case.linked.callees)


def _loops_over_a_dataset(case: Case) -> bool:
    """``for x, y in dataset:`` in its own body, the dataset made there or handed in."""
    fn, project = case.fn, case.project
    return bool(fn.dataset_loops) or any(project.values.kind(iterated, fn, fn.module) == "dataset"
                                         for iterated, _, _ in fn.batch_loops)


def _scores_and_reads(case: Case) -> bool:
    """An evaluation step that calls the model, scores it (a loss, a metric) and reads the score
    back (``return pred, loss.numpy()``), with no loop, print or file of its own: a step whose read
    moves to the caller (``validation_step`` per test batch), not a reporter."""
    fn = case.fn
    return _scores_predictions(fn) and bool(fn.eager_reads) and not (fn.builds or fn.long_loops)


def _acts_and_reads(case: Case) -> bool:
    """An action step: called once per environment step, it calls the model (itself or through a
    helper of the project: ``heavy``) and reads the result back only to hand it over (``return
    action.numpy()``), with no loop, print, NumPy work or building of its own. The read is the part
    to move to the caller (judges asked for that, heldout23); one that also does NumPy work (noise,
    clipping) or chooses in Python (epsilon-greedy with ``random``) stays eager (judged so)."""
    fn = case.fn
    if not fn.eager_reads or fn.builds or fn.loops or fn.io_calls or fn.numpy_calls or fn.steps_env:
        return False
    if [code for code in serious(case.hazards) if code != "TF206"]:
        return False  # ``random.random() < epsilon`` exploration: Python's choice per step (judged leave-eager)
    return case.project.heavy[fn.id] and case.linked.repeated and _under_an_environment_loop(case)


def _trains_batches_inline(fn: FunctionSummary) -> bool:
    """A training routine handed its model (``train(model, dataset)``) whose loop over batches
    computes the step itself: whatever else it does (makes the optimizer, prints the loss), the
    advice is about that step (``_drives_batches``), not its role. A script that builds its own
    model and trains it inline stays as it is: judges left those alone on the development splits."""
    return fn.trains_handed and any(trains for _, trains, _ in fn.batch_loops)


def _orchestrates_steps(case: Case) -> Decision | None:
    """No gradients of its own, but it calls training steps of the project (each with its tape and
    its update) and, itself or through a helper that is not a step, Keras's eager-only API
    (``model.predict``, ``get_weights`` for a target update): the steps are the units to decorate
    as they are; making this one a graph would first need those calls rewritten (heldout33: a DDPG
    agent's ``update_networks``, judged leave-eager; its actor's step, judged decorate). A loss read
    back with ``.numpy()`` to log is not that: the read moves out (fix-first, ``_reads_back``)."""
    fn = case.fn
    if fn.training_ops or fn.optimizer_steps or not serious(case.hazards):
        return None
    steps = [callee for _, callee in case.linked.callees if callee.id != fn.id and _a_step_itself(callee)]
    if not steps:
        return None
    step_ids = {callee.id for callee in steps}
    others = [fn, *(callee for _, callee in case.linked.callees if callee.id not in step_ids)]
    if not any(f.predicts or any(keras_eager_api(h) for h in f.hits) for f in others):
        return None  # what breaks is in the steps, or a value read back to log: fix-first says that
    names = ", ".join(dict.fromkeys(f"{s.qualname}()" for s in steps))
    return Decision(Verdict.LEAVE_EAGER, assumptions=[
        f"runs the training steps {names} and, itself or through a helper, Keras calls that only run "
        f"eagerly (predict, get_weights): decorate those steps as they are, not this"])


def _reads_back(case: Case) -> Decision | None:
    """A hot step (called per batch, with tensors, worth a graph) that reads values back, prints or
    logs inside: the fix is to move that out, then decorate. Role after payoff: the I/O is the
    part to change, not a reason to leave the step eager."""
    if case.facts.role != "io":
        return None
    fn = case.fn
    inside = []
    if fn.eager_reads:
        inside.append("reads tensor values back into Python (.numpy(), float())")
    if fn.io_calls:
        inside.append("prints, logs or writes files")
    hazards = [h.rule for h in case.hazards if not h.speculative] or [h.rule for h in case.hazards]
    reasons = hazards or (["TF206"] if fn.eager_reads else ["TF201"])
    return Decision(Verdict.FIX_FIRST, reasons, assumptions=[
        f"a step called per batch (or per environment step) with tensors, worth a graph, but it "
        f"{' and '.join(inside)} inside: "
        f"return the tensors and read, print or log them in the loop, then decorate it"])


def _prepares_data(case: Case) -> bool:
    """No model call and no training in it or the steps it calls: whatever NumPy it runs is its
    work (preprocessing a batch, sampling a buffer), not a part to move out of a step. Judges left
    such functions as they are (heldout20's per-batch NumPy preprocessing)."""
    fn = case.fn
    return not (fn.model_calls or fn.training_ops or _calls_a_training_step(case))


def _data_preparation(what: str) -> Decision:
    return Decision(Verdict.LEAVE_EAGER, ["TF205"], assumptions=[
        f"its work includes {what}, with no model or training step of its own: it prepares data in "
        f"Python; a graph would run that NumPy once, while tracing"])


def _eager_hazards(case: Case) -> Decision | None:
    found = serious(case.hazards)
    varying = _varying_python(case)
    if not found and not varying:
        return None
    if found == ["TF205"] and not varying and _prepares_data(case):
        return _data_preparation("NumPy on changing values (here or in what it calls)")
    reasons = found + (["TF101"] if varying else [])
    if not _trains(case):
        # No gradients here or in what it calls: an evaluation step or a helper (a resize, an NMS,
        # a metric) that would need a fix to become a graph. Judges left such functions eager: 9
        # of heldout28's 11 wrong fix-firsts on eager code, and 10 of 10 evaluation steps with
        # unknown inputs on earlier splits (docs/decisions/0030-eager-fix-first-needs-training.md).
        return Decision(Verdict.LEAVE_EAGER, assumptions=[
            f"computes no gradients (an evaluation step or a helper), and {', '.join(reasons)} would break or "
            f"change it in a graph: it stays eager; fix that first if you decorate it ({MEASURE})"])
    assumptions = [f"{_varying_words(varying)}: pass {verb(len(varying), 'it as a tensor', 'them as tensors')}"
                   ] if varying else []
    return Decision(Verdict.FIX_FIRST, reasons, assumptions=assumptions)


def _numpy_on_values(case: Case) -> Decision | None:
    """NumPy on values that change (a replay buffer sampled, a list of rewards stacked, a random
    draw), in the step or an eager callee: a tf.function runs it once, while tracing, and freezes the
    result, or fails on a symbolic tensor. Worth a graph, but only after that moves out."""
    found = case.project.numpy_on_values[case.fn.id]
    if found is None:
        return None
    path, line = found
    where = f"line {line}" + (f" of {path}" if path != case.fn.path else "")
    if _prepares_data(case):
        return _data_preparation(f"NumPy on changing values ({where})")
    return Decision(Verdict.FIX_FIRST, ["TF205"], assumptions=[
        f"NumPy on changing values ({where}) would run only while tracing (its result frozen into the graph) "
        f"or fail on a symbolic tensor: do it outside the step, or with TensorFlow ops, then decorate"])


def _iterates_unknown(case: Case) -> Decision | None:
    """A parameter of unknown kind that the body iterates the Python way (``zip``, a comprehension,
    unpacking): a list works in a graph, a tensor raises. Not knowing which, the status quo."""
    params = case.linked.params
    unsure = [n for n in case.fn.python_iterated
              if n in params and (params[n].kind == "unknown" or params[n].guessed)]
    if not unsure:
        return None
    return Decision(Verdict.LEAVE_EAGER, confidence="unknown", assumptions=[
        f"not seen: whether {', '.join(unsure)} {'is a tensor or a Python list' if len(unsure) == 1 else 'are tensors or Python lists'}; "
        f"the body iterates {'it' if len(unsure) == 1 else 'them'} in Python (zip, a comprehension, unpacking), "
        f"which raises in a graph for a tensor: " + MEASURE])


def _decorate(case: Case) -> Decision:
    if any(site.via_strategy for _, site in _eager_sites(case)):
        # eager ``strategy.run`` runs each replica's call as Python, with the strategy's overhead on
        # top: the graph worth having holds the strategy.run call (TensorFlow's distributed guide)
        return Decision(Verdict.DECORATE, ["TF501"], assumptions=[
            "it runs through strategy.run(...) from eager code: decorate a function around that "
            "strategy.run call (one graph for every replica), or this step itself"])
    if _fed_padded_batches(case):
        return Decision(Verdict.DECORATE, ["TF501", "TF104"], assumptions=[_PADDED_WORDS])
    return Decision(Verdict.DECORATE, ["TF501"])


_PADDED_WORDS = ("its inputs change shape from call to call (padded batches, each as long as its longest "
                 "element, or an array of a list grown until a condition): a new shape, a new trace; "
                 "reduce_retracing=True (or an input_signature with None in the varying dimensions)")
_SHAPE_OPTIONS = ("input_signature", "reduce_retracing", "experimental_relax_shapes")


def _fed_padded_batches(case: Case) -> bool:
    """Called again and again with inputs whose shape changes (padded batches, arrays of lists
    grown until a condition), without an option that generalises shapes."""
    options = {**case.fn.decorator_options, **case.linked.wrap_options}
    functions = case.project.functions
    return not any(o in options for o in _SHAPE_OPTIONS) and any(
        site.shapes_vary and ((site.in_loop and not site.rare) or (c is not None and c.id in functions
                                                                   and functions[c.id].repeated))
        for c, site in case.linked.callers)


def _traced_by_an_api(case: Case) -> bool:
    """Whether the function is graph code because an API traces it (``ds.map(load)``), itself or
    through the eager caller that was handed over: no decorator of the project's carries its fix."""
    linked = case.linked
    root = case.project.functions.get(linked.graph_root) if linked.graph_root is not None else None
    # a test's pipeline is not the workload: it makes no library helper graph code to fix
    return any(x is not None and not x.decorated and (x.graph_reason or "").startswith(HANDED_TO_A_TRACER)
               and not case.project.is_test(x.fn) for x in (linked, root))


def _shape_retraces(case: Case) -> Decision | None:
    return Decision(Verdict.RECONFIGURE, ["TF104"], assumptions=[_PADDED_WORDS]) if _fed_padded_batches(case) else None


# -- decorated functions -------------------------------------------------------------------------
def _decorated_hazards(case: Case) -> Decision | None:
    found = serious(case.hazards)
    exported = any(reason.startswith(EXPORTED_GRAPH) for reason in case.linked.needs_graph)
    if found and exported and not case.linked.callers and all(code[2] == "2" for code in found):
        # only traced, never called (get_concrete_function): its Python side effects run once, while
        # tracing, which is what such code is written for (it records what the trace created)
        return Decision(Verdict.KEEP, assumptions=[
            "only traced for its graph (get_concrete_function), never called: Python side effects run once, "
            "while tracing, on purpose"])
    if not found and any(h.rule == "TF406" and WEIGHTS_MAY_EXIST in h.message for h in case.fn.hits):
        eager = _eager_loop_call(case)
        if eager is not None:
            # the program also runs the layer eagerly, per batch (a test loop, an ODE solver, a
            # model compiled with run_eagerly=True), and its weights exist before the first trace
            # (it wraps a model handed in built):
            # there the decorator is what makes each call a graph (heldout24: judged keep, and run).
            # Weights first made in the trace get no gradients, eager first call or not (TensorFlow
            # 2.21, run by judges of heldout26's moves): there the decorator comes off.
            return Decision(Verdict.KEEP, assumptions=[
                f"{eager} calls it eagerly in a loop: the decorator makes those calls a graph; if a training "
                f"loop's first call is inside another tf.function, build the model before it (model.build(shape))"])
    exports = [r for r in case.linked.needs_graph if r.startswith(EXPORTED)]
    if found == ["TF406"] and exports:
        # its graph is exported (``model.call.get_concrete_function``): undecorated, that call
        # fails; what TF406 asks is a build before training (heldout24: judged keep, three times).
        # Options alone (input_signature, relax_shapes) do not need a graph: judged undecorate. With
        # other findings too, fix-first below keeps the decorator and says them.
        return Decision(Verdict.KEEP, assumptions=[*dict.fromkeys(exports),
                                                   "build the model before training (model.build(shape)) so that "
                                                   "its weights are not made inside this trace"])
    if found == ["TF406"]:  # a decorated Keras call: the fix is to drop the decorator
        # (with a loop over tensors in it TF406 is only a note, not a hazard: rules/tf406_decorated_keras_call.py)
        return Decision(Verdict.UNDECORATE, found, assumptions=[
            "Keras compiles a layer's call itself; decorated, its weights are built inside the trace and get no "
            "gradients: decorate the train step instead"])
    if (not found and not case.fn.long_loops and not exports
            and any(h.rule == "TF406" and h.speculative for h in case.hazards)):
        # a decorated Keras call of a class made in another file: whether its weights are built in
        # this trace depends on how that file first calls it; taking the decorator off is safe
        # either way (Keras traces call itself), keeping it is not (benchmarks/corpus: layers.py)
        cls = (case.fn.class_qualname or "").rsplit(".", 1)[-1]
        built = [(path, line) for path, line, made in case.project.model_builds
                 if _same_program(path, case.fn.path) and made in (None, cls)]  # another class built: not this one
        observed = [(path, line) for path, line, made in case.project.observed_calls
                    if _same_program(path, case.fn.path) and made == cls]
        if not built and observed:
            # ... or acts with this model on one observation (``self.policy(o.reshape(1, -1))``): its
            # weights are built for that shape, and training's batches trace again and get their
            # gradients (TensorFlow 2.21, tests/conformance/variants/tf406.py; heldout31: a PPO
            # actor-critic judged keep)
            path, line = observed[0]
            return Decision(Verdict.KEEP, confidence="speculative", assumptions=[
                f"the program calls it on one observation ({path}:{line}): if that is its first call, its "
                f"weights are built for that shape and training's batches get their gradients; the decorator "
                f"makes each eager call a graph"])
        if built:
            # ... unless the program builds its models before their first call (``self.policy.build((None,
            # 4))`` in a trainer): then the weights exist before this trace and get their gradients
            # (TensorFlow 2.21, tests/conformance/variants/tf406.py), and the decorator makes each
            # eager call a graph (heldout28: four RL models, judged keep)
            path, line = built[0]
            return Decision(Verdict.KEEP, confidence="speculative", assumptions=[
                f"the program builds its models before their first call (.build(shape), {path}:{line}): if it "
                f"builds this one, its weights exist before this trace and the decorator is harmless"])
        return Decision(Verdict.UNDECORATE, ["TF406"], confidence="speculative", assumptions=[
            "Keras compiles a layer's call itself; decorated, its weights are built inside this trace and get "
            "no gradients unless the program builds it first (model.build), which another file decides: undecorating "
            "is safe either way"])
    return Decision(Verdict.FIX_FIRST, found) if found else None


def _same_program(path: str, other: str) -> bool:
    """Files of one program, as far as a path tells: the same file, or two modules of one folder
    (a notebook is a program of its own)."""
    if path == other:
        return True
    return (os.path.dirname(path) == os.path.dirname(other)
            and not path.endswith(".ipynb") and not other.endswith(".ipynb"))


def _needs_graph(case: Case) -> Decision | None:
    if not case.linked.needs_graph:
        return None
    return Decision(Verdict.KEEP, assumptions=list(dict.fromkeys(case.linked.needs_graph)))


def _decorated_builder(case: Case) -> Decision | None:
    """A tf.function that only builds layers, models or datasets: it makes new ones per trace.
    (Printing what it builds, ``print('Building models')``, does not make it a step.)"""
    fn = case.fn
    if case.tensor_ops == 0 and (case.facts.role == "builder" or (
            case.facts.role == "io" and fn.builds and not fn.eager_reads)):
        return Decision(Verdict.UNDECORATE, ["TF504"])
    return None


def _made_anew(case: Case) -> Decision | None:
    """A tf.function made again in the loop that calls it, or handed a new function object there
    (TF102/TF103 about it): every iteration traces, whatever else it needs its graph for (a
    distributed step stays a tf.function, made once)."""
    about = sorted({h.rule for h in case.hazards if h.rule in ("TF102", "TF103") and not h.speculative})
    if not about:
        return None
    return Decision(Verdict.RECONFIGURE, about, assumptions=[
        "made anew, or handed a new function, on every iteration of the loop that calls it: each iteration "
        "traces again; define it (and what it is handed) once, before the loop"])


def _retraces(case: Case) -> Decision | None:
    varying = _varying_python(case)
    made_in = _made_per_call(case)
    if made_in is not None:
        return Decision(Verdict.RECONFIGURE, ["TF102"], assumptions=[
            f"a new tf.function on every call of {made_in}(), which runs many times, and each traces again: "
            f"define it once, outside, and pass what it uses"])
    if not varying:
        return None
    return Decision(Verdict.RECONFIGURE, ["TF503", "TF101"],
                    assumptions=[f"{_varying_words(varying)}: one trace per value"])


def _made_per_call(case: Case) -> str | None:
    """The function (its name) that defines this tf.function anew on each of its calls, when it is
    called in a loop: ``def train(...): @tf.function def step(...)``, train() once per epoch."""
    fn = case.fn
    if "<locals>" not in fn.qualname or not case.linked.decorated:
        return None
    outer = case.project.functions.get(function_id(fn.path, fn.qualname.rsplit(".<locals>.", 1)[0]))
    if outer is None or outer.fn.name in _BUILDER_NAMES or fn.name in outer.fn.returned_locals:
        return None  # a factory's product is kept by its caller: one tf.function per thing made
    if graph_context.traced_once(name for name, _ in outer.fn.decorators):
        return None  # a TFF computation: its body is traced once, where it is defined
    # TF102 decides whether a new tf.function per call is a waste (not when each call hands in a
    # new model, which a shared tf.function would trace for too): its hit on this one says so
    flagged = any(h.rule == "TF102" and h.message.startswith(made_per_call(fn.name)) for h in outer.fn.hits)
    repeated = [s for c, s in outer.callers if s.in_loop and not s.rare and not _in_test(case.project, c, s)]
    return outer.fn.name if repeated and flagged else None


def _varying_words(varying: list[str]) -> str:
    """"`step` changes from call to call", "`a` and `b` change from call to call"."""
    return f"{names(varying)} {verb(len(varying), 'changes', 'change')} from call to call"


def _pure_python(case: Case) -> Decision | None:
    if case.facts.tensor_computation:
        return None
    if case.fn.stub and case.linked.decorated and case.fn.class_qualname is not None:
        # (a module function whose body is ``pass`` has no overrides to run: it only costs a trace)
        return Decision(Verdict.KEEP, assumptions=[
            "an abstract method (no body): the tf.function runs its overrides, which do the work"])
    if case.linked.opaque:
        return Decision(Verdict.KEEP, confidence="unknown", assumptions=[
            f"no TensorFlow op found, but {case.linked.opaque} call(s) could not be followed "
            f"(methods of objects of unknown class, calls through attributes): " + MEASURE])
    unknown = sorted({d for deps in case.fn.param_ops for d in deps
                      if case.linked.params.get(d, ParamFacts()).kind == "unknown"})
    if case.linked.decorated and (unknown or case.fn.opaque_arithmetic):
        # ``[v - lr * g for g, v in grads_and_vars]`` called with ``zip(grads, weights)``: arithmetic
        # on what its callers pass, tensors as often as not in a function someone decorated
        what = f"on {names(unknown)}, whose kind no call site shows" if unknown else \
            "on values whose kind the analysis cannot tell (attributes, items of containers)"
        return Decision(Verdict.KEEP, confidence="unknown", assumptions=[
            f"no TensorFlow op found, but it does arithmetic {what}: as tensors that is graph work; " + MEASURE])
    if case.fn.graph_prints:
        # ``print("tracing"); tf.print(x)``: the tutorial of what a trace is, or a log written as
        # graph ops on purpose; undecorated, the Python print would run on every call
        return Decision(Verdict.KEEP, assumptions=[
            "no tensor work besides tf.print, which runs on every call as a graph op: graph mode gains "
            "nothing, and the decorator is harmless"])
    return Decision(Verdict.UNDECORATE, ["TF502"], assumptions=[
        "no TensorFlow op that computes in it or its callees: only Python (and constants)"])


def _keep(case: Case) -> Decision:
    reasons, notes = [], []
    if _covered(case.project, case.linked, frozenset()):
        reasons.append("TF505")
        notes.append("only called from other graph code, which converts it anyway: the decorator is redundant, "
                     "and harmless")
    if _small(case):
        notes.append(f"only {case.tensor_ops} tensor op(s): graph mode may gain little; {MEASURE}")
    return Decision(Verdict.KEEP, reasons, assumptions=notes)


def _graph_callers(project: Project, linked: Linked, to_decorate: frozenset[str] | set[str],
                   once_ok: bool = False) -> list[str]:
    """The caller of each call site that is, or is advised to be, graph code (not itself), one
    entry per site: fewer entries than call sites means some call runs eagerly. ``once_ok``: a
    caller whose ``@tf.function`` is commented out counts as the graph it was meant to be."""
    return [c.qualname for c, _ in linked.callers
            if c is not None and _graph_caller(project, linked, c, to_decorate, once_ok)]


def _graph_caller(project: Project, linked: Linked, caller: FunctionSummary | None,
                  to_decorate: frozenset[str] | set[str], once_ok: bool) -> bool:
    return caller is not None and caller.id != linked.fn.id and (
        caller.id in project.graph_roots or caller.id in to_decorate or (once_ok and caller.decorator_disabled))


def _covered(project: Project, linked: Linked, to_decorate: frozenset[str] | set[str], once_ok: bool = False) -> bool:
    if linked.fn.is_method and project.has_unseen_callers(linked.fn.name):
        return False  # called on objects whose class we could not tell: callers we cannot see
    # The hot path runs in graph code; other call sites, outside loops or rare in them, call it a
    # few times (a notebook that prints the loss before training and every 20 steps): still covered.
    return bool(_graph_callers(project, linked, to_decorate, once_ok)) and all(
        _graph_caller(project, linked, c, to_decorate, once_ok)
        or (once_ok and (not site.in_loop or site.rare) and (c is None or not project.functions[c.id].repeated))
        for c, site in linked.callers)


EAGER_STEPS: tuple[Step, ...] = (_tf1, _other_framework, _test, _already_graph, _dispatches, _numpy_only, _scores_for_a_step,
                                 _predicts_per_step, _role, _draws_figures,
                                 _drives_batches,
                                 _drives_through_a_callee, _drives_a_step, _part_of_an_inline_step, _turned_off, _entry_point, _payoff,
                                 _orchestrates_steps, _reads_back, _eager_hazards, _numpy_on_values, _iterates_unknown,
                                 _decorate)
DECORATED_STEPS: tuple[Step, ...] = (_tf1, _other_framework, _test, _decorated_builder, _decorated_hazards, _made_anew,
                                     _needs_graph, _retraces, _shape_retraces,
                                     _pure_python, _keep)
