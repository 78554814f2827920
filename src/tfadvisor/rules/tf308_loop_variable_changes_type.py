"""TF308 loop-variable-changes-type."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tfadvisor.analysis.context import ScopeContext
from tfadvisor.analysis.scopes import walk
from tfadvisor.analysis.summary import Hit
from tfadvisor.model import Severity
from tfadvisor.rules._util import dataset_loop, last_assignment_before, likely_tensor, tf_loop
from tfadvisor.rules.base import Rule, register

_FLOAT_OPS = ("reduce_mean", "sigmoid", "softmax", "exp", "log", "sqrt", "tanh", "normal", "uniform",
              "reduce_std", "l2_normalize", "sigmoid_cross_entropy_with_logits", "mean_squared_error")


@register
class LoopVariableChangesType(Rule):
    code = "TF308"
    name = "loop-variable-changes-type"
    severity = Severity.ERROR
    summary = "a loop variable changes type, dtype or structure across iterations of a TensorFlow loop"
    why = """\
A TensorFlow loop (`tf.while_loop`, which AutoGraph makes from a `for` over a tensor or a `while`
on one) needs each loop variable to keep its type, dtype and shape. A variable that starts as a
Python list (or `None`, before a loop over a dataset), an `int` literal that becomes a float
tensor, a tensor that grows by concatenation, or a `while` condition that starts as a Python value
and becomes a tensor fails while tracing: `TypeError: 'x' has dtype
int32 before the loop, but dtype float32 after one iteration`, `ValueError: 'acc' has shape (0,)
before the loop, but shape (1,) after one iteration`, `NotImplementedError: The condition of while
loop started as non-Tensor, then changed to Tensor`. Start it as a tensor of the final dtype (and
use `tf.autograph.experimental.set_loop_options(shape_invariants=...)` when its shape changes).
"""
    bad = (
        """\
import tensorflow as tf

@tf.function
def mean_loss(dataset):
    total = 0
    for batch in dataset:  # TF308
        total += tf.reduce_mean(batch)
    return total
""",
        """\
import tensorflow as tf

@tf.function
def halve_until_small(x):
    steps = 0
    while steps < 10:  # TF308
        x = x / 2.0
        steps = steps + tf.constant(1)
    return x
""",
        """\
import tensorflow as tf

@tf.function
def collect(n):
    acc = tf.zeros([0])
    for i in tf.range(n):  # TF308
        acc = tf.concat([acc, [tf.cast(i, tf.float32)]], 0)
    return acc
""",
    )
    good = (
        """\
import tensorflow as tf

@tf.function
def mean_loss(dataset):
    total = 0.0
    for batch in dataset:
        total += tf.reduce_mean(batch)
    return total
""",
        """\
import tensorflow as tf

@tf.function
def count(x):
    n = 0
    for i in tf.range(tf.shape(x)[0]):
        n += 1
    return n
""",
        """\
import tensorflow as tf

@tf.function
def last_row(x):
    last = None
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
            if isinstance(loop, ast.While):
                hit = self._python_condition(ctx, loop)
                if hit is not None:
                    yield hit
                    continue
            is_tf, deps = tf_loop(ctx, loop)
            if not is_tf:
                continue
            grows = _grows(ctx, loop)
            if grows is not None:
                yield Hit(self.code, loop.lineno, loop.col_offset, loop.lineno, loop.col_offset + 5,  # type: ignore[attr-defined]
                          f"'{grows}' grows by concatenation in a TensorFlow loop: its shape changes after one "
                          f"iteration; set shape_invariants with tf.autograph.experimental.set_loop_options, "
                          f"or collect into a tf.TensorArray", depends_on=deps)
                continue
            # None before the loop is fine for tf.range/tensor/while loops in TensorFlow 2.21
            # (analysis/autograph.py); a dataset's reduction still needs a value of the final type.
            strict = dataset_loop(ctx, loop)[0]
            for name, value in _tensor_updates(ctx, loop) + _element_updates(ctx, loop):
                start = last_assignment_before(ctx, name, loop.lineno)  # type: ignore[attr-defined]
                problem = _mismatch(start, value)
                if problem == "is None" and not strict:
                    continue
                guess = False
                if problem is None and _int_literal(start):
                    # ``total = 0`` then ``total += v`` over a tensor of unknown dtype: fails for
                    # float tensors (most of them), so say it, as a guess.
                    problem, guess = f"is the int literal {start.value!r} (int32)", True  # type: ignore[union-attr]
                if problem:
                    yield Hit(self.code, loop.lineno, loop.col_offset, loop.lineno, loop.col_offset + 5,  # type: ignore[attr-defined]
                              f"'{name}' {problem} before the TensorFlow loop but becomes a tensor in it: "
                              f"start it as a tensor of the same dtype and shape", depends_on=deps,
                              speculative=guess)
                    break

    def _python_condition(self, ctx: ScopeContext, loop: ast.While) -> Hit | None:
        """``while steps < 10`` where ``steps`` starts as a Python number and becomes a tensor."""
        names = {n.id for n in walk(loop.test) if isinstance(n, ast.Name)}
        updates = dict(_tensor_updates(ctx, loop))
        for name in sorted(names):
            start = last_assignment_before(ctx, name, loop.lineno)
            if name in updates and isinstance(start, ast.Constant) and not isinstance(start.value, str):
                if _all_python(ctx, loop.test, name):
                    return Hit(self.code, loop.lineno, loop.col_offset, loop.lineno, loop.col_offset + 5,
                               f"the while condition uses '{name}', a Python value before the loop that "
                               f"becomes a tensor in it: 'the condition of while loop started as "
                               f"non-Tensor, then changed to Tensor'")
        return None


