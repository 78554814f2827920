"""TF101 python-scalar-argument."""

from __future__ import annotations

from collections.abc import Iterator

from tfadvisor.analysis.project import Project
from tfadvisor.analysis.summary import Hit
from tfadvisor.model import Severity
from tfadvisor.rules.base import Rule, register


@register
class PythonScalarArgument(Rule):
    code = "TF101"
    name = "python-scalar-argument"
    severity = Severity.WARNING
    summary = "a tf.function called with a Python number that changes from call to call retraces every time"
    why = """\
tf.function keys its cache of graphs on the values of Python arguments: every new value of a
Python `int`/`float` (a loop counter, a computed learning rate, `step`) traces a new graph.
Tracing costs far more than a call, and TensorFlow warns: `5 out of the last 5 calls to <function
...> triggered tf.function retracing. Tracing is expensive ...`. Pass the value as a tensor
(`tf.constant(step)`), or fix the signature with `input_signature`.
"""
    bad = (
        """\
import tensorflow as tf

@tf.function
def train_step(x, step):
    return x * tf.cast(step, tf.float32)

for step in range(100):
    train_step(tf.ones([2]), step)  # TF101
""",
        """\
import tensorflow as tf

@tf.function
def decay(w, lr):
    return w * (1.0 - lr)

def fit(w, epochs):
    lr = 0.1
    for epoch in range(epochs):
        lr *= 0.9
        w = decay(w, lr)  # TF101
    return w
""",
        """\
import tensorflow as tf

@tf.function
def ascent_step(image, unit):
    return image + tf.cast(unit, tf.float32)

def visualize(unit):
    image = tf.zeros([4])
    for _ in range(100):
        image = ascent_step(image, unit)  # TF101
    return image

images = [visualize(u) for u in range(64)]
""",
    )
    good = (
        """\
import tensorflow as tf

@tf.function
def train_step(x, step):
    return x * tf.cast(step, tf.float32)

for step in range(100):
    train_step(tf.ones([2]), tf.constant(step))
""",
        """\
import tensorflow as tf

@tf.function
def forward(x, training):
    return tf.nn.dropout(x, 0.5) if training else x

for _ in range(100):
    forward(tf.ones([2]), True)
""",
        """\
import tensorflow as tf

@tf.function
def scale(x, k):
    return x * k

outputs = [scale(tf.ones([2]), k) for k in range(3)]
""",
    )
    scope = "decorated"
    detection = "S~"

    def check_project(self, project: Project) -> Iterator[tuple[str, Hit]]:
        for fid, linked in project.functions.items():
            positional = [p.name for p in linked.fn.params if not p.variadic]
            for caller, site in linked.callers:
                if caller is not None and caller.id in project.graph_roots:
                    continue  # traced with its caller, once per value, not per call
                if not linked.calls_the_graph(site):
                    continue  # ``NN(x, key)`` where only ``NN_func = tf.function(NN)`` is one
                # ``visualize(unit)`` passing its own parameter on, itself called once per value of a
                # loop (``[visualize(u) for u in range(64)]``): a new value per call here too
                passed_on = [key for key in site.forwarded if project.forwards_varying(caller, site, key)]
                for key in [*site.varying, *passed_on]:
                    name = positional[int(key)] if key.isdigit() and int(key) < len(positional) else key
                    facts = linked.params.get(name)
                    if facts is None or facts.strength == 3 and facts.kind == "tensor":
                        continue
                    kind = site.args[int(key)] if key.isdigit() and int(key) < len(site.args) else site.kwargs.get(key)
                    if key in passed_on:
                        kind = project.arg_kind(caller, site, key, kind or "unknown")
                    if kind != "primitive":
                        continue  # a loop over a dataset or a list of tensors varies too, harmlessly
                    path = caller.path if caller else None
                    where = (f"from {caller.name}()'s parameter `{site.forwarded[key]}`, which changes from call to "
                             f"call" if key in passed_on and caller else "that changes on every iteration")
                    yield fid, Hit(self.code, site.line, site.col, site.line, site.col + len(site.callee),
                                   f"{site.callee}() gets a Python value for `{name}` {where}: each new value "
                                   f"traces a new graph; pass tf.constant({name})",
                                   path=path or _module_path(project, fid))
                    break


def _module_path(project: Project, fid: str) -> str:
    return project.functions[fid].fn.path
