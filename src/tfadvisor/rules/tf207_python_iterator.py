"""TF207 python-iterator."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tfadvisor.analysis import tfapi
from tfadvisor.analysis.context import ScopeContext
from tfadvisor.analysis.summary import Hit
from tfadvisor.model import Severity
from tfadvisor.rules._util import is_tf_function_decorated, module_facts, module_scope
from tfadvisor.rules.base import Rule, register


@register
class PythonIterator(Rule):
    code = "TF207"
    name = "python-iterator"
    severity = Severity.ERROR
    summary = "a Python iterator or generator in graph code runs at trace time: every call reuses the first value"
    why = """\
`next(it)` on a Python iterator (`iter(a_list)`, a generator) runs once, while tracing: its value
becomes a constant of the graph and every later call reuses it, silently. A generator function
decorated with tf.function is not converted at all: AutoGraph says `... appears to be a generator
function. It will not be converted by AutoGraph.` Iterate a `tf.data.Dataset` (its iterators are
graph ops), or pass each value in as a tensor argument.
"""
    bad = (
        """\
import tensorflow as tf

def batches():
    for i in range(100):
        yield tf.fill([2], float(i))

source = batches()

@tf.function
def step(w):
    x = next(source)  # TF207
    return w * x
""",
        """\
import tensorflow as tf

@tf.function
def stream(x):
    for i in range(3):
        yield x * i  # TF207
""",
        """\
import tensorflow as tf

scales = iter([0.1, 0.2, 0.3])

@tf.function
def pick(w):
    return w * next(scales)  # TF207
""",
        """\
import tensorflow as tf

total = tf.Variable(0)

@tf.function
def consume_next(iterator):
    total.assign_add(next(iterator))  # TF207

values = iter([0, 1, 2, 3])
consume_next(values)
consume_next(values)  # the same iterator: the first trace's value again
""",
    )
    good = (
        """\
import tensorflow as tf

@tf.function
def pick(w):
    scales = iter([0.1, 0.2, 0.3])
    return w * next(scales)
""",
        """\
import tensorflow as tf

dataset = tf.data.Dataset.range(100).map(lambda i: tf.cast(i, tf.float32))
source = iter(dataset)

@tf.function
def step(w):
    return w * next(source)
""",
        """\
import tensorflow as tf

@tf.function
def train(iterator, steps):
    total = tf.constant(0.0)
    for _ in tf.range(steps):
        total += tf.reduce_sum(next(iterator))
    return total
""",
    )

    def check(self, ctx: ScopeContext) -> Iterator[Hit]:
        fn = ctx.function
        if fn is None:
            return
        if is_tf_function_decorated(ctx, fn):
            yields = ctx.scope.nodes(ast.Yield, ast.YieldFrom)
            if yields:
                yield self.hit(yields[0], f"{fn.name} is a generator: AutoGraph does not convert generator "
                                          f"functions, so tf.function cannot run it as a graph")
        for call in ctx.scope.nodes(ast.Call):
            if ctx.call_name(call) != "next" or not call.args:
                continue
            what = _python_iterator(ctx, call.args[0])
            if what:
                yield self.hit(call, f"next() on {what} runs while tracing only: every call of the graph "
                                     f"reuses the first value; iterate a tf.data.Dataset instead")
        for loop in ctx.scope.nodes(ast.For):
            iterated = loop.iter
            if isinstance(iterated, ast.Call) and ctx.call_name(iterated) == "enumerate" and iterated.args:
                iterated = iterated.args[0]  # ``for i, (x, y) in enumerate(train_data)``
            what = _python_iterator(ctx, iterated) if isinstance(iterated, ast.Name) else None
            if what:
                # the loop runs in Python while tracing: the batches it drew then are constants of
                # the graph (TensorFlow 2.21: tests/conformance/variants/tf207.py)
                yield self.hit(loop.iter, f"a for loop over {what} runs while tracing only: the graph holds "
                                          f"the values it drew then and every call reuses them; iterate a "
                                          f"tf.data.Dataset instead")


def _python_iterator(ctx: ScopeContext, arg: ast.AST) -> str | None:
    value = _source(ctx, arg)
    if value is None:
        return None
    return _describe(ctx, value)


def _source(ctx: ScopeContext, arg: ast.AST) -> ast.AST | None:
    """Where the iterator ``next()`` reads comes from, when it outlives the call: an iterator made
    in the function itself (``it = iter([...])``, ``next(gen())``) starts afresh on every call, in
    a graph as eagerly (tests/conformance/variants/tf207.py). A parameter: what the module's own
    calls of the function hand it there (``buggy_consume_next(iterator)``, TensorFlow's guide)."""
    if isinstance(arg, ast.Name) and arg.id in ctx.params and arg.id not in ctx.local_names:
        handed = (_module_binding(ctx, name.id) for name in _handed_at_module_level(ctx, arg.id))
        return next((value for value in handed if value is not None), None)
    if not isinstance(arg, ast.Name) or arg.id in ctx.local_names or arg.id in ctx.params:
        return None
    return _module_binding(ctx, arg.id)


def _module_binding(ctx: ScopeContext, name: str) -> ast.AST | None:
    """The one value the module binds ``name`` to (None if it is bound twice: we cannot tell)."""
    found = None
    for node in module_scope(ctx.scope).nodes(ast.Assign):
        if any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            if found is not None:
                return None
            found = node.value
    return found


def _handed_at_module_level(ctx: ScopeContext, param: str) -> list[ast.Name]:
    """The names a module-level function's calls in the module's own top-level code pass as
    ``param`` (by position or keyword)."""
    fn = ctx.function
    if fn is None or ctx.scope.parent is None or not ctx.scope.parent.is_module:
        return []
    params = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]
    index = params.index(param) if param in params else None
    out: list[ast.Name] = []
    for call in module_scope(ctx.scope).nodes(ast.Call):
        if not (isinstance(call.func, ast.Name) and call.func.id == fn.name):
            continue
        given = [k.value for k in call.keywords if k.arg == param]
        if index is not None and index < len(call.args):
            given.append(call.args[index])
        out.extend(g for g in given if isinstance(g, ast.Name))
    return out


def _describe(ctx: ScopeContext, value: ast.AST) -> str | None:
    if isinstance(value, ast.GeneratorExp):
        return "a generator expression"
    if not isinstance(value, ast.Call):
        return None
    name = ctx.call_name(value)
    if name == "iter" and value.args:
        inner = value.args[0]
        if isinstance(inner, (ast.List, ast.Tuple, ast.ListComp, ast.Set)):
            return "an iterator over a Python list"
        if isinstance(inner, ast.Call) and ctx.call_name(inner) in ("range", "zip", "enumerate"):
            return f"an iterator over {ctx.call_name(inner)}()"
        if isinstance(inner, ast.Call) and _is_generator_call(ctx, inner):
            return f"a Python generator ({ctx.call_name(inner)}())"
        return None
    if _is_generator_call(ctx, value):
        return f"a Python generator ({name}())"
    return None


def _is_generator_call(ctx: ScopeContext, call: ast.Call) -> bool:
    name = ctx.call_name(call)
    return bool(name) and "." not in name and name in module_facts(ctx).generators and not tfapi.is_tensor_op(name)  # type: ignore[operator]
