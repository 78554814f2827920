"""TF405 eager-debug-left-on."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import TYPE_CHECKING

from tfadvisor.analysis import tfapi
from tfadvisor.analysis.context import ScopeContext
from tfadvisor.analysis.module import LIBRARY_ROOTS
from tfadvisor.analysis.summary import Hit, ModuleSummary
from tfadvisor.model import Severity
from tfadvisor.rules._util import is_test_module
from tfadvisor.rules.base import Rule, register

if TYPE_CHECKING:
    from tfadvisor.analysis.project import Project

_SWITCHES = frozenset({"tensorflow.config.run_functions_eagerly",
                       "tensorflow.config.experimental_run_functions_eagerly",
                       "tensorflow.config.experimental.run_functions_eagerly"})

# Keras's flag is set per model, usually on purpose (a train_step that needs eager code, a lesson
# that shows it): only a note. The process-wide switch above is the debugging leftover (a warning).
# `tfadvisor run` measures the same switch on the program's own model and data (TF606), so the note
# says where the numbers come from rather than guessing whether the model needs eager mode.
_KERAS_MESSAGE = ("{}: Keras runs train_step eagerly, the graph speed-up of fit/evaluate/predict is gone; "
                  "if it is not needed (debugging), turn it off (`tfadvisor run` measures what it costs "
                  "and whether the results stay the same)")


def _keras_run_eagerly(call: ast.Call) -> bool:
    """``model.compile(..., run_eagerly=True)``."""
    return isinstance(call.func, ast.Attribute) and call.func.attr == "compile" and tfapi.asks_run_eagerly(call)


def _switch_value(call: ast.Call) -> object:
    args = [*call.args, *(k.value for k in call.keywords)]
    return args[0].value if args and isinstance(args[0], ast.Constant) else None


def _deliberate(ctx: ScopeContext, call: ast.Call) -> bool:
    """A switch someone turns on on purpose: under an ``if`` (``if FLAGS.debug:``, an environment
    variable), in a function named for debugging, or turned off again later in the same code."""
    if any(isinstance(n, ast.If) for n in ctx.enclosing(call)):
        return True
    fn = ctx.function
    if fn is not None and "debug" in fn.name.lower():
        return True
    return any(isinstance(other, ast.Call) and other.lineno > call.lineno and _switch_value(other) is False
               and ctx.call_name(other) in _SWITCHES for other in ctx.scope.nodes(ast.Call))


@register
class EagerDebugLeftOn(Rule):
    code = "TF405"
    name = "eager-debug-left-on"
    severity = Severity.WARNING
    summary = ("tf.config.run_functions_eagerly(True) (or Keras's run_eagerly=True) runs tf.functions eagerly: "
               "the graph speed-up is gone")
    why = """\
`tf.config.run_functions_eagerly(True)` is a debugging switch: from then on every `tf.function` in
the process runs its Python code eagerly, call after call. It is handy to step through a function
with a debugger, but left in committed code it silently removes every speed-up of graph mode (and
hides graph-only errors until someone turns it off). Remove it, or guard it behind a debug flag
(one under an `if`, in a function named for debugging, or turned off again after it is not
reported). While it stays on, what a graph would do to that file's tf.functions and Keras steps
(a `print`, a `.numpy()`) is reported as notes, since TensorFlow runs them eagerly; what tf.data
traces keeps its findings. Keras's twin is `model.compile(..., run_eagerly=True)` (or `model.run_eagerly = True`): `fit`,
`evaluate` and `predict` then run `train_step` eagerly, batch after batch.
That one is set per model and is often meant (a `train_step` with eager-only code, a lesson that
shows eager execution), so `check` only notes it; `tfadvisor run` measures it on the program's own
model and data (a few steps each way from the same start) and, when graph mode gives the same
losses and weights and is faster, advises `run_eagerly=False` with the saving (TF606).
"""
    bad = (
        """\
import tensorflow as tf

tf.config.run_functions_eagerly(True)  # TF405

@tf.function
def step(x):
    return tf.reduce_sum(x * x)

print(step(tf.ones([3])))
""",
        """\
import tensorflow as tf

@tf.function
def step(x):
    return tf.reduce_sum(x * x)

def main():
    tf.config.experimental_run_functions_eagerly(True)  # TF405
    print(step(tf.ones([3])))
""",
        """\
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
model.compile(optimizer="adam", loss="mse", run_eagerly=True)  # TF405
""",
    )
    good = (
        """\
