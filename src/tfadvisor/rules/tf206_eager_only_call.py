"""TF206 eager-only-call."""

from __future__ import annotations

import ast
import string
from collections.abc import Iterator

from tfadvisor.analysis import autograph, tfapi
from tfadvisor.analysis.context import ScopeContext
from tfadvisor.analysis.module import names_a_model
from tfadvisor.analysis.scopes import Scope, walk
from tfadvisor.analysis.summary import Hit
from tfadvisor.model import Severity
from tfadvisor.rules._util import decorator_option, likely_tensor
from tfadvisor.rules.base import Rule, register


@register
class EagerOnlyCall(Rule):
    code = "TF206"
    name = "eager-only-call"
    severity = Severity.ERROR
    summary = "eager-only call on a tensor: fails on the symbolic tensors of graph code"
    why = """\
Inside a tf.function, tensors are symbolic: they have no value while the graph is traced.
`.numpy()` raises `AttributeError: 'Tensor' object has no attribute 'numpy'` (newer TensorFlow:
`'SymbolicTensor' object has no attribute 'numpy'`), NumPy functions fail on them
(`NotImplementedError: Cannot convert a symbolic tf.Tensor to a numpy array`). `float(t)` and
`int(t)` fail only with `autograph=False` (`TypeError: float() argument must be a string or a real
number, not 'SymbolicTensor'`): AutoGraph converts them to `tf.cast` (analysis/autograph.py). Use
TensorFlow ops (`tf.reduce_mean`, `tf.cast`) inside graph code.
Formatting a tensor as a number needs its value too: `"%.4f" % loss`, `f"{loss:.4f}"` and
`"{:.4f}".format(loss)` raise `TypeError` while tracing (`must be real number, not SymbolicTensor`,
`unsupported format string passed to SymbolicTensor.__format__`), also around `float(loss)`.
`"%s" % loss` and `f"{loss}"` do not raise (they show the symbolic tensor, once per trace); pass the
tensor to `tf.print` instead.
A Keras model's `predict(x)` and `predict_on_batch(x)` run Keras's own loop and read NumPy values:
inside graph code they raise (`AttributeError: 'SymbolicTensor' object has no attribute 'numpy'`);
call the model, `model(x, training=False)`. A `predict` method of another library (the Object
Detection API's `detection_model.predict(image, shapes)`) is graph code of its own: only a model the
code makes with Keras, or a call with Keras's options (`verbose=0`), is taken for sure.
Under a debug flag (`if self._is_debug: print(loss.numpy())`) the call is only a note: programs
that have such a flag run eagerly when it is on (they skip their `tf.function` wrap, or turn on
`run_functions_eagerly`), and with the flag off the branch is not traced.
"""
    bad = (
        """\
import tensorflow as tf

@tf.function
def accuracy(logits, labels):
    hits = tf.equal(tf.argmax(logits, 1), labels)
    return hits.numpy().mean()  # TF206
""",
        """\
import numpy as np
import tensorflow as tf

@tf.function
def normalise(x):
    y = tf.abs(x)
    return y / np.max(y)  # TF206
""",
        """\
import tensorflow as tf

@tf.function(autograph=False)
def loss_value(x):
    return float(tf.reduce_sum(x)) * 2.0  # TF206
""",
        """\
import tensorflow as tf

@tf.function
def train_step(model, x, y):
    loss = tf.reduce_mean((model(x) - y) ** 2)
    print("loss %.4f" % loss)  # TF206
    return loss
""",
        """\
import tensorflow as tf

class GAN:
    def __init__(self):
        self.generator = tf.keras.Sequential([tf.keras.layers.Dense(8)])
        self.discriminator = tf.keras.Sequential([tf.keras.layers.Dense(1)])

    @tf.function
    def train_discriminator(self, noise, real):
        fake = self.generator.predict(noise)  # TF206
        return tf.reduce_mean(self.discriminator(fake)) - tf.reduce_mean(self.discriminator(real))
""",
    )
    good = (
        """\
import tensorflow as tf

@tf.function
def accuracy(logits, labels):
    hits = tf.equal(tf.argmax(logits, 1), labels)
    return tf.reduce_mean(tf.cast(hits, tf.float32))
""",
        """\
import tensorflow as tf

def report(metric):
    value = metric.result()
    print(value.numpy())
""",
        """\
import tensorflow as tf

@tf.function
def loss_value(x):
    return float(tf.reduce_sum(x)) * 2.0  # AutoGraph makes float() a tf.cast
""",
        """\
import tensorflow as tf

@tf.function
def train_step(model, x, y, epoch):
    loss = tf.reduce_mean((model(x) - y) ** 2)
    tf.print("epoch %d loss" % epoch, loss)
    return loss
""",
        """\
import tensorflow as tf

class GAN:
    def __init__(self):
        self.generator = tf.keras.Sequential([tf.keras.layers.Dense(8)])
        self.discriminator = tf.keras.Sequential([tf.keras.layers.Dense(1)])

    @tf.function
    def train_discriminator(self, noise, real):
        fake = self.generator(noise, training=False)
        return tf.reduce_mean(self.discriminator(fake)) - tf.reduce_mean(self.discriminator(real))
""",
        """\
import numpy as np
import tensorflow as tf

@tf.function
def total(values):
    if isinstance(values, np.ndarray) or isinstance(values, list):
        return float(np.array(values).sum())  # a tensor never gets here: the test runs while tracing
    return tf.reduce_sum(values)
""",
    )

    def check(self, ctx: ScopeContext) -> Iterator[Hit]:
        for node, value in _numeric_formats(ctx):
            is_tensor, deps = likely_tensor(ctx, value)
            if is_tensor or _outer_variable(ctx, value):
                yield self.hit(node, "formatting a tensor as a number needs its value: in graph code it raises "
                                     "TypeError; pass the tensor to tf.print instead", depends_on=deps)
        option = decorator_option(ctx, ctx.function, "autograph") if ctx.function is not None else None
        converted = not (isinstance(option, ast.Constant) and option.value is False)
        for call in ctx.scope.nodes(ast.Call):
            func = call.func
            if isinstance(func, ast.Attribute) and func.attr in tfapi.EAGER_ONLY_METHODS and not call.args:
                is_tensor, deps = ctx.is_tensor(func.value)
                if is_tensor or func.attr == "numpy":
                    yield self.hit(call, f".{func.attr}() needs an eager tensor; graph code has symbolic ones",
                                   depends_on=deps if is_tensor else (), speculative=not is_tensor)
                continue
            if (isinstance(func, ast.Attribute) and func.attr in _KERAS_LOOPS and (call.args or call.keywords)
                    and names_a_model(ctx, func.value)):
                # a Keras model by construction, or called with Keras's own options (``verbose=0``);
                # otherwise a guess: libraries define ``predict`` as graph code of their own (the
                # Object Detection API's ``detection_model.predict(image, shapes)``)
                known = (isinstance(func.value, ast.Attribute) and func.value.attr in ctx.layer_attrs) or (
                    isinstance(func.value, ast.Name) and func.value.id in ctx.module_models) or any(
                    k.arg in _KERAS_LOOP_OPTIONS for k in call.keywords)
                yield self.hit(call, f"{_KERAS_LOOP_HIT}{func.attr}() runs Keras's own loop and reads NumPy values: graph code "
                                     f"fails there (TensorFlow 2.21: AttributeError, no numpy); call the model, "
                                     f"model(x, training=False)", speculative=not known)
                continue
            if (isinstance(func, ast.Attribute) and func.attr in tfapi.EAGER_ONLY_MODEL_METHODS and not call.args
                    and not ctx.is_tensor(func.value)[0]):
                yield self.hit(call, f".{func.attr}(){_WEIGHTS_HIT} graph code has symbolic "
                                     f"ones, and it fails there; use the variables (.weights) and assign")
                continue
            name = ctx.call_name(call)
            if name in tfapi.EAGER_ONLY_FUNCTIONS and call.args:
                is_tensor, deps = ctx.is_tensor(call.args[0])
                yield self.hit(call, f"{name.rsplit('.', 1)[-1]}() reads a tensor's value back into Python: graph "
                                     f"code has symbolic tensors, and it fails there; return the tensor",
                               depends_on=deps if is_tensor else (), speculative=not is_tensor)
                continue
            if name in ("float", "int") and autograph.converts(name, converted):
                continue  # AutoGraph makes it a tf.cast (the evidence: analysis/autograph.py)
            if tfapi.is_numpy_call(name) or name in ("float", "int"):
                for arg in call.args:
                    is_tensor, deps = ctx.is_tensor(arg)
                    if is_tensor and not _known_not_a_tensor(ctx, call, arg):
                        yield self.hit(call, f"{name}() on a tensor fails in graph code: use a TensorFlow op",
                                       depends_on=deps)
                        break