def _grows(ctx: ScopeContext, loop: ast.AST) -> str | None:
    """``acc = tf.concat([acc, ...])`` in the body, with no ``set_loop_options`` there: the name
    whose shape changes from one iteration to the next."""
    body = [n for stmt in loop.body for n in ctx.walk(stmt)]  # type: ignore[attr-defined]
    if any(isinstance(n, ast.Call) and (ctx.call_name(n) or "").endswith("set_loop_options") for n in body):
        return None
    for node in body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.Call) and ctx.call_name(node.value) == "tensorflow.concat"
                and node.value.args and isinstance(node.value.args[0], (ast.List, ast.Tuple))):
            name = node.targets[0].id
            parts = node.value.args[0].elts
            if any(isinstance(p, ast.Name) and p.id == name for p in parts):
                start = last_assignment_before(ctx, name, loop.lineno)  # type: ignore[attr-defined]
                if start is not None and _tensor_expr(ctx, start) and _static_shape(ctx, start):
                    return name
    return None


_SHAPED_BY_ARGUMENT = frozenset({"tensorflow.zeros", "tensorflow.ones", "tensorflow.fill", "tensorflow.repeat",
                                 "tensorflow.range", "tensorflow.reshape", "tensorflow.tile", "tensorflow.random.normal",
                                 "tensorflow.random.uniform"})


def _static_shape(ctx: ScopeContext, start: ast.AST) -> bool:
    """A start whose shape is known when traced: ``tf.zeros([0])``, ``tf.constant([1, 2])``. One
    sized by a value (``tf.repeat(0, counts[0])``, ``tf.zeros([n])`` with a tensor ``n``) already
    has an unknown length, which ``tf.concat`` keeps: no invariant needed (conformance variant
    concat-onto-a-start-sized-by-a-tensor)."""
    if isinstance(start, ast.Call) and ctx.call_name(start) in _SHAPED_BY_ARGUMENT:
        return all(isinstance(n, ast.Constant) for a in start.args[:2] for n in walk(a)
                   if isinstance(n, (ast.Name, ast.Constant, ast.Subscript, ast.Attribute, ast.Call)))
    return True


def _all_python(ctx: ScopeContext, test: ast.AST, changing: str) -> bool:
    """The condition is Python before the loop: every other name in it is not a tensor."""
    for n in walk(test):
        if isinstance(n, ast.Name) and n.id != changing:
            if likely_tensor(ctx, n)[0] or n.id in ctx.params:
                return False
        if isinstance(n, ast.Call):
            return False
    return True


def _tensor_updates(ctx: ScopeContext, loop: ast.AST) -> list[tuple[str, ast.AST]]:
    """Names the loop body assigns a tensor to (``x = op(...)``, ``x += op(...)``)."""
    out: list[tuple[str, ast.AST]] = []
    for stmt in loop.body:  # type: ignore[attr-defined]
        for node in ctx.walk(stmt):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                value = node.value
            elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
                value = node.value
            else:
                continue
            if _tensor_expr(ctx, value):
                target = node.targets[0] if isinstance(node, ast.Assign) else node.target
                out.append((target.id, value))  # type: ignore[attr-defined]
    return out


def _tensor_expr(ctx: ScopeContext, value: ast.AST) -> bool:
    """A tensor for sure: computed by a TF op (directly, or as an operand)."""
    for n in walk(value):
        if isinstance(n, ast.Call) and (ctx.call_name(n) or "").startswith("tensorflow."):
            kind = ctx.kind_deps(n)
            if kind == ("tensor", ()):
                return True
        if isinstance(n, ast.Subscript) and ctx.kind_deps(n.value) == ("tensor", ()):
            return True
    return False


def _element_updates(ctx: ScopeContext, loop: ast.AST) -> list[tuple[str, ast.AST]]:
    """In ``for v in tensor:``, names updated from ``v`` (each ``v`` is a tensor in a TF loop)."""
    if not isinstance(loop, ast.For):
        return []
    elements = {n.id for n in walk(loop.target) if isinstance(n, ast.Name)}
    out: list[tuple[str, ast.AST]] = []
    for stmt in loop.body:
        for node in ctx.walk(stmt):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                target, value = node.targets[0].id, node.value
            elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
                target, value = node.target.id, node.value
            else:
                continue
            if any(isinstance(n, ast.Name) and n.id in elements for n in walk(value)):
                out.append((target, value))
    return out


def _int_literal(start: ast.AST | None) -> bool:
    return isinstance(start, ast.Constant) and type(start.value) is int


def _mismatch(start: ast.AST | None, value: ast.AST) -> str | None:
    if start is None:
        return None
    if isinstance(start, ast.Constant) and start.value is None:
        return "is None"
    if isinstance(start, (ast.List, ast.Dict, ast.Tuple, ast.ListComp)):
        return "is a Python list/dict/tuple"
    if isinstance(start, ast.Constant) and type(start.value) is int and _floaty(value):
        return "is the int literal " + repr(start.value) + " (int32)"
    return None


def _floaty(value: ast.AST) -> bool:
    for n in walk(value):
        if isinstance(n, ast.Constant) and isinstance(n.value, float):
            return True
        if isinstance(n, ast.Attribute) and n.attr in ("float32", "float64", "float16", "bfloat16"):
            return True
        if isinstance(n, ast.Call):
            func = n.func
            last = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if last in _FLOAT_OPS:
                return True
    return False
