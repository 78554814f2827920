"""TF402 try-except."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tfadvisor.analysis import tfapi
from tfadvisor.analysis.context import ScopeContext
from tfadvisor.analysis.summary import Hit
from tfadvisor.model import Severity
from tfadvisor.rules.base import Rule, register


@register
class TryExcept(Rule):
    code = "TF402"
    name = "try-except"
    severity = Severity.WARNING
    summary = "try/except around TensorFlow ops in graph code catches trace-time errors only"
    why = """\
In a tf.function, Python's `try/except` runs while tracing. It catches errors raised while the
graph is built, but an op that fails when the graph runs (`InvalidArgumentError`, out of memory, a
failed `tf.debugging` assertion) raises at the call site, outside your `except`. The seed's advice:
no exception catching inside; catch around the call, in eager code.
"""
    bad = (
        """\
import tensorflow as tf

@tf.function
def safe_inverse(m):
    try:  # TF402
        return tf.linalg.inv(m)
    except tf.errors.InvalidArgumentError:
        return tf.zeros_like(m)
""",
        """\
import tensorflow as tf

@tf.function
def parse(line):
    try:  # TF402
        value = tf.strings.to_number(line)
    except ValueError:
        value = tf.constant(0.0)
    return value
""",
    )
    good = (
        """\
import tensorflow as tf

@tf.function
def inverse(m):
    return tf.linalg.inv(m)

def safe_inverse(m):
    try:
        return inverse(m)
    except tf.errors.InvalidArgumentError:
        return tf.zeros_like(m)
""",
        """\
import json
import tensorflow as tf

@tf.function
def scale(x):
    return x * 2.0

def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except OSError:
        return {}
""",
    )

    def check(self, ctx: ScopeContext) -> Iterator[Hit]:
        for node in ctx.scope.nodes(ast.Try, getattr(ast, "TryStar", ast.Try)):
            if not node.handlers:  # type: ignore[attr-defined]
                continue
            body_calls = (ctx.call_name(n) for stmt in node.body for n in ctx.walk(stmt)  # type: ignore[attr-defined]
                          if isinstance(n, ast.Call))
            if any(tfapi.is_tensor_op(name) for name in body_calls):
                yield Hit(self.code, node.lineno, node.col_offset, node.lineno, node.col_offset + 4,  # type: ignore[attr-defined]
                          self.summary)
