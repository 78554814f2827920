"""TF304 tensor-as-bool."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator

from tfadvisor.analysis.context import ScopeContext
from tfadvisor.analysis.summary import Hit
from tfadvisor.model import Severity
from tfadvisor.rules._keras_traced import keras_traces_unconverted
from tfadvisor.rules._util import decorator_option, is_tf_function_decorated, likely_tensor
from tfadvisor.rules.base import Rule, register


@register
class TensorAsBool(Rule):
    code = "TF304"
    name = "tensor-as-bool"
    severity = Severity.ERROR
    summary = "a tensor used as a Python bool where AutoGraph does not convert it"
    why = """\
AutoGraph rewrites `if`, `while`, `and`, `or`, `not` and `x if c else y` on tensors into graph
ops, but not everything: `bool(t)`, a condition inside a list comprehension, and any condition in
a function traced with `autograph=False` ask Python for the truth value of a symbolic tensor,
which fails while tracing with `OperatorNotAllowedInGraphError: Using a symbolic tf.Tensor as a
Python bool is not allowed` (older TensorFlow: `using a tf.Tensor as a Python bool is not
allowed`). Use `tf.cond`, `tf.where` or `tf.boolean_mask`, or a plain `if` statement AutoGraph
converts.
Keras 3 (TensorFlow 2.16 and later) does not run a layer's `call` through AutoGraph at all: a
Python `if` or `while` on a tensor there raises the same error whenever the layer runs in a graph
(`fit`, `predict`, a tf.function, a functional model) and only works eagerly. Nor does it convert
the losses and metrics handed to `model.compile(loss=..., metrics=[...])` (directly, or made by a
factory: `loss=joint_loss(0.3)`): `fit` traces them as they are, unless `run_eagerly=True`. Python
values (`training`, `mask is not None`, a factory's `weight > 0`) are fine.
What such code calls runs unconverted too: a helper method or function of a layer's `call`, and a
custom metric's `update_state` and `result` when Keras runs them (a metric handed to `compile`, a
model's `train_step`, or the metric called as `metric(y, p)`, whose `Metric.__call__` is Keras's,
even inside a tf.function). Called as `metric.update_state(...)` and `metric.result()` from a
tf.function, they are converted with it, and so is a helper that tf.function calls directly.
"""
    bad = (
        """\
import tensorflow as tf

@tf.function
def positive_rows(rows):
    return [r for r in rows if tf.reduce_sum(r) > 0]  # TF304
""",
        """\
import tensorflow as tf

@tf.function
def any_nan(x):
    return bool(tf.reduce_any(tf.math.is_nan(x)))  # TF304
""",
        """\
import tensorflow as tf

@tf.function(autograph=False)
def clip(x):
    if tf.reduce_max(x) > 1.0:  # TF304
        x = x / tf.reduce_max(x)
    return x
""",
        """\
import tensorflow as tf

class Gate(tf.keras.layers.Layer):
    def call(self, x):
        if tf.reduce_sum(x) > 0:  # TF304
            return x * 2.0
        return x

gate = Gate()

@tf.function
def step(x):
    return gate(x)
""",
        """\
import tensorflow as tf

class Trainer(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = tf.keras.layers.Dense(1)

    def call(self, x):
        return self.dense(x)

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(y - self(x, training=True)))
            if loss > 1.0:  # TF304
                loss = tf.sqrt(loss)
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        return {"loss": loss}

model = Trainer()
model.compile(optimizer="sgd")
model.fit(tf.ones([8, 2]), tf.ones([8, 1]), epochs=1)
""",
        """\
import tensorflow as tf

class Perplexity(tf.keras.metrics.Metric):
    def __init__(self):
        super().__init__(name="perplexity")
        self.total = self.add_weight(name="total", initializer="zeros")
        self.count = self.add_weight(name="count", initializer="zeros")

    def update_state(self, y_true, y_pred, sample_weight=None):
        self.total.assign_add(tf.reduce_sum(y_pred))
        self.count.assign_add(1.0)

    def result(self):
        if self.count == 0:  # TF304
            return tf.constant(0.0)
        return self.total / self.count

perplexity = Perplexity()

