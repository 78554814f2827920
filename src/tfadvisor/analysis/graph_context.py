"""Where code runs as a graph without its own decorator, and where a tf.function must stay one.

Whether a function is graph code is not only a matter of its own ``@tf.function``. This module is
the one place that says which APIs trace the functions handed to them, which run them eagerly,
which need a tf.function, and which framework methods a framework calls for you. Everything here
is data plus pure functions of canonical names (``analysis.imports``), so the per-file pass can
ask and the docs can list it (docs/decisions/0010-precision-on-real-code.md is checked against
these sets by a test).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

Handed = Literal["graph", "eager", "needs-graph", "caller", "control-flow", "applied-layer"]

# Functions whose callable arguments TensorFlow traces into a graph (AutoGraph converts them).
TRACING_FUNCTIONS = frozenset({
    "tensorflow.vectorized_map", "tensorflow.autograph.to_graph", "tensorflow.xla.experimental.compile",
    "keras.layers.Lambda",
})
# Of those, layers: ``Lambda(f)`` traces ``f`` only as part of a model that is traced (built on
# symbolic inputs, run by fit or predict). Applied at once to values (``Lambda(f)(outputs)`` in a
# detection script), the layer calls ``f`` right there, eagerly from eager code (TensorFlow 2.21,
# Keras 3: ``tf.executing_eagerly()`` is true inside). The project pass decides which
# (``applied-layer``, analysis/project.py).
TRACING_LAYERS = frozenset({"keras.layers.Lambda"})
# Control flow that runs the functions handed to it where it is called: traced inside a
# tf.function, run eagerly (a Python loop, a Python branch) from eager code. Checked under
# TensorFlow 2.21: from eager code a while_loop body's print runs once per iteration, a cond
# branch's once per call, a map_fn/scan/foldl function's once per element
# (tests/check/test_generalization.py). A call edge from the caller, not a graph of their own.
CONTROL_FLOW_FUNCTIONS = frozenset({
    "tensorflow.while_loop", "tensorflow.cond", "tensorflow.case", "tensorflow.switch_case",
    "tensorflow.map_fn", "tensorflow.scan", "tensorflow.foldl", "tensorflow.foldr",
    "tensorflow.compat.v1.while_loop", "tensorflow.compat.v1.cond", "tensorflow.compat.v1.map_fn",
    # Keras 3's backend-neutral twins: on the TensorFlow backend they are the calls above
    "keras.ops.while_loop", "keras.ops.fori_loop", "keras.ops.cond", "keras.ops.scan", "keras.ops.map",
    "keras.ops.switch", "keras.ops.associative_scan",
})
# Methods that trace the function handed to them, by method name: tf.data transformations (the
# receiver is a Dataset in TensorFlow code; the names are not Python list or dict methods).
TRACING_DATASET_METHODS = frozenset({
    "map", "filter", "flat_map", "interleave", "reduce", "scan", "group_by_window", "group_by_reducer",
    "parallel_interleave", "map_and_batch",
})
# Every keyword those tf.data methods take (TensorFlow 2.21's signatures): a ``.map(f, batched=True)``
# or ``.map(f, num_proc=4)`` is another library's (Hugging Face datasets), which runs ``f`` in Python.
TF_DATA_KEYWORDS = frozenset({
    "batch_size", "block_length", "buffer_output_elements", "cycle_length", "deterministic", "drop_remainder",
    "initial_state", "key_func", "map_func", "name", "num_parallel_batches", "num_parallel_calls", "predicate",
    "prefetch_input_elements", "reduce_func", "reducer", "scan_func", "sloppy", "synchronous",
    "use_unbounded_threadpool", "window_size", "window_size_func",
})
# Libraries whose datasets and pools have a ``map`` that runs Python: a pipeline built by one of them
# is not tf.data, whatever its name. (Not Hugging Face's ``datasets``: projects name their own
# tf.data module so; its ``map`` is told apart by its keywords above.)
FOREIGN_DATA_MODULES = frozenset({"grain", "torch", "pandas", "multiprocessing", "concurrent", "ray", "dask",
                                  "pyspark", "jax"})
# Methods of a distribution strategy (or replica context) that trace the function handed to them.
# Strategy methods run the function they are handed where they are called: traced inside a
# tf.function, eagerly from eager code ("Using MirroredStrategy eagerly has significant overhead";
# checked under TensorFlow 2.21): a call edge, not a hand-off to a tracer.
TRACING_STRATEGY_METHODS = frozenset({"run", "experimental_run_v2", "experimental_run", "merge_call",
                                      "call_for_each_replica"})
# Optimizer methods that call the loss function handed to them there and then (Keras 2's and
# TF1's ``optimizer.minimize(self.loss, var_list)``): as if the caller called it.
CALLING_OPTIMIZER_METHODS = frozenset({"minimize"})
# Methods of a tf.CriticalSection that trace the function handed to them.
TRACING_CRITICAL_SECTION_METHODS = frozenset({"execute"})

# Functions that run the function handed to them eagerly, even inside a graph.
EAGER_FUNCTIONS = frozenset({
    "tensorflow.py_function", "tensorflow.numpy_function", "tensorflow.compat.v1.py_func",
    "tensorflow.py_func", "tensorflow.compat.v1.numpy_function",
})

# Methods that accept only a tf.function: ClusterCoordinator.schedule rejects anything else.
NEEDS_GRAPH_METHODS = frozenset({"schedule"})
# Calls in a body that only work, or only work well, inside a tf.function: a distributed step.
DISTRIBUTED_METHODS = frozenset({
    "run", "experimental_run_v2", "experimental_run", "reduce", "gather", "all_reduce", "all_gather",
    "merge_call", "experimental_distribute_dataset", "distribute_datasets_from_function",
    "experimental_distribute_datasets_from_function", "experimental_distribute_values_from_function",
    "experimental_local_results",
})
# Decorator options that say the author wants a graph with those properties (never "undecorate").
NEEDS_GRAPH_OPTIONS = frozenset({
    "input_signature", "jit_compile", "experimental_compile", "experimental_implements",
    "reduce_retracing", "experimental_relax_shapes", "experimental_follow_type_hints", "autograph",
    "experimental_autograph_options",
})
# Calls that export a function's graph (SavedModel or TFLite signatures).
EXPORTING_FUNCTIONS = frozenset({
    "tensorflow.saved_model.save", "tensorflow.keras.models.save_model", "keras.models.save_model",
    "tensorflow.lite.TFLiteConverter.from_concrete_functions",
    "tensorflow.compat.v1.saved_model.save",
})
EXPORTING_METHODS = frozenset({"get_concrete_function", "experimental_get_tracing_count",
                               "pretty_printed_concrete_signatures"})
# Attributes only a tf.function has, read without a call (``tf.autograph.to_code(f.python_function)``).
TF_FUNCTION_ATTRIBUTES = frozenset({"python_function", "input_signature", "function_spec"})

# Methods that Keras calls inside its own tf.function (``fit``/``evaluate``/``predict``) when the
# class subclasses a Keras Layer, Model or Metric: never "decorate" them.
KERAS_GRAPH_METHODS = frozenset({
    "call", "train_step", "test_step", "predict_step", "compute_loss", "compute_metrics",
    "update_state", "result",
})
# Of those, the ones that run as a graph whenever they run at all (``fit`` and its siblings trace
# them): graph code for findings too. A layer's ``call`` is not among them: layers are also called
# eagerly (a custom loop, a single forward pass), and only what calls them decides. Nor are a
# metric's ``update_state`` and ``result`` (KERAS_METRIC_METHODS): Keras 3 runs them as plain
# methods, traced only inside a compiled step, and a custom loop calls them eagerly (TF 2.21: an
# eager ``update_state`` appends on every call).
KERAS_TRACED_METHODS = frozenset({"train_step", "test_step", "predict_step", "compute_loss", "compute_metrics"})
# The method of a Keras trainer that makes the function each step runs in (Keras's makes a
# tf.function): a class that writes its own decides how its step runs.
KERAS_STEP_MAKERS = {"train_step": "make_train_function", "test_step": "make_test_function",
                     "predict_step": "make_predict_function"}
KERAS_METRIC_METHODS = frozenset({"update_state", "result"})
# Of those, the model's steps: Keras runs them only from fit/evaluate/predict. A program that never
# calls those and calls its own ``compute_loss`` or ``train_step`` from an eager loop runs them eagerly.
KERAS_STEP_METHODS = frozenset({"train_step", "test_step", "predict_step", "compute_loss", "compute_metrics"})
# Keras's loops: a class that overrides one with its own loop calling the step calls it eagerly.
KERAS_LOOPS = frozenset({"fit", "evaluate", "predict"})
# Methods a framework calls for you (Keras, optimizers, Sonnet-style modules): never "decorate"
# them yourself; whether they run as a graph is the framework's business.
FRAMEWORK_METHODS = KERAS_GRAPH_METHODS | frozenset({
    "build", "get_config", "from_config", "compute_output_shape", "compute_output_spec",
    "compute_mask", "get_initial_state", "reset_state", "reset_states", "add_metric",
    "update_step", "_update_step", "apply_gradients", "minimize", "_resource_apply_dense",
    "_resource_apply_sparse", "_resource_apply_sparse_duplicate_indices", "_create_slots",
    "_prepare_local", "_apply_dense", "_apply_sparse", "_distributed_apply", "_finish",
    "get_slot_names", "__call__", "on_epoch_end", "on_epoch_begin", "on_train_batch_end",
    "on_train_batch_begin", "on_batch_end", "on_train_begin", "on_train_end", "on_test_batch_end",
    "build_from_config", "get_build_config", "quantize", "dequantize",
})
# Base classes (canonical names, by prefix) that make a class a framework class.
FRAMEWORK_BASES = ("keras.", "tensorflow.keras.", "tensorflow.Module", "tensorflow.python.",
                   "sonnet.", "tf_keras.", "tensorflow.compat.v1.keras.", "tensorflow.estimator.",
                   "tensorflow.train.", "tensorflow.optimizers.", "tensorflow.experimental.")

# TF1 APIs: a module that uses them is graph-mode TensorFlow 1 code, out of scope.
TF1_MARKERS = (
    "tensorflow.compat.v1.Session", "tensorflow.Session", "tensorflow.compat.v1.placeholder",
    "tensorflow.placeholder", "tensorflow.compat.v1.disable_eager_execution",
    "tensorflow.compat.v1.disable_v2_behavior", "tensorflow.estimator.", "tensorflow.compat.v1.estimator.",
    "tensorflow.compat.v1.train.Saver", "tensorflow.train.Saver", "tensorflow.compat.v1.InteractiveSession",
    "tensorflow.InteractiveSession", "tensorflow.compat.v1.get_variable", "tensorflow.get_variable",
    "tensorflow.compat.v1.variable_scope", "tensorflow.variable_scope",
    "tensorflow.compat.v1.global_variables_initializer", "tensorflow.global_variables_initializer",
    "tensorflow.contrib.",
    # gone from TensorFlow 2 (tf.compat.v1.logging, tf.io.gfile...): TF2 raises AttributeError (2.21)
    "tensorflow.logging.", "tensorflow.python_io.", "tensorflow.gfile.", "tensorflow.app.", "tensorflow.flags.",
)


def handed_kind(name: str | None, method: str | None, receiver: str, dataset: bool = False) -> Handed | None:
    """What happens to a function handed to this call: traced, run eagerly, or required a graph.

    ``name`` is the call's canonical name when it resolves to one; ``method`` the attribute name
    called on an object (``ds.map`` -> ``map``); ``receiver`` the source text of that object, and
    ``dataset`` whether the analysis knows it is a ``tf.data`` pipeline.
    """
    if name in TRACING_FUNCTIONS or (name or "").startswith("tensorflow.raw_ops.While"):
        return "graph"
    if name in CONTROL_FLOW_FUNCTIONS:
        return "control-flow"
    if name in EAGER_FUNCTIONS:
        return "eager"
    if method is None:
        return None
    low = receiver.lower()
    if method in TRACING_DATASET_METHODS and (dataset or _dataset_name(low)):
        return "graph"
    if method in TRACING_STRATEGY_METHODS and ("strategy" in low or "replica" in low or "distribute" in low):
        return "caller"
    if method in CALLING_OPTIMIZER_METHODS and "opt" in low:
        return "caller"
    if method in TRACING_CRITICAL_SECTION_METHODS and "critical" in low:
        return "graph"
    if method in NEEDS_GRAPH_METHODS and "coordinator" in low:
        return "needs-graph"
    return None


def _dataset_name(receiver: str) -> bool:
    """A receiver named like a dataset (``train_ds``, ``self._dataset``, ``data``) when the analysis
    could not follow where it comes from. ``pool.map`` (multiprocessing) and ``df.map`` are not."""
    last = receiver.rsplit(".", 1)[-1].strip("_")
    return "dataset" in last or last in ("ds", "data") or last.endswith(("_ds", "_data")) or last.startswith("ds_")


def traced_once(decorators: Iterable[str]) -> bool:
    """A function decorated so that it is traced once, where it is defined
    (``@tff.tensorflow.computation``): later calls run the serialized graph, not its Python body,
    so what its body makes (a nested tf.function) is made once."""
    return any(name.startswith("tensorflow_federated.") for name in decorators)


def is_distributed_call(method: str, receiver: str) -> bool:
    """``strategy.run(...)``, ``strategy.reduce(...)``, ``ctx.all_reduce(...)``: a distributed step."""
    low = receiver.lower()
    return method in DISTRIBUTED_METHODS and ("strategy" in low or "replica" in low
                                              or low.startswith("tensorflow.distribute"))


def is_framework_class(bases: list[str]) -> bool:
    return any(b.startswith(FRAMEWORK_BASES) for b in bases)


def is_keras_class(bases: list[str]) -> bool:
    return any(b.startswith(("keras.", "tf_keras.")) for b in bases)


# TF1 APIs that TF2 code also uses, through tf.compat.v1, for one variable (``self.w =
# tf.compat.v1.get_variable(...)`` in a layer of a 3,000-line module of tf.functions and tapes):
# inside a function of a module that has TensorFlow 2 code, they do not make the module TF1.
_TF1_ISLANDS = ("tensorflow.compat.v1.get_variable", "tensorflow.compat.v1.variable_scope")


def tf1_island(name: str) -> bool:
    return name.startswith(_TF1_ISLANDS)


# TensorFlow 1's eager mode (``tf.enable_eager_execution()``, ``tf.contrib.eager``: ``tfe.Variable``,
# ``tfe.Iterator``, ``tfe.metrics``): code written with it runs eagerly, as TensorFlow 2's does, and
# its hot functions gain from a graph the same way (``tfe.defun`` there, ``tf.function`` once
# ported). Not a graph-mode marker: the advice says which TensorFlow it is written for.
TF1_EAGER = ("tensorflow.contrib.eager.", "tensorflow.enable_eager_execution")


def tf1_marker(name: str | None) -> bool:
    return bool(name) and name.startswith(TF1_MARKERS) and not name.startswith(TF1_EAGER)  # type: ignore[union-attr]


def tf1_eager_marker(name: str | None) -> bool:
    return bool(name) and name.startswith(TF1_EAGER)  # type: ignore[union-attr]


def needs_graph_options(options: dict[str, str]) -> list[str]:
    """Decorator options that mean "this must stay a graph, with these properties".

    ``options`` maps keyword to source text. ``autograph=False`` counts (a deliberate graph without
    AutoGraph); ``None`` and ``False`` values of the others do not (they are the defaults).
    """
    out = []
    for key, value in options.items():
        if key not in NEEDS_GRAPH_OPTIONS:
            continue
        if (value == "False") if key == "autograph" else (value not in ("None", "False")):
            out.append(key)
    return out
