"""TF307 unrolled-loop."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tfadvisor.analysis.context import ScopeContext
from tfadvisor.analysis.module import parameter_defaults
from tfadvisor.analysis.scopes import every_node
from tfadvisor.analysis.summary import Hit
from tfadvisor.model import Severity
from tfadvisor.rules._util import decorator_option, likely_tensor, single_tensor, tf_loop
from tfadvisor.rules.base import Rule, register

LARGE = 100  # iterations from which an unrolled loop is worth a tf.range


@register
class UnrolledLoop(Rule):
    code = "TF307"
    name = "unrolled-loop"
    severity = Severity.WARNING
    summary = "a Python loop in graph code is unrolled at trace time: the graph grows with the number of iterations"
    why = """\
A `for` over `range(n)` (n a Python number) or over a Python list is not converted by AutoGraph:
it runs while tracing and copies its body into the graph n times. For a large n, or an n that
comes from the data (`range(len(x))`, `range(x.shape[0])`, which also retraces for every new
size), the graph and the tracing time grow with n; AutoGraph warns `Large unrolled loop detected.
Did you mean to use a TF loop?`. Iterate `tf.range(n)` to get one TensorFlow loop.
"""
    bad = (
        """\
import tensorflow as tf

@tf.function
def power_iteration(m, v):
    for _ in range(1000):  # TF307
        v = tf.linalg.matvec(m, v)
        v = v / tf.norm(v)
    return v
""",
        """\
import tensorflow as tf

@tf.function
def cumulative(x):
    total = tf.zeros_like(x[0])
    for i in range(x.shape[0]):  # TF307
        total += x[i]
    return total
""",
    )
    good = (
        """\
import tensorflow as tf

@tf.function
def power_iteration(m, v):
    for _ in tf.range(1000):
        v = tf.linalg.matvec(m, v)
        v = v / tf.norm(v)
    return v
""",
        """\
import tensorflow as tf

@tf.function
def residual(x):
    for _ in range(3):
        x = x + tf.nn.relu(x)
    return x
""",
    )
    detection = "S~"
    fix = "unsafe"
    fix_description = ("replace range(n) with tf.range(n): unsafe because the loop variable becomes a tensor "
                       "(Python code that uses it as an int changes meaning)")

    def check(self, ctx: ScopeContext) -> Iterator[Hit]:
        if ctx.function is None or ctx.scope.nodes(ast.Yield, ast.YieldFrom):
            return  # AutoGraph does not convert generators: their loops iterate Python data
        for loop in ctx.scope.nodes(ast.For):
            it = loop.iter
            if not (isinstance(it, ast.Call) and ctx.call_name(it) == "range" and it.args):
                continue
            if tf_loop(ctx, loop)[0]:
                continue
            bound = it.args[1] if len(it.args) > 1 else it.args[0]
            size = _literal(bound)
            if size is not None and size >= LARGE:
                yield self.hit(loop, f"range({size}) in graph code is unrolled {size} times while tracing: "
                                     f"iterate tf.range to make one TensorFlow loop")
                continue
            if isinstance(bound, ast.Name) and (passed := _python_int_passed(ctx, bound)) is not None \
                    and passed >= LARGE:
                yield self.hit(loop, f"range({bound.id}) is unrolled {passed} times while tracing: a call passes "
                                     f"{bound.id} as the Python int {passed}; pass it as a tensor or iterate tf.range")
                continue
            data = _data_size(ctx, bound)
            if data is not None:
                what, deps = data
                yield self.hit(loop, f"range({what}) takes its size from the data: unrolled while tracing, "
                                     f"one trace per size; iterate tf.range", depends_on=deps)


def _literal(node: ast.AST | None) -> int | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return node.value
    return None


def _python_int_passed(ctx: ScopeContext, bound: ast.Name) -> int | None:
    """``range(steps)`` with ``steps`` a parameter that this module's calls of the function pass as an
    int literal (``smooth(x, 200)``), or leave at an int default: the largest such size.
    A Python int stays Python under tf.function, so the loop is unrolled that many times. None where
    a call passes anything else there, where an ``input_signature`` makes it a tensor, or where no
    call is in sight (another module's callers are not read)."""
    fn = ctx.function
    if (fn is None or bound.id in ctx.local_names
            or decorator_option(ctx, fn, "input_signature") is not None):
        return None
    positional = [a.arg for a in [*fn.args.posonlyargs, *fn.args.args]]
    if bound.id not in positional and bound.id not in [a.arg for a in fn.args.kwonlyargs]:
        return None
    index = positional.index(bound.id) if bound.id in positional else None
    default = _literal(parameter_defaults(fn.args).get(bound.id))
    sizes: list[int] = []
    method = ctx.scope.cls is not None  # called as ``obj.fit(...)``; a function by its own name
    for call in every_node(ctx.scope.root, ast.Call):
        if not ((isinstance(call.func, ast.Attribute) and call.func.attr == fn.name) if method
                else (isinstance(call.func, ast.Name) and call.func.id == fn.name)):
            continue
        shift = 1 if method and positional[:1] == ["self"] else 0
        given = next((k.value for k in call.keywords if k.arg == bound.id), None)
        if given is None and index is not None and 0 <= index - shift < len(call.args):
            given = call.args[index - shift]
        if given is None and (any(isinstance(a, ast.Starred) for a in call.args)
                              or any(k.arg is None for k in call.keywords)):
            return None
        value = _literal(given) if given is not None else default
        if value is None:
            return None
        sizes.append(value)
    return max(sizes) if sizes else None


def _data_size(ctx: ScopeContext, node: ast.AST) -> tuple[str, tuple[str, ...]] | None:
    """``len(t)`` or ``t.shape[i]`` of a tensor ``t``."""
    if isinstance(node, ast.Call) and ctx.call_name(node) == "len" and node.args:
        arg = node.args[0]
        if isinstance(arg, ast.Name) and arg.id in ctx.local_names and not single_tensor(ctx, arg):
            # a local bound to what may be a list of tensors (``clipped, _ = tf.clip_by_global_norm(
            # grads, 1.0)``, ``tape.gradient(loss, variables)``): its length is the model's, fixed
            return None
        is_tensor, deps = ctx.is_tensor(arg)
        if is_tensor:
            # len(x) of a parameter counts where a call site passes a tensor (a list has a length too)
            return ast.unparse(node), tuple(d if d.startswith(("!", "?")) else f"!{d}" for d in deps)
    if (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute)
            and node.value.attr == "shape" and _batch_axis(node.slice)):
        is_tensor, deps = likely_tensor(ctx, node.value.value)
        if is_tensor:
            return ast.unparse(node), deps
    return None


def _batch_axis(index: ast.AST) -> bool:
    """``shape[0]``: the axis that changes with the data; ``shape[-1]``, ``shape[1]`` are features,
    fixed by the model (one small graph: tests/conformance/variants/tf307.py)."""
    return isinstance(index, ast.Constant) and index.value == 0
