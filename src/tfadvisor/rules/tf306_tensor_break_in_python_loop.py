"""TF306 tensor-break-in-python-loop."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tfadvisor.analysis.context import ScopeContext
from tfadvisor.analysis.summary import Hit
from tfadvisor.model import Severity
from tfadvisor.rules._util import likely_tensor, tf_loop
from tfadvisor.rules.base import Rule, register


@register
class TensorBreakInPythonLoop(Rule):
    code = "TF306"
    name = "tensor-break-in-python-loop"
    severity = Severity.ERROR
    summary = "break or return on a tensor condition inside a Python loop: AutoGraph cannot convert it"
    why = """\
A `for` over `range(n)` or a Python list stays a Python loop under AutoGraph: it is unrolled while
tracing. A `break` or `return` inside it that depends on a tensor condition would need to stop an
unrolled loop at run time, which a graph cannot do; tracing fails with `NotImplementedError: break
and return statements which depend on a TF condition are not supported in Python for loops. Did
you intend to make it a TF loop?` Iterate `tf.range(n)` instead (a TF loop supports tensor
`break`), or compute a mask. A `return` inside a TensorFlow loop (over a tensor, `tf.range` or a
dataset) fails as well: `NotImplementedError: a return statement cannot be placed inside this
TensorFlow loop`; set a result and `break`.
"""
    bad = (
        """\
import tensorflow as tf

@tf.function
def first_negative(x):
    result = tf.constant(-1)
    for i in range(10):
        if x[i] < 0:
            result = tf.constant(i)
            break  # TF306
    return result
""",
        """\
import tensorflow as tf

@tf.function
def converge(x):
    for _ in range(100):
        x = x * 0.5
        if tf.reduce_max(tf.abs(x)) < 1e-3:
            return x  # TF306
    return x
""",
        """\
import tensorflow as tf

@tf.function
def first_big(x: tf.Tensor):
    for v in x:
        if v > 2.0:
            return v  # TF306
    return tf.constant(-1.0)
""",
    )
    good = (
        """\
import tensorflow as tf

@tf.function
def first_negative(x):
    result = tf.constant(-1)
    for i in tf.range(10):
        if x[i] < 0:
            result = i
            break
    return result
""",
        """\
import tensorflow as tf

@tf.function
def first_layers(x, layers):
    for i, layer in enumerate(layers):
        if i >= 2:
            break
        x = layer(x)
    return x
""",
    )
    detection = "S~"

    def check(self, ctx: ScopeContext) -> Iterator[Hit]:
        if ctx.function is None:
            return
        if not ctx.scope.nodes(ast.For) and not ctx.scope.nodes(ast.While):
            return
        for node in ctx.scope.nodes(ast.Break, ast.Return):
            chain = ctx.enclosing(node)
            # The innermost loop (for break) or any loop (for return) must be a Python loop, with a
            # tensor if between it and the statement; a return inside a TensorFlow loop fails too.
            for index in range(len(chain) - 1, -1, -1):
                outer = chain[index]
                if not isinstance(outer, (ast.For, ast.While)):
                    continue
                is_tf, deps = tf_loop(ctx, outer)
                if isinstance(node, ast.Return) and is_tf:
                    yield self.hit(node, f"return inside a TensorFlow loop (line {outer.lineno}): 'a return "
                                         f"statement cannot be placed inside this TensorFlow loop'; set a result "
                                         f"and break instead", depends_on=deps)
                    break
                is_tf = is_tf and not any(d.startswith("!") for d in deps)  # unknown: as written, Python
                if not is_tf:
                    found = _tensor_if_between(ctx, chain[index + 1:], node)
                    if found is not None:
                        what = "break" if isinstance(node, ast.Break) else "return"
                        yield self.hit(node, f"{what} under a tensor condition (line {found[0].lineno}) inside a "
                                             f"Python loop (line {outer.lineno}): not supported; iterate tf.range",
                                       depends_on=found[1])
                if isinstance(node, ast.Break) or is_tf:
                    break  # break binds to the innermost loop; a TF loop handles tensor returns


def _tensor_if_between(ctx: ScopeContext, chain: tuple[ast.AST, ...], node: ast.AST) -> tuple[ast.If, tuple[str, ...]] | None:
    for outer in chain:
        if isinstance(outer, ast.If) and ctx.in_branch(node, outer):
            is_tensor, deps = likely_tensor(ctx, outer.test)
            if is_tensor:
                return outer, deps
    return None
