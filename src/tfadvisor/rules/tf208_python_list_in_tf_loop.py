"""TF208 python-list-in-tf-loop."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tfadvisor.analysis.context import ScopeContext
from tfadvisor.analysis.scopes import walk
from tfadvisor.analysis.summary import Hit
from tfadvisor.model import Severity
from tfadvisor.rules._util import tf_loop, used_after
from tfadvisor.rules.base import Rule, register

_LIST_METHODS = frozenset({"append", "extend", "insert"})


@register
class PythonListInTfLoop(Rule):
    code = "TF208"
    name = "python-list-in-tf-loop"
    severity = Severity.ERROR
    summary = "appends to a Python list inside a loop that AutoGraph runs as a TensorFlow loop"
    why = """\
A `for` over `tf.range(n)`, a tensor or a dataset, and a `while` on a tensor condition, become one
TensorFlow `while_loop` whose body is traced once. A Python list appended to in that body grows by
one symbolic tensor that belongs to the loop's inner graph: using it fails with
`InaccessibleTensorError: The tensor ... cannot be accessed here: it is defined in another function
or code block` (newer TensorFlow: `... is out of scope and cannot be used here`), and AutoGraph
does not support Python lists as loop variables. Collect values in a `tf.TensorArray`
(`ta = ta.write(i, value)`, then `ta.stack()`).
"""
    bad = (
        """\
import tensorflow as tf

@tf.function
def cumulative(x):
    outputs = []
    for i in tf.range(tf.shape(x)[0]):
        outputs.append(x[i] * 2.0)  # TF208
    return tf.stack(outputs)
""",
        """\
import tensorflow as tf

@tf.function
def collect(dataset):
    losses = []
    for batch in dataset:
        losses.append(tf.reduce_mean(batch))  # TF208
    return losses
""",
    )
    good = (
        """\
import tensorflow as tf

@tf.function
def cumulative(x):
    n = tf.shape(x)[0]
    ta = tf.TensorArray(tf.float32, size=n)
    for i in tf.range(n):
        ta = ta.write(i, x[i] * 2.0)
    return ta.stack()
""",
        """\
import tensorflow as tf

@tf.function
def stacked(x):
    outputs = []
    for i in range(3):
        outputs.append(x * i)
    return tf.stack(outputs)
""",
    )
    detection = "S~"

    def check(self, ctx: ScopeContext) -> Iterator[Hit]:
        loops = ctx.scope.nodes(ast.For, ast.While)
        if not loops:
            return
        for call in ctx.scope.nodes(ast.Call):
            func = call.func
            if not (isinstance(func, ast.Attribute) and func.attr in _LIST_METHODS and isinstance(func.value, ast.Name)):
                continue
            if not _is_python_list(ctx, func.value.id):
                continue
            for outer in reversed(ctx.enclosing(call)):
                if isinstance(outer, (ast.For, ast.While)) and (isinstance(outer, ast.While) or not _in_iter(outer, call)):
                    if _made_inside(ctx, func.value.id, outer) or not used_after(ctx, func.value.id, outer.end_lineno or outer.lineno):
                        # A list made in the body lives within one iteration (or rebinds a loop
                        # variable of the same structure), and one nobody reads after the loop
                        # cannot leak its tensors: AutoGraph accepts both (analysis/autograph.py).
                        break
                    is_tf, deps = tf_loop(ctx, outer)
                    if is_tf:
                        yield self.hit(call, f"{func.value.id}.{func.attr}() inside a TensorFlow loop: the list "
                                             f"holds tensors of the loop's inner graph; use tf.TensorArray",
                                       depends_on=deps)
                        break


def _made_inside(ctx: ScopeContext, name: str, loop: ast.AST) -> bool:
    """Whether ``name`` is bound to a list inside ``loop``'s body."""
    return any(isinstance(t, ast.Name) and t.id == name for stmt in loop.body  # type: ignore[attr-defined]
               for node in ctx.walk(stmt) if isinstance(node, ast.Assign) for t in node.targets)


def _in_iter(loop: ast.For, node: ast.AST) -> bool:
    return any(n is node for n in walk(loop.iter))


def _is_python_list(ctx: ScopeContext, name: str) -> bool:
    """Bound to a list display or ``list()`` somewhere in this function."""
    for node in ctx.scope.nodes(ast.Assign):
        if any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            value = node.value
            if isinstance(value, (ast.List, ast.ListComp)) or (
                    isinstance(value, ast.Call) and ctx.call_name(value) == "list"):
                return True
    return False