def _outer_variable(ctx: ScopeContext, value: ast.expr) -> bool:
    """``global_steps`` read by a step nested in ``main`` that made it ``tf.Variable(...)`` (or the
    module did): graph code reads a symbolic tensor (heldout32: two YOLOv4 eval steps formatted it
    with ``%4d`` and were told decorate; TensorFlow 2.21 raises AttributeError)."""
    if not isinstance(value, ast.Name) or value.id in ctx.params or value.id in ctx.local_names:
        return False
    scope = ctx.scope.parent
    while scope is not None:
        made, other = _bound_in(ctx, scope)
        if value.id in made:
            return True
        if value.id in other:
            return False  # bound to something else in that scope: not known
        scope = scope.parent
    return False


def _bound_in(ctx: ScopeContext, scope: Scope) -> tuple[frozenset[str], frozenset[str]]:
    """(names a scope binds only to ``tf.Variable(...)``, names it binds to anything else)."""
    def build() -> tuple[frozenset[str], frozenset[str]]:
        made: set[str] = set()
        other: set[str] = set()
        for node in scope.nodes(ast.Assign):
            is_variable = isinstance(node.value, ast.Call) and ctx.call_name(node.value) == "tensorflow.Variable"
            for target in node.targets:
                for name in walk(target):
                    if isinstance(name, ast.Name):
                        (made if is_variable and name is target else other).add(name.id)
        return frozenset(made - other), frozenset(other)
    return scope.cached("tf206_bound", build)


