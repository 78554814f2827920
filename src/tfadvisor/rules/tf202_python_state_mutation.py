"""TF202 python-state-mutation."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tfadvisor.analysis import tfapi
from tfadvisor.analysis.context import ScopeContext
from tfadvisor.analysis.summary import Hit
from tfadvisor.model import Severity
from tfadvisor.rules.base import Rule, register


@register
class PythonStateMutation(Rule):
    code = "TF202"
    name = "python-state-mutation"
    severity = Severity.ERROR
    summary = "Python state changed in graph code: this runs only while tracing, not on every call"
    why = """\
A tf.function runs its Python code once, while tracing; later calls run the graph. Appending to
a list, updating a dict, writing a global or `self.counter += 1` therefore happens once (per
trace), not on each call: TensorFlow's guide says "the list append only happened once". Branches
on such state (`if self.counter == 0:`) are evaluated once and baked into the graph. Keep state in
`tf.Variable`s (`self.counter.assign_add(1)`) or return values instead.
"""
    bad = (
        """\
import tensorflow as tf

history = []

@tf.function
def train_step(x):
    loss = tf.reduce_mean(x)
    history.append(loss)  # TF202
    return loss
""",
        """\
import tensorflow as tf

class Trainer:
    def __init__(self):
        self.steps = 0

    @tf.function
    def step(self, x):
        self.steps += 1  # TF202
        return tf.reduce_sum(x)
""",
    )
    good = (
        """\
import tensorflow as tf

@tf.function
def train_step(x):
    losses = []
    for i in range(3):
        losses.append(tf.reduce_mean(x) * i)
    return tf.add_n(losses)
""",
        """\
import tensorflow as tf

class Trainer:
    def __init__(self):
        self.steps = tf.Variable(0)

    @tf.function
    def step(self, x):
        self.steps.assign_add(1)
        return tf.reduce_sum(x)
""",
    )

    def check(self, ctx: ScopeContext) -> Iterator[Hit]:
        # `**kwargs` and `*args` are this call's own containers, not state that outlives it.
        local = ctx.local_names | {name for name, p in ctx.params.items() if p.variadic}
        declared: set[str] = set()
        for node in ctx.scope.nodes(ast.Global, ast.Nonlocal):
            declared.update(node.names)  # type: ignore[attr-defined]
        for call in ctx.scope.nodes(ast.Call):
            func = call.func  # type: ignore[attr-defined]
            if isinstance(func, ast.Attribute) and func.attr in tfapi.MUTATING_METHODS and func.attr != "write":
                root = _root(func.value)
                if root is not None and root not in local and not _is_api(ctx, call):
                    if ctx.is_tensor(func.value)[0] and not ctx.is_tensor(func.value)[1]:
                        continue  # TensorArray.write-like methods on tensors are ops
                    yield self.hit(call, f"{ast.unparse(func)}() in graph code runs only while tracing, not on every call")
        tensor_attrs = {ast.unparse(t) for node in ctx.scope.nodes(ast.Assign)
                        for t in node.targets  # type: ignore[attr-defined]
                        if isinstance(t, ast.Attribute) and ctx.is_tensor(node.value) == (True, ())}  # type: ignore[attr-defined]
        for node in ctx.scope.nodes(ast.Assign, ast.AugAssign):
            if isinstance(node, ast.AugAssign) and ast.unparse(node.target) in tensor_attrs:
                continue  # `self.a += 1` on a tensor attribute set in this function: a plain op
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]  # type: ignore[attr-defined]
            for target in targets:
                if isinstance(target, ast.Name) and target.id in declared:
                    yield self.hit(node, f"writes {target.id} declared global/nonlocal: runs only while tracing")
                elif isinstance(target, (ast.Attribute, ast.Subscript)) and _root(target.value) not in local:
                    value = node.value  # type: ignore[attr-defined]
                    if isinstance(value, ast.Call) and _creates_state(ctx.call_name(value)):
                        continue  # a variable or layer made once (TF401's business when it is not)
                    is_tensor, deps = ctx.is_tensor(value)
                    if is_tensor and not deps:
                        continue  # a tensor stored in state is TF204's business, not a Python value change
                    if isinstance(node, ast.AugAssign) or not is_tensor:
                        yield self.hit(node, f"sets {ast.unparse(target)} in graph code: runs only while tracing")


def _is_api(ctx: ScopeContext, call: ast.Call) -> bool:
    """``tf.add(...)``, ``np.append(...)``: a library function that happens to share a name."""
    name = ctx.call_name(call) or ""
    root = name.split(".", 1)[0]
    return root in ("tensorflow", "keras", "numpy", "scipy", "pandas", "jax", "math", "operator")


def _root(node: ast.AST) -> str | None:
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _creates_state(name: str | None) -> bool:
    """A variable, layer or add_weight made here: creating state, not changing a Python value."""
    last = (name or "").rsplit(".", 1)[-1]
    return (tfapi.creates_variable(name) or tfapi.is_keras_builder(name) or last in ("add_weight", "add_variable")
            or last.endswith("Variable"))
