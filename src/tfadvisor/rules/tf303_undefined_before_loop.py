"""TF303 undefined-before-loop."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tfadvisor.analysis.context import ScopeContext
from tfadvisor.analysis.scopes import walk
from tfadvisor.analysis.summary import Hit
from tfadvisor.model import Severity
from tfadvisor.rules._util import dataset_loop, defined_before, stores, used_after
from tfadvisor.rules.base import Rule, register


@register
class UndefinedBeforeLoop(Rule):
    code = "TF303"
    name = "undefined-before-loop"
    severity = Severity.ERROR
    summary = "a name first assigned inside a loop over a dataset is used after the loop"
    why = """\
AutoGraph turns a `for` over a `tf.data.Dataset` into the dataset's own reduction, whose loop
variables need a value before the first element: the dataset may be empty. A name first assigned
inside such a loop and used after it fails while tracing with `ValueError: 'loss' must be defined
before the loop`. Initialise it before the loop with the shape and dtype it will have. (Loops over
`tf.range`, a tensor, or a `while` on a tensor accept such a name in TensorFlow 2.21: the
conformance suite shows both, analysis/autograph.py.)
"""
    bad = (
        """\
import tensorflow as tf

@tf.function
def train(dataset):
    for batch in dataset:  # TF303
        loss = tf.reduce_mean(batch)
    return loss
""",
        """\
import tensorflow as tf

@tf.function
def last_batch_mean(n):
    for batch in tf.data.Dataset.range(n).batch(2):  # TF303
        mean = tf.reduce_mean(batch)
    return mean
""",
    )
    good = (
        """\
import tensorflow as tf

@tf.function
def train(dataset):
    loss = tf.constant(0.0)
    for batch in dataset:
        loss = tf.reduce_mean(batch)
    return loss
""",
        """\
import tensorflow as tf

@tf.function
def unrolled(x):
    for i in range(3):
        y = x * i
    return y
""",
        """\
import tensorflow as tf

@tf.function
def last_value(x):
    for i in tf.range(tf.shape(x)[0]):
        last = x[i]
    return last
""",
    )
    detection = "S~"

    def check(self, ctx: ScopeContext) -> Iterator[Hit]:
        if ctx.function is None:
            return
        for loop in ctx.scope.nodes(ast.For, ast.While):
            is_dataset, deps = dataset_loop(ctx, loop)
            if not is_dataset:
                continue
            assigned = stores(ctx, loop.body)  # type: ignore[attr-defined]
            if isinstance(loop, ast.For):
                for t in walk(loop.target):
                    if isinstance(t, ast.Name):
                        assigned.pop(t.id, None)  # the loop target is defined by the loop itself
            if not assigned:
                continue
            end = loop.end_lineno or loop.lineno  # type: ignore[attr-defined]
            names = [n for n, node in assigned.items()
                     if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                     and not defined_before(ctx, n, loop.lineno) and used_after(ctx, n, end)]  # type: ignore[attr-defined]
            if not names:
                continue
            listed = ", ".join(f"'{n}'" for n in names)
            head = loop.iter if isinstance(loop, ast.For) else loop.test  # type: ignore[attr-defined]
            yield Hit(self.code, loop.lineno, loop.col_offset, head.end_lineno or loop.lineno,  # type: ignore[attr-defined]
                      head.end_col_offset or 0,
                      f"{listed} first assigned inside a loop over a dataset and used after it: it must be "
                      f"defined before the loop", depends_on=deps)
