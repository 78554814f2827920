"""TF309 branch-dtype-mismatch."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tfadvisor.analysis.context import ScopeContext
from tfadvisor.analysis.summary import Hit
from tfadvisor.model import Severity
from tfadvisor.rules._util import likely_tensor, used_after
from tfadvisor.rules.base import Rule, register

_DTYPES = {"float16": "float", "float32": "float", "float64": "float", "bfloat16": "float",
           "int8": "int", "int16": "int", "int32": "int", "int64": "int", "uint8": "int", "bool": "bool",
           "string": "string"}
_FLOAT_DEFAULT = ("zeros", "ones", "zeros_like", "ones_like", "fill", "normal", "uniform")


@register
class BranchDtypeMismatch(Rule):
    code = "TF309"
    name = "branch-dtype-mismatch"
    severity = Severity.ERROR
    summary = "the branches of a tensor-dependent if give a name different dtypes or structures"
    why = """\
`tf.cond`, which AutoGraph makes from an `if` on a tensor, needs both branches to produce the same
dtype and structure for every name they set. An `int` in one branch and a `float` in the other, or
`None` against a tensor, fails while tracing with `TypeError: 'x' has dtype int32 in the main
branch, but dtype float32 in the else branch` (or `'x' must have the same nested structure in the
main and else branches`). Use the same dtype in both (`0.0` and `1.0`, or `tf.cast`).
"""
    bad = (
        """\
import tensorflow as tf

@tf.function
def sign(x):
    if tf.reduce_sum(x) > 0:  # TF309
        s = 1
    else:
        s = -1.0
    return x * s
""",
        """\
import tensorflow as tf

@tf.function
def maybe_mask(x):
    if tf.reduce_any(x < 0):  # TF309
        mask = tf.cast(x < 0, tf.float32)
    else:
        mask = None
    return mask
""",
    )
    good = (
        """\
import tensorflow as tf

@tf.function
def sign(x):
    if tf.reduce_sum(x) > 0:
        s = 1.0
    else:
        s = -1.0
    return x * s
""",
        """\
import tensorflow as tf

@tf.function
def mode(x, training=False):
    if training:
        scale = 1
    else:
        scale = 0.5
    return x * scale
""",
    )
    detection = "S~"

    def check(self, ctx: ScopeContext) -> Iterator[Hit]:
        if ctx.function is None:
            return
        for node in ctx.scope.nodes(ast.If):
            if not node.orelse:
                continue
            main, other = _last_values(node.body), _last_values(node.orelse)
            for name in sorted(main.keys() & other.keys()):
                a, b = _dtype(ctx, main[name]), _dtype(ctx, other[name])
                if a is not None and b is None:
                    b = _uncast(ctx, main[name], other[name])
                elif b is not None and a is None:
                    a = _uncast(ctx, other[name], main[name])
                if a is None or b is None or a == b:
                    continue
                if not used_after(ctx, name, node.end_lineno or node.lineno):
                    continue  # set again before anyone reads it: tf.cond never outputs it
                is_tensor, deps = likely_tensor(ctx, node.test)
                if not is_tensor:
                    break
                yield Hit(self.code, node.lineno, node.col_offset, node.test.end_lineno or node.lineno,
                          node.test.end_col_offset or 0,
                          f"'{name}' is {a} in the main branch but {b} in the else branch of a tensor if: "
                          f"tf.cond needs the same dtype and structure", depends_on=deps)
                break


def _last_values(stmts: list[ast.stmt]) -> dict[str, ast.AST]:
    """Name -> value of its last plain assignment among these statements (top level only)."""
    out: dict[str, ast.AST] = {}
    for stmt in stmts:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            out[stmt.targets[0].id] = stmt.value
    return out


def _dtype(ctx: ScopeContext, value: ast.AST) -> str | None:
    """'int', 'float', 'bool', 'string' or 'None' where the code says so, else None."""
    if isinstance(value, ast.UnaryOp) and isinstance(value.operand, ast.Constant):
        value = value.operand
    if isinstance(value, ast.Constant):
        v = value.value
        if v is None:
            return "None"
        if isinstance(v, bool):
            return "bool"
        if isinstance(v, int):
            return "int"
        if isinstance(v, float):
            return "float"
        if isinstance(v, str):
            return "string"
        return None
    if isinstance(value, ast.Call):
        name = ctx.call_name(value) or ""
        if not name.startswith("tensorflow."):
            return None
        for kw in value.keywords:
            if kw.arg == "dtype":
                return _named_dtype(kw.value)
        last = name.rsplit(".", 1)[-1]
        if last == "cast" and len(value.args) > 1:
            return _named_dtype(value.args[1])
        if last == "constant" and value.args:
            first = value.args[0]
            while isinstance(first, (ast.List, ast.Tuple)) and first.elts:
                first = first.elts[0]  # tf.constant([1, 2]): the dtype of its elements
            return _dtype(ctx, first)
        if last in _FLOAT_DEFAULT and not last.endswith("_like"):
            return "float"
    return None


def _uncast(ctx: ScopeContext, cast: ast.AST, other: ast.AST) -> str | None:
    """``y = tf.cast(x, tf.int32)`` in one branch and ``y = x`` in the other: x is not int32 (or
    nobody would cast it), so the branches disagree: "uncast" stands for x's own dtype."""
    if (isinstance(cast, ast.Call) and ctx.call_name(cast) == "tensorflow.cast" and cast.args
            and isinstance(other, ast.Name) and isinstance(cast.args[0], ast.Name) and cast.args[0].id == other.id):
        return f"{other.id}'s own dtype"
    return None


def _named_dtype(node: ast.AST) -> str | None:
    last = node.attr if isinstance(node, ast.Attribute) else (node.value if isinstance(node, ast.Constant) else None)
    return _DTYPES.get(last) if isinstance(last, str) else None