@tf.function
def eval_step(y_true, y_pred):
    return perplexity(y_true, y_pred)  # Keras's Metric.__call__ runs update_state and result
""",
    )
    good = (
        """\
import tensorflow as tf

@tf.function
def clip(x):
    if tf.reduce_max(x) > 1.0:
        x = x / tf.reduce_max(x)
    return x
""",
        """\
import tensorflow as tf

@tf.function
def positive(x):
    return tf.boolean_mask(x, x > 0)
""",
        """\
import tensorflow as tf

class Gate(tf.keras.layers.Layer):
    def call(self, x, training=False, mask=None):
        if training and mask is not None:
            x = x * tf.cast(mask, x.dtype)
        return tf.where(tf.reduce_sum(x) > 0, x * 2.0, x)

gate = Gate()

@tf.function
def step(x):
    return gate(x)
""",
        """\
import tensorflow as tf

class Trainer(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = tf.keras.layers.Dense(1)

    def call(self, x):
        return self.dense(x)

    @tf.function  # AutoGraph converts it, inside fit too
    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(y - self(x, training=True)))
            if loss > 1.0:
                loss = tf.sqrt(loss)
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        return {"loss": loss}

model = Trainer()
model.compile(optimizer="sgd")
model.fit(tf.ones([8, 2]), tf.ones([8, 1]), epochs=1)
""",
        """\
import tensorflow as tf

class Perplexity(tf.keras.metrics.Metric):
    def __init__(self):
        super().__init__(name="perplexity")
        self.total = self.add_weight(name="total", initializer="zeros")
        self.count = self.add_weight(name="count", initializer="zeros")

    def update_state(self, y_true, y_pred, sample_weight=None):
        self.total.assign_add(tf.reduce_sum(y_pred))
        self.count.assign_add(1.0)

    def result(self):
        if self.count == 0:
            return tf.constant(0.0)
        return self.total / self.count

perplexity = Perplexity()

@tf.function
def eval_step(y_true, y_pred):
    perplexity.update_state(y_true, y_pred)  # called as methods, AutoGraph converts them
    return perplexity.result()
