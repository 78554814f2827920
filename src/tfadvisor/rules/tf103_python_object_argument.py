"""TF103 python-object-argument."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tfadvisor.analysis import tfapi, values
from tfadvisor.analysis.context import ScopeContext
from tfadvisor.analysis.scopes import walk
from tfadvisor.analysis.summary import Hit
from tfadvisor.model import Severity
from tfadvisor.rules._util import (
    called_repeatedly,
    calls_tf_function,
    local_tf_functions,
    loop_names,
    module_facts,
    shape_follows,
)
from tfadvisor.rules.base import Rule, register

_LOOPS = (ast.For, ast.AsyncFor, ast.While)
_LIBRARY_ROOTS = ("tensorflow.", "keras.", "numpy.", "collections.", "typing.", "dataclasses.")


@register
class PythonObjectArgument(Rule):
    code = "TF103"
    name = "python-object-argument"
    severity = Severity.WARNING
    summary = "a fresh Python object passed to a tf.function: a new object means a new trace"
    why = """\
tf.function matches non-tensor arguments by identity or equality to pick a traced graph. A new
instance of your own class, a fresh lambda, a function defined inside the loop that hands it over,
or a bound method built at the call (`obj.method` captured anew) is a new key each time: every call traces again, and TensorFlow warns `5 out of the
last 5 calls to <function ...> triggered tf.function retracing. Tracing is expensive ...` ("passing
Python objects instead of tensors"). Build the object once and pass the same one, or pass its
tensor fields.
"""
    bad = (
        """\
import tensorflow as tf

def main(batches, model):
    @tf.function
    def get_loss(work, x):
        return work(x)

    for x in batches:
        def step(x):  # a new function object on every iteration
            return tf.reduce_mean(model(x))
        get_loss(step, x)  # TF103
""",
        """\
import tensorflow as tf

class Config:
    def __init__(self, scale):
        self.scale = scale

@tf.function
def apply(x, config):
    return x * config.scale

for i in range(10):
    apply(tf.ones([2]), Config(0.5))  # TF103
""",
        """\
import tensorflow as tf

@tf.function
def transform(x, fn):
    return fn(x)

def run(batches):
    return [transform(b, lambda v: v * 2.0) for b in batches]  # TF103
""",
    )
    good = (
        """\
import tensorflow as tf

class Config:
    def __init__(self, scale):
        self.scale = scale

@tf.function
def apply(x, config):
    return x * config.scale

config = Config(0.5)
for i in range(10):
    apply(tf.ones([2]), config)
""",
        """\
import tensorflow as tf

@tf.function
def apply(x, scales):
    return x * scales[0]

for i in range(10):
    apply(tf.ones([2]), [tf.constant(0.5)])
""",
    )
    scope = "always"
    detection = "S~"

    def check(self, ctx: ScopeContext) -> Iterator[Hit]:
        facts = module_facts(ctx)
        if not facts.tf_functions and not facts.tf_methods and not local_tf_functions(ctx):
            return
        for call in ctx.scope.nodes(ast.Call):
            callee = calls_tf_function(ctx, call)
            if callee is None:
                continue
            if not called_repeatedly(ctx, call):
                continue  # one or two calls trace once or twice: fewer than TensorFlow warns at
            names = loop_names(ctx, call)
            if names and shape_follows(ctx, call, names):
                continue  # a new shape on every call traces anyway (tests/conformance/variants/tf103.py)
            for arg in [*call.args, *(k.value for k in call.keywords)]:
                what = _fresh_object(ctx, arg)
                if what:
                    hit = self.hit(arg, f"{callee}() gets {what}, a new Python object on each call: "
                                        f"tf.function traces again for every new object")
                    hit.callee = callee  # about that tf.function: its hazard (advice/hazards.py)
                    yield hit
                    break

    def check_module(self, ctx: ScopeContext) -> Iterator[Hit]:
        yield from self.check(ctx)


def _in_comprehension(ctx: ScopeContext, call: ast.AST) -> bool:
    comps = ctx.scope.cached("tf103_comprehensions", lambda: {
        id(n) for comp in ctx.scope.nodes(ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
        for n in walk(comp)})
    return id(call) in comps


def _fresh_object(ctx: ScopeContext, arg: ast.AST) -> str | None:
    made = values.new_callable(ctx, arg)
    if made is not None:
        return made
    if (isinstance(arg, ast.Attribute) and isinstance(arg.value, ast.Name)
            and arg.attr in _class_methods(ctx).get(ctx.instances.get(arg.value.id, ""), ())):
        return f"`{ast.unparse(arg)}`, a bound method made anew at each access,"
    if isinstance(arg, ast.Call):
        name = ctx.call_name(arg)
        if not name or name.startswith(_LIBRARY_ROOTS) or tfapi.is_tensor_op(name):
            return None
        last = name.rsplit(".", 1)[-1]
        if last[:1].isupper() and not last.isupper() and name.split(".", 1)[0] in _module_classes(ctx):
            return f"a new {last}(...) instance"
    return None


def _class_methods(ctx: ScopeContext) -> dict[str, frozenset[str]]:
    """Class name -> its methods, for the classes this module defines."""
    from tfadvisor.rules._util import module_scope

    root = module_scope(ctx.scope)
    return root.cached("tf103_methods", lambda: {
        c.name: frozenset(f.name for f in c.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)))
        for c in root.nodes(ast.ClassDef)})


def _module_classes(ctx: ScopeContext) -> set[str]:
    from tfadvisor.rules._util import module_scope

    root = module_scope(ctx.scope)
    return {c.name for c in root.nodes(ast.ClassDef)}
