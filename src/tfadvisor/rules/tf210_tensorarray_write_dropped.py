"""TF210 tensorarray-write-dropped."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tfadvisor.analysis.context import ScopeContext
from tfadvisor.analysis.summary import Hit
from tfadvisor.model import Severity
from tfadvisor.rules._util import used_after
from tfadvisor.rules.base import Rule, register

# TensorArray methods that return the array written to (the array called on is unchanged in a graph)
_WRITES = frozenset({"write", "unstack", "scatter", "split"})


@register
class TensorArrayWriteDropped(Rule):
    code = "TF210"
    name = "tensorarray-write-dropped"
    severity = Severity.ERROR
    summary = "a tf.TensorArray write whose result is dropped: in graph code the write is lost"
    why = """\
Eagerly, `ta.write(i, value)` changes `ta` in place. In graph code a TensorArray is a value: `write`
(and `unstack`, `scatter`, `split`) returns a new TensorArray holding the write, and `ta` itself is
unchanged. Dropping the result loses the write: under `tf.function` the array read later holds
zeros (or reading it fails), while the same code run eagerly gives the values. Keep the result:
`ta = ta.write(i, value)`.
"""
    bad = (
        """\
import tensorflow as tf

@tf.function
def norms(x):
    result = tf.TensorArray(tf.float32, size=3)
    for i in range(3):
        result.write(i, tf.norm(x * i))  # TF210
    return result.stack()
""",
        """\
import tensorflow as tf

@tf.function
def cumulative(x):
    out = tf.TensorArray(tf.float32, size=tf.shape(x)[0])
    total = tf.constant(0.0)
    for i in tf.range(tf.shape(x)[0]):
        total += x[i]
        out.write(i, total)  # TF210
    return out.stack()
""",
    )
    good = (
        """\
import tensorflow as tf

@tf.function
def norms(x):
    result = tf.TensorArray(tf.float32, size=3)
    for i in range(3):
        result = result.write(i, tf.norm(x * i))
    return result.stack()
""",
        """\
import tensorflow as tf

def norms(x):  # eager: the write changes the array in place
    result = tf.TensorArray(tf.float32, size=3)
    for i in range(3):
        result.write(i, tf.norm(x * i))
    return result.stack()
""",
    )
    detection = "S"

    def check(self, ctx: ScopeContext) -> Iterator[Hit]:
        arrays = _tensor_arrays(ctx)
        if not arrays:
            return
        for stmt in ctx.scope.nodes(ast.Expr):
            call = stmt.value
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr in _WRITES
                    and isinstance(call.func.value, ast.Name) and call.func.value.id in arrays):
                continue
            name = call.func.value.id
            if used_after(ctx, name, stmt.lineno):  # (an array nobody reads loses nothing)
                yield self.hit(stmt, f"{name}.{call.func.attr}(...) drops the TensorArray it returns: in graph code "
                                     f"{name} stays as it was and the write is lost; write `{name} = "
                                     f"{name}.{call.func.attr}(...)`")


def _tensor_arrays(ctx: ScopeContext) -> set[str]:
    """Names this function binds to ``tf.TensorArray(...)``."""
    out: set[str] = set()
    for node in ctx.scope.nodes(ast.Assign):
        value = node.value
        if isinstance(value, ast.Call) and ctx.call_name(value) == "tensorflow.TensorArray":
            out.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return out