_NUMERIC_CONVERSIONS = frozenset("diouxXeEfFgGc")
# Keras's loops over data: inside a tf.function they raise (tests/conformance/variants/tf206.py)
_KERAS_LOOPS = frozenset({"predict", "predict_on_batch"})
# How the hits on Keras's eager-only API begin (``Model.predict()``) and go on (``.get_weights()``):
# ``keras_eager_api`` tells them from a ``.numpy()`` read, which moves to the caller instead
_KERAS_LOOP_HIT = "Model."
_WEIGHTS_HIT = " copies the variables into NumPy arrays:"


def keras_eager_api(hit: Hit) -> bool:
    """A TF206 hit on Keras's eager-only API (``predict``, ``get_weights``): a step rewritten for a
    graph cannot keep the call (advice/static.py leaves an update that makes it to its steps)."""
    return hit.rule == "TF206" and (hit.message.startswith(_KERAS_LOOP_HIT) or _WEIGHTS_HIT in hit.message)
_KERAS_LOOP_OPTIONS = frozenset({"verbose", "batch_size", "steps", "callbacks", "workers", "use_multiprocessing"})
# Types a tensor is not: under ``if isinstance(x, np.ndarray):`` a traced tensor never gets in
_NOT_TENSORS = frozenset({"numpy.ndarray", "list", "tuple", "int", "float", "str", "dict", "numpy.generic"})


