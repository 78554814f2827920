"""TF205 trace-time-constant."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tfadvisor.analysis import tfapi
from tfadvisor.analysis.context import ScopeContext
from tfadvisor.analysis.summary import Hit
from tfadvisor.model import Severity
from tfadvisor.rules.base import Rule, register


@register
class TraceTimeConstant(Rule):
    code = "TF205"
    name = "trace-time-constant"
    severity = Severity.ERROR
    summary = "evaluated once while tracing and frozen into the graph as a constant"
    why = """\
`np.random.*`, `random.*`, `time.time()`, `datetime.now()`, `uuid.*` and `os.urandom` are Python
calls: under tf.function they run once, while tracing, and their result becomes a constant of the
graph. Every later call gets the same "random" number or the same timestamp, silently. Use
`tf.random.*` (or a `tf.random.Generator`) and `tf.timestamp()` instead.
"""
    bad = (
        """\
import numpy as np
import tensorflow as tf

@tf.function
def augment(images):
    noise = np.random.normal(size=(4,))  # TF205
    return images + noise
""",
        """\
import time
import tensorflow as tf

@tf.function
def stamp(x):
    t = time.time()  # TF205
    return x * t
""",
    )
    good = (
        """\
import tensorflow as tf

@tf.function
def augment(images):
    noise = tf.random.normal(tf.shape(images))
    return images + noise
""",
        """\
import numpy as np

def make_noise():
    return np.random.normal(size=(4,))
""",
    )

    def check(self, ctx: ScopeContext) -> Iterator[Hit]:
        for call in ctx.scope.nodes(ast.Call):
            name = ctx.call_name(call)
            if _seeded_generator(call, name):
                continue  # a generator with a fixed seed draws the same values on every call anyway
            if tfapi.is_trace_time_constant(name):
                yield self.hit(call, f"{name}() in graph code is evaluated once while tracing and frozen "
                                     f"into the graph as a constant")


def _seeded_generator(call: ast.Call, name: str | None) -> bool:
    """``np.random.RandomState(0)``, ``np.random.default_rng(42)``, ``random.Random(1)``."""
    last = (name or "").rsplit(".", 1)[-1]
    args = [*call.args, *(k.value for k in call.keywords if k.arg in ("seed", None))]
    return last in ("RandomState", "default_rng", "Random", "Generator") and bool(args) and all(
        isinstance(a, ast.Constant) for a in args)
