"""TF402 try-except."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tfadvisor.analysis.context import ScopeContext, is_graph_op
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
    except Exception:
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
        """\
import tensorflow as tf

@tf.function
def batch_gather(params, indices):
    try:  # a newer API, then the older one for the same gather: errors raise either way
        return tf.gather(params, indices, batch_dims=1)
    except Exception as first:
        try:
            return tf.compat.v1.batch_gather(params, indices)
        except Exception as second:
            raise ValueError(f"{first}; {second}")
""",
    )

    def check(self, ctx: ScopeContext) -> Iterator[Hit]:
        for node in ctx.scope.nodes(ast.Try, getattr(ast, "TryStar", ast.Try)):
            if not node.handlers or not any(_catches_run_time(ctx, h) and not _translates(h)  # type: ignore[attr-defined]
                                            and not _retries_then_raises(node, h)  # type: ignore[arg-type]
                                            for h in node.handlers):  # type: ignore[attr-defined]
                continue  # only trace-time errors (TypeError, ValueError ...): that works as written
            body_calls = (n for stmt in node.body for n in ctx.walk(stmt) if isinstance(n, ast.Call))  # type: ignore[attr-defined]
            if any(is_graph_op(ctx.call_name(c)) or _iterator_read(c) for c in body_calls):
                yield Hit(self.code, node.lineno, node.col_offset, node.lineno, node.col_offset + 4,  # type: ignore[attr-defined]
                          self.summary)


def _iterator_read(call: ast.Call) -> bool:
    """``it.get_next()``: a dataset iterator's read, whose OutOfRangeError comes at run time."""
    return isinstance(call.func, ast.Attribute) and call.func.attr in ("get_next", "get_next_as_optional")


def _translates(handler: ast.ExceptHandler) -> bool:
    """A handler that only re-raises, with a friendlier error: in a graph the original error
    surfaces instead, which changes a message, not what the code does."""
    return len(handler.body) == 1 and isinstance(handler.body[0], ast.Raise)


def _retries_then_raises(node: ast.Try, handler: ast.ExceptHandler) -> bool:
    """``try: return tf.gather(p, i, batch_dims=1)`` / ``except: try: return
    tf.compat.v1.batch_gather(p, i)`` / ``except: raise ValueError(...)``: the same computation by
    another API (the same arguments), raising if that fails too. A version fallback: in a graph the
    first API's error surfaces instead, and data both accept give the same result (conformance
    variants version-fallback-that-raises-if-both-fail and fallback-to-a-default-value)."""
    if len(handler.body) != 1 or not isinstance(handler.body[0], ast.Try):
        return False
    inner = handler.body[0]
    if not inner.handlers or not all(_translates(h) for h in inner.handlers) or len(inner.body) != 1:
        return False
    first, retry = _lone_call(node.body), _lone_call(inner.body)
    return (first is not None and retry is not None and bool(first.args)
            and [ast.dump(a) for a in first.args] == [ast.dump(a) for a in retry.args])


def _lone_call(body: list[ast.stmt]) -> ast.Call | None:
    """The call a one-statement body returns or assigns."""
    if len(body) != 1 or not isinstance(body[0], (ast.Return, ast.Assign, ast.Expr)):
        return None
    value = body[0].value
    return value if isinstance(value, ast.Call) else None


_BROAD = frozenset({"Exception", "BaseException", "builtins.Exception", "builtins.BaseException"})


def _catches_run_time(ctx: ScopeContext, handler: ast.ExceptHandler) -> bool:
    """A handler that expects errors of the running graph: TensorFlow's errors, or anything at all.

    ``except (TypeError, ValueError)`` around graph building catches what tracing raises and works
    as written (TensorFlow's own op wrappers do it); ``except tf.errors.OpError`` or a bare
    ``except`` expects run-time failures that a graph raises at the call site instead.
    """
    if handler.type is None:
        return True
    types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    for t in types:
        name = ctx.resolve(t) or ast.unparse(t)
        if name in _BROAD or name.startswith(("tensorflow.errors.", "tensorflow.python.framework.errors")):
            return True
        if name.rsplit(".", 1)[-1] in ("OpError", "InvalidArgumentError", "ResourceExhaustedError",
                                       "OutOfRangeError", "UnknownError", "InternalError"):
            return True
    return False