def _known_not_a_tensor(ctx: ScopeContext, node: ast.AST, arg: ast.AST) -> bool:
    """``arg`` is a name that an enclosing ``if isinstance(arg, np.ndarray) or isinstance(arg, list):``
    lets in only when it is not a tensor: in graph code that test runs while tracing, is False for a
    tensor, and the branch is not traced (tests/conformance/variants/tf206.py)."""
    if not isinstance(arg, ast.Name):
        return False
    for outer in ctx.enclosing(node):
        if isinstance(outer, ast.If) and ctx.in_branch(node, outer) == "body" and _only_python_types(ctx, outer.test, arg.id):
            return True
    return False


def _only_python_types(ctx: ScopeContext, test: ast.expr, name: str) -> bool:
    """``isinstance(name, T)`` (or several joined by ``or``) with every T a type a tensor is not."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        return all(_only_python_types(ctx, v, name) for v in test.values)
    if not (isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id == "isinstance"
            and len(test.args) == 2 and isinstance(test.args[0], ast.Name) and test.args[0].id == name):
        return False
    kinds = test.args[1].elts if isinstance(test.args[1], ast.Tuple) else [test.args[1]]
    return all((ctx.resolve(k) or "") in _NOT_TENSORS for k in kinds)


def _numeric_formats(ctx: ScopeContext) -> Iterator[tuple[ast.AST, ast.expr]]:
    """(where, what) for every value a string format renders as a number: ``"%.2f" % v``,
    ``f"{v:.2f}"``, ``"{:.2f}".format(v)`` (a tensor's ``__format__`` takes no format spec at all)."""
    for node in ctx.scope.nodes(ast.BinOp, ast.JoinedStr, ast.Call):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and isinstance(node.left, ast.Constant) \
                and isinstance(node.left.value, str):
            conversions = _percent_conversions(node.left.value)
            values = node.right.elts if isinstance(node.right, ast.Tuple) else [node.right]
            if conversions is not None and len(conversions) == len(values):
                yield from ((node, _unwrapped(v)) for c, v in zip(conversions, values, strict=True)
                            if c in _NUMERIC_CONVERSIONS)
        elif isinstance(node, ast.JoinedStr):
            yield from ((node, _unwrapped(v.value)) for v in node.values
                        if isinstance(v, ast.FormattedValue) and v.format_spec is not None)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format"
              and isinstance(node.func.value, ast.Constant) and isinstance(node.func.value.value, str)):
            yield from ((node, _unwrapped(v)) for v in _formatted_with_spec(node.func.value.value, node))


def _percent_conversions(text: str) -> list[str] | None:
    """The conversion letters of a %-format, in order; None where they cannot be paired with
    values (a mapping key, a ``*`` width)."""
    out, i = [], 0
    while i < len(text):
        if text[i] != "%":
            i += 1
            continue
        j = i + 1
        if j < len(text) and text[j] == "%":
            i = j + 1
            continue
        while j < len(text) and text[j] in "#0- +123456789.lhL*(":
            if text[j] in "*(":
                return None
            j += 1
        if j >= len(text):
            return None
        out.append(text[j])
        i = j + 1
    return out


def _formatted_with_spec(text: str, call: ast.Call) -> Iterator[ast.expr]:
    """Arguments of ``text.format(...)`` whose field has a format spec."""
    try:
        fields = [(name, spec) for _, name, spec, _ in string.Formatter().parse(text) if name is not None]
    except ValueError:
        return
    auto = 0
    keywords = {k.arg: k.value for k in call.keywords if k.arg}
    for name, spec in fields:
        key = name.split(".", 1)[0].split("[", 1)[0]
        if key == "":
            index: int | str = auto
            auto += 1
        else:
            index = int(key) if key.isdigit() else key
        if not spec:
            continue
        if isinstance(index, int) and index < len(call.args) and not isinstance(call.args[index], ast.Starred):
            yield call.args[index]
        elif isinstance(index, str) and index in keywords:
            yield keywords[index]


def _unwrapped(value: ast.expr) -> ast.expr:
    """``float(loss)`` is still the tensor when formatted: AutoGraph makes it a ``tf.cast``."""
    while (isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in ("float", "int", "round")
           and len(value.args) == 1):
        value = value.args[0]
    return value