""",
    )
    detection = "S~"

    def check(self, ctx: ScopeContext) -> Iterator[Hit]:
        fn = ctx.function
        if fn is None:
            return
        for call in ctx.scope.nodes(ast.Call):
            if ctx.call_name(call) == "bool" and len(call.args) == 1:
                is_tensor, deps = likely_tensor(ctx, call.args[0])
                if is_tensor:
                    yield self.hit(call, "bool() of a tensor asks Python for the value of a symbolic tensor",
                                   depends_on=deps)
        for comp in ctx.scope.nodes(ast.comprehension):
            for cond in comp.ifs:
                is_tensor, deps = likely_tensor(ctx, cond)
                if is_tensor:
                    yield self.hit(cond, "a comprehension condition on a tensor: AutoGraph does not convert "
                                         "comprehensions; use tf.boolean_mask or tf.where", depends_on=deps)
        option = decorator_option(ctx, fn, "autograph")
        if isinstance(option, ast.Constant) and option.value is False:
            why = "a tensor condition in a tf.function with autograph=False: Python needs its truth value while tracing"
        elif (traced := keras_traces_unconverted(ctx, fn)) == "call":
            why = ("a tensor condition in a Keras layer's call: Keras 3 does not convert call with AutoGraph, so "
                   "Python needs its truth value whenever the layer runs in a graph (fit, predict, a tf.function, "
                   "a functional model); use tf.cond, tf.where or keras.ops.cond")
        elif traced == "step":
            why = (f"a tensor condition in a Keras model's {fn.name}: Keras 3 traces it in fit, evaluate or predict "
                   f"without AutoGraph, so Python needs its truth value; use tf.cond or tf.where, or decorate "
                   f"{fn.name} with @tf.function")
        elif traced == "compiled":
            why = ("a tensor condition in a loss or metric handed to Keras's compile: Keras 3 traces it in fit "
                   "without AutoGraph, so Python needs its truth value; use tf.where or tf.cond")
        elif is_tf_function_decorated(ctx, fn):
            return  # its own tf.function converts it, and what it calls
        else:
            # whether it runs without AutoGraph is the project's to say (Linked.unconverted): a
            # helper of a layer's call, a metric's result run through the metric
            yield from self._hits(ctx, UNCONVERTED_CALLEE, unconverted_only=True)
            return
        yield from self._hits(ctx, why)

    def _hits(self, ctx: ScopeContext, why: str, unconverted_only: bool = False) -> Iterator[Hit]:
        for node in _truth_tested(ctx):
            is_tensor, deps = likely_tensor(ctx, node)
            if is_tensor and not _eager_only(ctx, node) and not _checked_python(ctx, node):
                yield self.hit(node, why, depends_on=deps, unconverted_only=unconverted_only)


UNCONVERTED_CALLEE = ("a tensor condition in code that runs without AutoGraph when traced: Keras 3 converts "
                      "neither a layer's call, a model's step or a metric's update_state and result, nor "
                      "what they call, so Python needs its truth value; use tf.cond or tf.where")


def _eager_only(ctx: ScopeContext, node: ast.AST) -> bool:
    """Under ``if ... tf.executing_eagerly():``: it never runs while a graph is traced."""
    return _under_if(ctx, node, lambda test: isinstance(test, ast.Call)
                     and ctx.call_name(test) == "tensorflow.executing_eagerly")


def _under_if(ctx: ScopeContext, node: ast.AST, accepts: Callable[[ast.expr], bool]) -> bool:
    """In the body of an ``if`` one operand of whose test ``accepts``."""
    return any(isinstance(outer, ast.If) and ctx.in_branch(node, outer) == "body"
               and any(accepts(test) for test in _operands(outer.test, set())) for outer in ctx.enclosing(node))


def _checked_python(ctx: ScopeContext, node: ast.expr) -> bool:
    """``isinstance(x, (list, tuple)) and x``, or ``x`` under ``if isinstance(x, list):``: Python
    asks for ``x``'s truth value only when it is that Python type, never when it is a tensor
    (heldout36: a CRF layer's helper taking a tensor or a list of them)."""
    if not isinstance(node, ast.Name):
        return False
    for both in ctx.scope.nodes(ast.BoolOp):
        if not (isinstance(both.op, ast.And) and any(v is node for v in both.values)):
            continue
        for value in both.values:  # the operands evaluated before it, in order
            if value is node:
                break
            if _python_type_check(ctx, value, node.id):
                return True
    return _under_if(ctx, node, lambda test: _python_type_check(ctx, test, node.id))


def _python_type_check(ctx: ScopeContext, test: ast.expr, name: str) -> bool:
    """``isinstance(name, T)`` with T Python's own types (``list``, ``(list, tuple)``, ``dict``...)."""
    if not (isinstance(test, ast.Call) and ctx.call_name(test) == "isinstance" and len(test.args) == 2
            and isinstance(test.args[0], ast.Name) and test.args[0].id == name):
        return False
    kinds = test.args[1].elts if isinstance(test.args[1], ast.Tuple) else [test.args[1]]
    return all(isinstance(k, ast.Name) and k.id in _PYTHON_TYPES for k in kinds)


_PYTHON_TYPES = frozenset({"list", "tuple", "dict", "set", "str", "bytes", "int", "float", "bool"})


def _truth_tested(ctx: ScopeContext) -> Iterator[ast.expr]:
    """Every expression whose truth value Python asks for: the tests of ``if``, ``while``,
    ``x if c else y`` and ``assert`` (each operand of an ``and``/``or``/``not`` there), and the
    operands of an ``and``/``or`` elsewhere that decide which one it returns (all but the last)."""
    tests: set[int] = set()
    for node in ctx.scope.nodes(ast.If, ast.While, ast.IfExp, ast.Assert):
        test = node.test  # type: ignore[attr-defined]
        tests.add(id(test))
        yield from _operands(test, tests)
    for node in ctx.scope.nodes(ast.BoolOp):
        if id(node) not in tests:
            for value in node.values[:-1]:
                yield from _operands(value, tests)


def _operands(test: ast.expr, seen: set[int]) -> Iterator[ast.expr]:
    if isinstance(test, ast.BoolOp):
        seen.add(id(test))
        for value in test.values:
            yield from _operands(value, seen)
    elif isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        yield from _operands(test.operand, seen)
    else:
        yield test
