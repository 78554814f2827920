"""TF203 hidden-side-effect."""

from __future__ import annotations

from collections.abc import Iterator

from tfadvisor.analysis.project import Project
from tfadvisor.analysis.summary import Hit
from tfadvisor.model import Severity
from tfadvisor.rules.base import Rule, register


@register
class HiddenSideEffect(Rule):
    code = "TF203"
    name = "hidden-side-effect"
    severity = Severity.ERROR
    summary = "calls a function that changes Python state; AutoGraph cannot see it"
    why = """\
AutoGraph converts the code of a tf.function, including its callees, but it cannot see that a
callee such as `self.change_state()` mutates Python state. The mutation runs while tracing only,
and when it touches a value created in a TensorFlow branch or loop it fails with
`InaccessibleTensorError: The tensor ... cannot be accessed here: it is defined in another
function or code block` (newer TensorFlow: `... is out of scope and cannot be used here`).
Otherwise the state silently goes stale. Return the new value instead, or keep it in a
`tf.Variable`.
"""
    bad = (
        """\
import tensorflow as tf

class C:
    def change_state(self):
        self.a += 1

    @tf.function
    def f(self):
        self.a = tf.constant(0)
        if tf.constant(True):
            self.change_state()  # TF203
        tf.print(self.a)
""",
        """\
import tensorflow as tf

seen = {}

def remember(key, value):
    seen[key] = value

@tf.function
def step(x):
    y = tf.square(x)
    remember("last", y)  # TF203
    return y
""",
    )
    good = (
        """\
import tensorflow as tf

class C:
    @tf.function
    def f(self):
        self.a = tf.constant(0)
        if tf.constant(True):
            self.a += 1
        tf.print(self.a)
""",
        """\
import tensorflow as tf

def scale(x, factor):
    return x * factor

@tf.function
def step(x):
    return scale(tf.square(x), 2.0)
""",
    )
    scope = "project"

    def check_project(self, project: Project) -> Iterator[tuple[str, Hit]]:
        # Whose state a callee changes, in the caller's terms (analysis/escape.py): a change to an
        # object made inside the trace (``b = BoxList(t); b.add_field(...)``) is not lost.
        escapes = project.escapes
        for fid, linked in project.functions.items():
            local = escapes.trace_local.get(fid, frozenset())
            for site, callee in linked.callees:
                if callee.id == fid or site.guarded:
                    continue
                found = escapes.through(linked, site, callee, escapes.mutations.get(callee.id, {}))
                lasting = [value for root, value in sorted(found.items(), key=lambda kv: kv[0] != "outer")
                           if root not in local]
                if not lasting:
                    continue
                where, what = lasting[0]
                via = "" if where == callee.qualname else f" (through {where})"
                yield fid, Hit(self.code, site.line, site.col, site.line, site.col + len(site.callee) + 2,
                               f"calls {site.callee}(), which {what}{via}: Python state changes run only "
                               f"while tracing and AutoGraph cannot see them")