import tensorflow as tf

def main(debug=False):
    tf.config.run_functions_eagerly(debug)
    print(tf.reduce_sum(tf.ones([3])))
""",
        """\
import tensorflow as tf

tf.config.run_functions_eagerly(False)
""",
        """\
import tensorflow as tf
from absl import flags

FLAGS = flags.FLAGS

def main():
    if FLAGS.debug:
        tf.config.run_functions_eagerly(True)
""",
        """\
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
model.compile(optimizer="adam", loss="mse", run_eagerly=False)
""",
    )
    fix = "unsafe"
    fix_description = ("set the argument (or compile's run_eagerly=) to False: unsafe because code that relied on "
                       "eager execution inside tf.functions (.numpy(), Python side effects) then behaves differently")
    scope = "always"

    def check(self, ctx: ScopeContext) -> Iterator[Hit]:
        if is_test_module(ctx.imports.module):
            return  # tests switch eager mode on deliberately, around the code they test
        for call in ctx.scope.nodes(ast.Call):
            assert isinstance(call, ast.Call)
            if _keras_run_eagerly(call):
                yield self.hit(call, _KERAS_MESSAGE.format("compile(..., run_eagerly=True)"), speculative=True)
            if ctx.call_name(call) not in _SWITCHES:
                continue
            if _switch_value(call) is True and not _deliberate(ctx, call):
                yield self.hit(call)
        for node in ctx.scope.nodes(ast.Assign):
            assert isinstance(node, ast.Assign)
            if (isinstance(node.value, ast.Constant) and node.value.value is True
                    and any(isinstance(t, ast.Attribute) and t.attr == "run_eagerly" for t in node.targets)):
                yield self.hit(node, _KERAS_MESSAGE.format("run_eagerly = True"), speculative=True)

    def check_module(self, ctx: ScopeContext) -> Iterator[Hit]:
        yield from self.check(ctx)

    @classmethod
    def hit_stands(cls, project: Project, module: ModuleSummary, hit: Hit) -> bool:
        """A script with no tf.function, no Keras loop and no call into the project's other modules
        (which may hold them), or a program none of whose tf.functions is ever called: the switch
        turns nothing eager."""
        return _may_run_graphs(project, module) and _program_has_graphs(project)


def _program_has_graphs(project: Project) -> bool:
    """Whether anything in the program runs as a graph: a Keras loop (project.py's
    ``keras_driven_modules``) or compile, a ``tf.function(g)``, an exported graph, or a decorated
    function that something calls or hands on (by name: a ``self.step(x)`` counts for every
    ``step``) or that Keras calls (a decorated ``call``). An undecorated function handed to
    ``tf.data``'s ``map`` does not count: map traces it whatever the switch says."""
    if project.keras_driven_modules:
        return True
    called: set[str] = set()
    for mod in project.modules:
        if mod.wrapped or mod.graph_compiles or mod.eager_compiles or mod.exports:
            return True
        sites = [*mod.module_calls, *(s for f in mod.functions for s in f.calls)]
        called.update(s.callee.rsplit(".", 1)[-1] for s in sites)
        called.update(name.rsplit(".", 1)[-1] for name, *_ in mod.handed)
    return any(f.decorated and (f.name in called or f.name in ("call", "__call__"))
               for mod in project.modules for f in mod.functions)


def _may_run_graphs(project: Project, mod: ModuleSummary) -> bool:
    """Whether this module may reach graph code. Any call named like a Keras loop counts here, even
    a project's own ``fit`` (it may call a tf.function step), where ``_program_has_graphs`` asks
    whether Keras's loop itself runs and so reads ``keras_driven_modules``."""
    if (mod.wrapped or mod.driver_calls or mod.graph_compiles or mod.eager_compiles
            or any(f.decorated for f in mod.functions)):
        return True
    sites = [(None, s) for s in mod.module_calls] + [(f, s) for f in mod.functions for s in f.calls]
    for caller, site in sites:
        target = project.resolve(caller, mod.module, site.callee, site.line, mod.path)
        if target is not None and (target.module != mod.module or target.id in project.graph_roots):
            return True
        parts = site.callee.split(".")  # ``pkg.models.Trainer(...)``: a class of another module
        prefixes = (".".join(parts[:n]) for n in range(1, len(parts)))
        if parts[0] not in LIBRARY_ROOTS and any(p != mod.module and project.is_module(p) for p in prefixes):
            return True
    return False

