"""TF110 modified-argument."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tfadvisor.analysis.context import ScopeContext
from tfadvisor.analysis.summary import Hit
from tfadvisor.model import Severity
from tfadvisor.rules.base import Rule, register

# Methods only lists and dicts have (with these names): ``update`` is left out, many objects have one.
_MUTATING = frozenset({"pop", "popitem", "append", "extend", "insert", "remove", "clear", "setdefault"})


@register
class ModifiedArgument(Rule):
    code = "TF110"
    name = "modified-argument"
    severity = Severity.ERROR
    summary = "a tf.function changes a list or dict it was given: TensorFlow raises ValueError"
    why = """\
A tf.function compares the lists and dicts it was called with before and after tracing, and
refuses a function that changed them: `ValueError: train_step(batch) should not modify its Python
input arguments. Modifying a copy is allowed.` The usual shape is a step that takes the label out
of a features dict (`labels = inputs.pop("label")`), or appends to a list it was handed. Eagerly
the same code runs, and changes the caller's object. Work on a copy (`inputs = dict(inputs)`) or
read without removing (`inputs["label"]`). Only the tf.function's own arguments count: a helper
called inside it, and a function given to `Dataset.map`, may change theirs.
"""
    bad = (
        """\
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])

@tf.function
def train_step(inputs):
    labels = inputs.pop("label")  # TF110
    return tf.reduce_mean(tf.square(model(inputs["x"]) - labels))

train_step({"x": tf.ones([4, 3]), "label": tf.zeros([4, 1])})
""",
        """\
import tensorflow as tf

@tf.function
def collect(values, x):
    values.append(x * 2.0)  # TF110
    return tf.add_n(values)

collect([tf.ones([2])], tf.ones([2]))
""",
    )
    good = (
        """\
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])

@tf.function
def train_step(inputs):
    inputs = dict(inputs)
    labels = inputs.pop("label")
    return tf.reduce_mean(tf.square(model(inputs["x"]) - labels))

train_step({"x": tf.ones([4, 3]), "label": tf.zeros([4, 1])})
""",
        """\
import tensorflow as tf

def split_label(features):
    label = features.pop("label")
    return features, label

ds = tf.data.Dataset.from_tensor_slices({"x": [[1.0]], "label": [0.0]}).map(split_label)
""",
    )
    detection = "S"
    transitive = False  # a helper changing its own arguments inside a tf.function is plain Python
    entry_only = True  # only the tf.function's own parameters: not a helper's, not a map function's

    def check(self, ctx: ScopeContext) -> Iterator[Hit]:
        params = set(ctx.params) - {"self", "cls"} - _packed(ctx.scope.node)
        if not params:
            return
        rebound = {n.id for n in ctx.scope.nodes(ast.Name) if isinstance(n.ctx, ast.Store)}
        params -= rebound  # ``inputs = dict(inputs)`` first: a copy is changed
        if not params:
            return
        for call in ctx.scope.nodes(ast.Call):
            func = call.func
            if (isinstance(func, ast.Attribute) and func.attr in _MUTATING and isinstance(func.value, ast.Name)
                    and func.value.id in params):
                yield self._hit(call, func.value.id, f"{func.value.id}.{func.attr}(...)")
        for node in ctx.scope.nodes(ast.Assign, ast.AugAssign, ast.Delete):
            targets: list[ast.expr] = (list(node.targets) if isinstance(node, (ast.Assign, ast.Delete))
                                       else [node.target] if isinstance(node, ast.AugAssign) else [])
            for target in targets:
                if (isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name)
                        and target.value.id in params):
                    verb = "del " if isinstance(node, ast.Delete) else ""
                    yield self._hit(node, target.value.id, f"{verb}{ast.unparse(target)}")

    def _hit(self, node: ast.AST, param: str, what: str) -> Hit:
        return self.hit(node, f"`{what}` changes the argument `{param}`: a tf.function must not modify its "
                              f"Python input arguments (ValueError); change a copy (`{param} = dict({param})` "
                              f"or `list({param})`) or read it without changing it")


def _packed(node: ast.AST) -> set[str]:
    """``*args`` and ``**kwargs``: Python packs them afresh on every call, so the caller never sees a
    change, and TensorFlow 2.21 accepts ``kwargs.pop(...)`` in a tf.function (conformance variant
    pop-from-kwargs)."""
    args = getattr(node, "args", None)
    if not isinstance(args, ast.arguments):
        return set()
    return {a.arg for a in (args.vararg, args.kwarg) if a is not None}
