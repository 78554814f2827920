"""TF201 print-in-graph."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tfadvisor.analysis.context import ScopeContext
from tfadvisor.analysis.scopes import walk
from tfadvisor.analysis.summary import Hit
from tfadvisor.model import Severity
from tfadvisor.rules.base import Rule, register


@register
class PrintInGraph(Rule):
    code = "TF201"
    name = "print-in-graph"
    severity = Severity.WARNING
    summary = "print() in graph code runs once per trace, not once per call; use tf.print"
    why = """\
Under `tf.function`, Python code runs only while TensorFlow traces the function. A `print` prints
when the graph is built (once per trace) and never again: the messages you rely on for progress
or debugging silently disappear after the first call. `tf.print` is an op of the graph and runs
on every call. This also holds in helpers called from a tf.function: AutoGraph converts them too.
"""
    bad = (
        """\
import tensorflow as tf

@tf.function
def train_step(x):
    loss = tf.reduce_sum(x * x)
    print("loss", loss)  # TF201
    return loss
""",
        """\
import tensorflow as tf

def log(value):
    print("value:", value)  # TF201

@tf.function
def step(x):
    y = tf.nn.relu(x)
    log(y)
    return y
""",
    )
    good = (
        """\
import tensorflow as tf

@tf.function
def train_step(x):
    loss = tf.reduce_sum(x * x)
    tf.print("loss", loss)
    return loss
""",
        """\
import tensorflow as tf

def report(history):
    print("epochs run:", len(history))
""",
        """\
import tensorflow as tf

@tf.function
def encode(x):
    print("tracing encode for", x.shape)  # once per trace, on purpose
    return tf.nn.relu(x)
""",
    )
    fix = "unsafe"
    fix_description = "replace print(...) with tf.print(...): unsafe because tf.print formats differently and runs on every call"

    def check(self, ctx: ScopeContext) -> Iterator[Hit]:
        prints = [c for c in ctx.scope.nodes(ast.Call) if ctx.call_name(c) == "print"]
        if not prints:
            return
        handled = {id(n) for h in ctx.scope.nodes(ast.ExceptHandler) for n in walk(h)}
        handled |= _before_failing(ctx)
        for call in prints:
            assert isinstance(call, ast.Call)
            # in an except handler it runs only if tracing itself raises (an error of the graph
            # at run time never reaches the handler: TF402's business), not "once per trace"
            if ctx.call_name(call) == "print" and id(call) not in handled \
                    and not all(_static(ctx, a) for a in call.args) and not _announces_tracing(call):
                yield self.hit(call)


_EXITS = frozenset({"sys.exit", "exit", "quit", "os._exit"})


def _before_failing(ctx: ScopeContext) -> set[int]:
    """Prints in a block that then raises or exits (``print("unsupported type"); sys.exit()``): the
    trace stops there, so the message prints once either way, as it would eagerly (conformance
    variant message-before-exit)."""
    out: set[int] = set()
    fn = ctx.function
    if fn is None:
        return out
    for node in walk(fn):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if not isinstance(block, list) or not block:
                continue
            last = block[-1]
            fails = isinstance(last, ast.Raise) or (
                isinstance(last, ast.Expr) and isinstance(last.value, ast.Call) and ctx.call_name(last.value) in _EXITS)
            if fails:
                out.update(id(n) for stmt in block[:-1] if isinstance(stmt, ast.Expr) for n in walk(stmt))
    return out


def _announces_tracing(call: ast.Call) -> bool:
    """``print("Tracing with", x)``: a print whose point is to show when a trace happens."""
    return any(isinstance(a, ast.Constant) and isinstance(a.value, str) and "trac" in a.value.lower()
               for a in call.args)


def _static(ctx: ScopeContext, node: ast.AST) -> bool:
    """A value fixed at trace time (text, a shape, a dtype, a length): printing it once per trace is
    what the author means (``print(x.shape)`` while building a model)."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.JoinedStr):
        return all(_static(ctx, v.value) for v in node.values if isinstance(v, ast.FormattedValue))
    if isinstance(node, ast.Attribute) and node.attr in ("shape", "dtype", "name", "__name__"):
        return True
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr == "shape":
        return True
    if isinstance(node, ast.Call) and ctx.call_name(node) in ("len", "type", "str", "repr") and node.args:
        return all(_static(ctx, a) for a in node.args) or ctx.call_name(node) in ("len", "type")
    if isinstance(node, (ast.Tuple, ast.List)):
        return all(_static(ctx, e) for e in node.elts)
    return False
