"""TF404 recursion."""

from __future__ import annotations

from collections.abc import Iterator

from tfadvisor.analysis.project import Project
from tfadvisor.analysis.summary import Hit
from tfadvisor.model import Severity
from tfadvisor.rules.base import Rule, register


@register
class Recursion(Rule):
    code = "TF404"
    name = "recursion"
    severity = Severity.ERROR
    summary = "recursive graph code: tf.function does not support recursion"
    why = """\
A tf.function that calls itself, directly or through other functions, is traced again for every
level of recursion (Python recursion happens at trace time, and a tensor-dependent stop condition
never stops it). It either never finishes tracing or builds one graph per depth. Rewrite the
recursion as a loop (`tf.while_loop`, or a `for` over `tf.range`).
"""
    bad = (
        """\
import tensorflow as tf

@tf.function
def power(x, n):  # TF404
    if n == 0:
        return tf.ones_like(x)
    return x * power(x, n - 1)
""",
        """\
import tensorflow as tf

def even(x, n):  # TF404
    return x if n == 0 else odd(x * 2.0, n - 1)

@tf.function
def odd(x, n):  # TF404
    return x if n == 0 else even(x + 1.0, n - 1)
""",
    )
    good = (
        """\
import tensorflow as tf

@tf.function
def power(x, n):
    result = tf.ones_like(x)
    for _ in tf.range(n):
        result *= x
    return result
""",
        """\
def factorial(n):
    return 1 if n <= 1 else n * factorial(n - 1)
""",
    )
    scope = "project"
    transitive = False  # a recursive helper over Python structures runs fine inside a caller's graph

    def check_project(self, project: Project) -> Iterator[tuple[str, Hit]]:
        # Only cycles with a tf.function in them: that function is traced again at every level.
        cycles = project.recursive_components()
        for fid, linked in project.functions.items():
            if linked.recursive and any(project.functions[m].decorated for m in cycles.get(fid, ())):
                fn = linked.fn
                yield fid, Hit(self.code, fn.line, fn.col, fn.line, fn.col + 4 + len(fn.name),
                               f"{fn.qualname} is recursive (directly or through its callees): "
                               f"tf.function does not support recursion")
