"""TF205 trace-time-constant."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tfadvisor.analysis import tfapi
from tfadvisor.analysis.context import ScopeContext
from tfadvisor.analysis.scopes import walk
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
A value drawn into a name that nothing reads afterwards (a leftover line) freezes nothing the
function uses: no finding.
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
        """\
import numpy as np
import tensorflow as tf

@tf.function
def train_step(images):
    batch_z = np.random.uniform(-1, 1, [4, 8]).astype(np.float32)  # left over, never read
    z = tf.random.normal([4, 8])
    return tf.reduce_mean(images) + tf.reduce_mean(z)
""",
    )

    def check(self, ctx: ScopeContext) -> Iterator[Hit]:
        unread = _unread_draws(ctx)
        for call in ctx.scope.nodes(ast.Call):
            if id(call) in unread:
                continue  # frozen into a name nothing reads: the graph uses nothing of it
            name = ctx.call_name(call)
            if _seeded_generator(call, name):
                continue  # a generator with a fixed seed draws the same values on every call anyway
            if tfapi.is_trace_time_constant(name):
                yield self.hit(call, f"{name}() in graph code is evaluated once while tracing and frozen "
                                     f"into the graph as a constant")


def _unread_draws(ctx: ScopeContext) -> set[int]:
    """Calls whose value only goes to names this scope never reads (``batch_z = np.random...`` left
    over above a ``tf.random`` draw)."""
    read = {n.id for n in ctx.scope.nodes(ast.Name) if isinstance(n.ctx, ast.Load)}
    out: set[int] = set()
    for node in ctx.scope.nodes(ast.Assign):
        assert isinstance(node, ast.Assign)
        if all(isinstance(t, ast.Name) and t.id not in read for t in node.targets):
            out.update(id(c) for c in walk(node.value) if isinstance(c, ast.Call))
    return out


def _seeded_generator(call: ast.Call, name: str | None) -> bool:
    """``np.random.RandomState(0)``, ``np.random.default_rng(42)``, ``random.Random(1)``."""
    last = (name or "").rsplit(".", 1)[-1]
    args = [*call.args, *(k.value for k in call.keywords if k.arg in ("seed", None))]
    return last in ("RandomState", "default_rng", "Random", "Generator") and bool(args) and all(
        isinstance(a, ast.Constant) for a in args)
