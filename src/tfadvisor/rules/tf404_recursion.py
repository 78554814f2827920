"""TF404 recursion."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tfadvisor.analysis.context import ScopeContext
from tfadvisor.analysis.project import Project
from tfadvisor.analysis.summary import Hit
from tfadvisor.model import Severity
from tfadvisor.rules._util import is_tf_function_decorated, likely_tensor
from tfadvisor.rules.base import Rule, register


@register
class Recursion(Rule):
    code = "TF404"
    name = "recursion"
    severity = Severity.ERROR
    summary = "a tf.function that recurses on a tensor condition: tracing never stops"
    why = """\
A tf.function that calls itself, directly or through other functions, recurses while it is
traced: Python recursion happens at trace time. When the stop condition is a Python value
(`n == 0` with a Python int) the recursion unrolls into one graph per depth (slow to trace, but it
works); when it is a tensor, AutoGraph turns the `if` into a `tf.cond` that traces both branches,
so tracing recurses until Python gives up (`StagingError` on the recursion, checked with TF 2.21). Rewrite the recursion as a loop
(`tf.while_loop`, or a `for` over `tf.range`). A recursive helper over Python structures, called
from graph code, is fine and not reported.
"""
    bad = (
        """\
import tensorflow as tf

@tf.function
def collatz_steps(n: tf.Tensor):  # TF404
    if n == 1:
        return tf.constant(0)
    return 1 + collatz_steps(tf.where(n % 2 == 0, n // 2, 3 * n + 1))
""",
        """\
import tensorflow as tf

def is_even(k: tf.Tensor):  # TF404
    return tf.constant(True) if k == 0 else is_odd(k - 1)

@tf.function
def is_odd(k: tf.Tensor):  # TF404
    return tf.constant(False) if k == 0 else is_even(k - 1)
""",
    )
    good = (
        """\
import tensorflow as tf

@tf.function
def collatz_steps(n: tf.Tensor):
    steps = tf.constant(0)
    while n != 1:
        n = tf.where(n % 2 == 0, n // 2, 3 * n + 1)
        steps += 1
    return steps
""",
        """\
import tensorflow as tf

def flatten(structure):
    if isinstance(structure, (list, tuple)):
        return [leaf for item in structure for leaf in flatten(item)]
    return [structure]

@tf.function
def total(xs):
    return tf.add_n(flatten(xs))
""",
    )
    scope = "project"
    transitive = False  # a recursive helper over Python structures runs fine inside a caller's graph

    def check(self, ctx: ScopeContext) -> Iterator[Hit]:
        """A helper that graph code calls and that calls itself under a tensor condition: it
        recurses while tracing and never stops (tests/conformance/variants/tf404.py)."""
        fn = ctx.function
        if fn is None or is_tf_function_decorated(ctx, fn):
            return  # a tf.function in the cycle: check_project
        for call in ctx.scope.nodes(ast.Call):
            if not (isinstance(call.func, ast.Name) and call.func.id == fn.name):
                continue
            for outer in ctx.enclosing(call):
                if isinstance(outer, (ast.If, ast.While)):
                    is_tensor, deps = likely_tensor(ctx, outer.test)
                    if is_tensor:
                        yield self.hit(fn, f"{fn.name} calls itself under a tensor condition (line {outer.lineno}): "
                                           f"graph code traces the recursion, which never ends",
                                       depends_on=tuple(d if d.startswith(("!", "?")) else f"!{d}" for d in deps))
                        return

    def check_project(self, project: Project) -> Iterator[tuple[str, Hit]]:
        # Only cycles with a tf.function in them: that function is traced again at every level.
        cycles = project.recursive_components()
        for fid, linked in project.functions.items():
            if linked.recursive and any(project.functions[m].decorated for m in cycles.get(fid, ())):
                fn = linked.fn
                # Recursion that stops on Python values unrolls at trace time (one trace per depth);
                # it never ends only when the stop condition is a tensor.
                yield fid, Hit(self.code, fn.line, fn.col, fn.line, fn.col + 4 + len(fn.name),
                               f"{fn.qualname} is recursive (directly or through its callees): "
                               f"tf.function does not support recursion",
                               depends_on=tuple(fn.condition_params))
