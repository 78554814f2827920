"""What the per-file pass hands to the project pass: small, picklable, no AST.

The per-file pass runs in worker processes on big trees; it returns a ``ModuleSummary`` per file,
and the ASTs die with the worker. The project pass links summaries (call graph, parameter kinds
from call sites, transitive side effects) and turns rule hits into findings.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field, fields
from typing import Literal, TypeVar

Kind = Literal["tensor", "primitive", "object", "unknown"]
# Where a value comes from, for the project pass to finish: a small term (analysis/values.py).
Value = tuple
C = TypeVar("C", bound=type)


def pickled_by_position(cls: C) -> C:
    """Pickle as ``cls(*values)``: the summaries cross from the workers to the main process, and a
    slots dataclass's own pickling keeps every field's name with every object. For TensorFlow's
    sources (collector paused, as ``check`` runs it): 25.1 -> 17.6 MB, dumped in 1.05 -> 0.71 s and
    loaded in 0.48 -> 0.25 s."""
    names = tuple(f.name for f in fields(cls))
    get = operator.attrgetter(*names)

    def reduce(self: object) -> tuple[type, tuple[object, ...]]:
        return cls, get(self)
    setattr(cls, "__reduce__", reduce)  # noqa: B010 (mypy does not allow assigning to a method)
    return cls


@pickled_by_position
@dataclass(slots=True)
class Hit:
    """A rule's candidate finding inside one function, before the project pass decides on it.

    ``depends_on`` lists parameters whose being a tensor makes the hit real (a TF3xx rule on
    ``if x > 0`` where ``x`` is a parameter); empty means the hit stands on its own. ``!x``: only
    where a call site shows ``x`` is a tensor; ``#x``: only where call sites pass ``x`` NumPy arrays;
    ``~x``: only where call sites pass ``x`` Python values.
    """

    rule: str
    line: int
    col: int
    end_line: int
    end_col: int
    message: str
    depends_on: tuple[str, ...] = ()
    speculative: bool = False
    path: str | None = None  # set when the hit is in another file than its function (call sites)
    # Set when the hit is about the function being called (``Model().step(x)``): the project pass
    # resolves it, keeps the hit only if that function is a tf.function, and counts it as a hazard
    # of that function rather than of the caller.
    callee: str | None = None
    # Set when the hit stands only where the function runs without AutoGraph: called from code
    # Keras 3 traces itself (a layer's ``call``, a model's step, a metric run through its
    # ``__call__``) or from a tf.function with ``autograph=False`` (project.py, ``unconverted``).
    unconverted_only: bool = False
    # Set when the name a hit is about is rebound only by these module functions (``global`` in a
    # setter): the hit stands only if the program runs one of them (TF105).
    setters: tuple[str, ...] = ()


# A parameter's evidence when a tf.function's input_signature covers it: TensorFlow converts what
# callers pass to a tensor (or refuses the call), so no call site changes its kind.
SIGNED = "its input_signature"


@pickled_by_position
@dataclass(slots=True)
class Param:
    name: str
    kind: Kind = "unknown"  # from local evidence: annotation, default, use in TF ops
    evidence: str = ""
    variadic: bool = False
    annotation: str = ""  # ``model: GraphTaskModel``: the class it is annotated with (dotted), if one


@pickled_by_position
@dataclass(slots=True)
class CallSite:
    """A call from one scope to a name that may be a function of the project."""

    callee: str  # canonical dotted name, or "self.method" / "cls.method"
    line: int
    col: int
    args: list[Kind] = field(default_factory=list)
    kwargs: dict[str, Kind] = field(default_factory=dict)
    # Parameters of the caller passed straight through, by position / keyword of the callee.
    forwarded: dict[str, str] = field(default_factory=dict)  # callee arg key -> caller param
    in_loop: bool = False
    # In a loop, but not once per iteration of the hot loop: under ``if step % 100 == 0:``, or in an
    # outer loop (per epoch) whose body holds the inner loop over batches.
    rare: bool = False
    varying: list[str] = field(default_factory=list)  # arg keys fed loop-varying Python values
    fresh: list[str] = field(default_factory=list)  # arg keys given a new object here (``Foo()``)
    # Arg keys given an object the calling function makes on each of its own calls (``opt =
    # Adam(...)`` in its body, or ``if opt is None: opt = Adam(...)``): key -> the class as called.
    # The project pass asks whether it makes variables lazily (an optimizer, a Keras model).
    remade: dict[str, str] = field(default_factory=dict)
    # Arg keys given a name the calling scope made anew after an earlier call of the same callee got
    # the object before (a notebook's ``optimizer = SGD(lr)`` and its training loop, then
    # ``optimizer = Adam(lr)`` and the same loop): key -> the class as called.
    made_again: dict[str, str] = field(default_factory=dict)
    # Arg keys whose shape changes from call to call: the batches of a padded dataset
    # (``padded_batch``, bucketing), an array of a list grown until a condition (``while``/``break``).
    shapes_vary: list[str] = field(default_factory=list)
    guarded: bool = False  # under a create-once guard or in ``tf.init_scope()``: runs once
    # How many times the loops around it run, when the code says so with literals (``for n in
    # range(10):``): the project pass counts a handful of calls of a loop-free function as few
    written: int | None = None
    via_strategy: bool = False  # ``strategy.run(fn, args=...)``: run on every replica, from here
    on_instance: bool = False  # ``obj.method(...)`` resolved through the class ``obj`` was made from
    # Arguments whose kind the per-file pass cannot tell (``for x, y in pipeline.load(): f(x)``):
    # arg key -> where the value comes from, which the project pass evaluates (values.py).
    sources: dict[str, Value] = field(default_factory=dict)
    # Arguments that name a function (``train(step_fn=my_step)``, ``acc=accuracy``): arg key ->
    # its name, so the project pass links calls of that parameter inside the callee to it.
    functions: dict[str, str] = field(default_factory=dict)
    # ``model.step(x)`` on a parameter or a local whose class the per-file pass cannot see: where
    # the receiver comes from, for the project pass to find its class (values.py).
    receiver: Value | None = None
    # ``acc(x)`` where ``acc`` names an object, not a function (``acc = Accuracy()``, here, in an
    # enclosing function or at module level): the call reaches its class's ``__call__``.
    calls_object: bool = False
    # Top-level code only: in a loop whose body computes gradients (a tape, ``tape.gradient``): the
    # training step a script or notebook writes inline, of which this call is a part.
    in_step_loop: bool = False


@pickled_by_position
@dataclass(slots=True)
class FunctionSummary:
    id: str
    path: str
    module: str
    qualname: str
    name: str
    line: int
    end_line: int
    col: int
    class_qualname: str | None
    params: list[Param]
    is_method: bool
    decorated: bool
    decorator_disabled: bool = False  # ``# @tf.function`` commented out right above it
    disabled_because: str = ""  # words after that commented-out decorator (the author's reason)
    decorator_options: dict[str, str] = field(default_factory=dict)
    tensor_ops: int = 0
    builds: int = 0
    io_calls: int = 0
    plots: int = 0  # of those, matplotlib's: it draws figures
    python_fetches: int = 0  # batches drawn in Python: ``gen.next_batch()``, ``self.memory.sample(n)``
    graph_prints: int = 0  # tf.print calls: ops that print on every call (not tensor work that pays)
    exported_params: list[str] = field(default_factory=list)  # ``f.get_concrete_function()`` on a parameter
    loops: int = 0
    condition_params: list[str] = field(default_factory=list)  # parameters read in if/while tests
    # Parameters iterated the Python way (``zip(p, q)``, ``enumerate(p)``, a comprehension over ``p``,
    # ``list(p)``, ``a, b = p``): fine for a list, OperatorNotAllowedInGraphError for a tensor.
    python_iterated: list[str] = field(default_factory=list)
    # Loops over something that is not a dataset, a tensor or a range, whose body trains (gradients,
    # or a call that may): (what is iterated, the body computes gradients itself, callees named in
    # the body). If that is a Python iterable of batches, the function drives the training: under
    # tf.function the loop would run once, while tracing, baking in the batches seen then.
    batch_loops: list[tuple[Value, bool, tuple[str, ...]]] = field(default_factory=list)
    trains_inline: bool = False  # a loop whose body computes and applies gradients itself
    # That loop trains a model the function is handed (``model.trainable_variables`` on a parameter
    # or on ``self``): a training routine, not a script that builds its own model and trains it.
    trains_handed: bool = False
    dataset_loops: int = 0  # ``for batch in dataset:`` (or ``enumerate(dataset)``) in its own body
    long_loops: int = 0  # loops that run many times per call (tensor, dataset, tf.range, range(30))
    # Every call it makes is under ``if step % n == 0:`` on a parameter: it works every n-th call
    # (a reporter called per batch: ``train_display_save_at(model, batch, step)``)
    periodic: bool = False
    variables: Literal["none", "guarded", "unguarded"] = "none"
    side_effects: list[tuple[int, int, str]] = field(default_factory=list)
    # Parameters stored where they outlive the call (``rec.last = y``): a side effect if they are tensors.
    stored_params: list[tuple[int, int, str, tuple[str, ...]]] = field(default_factory=list)
    calls: list[CallSite] = field(default_factory=list)
    hits: list[Hit] = field(default_factory=list)
    is_generator: bool = False
    returns_tensor: bool = False
    returns_value: Value | None = None  # what it returns, as a term (values.py)
    yields_value: Value | None = None  # what a generator yields
    self_assigns: list[tuple[str, Value]] = field(default_factory=list)  # ``self.attr = value``
    eager_reads: int = 0  # .numpy(), .item(), float(t): values read back into Python
    model_calls: int = 0  # calls of models/layers (many ops each)
    forward_passes: int = 0  # of those, calls of a model the function is handed (not a loss or metric)
    predicts: int = 0  # ``model.predict(x)`` calls: Keras's whole predict loop runs for each one
    steps_env: bool = False  # ``env.step(action)``: it drives a simulator, one Python step at a time
    training_ops: int = 0  # tf.GradientTape, .gradient(), .minimize(): gradients computed here
    # ``metric.update_state(...)``, ``loss_fn(...)``, ``compute_loss(...)``: scores what the model
    # predicted (with a model call and no gradients: an evaluation step)
    scores: int = 0
    optimizer_steps: int = 0  # ``.apply_gradients(...)``/``.minimize(...)``: variables updated here
    functional: bool = False  # builds a functional Keras model: ``keras.Input(...)``, ``keras.Model(inputs, outputs)``
    numpy_calls: int = 0  # NumPy work (np.*, .astype, a NumPy random generator)
    # NumPy calls on values that change (not literals, shapes or dtypes): under tf.function they run
    # once, while tracing (the result is frozen into the graph), or fail on a symbolic tensor.
    numpy_on_values: list[int] = field(default_factory=list)  # their lines
    numpy_on_init_values: list[int] = field(default_factory=list)  # the same, on what __init__ set once
    # the same, on nothing but these parameters (``np.arange(0.5, h, 1)``): a Python number there is
    # a trace-time constant per value (a new value retraces), so the project pass keeps only the
    # lines whose parameters are not all known Python numbers
    numpy_on_params: list[tuple[int, tuple[str, ...]]] = field(default_factory=list)
    param_ops: list[tuple[str, ...]] = field(default_factory=list)  # ops on parameters of unknown kind
    # ``variable - lr * grad`` on values the analysis cannot tell (items of an argument, attributes):
    # tensor ops if they are tensors, so "no tensor work" is not known
    opaque_arithmetic: int = 0
    torch_call: str | None = None  # the first ``torch.*`` call: PyTorch code in a module that imports both
    suppressed: dict[int, frozenset[str] | None] = field(default_factory=dict)
    # Every decorator that names something (canonical name, keyword options as source text): the
    # project pass decides which are tf.function wrappers (the project's own, or configured).
    decorators: list[tuple[str, dict[str, str]]] = field(default_factory=list)
    dynamic_calls: int = 0  # calls of things no name says (``self.layers[0](x)``, ``f()(x)``)
    distributed: int = 0  # ``strategy.run``, ``strategy.reduce``, ...: a distributed step
    # ``model.compile(...)``, ``model.fit(...)``, ``.train_on_batch(...)`` (module.py's ``_KERAS_RUNS``): it
    # sets up or runs a Keras model, which makes its own graphs (and cannot run inside a tf.function)
    keras_calls: int = 0
    # ``tf.keras.backend.clear_session()``: it resets Keras's global state on each call, a probe or a
    # setup that starts afresh (a batch-size search), never a step a graph would repeat
    resets_keras: int = 0
    # Only a docstring, ``pass``, ``...`` or ``raise NotImplementedError``: an abstract method whose
    # overrides do the work (``tf.function(self.train_step)`` in a base class runs the subclass's)
    stub: bool = False
    # Nested functions it returns (``return finalizer``): a factory, whose callers keep what it makes
    returned_locals: list[str] = field(default_factory=list)
    # ``if self.use_tf_function: return self._tf_step(x) else: return self._step(x)``: the whole
    # body picks one of these calls (as written) on a flag; the advice is theirs
    dispatches: list[str] = field(default_factory=list)
    script_only: bool = False  # defined under ``if __name__ == "__main__":``: importers never see it

    def param(self, name: str) -> Param | None:
        return next((p for p in self.params if p.name == name), None)


@pickled_by_position
@dataclass(slots=True)
class ClassSummary:
    qualname: str
    bases: list[str]  # canonical names
    line: int
    keras: bool = False  # subclasses a Keras Layer or Model (directly, by name)


@pickled_by_position
@dataclass(slots=True)
class ModuleSummary:
    path: str
    module: str
    functions: list[FunctionSummary] = field(default_factory=list)
    classes: list[ClassSummary] = field(default_factory=list)
    module_calls: list[CallSite] = field(default_factory=list)  # calls made by top-level code
    steps_env: bool = False  # top-level code steps a simulator (``env.step(action)`` in a script's loop)
    # ``tf.function(g)``: (g's name, line, options, the other name it is bound to or None). Bound to
    # another name (``g_graph = tf.function(g)``), only calls through that name are the tf.function's.
    wrapped: list[tuple[str, int, dict[str, str], str | None]] = field(default_factory=list)
    module_hits: list[Hit] = field(default_factory=list)  # rules that fire outside any function
    suppressed: dict[int, frozenset[str] | None] = field(default_factory=dict)
    cell_map: list[tuple[int, int]] = field(default_factory=list)
    lines: int = 0
    # Functions handed to an API (``ds.map(f)``, ``tf.while_loop(c, b, ...)``, ``tf.py_function(f)``,
    # ``coordinator.schedule(f)``): (name as written there, "graph" | "eager" | "needs-graph",
    # qualname of the function it is written in or None for module level, line).
    handed: list[tuple[str, str, str | None, int]] = field(default_factory=list)
    # Functions whose graph is exported (``f.get_concrete_function()``, ``signatures=f``).
    exports: list[tuple[str, str | None, int]] = field(default_factory=list)
    # Attributes only a tf.function has, read on a function (``f.python_function``): name as
    # written, qualname of the function it is read in or None, attribute, line.
    api_reads: list[tuple[str, str | None, str, int]] = field(default_factory=list)
    # Names this module binds to a tf.function wrapper (``def function(f): return tf.function(f)``,
    # ``function = functools.partial(tf.function, autograph=False)``).
    function_wrappers: list[str] = field(default_factory=list)
    # Names of decorators this module defines that run what they wrap through tf.py_function.
    eager_wrappers: list[str] = field(default_factory=list)
    tf1: tuple[int, int, str] | None = None  # first TensorFlow 1 API used: (line, col, name)
    tf1_eager: tuple[int, int, str] | None = None  # first TensorFlow 1 eager-mode API (graph_context.TF1_EAGER)
    globals: dict[str, Value] = field(default_factory=dict)  # module-level names -> their values
    other_framework: str | None = None  # "torch" / "jax": imports it and not TensorFlow or Keras
    numpy_only: bool = False  # imports NumPy and no TensorFlow, Keras or project module
    # the Keras loops it calls on something (``.fit``, ``.evaluate``, ``.predict``, ``*_on_batch``)
    driver_calls: set[str] = field(default_factory=set)
    # ``.compile(...)`` calls: with ``run_eagerly=True`` written out, and the others (Keras's default
    # compiles the steps into a tf.function)
    eager_compiles: int = 0
    # Names a ``.compile(...)`` call's arguments mention (``metrics=[MeanAP()]``), through one
    # assignment in the same scope (``m = MeanAP(); compile(metrics=[m])``): what Keras's compiled
    # steps run (a metric's ``update_state`` is traced there, and only there)
    compiled: set[str] = field(default_factory=set)
    # ``model.build(shape)`` calls (a model's weights made before its first call): line, and the
    # class the model was made from when this scope says so (``model = Net()``), else None
    model_builds: list[tuple[int, str | None]] = field(default_factory=list)
    # Calls of an instance on one observation (``critic(obs[None])``, ``self.policy(o.reshape(1, -1))``):
    # line, and the class it was made from (a model first called so builds its weights for that shape)
    observed_calls: list[tuple[int, str]] = field(default_factory=list)
    graph_compiles: int = 0
    # Keras classes of this module made to run eagerly: ``super().__init__(dynamic=True)`` or
    # ``ODEFunc(..., dynamic=True)`` (Keras 2's eager-only layers; Keras 3 rejects the argument),
    # and a model whose own ``compile`` calls ``super().compile(..., run_eagerly=True)``
    dynamic_classes: set[str] = field(default_factory=set)
    # Keras layer classes of this module that it only ever calls directly (``layer = Chroma();
    # layer(clip)``), never in a model: their ``call`` runs eagerly, fit or no fit
    eager_only_layers: set[str] = field(default_factory=set)
    # modules of the project this one star-imports (``from .losses import *``): a name bound nowhere
    # here may be theirs
    star_modules: list[str] = field(default_factory=list)
    # a package's ``__init__`` handing on names of its modules (``from .graph_task_model import
    # GraphTaskModel``): local name -> the dotted name it imports
    reexports: dict[str, str] = field(default_factory=dict)
    keras2: bool = False  # imports ``tf_keras`` (Keras 2), which runs a layer's ``call`` through AutoGraph
