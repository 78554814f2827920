"""What AutoGraph does with Python constructs, as TensorFlow showed it: one table, with its evidence.

The rules ask this table ("does AutoGraph convert ``float(t)``?", "which loops become TensorFlow
loops?", "may a name be first defined inside this loop?") instead of each guessing. Every row names
the conformance variants (``tests/conformance/variants/``, as ``TFNNN/variant-name``) that show it
under the installed TensorFlow; ``tests/conformance/test_autograph_table.py`` checks that each named
variant exists and that TensorFlow's label for it says what the row says (accepted: the graph
computes what eager code does; not accepted: it raises or differs).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Row:
    construct: str
    accepted: bool  # True: under tf.function it computes what eager code does
    what: str  # what TensorFlow does, in its own words where it has some
    evidence: tuple[str, ...]  # conformance variants, "TFNNN/name"


# Builtins AutoGraph replaces in converted code (autograph/operators/py_builtins.py's
# BUILTIN_FUNCTIONS_MAP): on a tensor they become ops. Under ``autograph=False`` none is replaced.
CONVERTED_BUILTINS = frozenset({"abs", "any", "all", "enumerate", "filter", "float", "int", "len", "map",
                                "next", "print", "range", "sorted", "zip"})

TABLE: tuple[Row, ...] = (
    # -- builtins ------------------------------------------------------------------------------
    Row("float(t) / int(t) on a tensor", True,
        "converted to tf.cast (float32 / int32): the result is a tensor, not a Python number",
        ("TF206/float-of-tensor-autograph", "TF206/int-of-tensor-used-as-range-bound")),
    Row("float(t) / int(t) with autograph=False", False,
        "TypeError: float() argument must be a string or a real number, not 'SymbolicTensor'",
        ("TF206/float-of-tensor-autograph-off",)),
    Row("bool(t)", False, "OperatorNotAllowedInGraphError: Using a symbolic `tf.Tensor` as a Python `bool`",
        ("TF304/bool-of-reduce-any",)),
    Row("t.numpy(), np.*(t), np.array(t)", False,
        "AttributeError: 'SymbolicTensor' object has no attribute 'numpy'; NotImplementedError: Cannot "
        "convert a symbolic tf.Tensor to a numpy array",
        ("TF206/numpy-method-in-metric", "TF206/np-max-on-tensor", "TF206/np-array-of-tensor",
         "TF206/np-size-on-tensor")),
    Row("print(t)", False, "runs once per trace and prints the symbolic tensor (tf.print runs per call)",
        ("TF201/print-loss-in-train-step", "TF201/print-python-int-arg-per-call")),
    Row("tf.print(t)", True, "an op: prints on every call", ("TF201/tf-print-instead",)),
    Row("assert on a tensor", False,
        "OperatorNotAllowedInGraphError: Using a symbolic `tf.Tensor` as a Python `bool` (TensorFlow 2.21 "
        "does not make it a tf.Assert)", ("TF403/assert-passes", "TF403/assert-positive-fails")),
    # -- conditions ----------------------------------------------------------------------------
    Row("if / while on a tensor", True, "tf.cond / tf.while_loop", ("TF304/if-with-autograph",)),
    Row("if / while / assert on a tensor with autograph=False", False,
        "OperatorNotAllowedInGraphError: Using a symbolic `tf.Tensor` as a Python `bool`",
        ("TF304/if-with-autograph-off", "TF304/while-with-autograph-off", "TF304/assert-with-autograph-off")),
    Row("and / or / not in an if test; a conditional expression on a tensor", True,
        "tf.logical_and / tf.logical_not; tf.cond",
        ("TF304/and-of-two-tensor-conditions", "TF304/ternary-on-tensor", "TF304/not-of-tensor-in-if")),
    Row("a comprehension's if on a tensor", False, "OperatorNotAllowedInGraphError (comprehensions stay Python)",
        ("TF304/comprehension-condition-on-tensor",)),
    Row("if or for on a tensor in what Keras 3 traces itself: a layer's call, a model's train_step, a loss or "
        "metric handed to compile (undecorated)", False,
        "OperatorNotAllowedInGraphError: Keras 3 traces them (fit, predict, a tf.function, a functional "
        "model) without AutoGraph",
        ("TF304/keras-call-if-on-tensor-under-tf-function", "TF304/keras-call-and-with-tensor-under-fit",
         "TF304/python-if-in-a-keras-train-step-run-by-fit", "TF304/python-if-in-a-loss-handed-to-compile",
         "TF304/python-if-in-a-metric-handed-to-compile", "TF305/for-over-a-tensor-in-a-keras-layer-call-under-fit")),
    Row("the same, decorated with tf.function", True, "its own tf.function converts it, inside fit too",
        ("TF304/keras-call-decorated-is-converted", "TF304/python-if-in-a-decorated-keras-train-step")),
    # -- iteration -----------------------------------------------------------------------------
    Row("for over tf.range, range(tensor), a tensor or a dataset; while on a tensor", True,
        "one TensorFlow loop (tf.while_loop, or the dataset's reduce)",
        ("TF307/tf-range-instead", "TF307/range-of-tensor-becomes-tf-loop", "TF305/for-statement-over-tensor",
         "TF308/float-total-over-dataset")),
    Row("for over range(n) with a Python n, or a Python list", True,
        "unrolled while tracing: the graph holds n copies of the body",
        ("TF307/power-iteration-1000", "TF307/three-residual-blocks")),
    Row("a comprehension, unpacking, list()/zip()/enumerate() over a tensor", False,
        "OperatorNotAllowedInGraphError: Iterating over a symbolic `tf.Tensor` is not allowed",
        ("TF305/stack-comprehension-over-tensor-param", "TF305/unpack-shape", "TF305/list-of-tensor",
         "TF305/zip-tensor-and-list", "TF305/enumerate-over-tensor-comprehension")),
    Row("a comprehension over a Python list (also `x = f([g(v) for v in x])` with x a list)", True,
        "runs in Python while tracing; the comprehension reads the binding before the assignment",
        ("TF305/concat-of-comprehension-over-old-binding", "TF305/comprehension-over-python-list-param")),
    # -- loops: what their bodies may do -------------------------------------------------------
    Row("a name first bound inside a tf.range / tensor / while loop and read after it", True,
        "accepted (TensorFlow 2.21)",
        ("TF303/last-in-tf-range", "TF303/result-in-tensor-while", "TF303/loop-over-tensor-param-last-row")),
    Row("a name first bound inside a loop over a dataset and read after it", False,
        "ValueError: 'loss' must be defined before the loop",
        ("TF303/dataset-loop-loss-used-after", "TF303/train-loop-over-ds-metrics-after")),
    Row("a loop variable that is None before a tf.range loop", True, "accepted (TensorFlow 2.21)",
        ("TF308/none-before-tf-range",)),
    Row("a loop variable that is None before a loop over a dataset", False,
        "ValueError: 'last' is not allowed to be None before the loop", ("TF308/none-before-dataset-loop",)),
    Row("a loop variable whose dtype or shape changes in a TensorFlow loop", False,
        "TypeError: ... has type float32 that does not match type int32; ValueError: 'acc' has shape (0,) "
        "before the loop, but shape (1,) after one iteration",
        ("TF308/int-total-over-dataset", "TF308/growing-concat-without-invariant")),
    Row("a Python loop's condition that starts as a Python value and becomes a tensor", False,
        "NotImplementedError (consistency of control flow types)",
        ("TF308/python-counter-becomes-tensor-in-while",)),
    Row("break / return under a tensor condition inside a Python loop", False,
        "NotImplementedError (consistency of control flow types); ValueError: the else branch must also "
        "have a return statement",
        ("TF306/break-on-element-in-range", "TF306/return-on-convergence", "TF306/while-true-with-tensor-break")),
    Row("continue under a tensor condition inside a Python loop", True, "converted",
        ("TF306/continue-on-tensor-in-range",)),
    Row("break under a tensor condition inside a TensorFlow loop", True, "converted",
        ("TF306/break-in-tf-range",)),
    Row("return inside a TensorFlow loop", False,
        "NotImplementedError: a return statement cannot be placed inside this TensorFlow loop",
        ("TF306/return-inside-tensor-loop-over-param",)),
    # -- lists ---------------------------------------------------------------------------------
    Row("append to a list made before a TensorFlow loop, read after it", False,
        "InaccessibleTensorError: ... defined in FuncGraph(name=while_body ...), which is out of scope; or the "
        "list holds one element",
        ("TF208/append-in-tf-range", "TF208/append-in-dataset-loop", "TF208/append-in-tensor-while")),
    Row("a list made inside a TensorFlow loop's body (used there, or rebinding a loop variable of the "
        "same structure)", True, "accepted",
        ("TF208/list-built-and-consumed-inside-body", "TF208/list-made-inside-tf-loop-rebinding-same-structure")),
    Row("append to a list inside a Python loop", True, "unrolled: works", ("TF208/append-in-python-range",)),
    # -- branches ------------------------------------------------------------------------------
    Row("a tensor if that returns (even a bare return) on one path only", False,
        "ValueError: the else branch must also have a return statement",
        ("TF301/greater-returns-in-body-only", "TF301/return-none-both-ways")),
    Row("a name set in one branch of a tensor if and read after it", False,
        "ValueError: 'y' must also be initialized in the else branch", ("TF302/relu-in-body-only",)),
    Row("branches of a tensor if giving a name different dtypes, or None", False,
        "TypeError: 's' has dtype int32 in the main branch, but dtype float32 in the else branch",
        ("TF309/int-and-float-literals", "TF309/tensor-and-none")),
    # -- generators ----------------------------------------------------------------------------
    Row("a generator function decorated with tf.function", False,
        "TypeError: ... found return value of type generator, which is not a Tensor",
        ("TF207/generator-tf-function",)),
    # -- tf.function itself (not AutoGraph, but what the rules rest on) ------------------------
    Row("tf.Variable (or a Keras layer that makes one, Dropout included) made on every call", False,
        "ValueError: tf.function only supports singleton tf.Variables created on the first call",
        ("TF401/variable-called-once", "TF401/dropout-per-call")),
    Row("a tf.function method called on a temporary instance, reading self", False,
        "AttributeError: 'NoneType' object has no attribute ...", ("TF407/scaler-temporary-apply",)),
    Row("a temporary instance called (__call__), or a method that never reads self", True, "works",
        ("TF407/loss-temporary-call", "TF407/temporary-method-not-using-self")),
    Row("recursion while tracing on a Python value", True, "unrolled at trace time",
        ("TF404/recursion-on-python-depth", "TF404/recursive-helper-on-python-depth")),
    Row("recursion while tracing on a tensor condition", False, "RecursionError (StagingError)",
        ("TF404/collatz-on-tensor", "TF404/recursive-helper-on-tensor-condition")),
)


def converts(builtin: str, autograph: bool = True) -> bool:
    """Whether AutoGraph replaces this builtin when it meets a tensor (never with autograph=False)."""
    return autograph and builtin in CONVERTED_BUILTINS
