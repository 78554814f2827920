"""Code Keras 3 traces itself, without AutoGraph: a layer's ``call``, a model's ``train_step`` (and
its siblings), the losses and metrics handed to ``compile``. A Python ``if`` or ``for`` on a tensor
there raises whenever Keras runs it in a graph, where a tf.function's own AutoGraph would convert it
(analysis/autograph.py, and the TensorFlow 2.21 variants it names). TF304 and TF305 ask here."""

from __future__ import annotations

import ast
from typing import Literal

from tfadvisor.analysis import graph_context
from tfadvisor.analysis.context import ScopeContext
from tfadvisor.analysis.references import compiled_values
from tfadvisor.analysis.scopes import every_node
from tfadvisor.rules._util import is_keras_class_here, is_tf_function_decorated, module_scope

Traced = Literal["call", "step", "compiled"]


def keras_traces_unconverted(ctx: ScopeContext, fn: ast.FunctionDef | ast.AsyncFunctionDef) -> Traced | None:
    """How Keras 3 traces this function without AutoGraph, if it does: as a layer's ``call``, as a
    model's step, or as a compiled loss or metric."""
    if _unconverted_keras_method(ctx, fn):
        return "call" if fn.name == "call" else "step"
    if _compiled_by_keras(ctx, fn):
        return "compiled"
    return None


def _unconverted_keras_method(ctx: ScopeContext, fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """The undecorated ``call`` of a Keras 3 Layer or Model, or a Model's ``train_step`` (and
    ``test_step``, ``predict_step``, ``compute_loss``, ``compute_metrics``). Keras 3 (TensorFlow
    2.16 and later) runs none of them through AutoGraph: TF 2.21 raises
    OperatorNotAllowedInGraphError for a Python ``if`` on a tensor in ``call`` under ``fit``, inside a
    tf.function and when a functional model is built, and in ``train_step`` under ``fit``
    (tests/conformance/variants/tf304.py); eagerly both run. Keras 2 (``tf_keras``) converted them;
    so does a tf.function decorator of their own. A step's finding shows only where the project
    runs it so (graph code): a custom loop calling ``train_step`` eagerly keeps it eager."""
    cls = ctx.scope.cls
    if cls is None or not (fn.name == "call" or fn.name in graph_context.KERAS_STEP_METHODS):
        return False
    if is_tf_function_decorated(ctx, fn) or not is_keras_class_here(ctx, cls.node):
        return False
    return not ctx.imports.keras2


def _compiled_by_keras(ctx: ScopeContext, fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A function this module hands to ``model.compile(loss=..., metrics=[...])``, directly or as what
    a module-level factory returns (``loss=joint_loss(0.3)``). Keras 3 traces losses and metrics in
    fit's tf.function without AutoGraph: TensorFlow 2.21 raises OperatorNotAllowedInGraphError on a
    Python ``if`` on a tensor there (tests/conformance/variants/tf304.py). ``run_eagerly=True`` calls
    them eagerly; Keras 2 (``tf_keras``) converted them; a tf.function-decorated one is converted."""
    if is_tf_function_decorated(ctx, fn) or ctx.imports.keras2:
        return False
    parent = ctx.scope.parent
    if parent is None:
        return False
    handed, factories = _compiled_names(ctx)
    if parent.is_module:
        return fn.name in handed
    outer = parent.node
    return (parent.parent is not None and parent.parent.is_module and isinstance(outer, ast.FunctionDef)
            and outer.name in factories and any(
                isinstance(r.value, ast.Name) and r.value.id == fn.name for r in parent.nodes(ast.Return)))


def _compiled_names(ctx: ScopeContext) -> tuple[frozenset[str], frozenset[str]]:
    """(names handed to a compile's loss/metrics, names of factories called there), for the module."""
    root = module_scope(ctx.scope)

    def build() -> tuple[frozenset[str], frozenset[str]]:
        values = [v for call in every_node(root, ast.Call) for v in compiled_values(call)]
        handed = frozenset(v.id for v in values if isinstance(v, ast.Name))
        factories = frozenset(v.func.id for v in values if isinstance(v, ast.Call) and isinstance(v.func, ast.Name))
        return handed, factories
    return root.cached("keras_compiled", build)

