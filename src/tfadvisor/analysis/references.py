"""What one scope does with functions without calling them: hands them to tracers, exports them,
wraps ``tf.function`` for others. Part of the per-file pass; ``analysis.graph_context`` says what
each API does, the project pass resolves the names found here to the project's functions.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from tfadvisor.analysis import graph_context, tfapi
from tfadvisor.analysis.context import ScopeContext
from tfadvisor.analysis.scopes import Scope, walk

_RECEIVER_METHODS = (graph_context.TRACING_DATASET_METHODS | graph_context.TRACING_STRATEGY_METHODS
                     | graph_context.TRACING_CRITICAL_SECTION_METHODS | graph_context.NEEDS_GRAPH_METHODS
                     | graph_context.DISTRIBUTED_METHODS | graph_context.CALLING_OPTIMIZER_METHODS)


@dataclass
class ScopeReferences:
    handed: list[tuple[str, str, int]] = field(default_factory=list)  # (name, kind, line)
    exports: list[tuple[str, int]] = field(default_factory=list)
    # parameters whose tf.function API the scope uses (``f.get_concrete_function(x)`` on a function
    # passed in): whatever a caller passes there must stay a tf.function
    exported_params: list[str] = field(default_factory=list)
    # ``tf.autograph.to_code(f.python_function)``: attributes only a tf.function has, read on a
    # function of the project (name, attribute, line): undecorated, the read fails
    api_reads: list[tuple[str, str, int]] = field(default_factory=list)
    distributed: int = 0
    dynamic_calls: int = 0
    tf1: tuple[int, int, str] | None = None
    tf1_eager: tuple[int, int, str] | None = None  # the first TensorFlow 1 eager-mode API


def scan(ctx: ScopeContext) -> ScopeReferences:
    """One pass over a scope's calls (and attribute reads, for TF1 markers)."""
    out = ScopeReferences()
    for call in ctx.scope.nodes(ast.Call):
        assert isinstance(call, ast.Call)
        name = ctx.call_name(call)
        func = call.func
        if name is None and not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Constant)):
            out.dynamic_calls += 1  # not ``", ".join(...)``: a method of a literal is Python
        method = func.attr if isinstance(func, ast.Attribute) else None
        receiver = _receiver(ctx, func) if method in _RECEIVER_METHODS else ""
        dataset = method in graph_context.TRACING_DATASET_METHODS and ctx.is_dataset(func.value)  # type: ignore[attr-defined]
        if method in graph_context.TRACING_DATASET_METHODS and not dataset and _not_tf_data(ctx, call):
            method = None  # another library's ``map``: runs the function in Python
        kind = graph_context.handed_kind(name, method, receiver, dataset)
        if kind == "graph" and name in graph_context.TRACING_LAYERS and id(call) in _applied_at_once(ctx):
            kind = "applied-layer"  # ``Lambda(f)(x)``: traced or not as the code applying it is
        if kind is not None and not (kind == "graph" and method == "reduce" and "strategy" in receiver.lower()):
            out.handed.extend((ref, kind, call.lineno) for ref in function_refs(ctx, call))
        for value in compiled_values(call):
            # ``model.compile(loss=self._per_loss, metrics=[f1])``: Keras runs them in fit's tf.function
            out.handed.extend((ref, "graph", call.lineno) for ref in _refs_in(ctx, value))
            factory = _project_call(ctx, value)
            if factory:  # ``loss=joint_loss(0.3)``: what the factory returns (the project pass finds it)
                out.handed.append((f"{factory}()", "graph", call.lineno))
        if method is not None and graph_context.is_distributed_call(method, receiver):
            out.distributed += 1
        if method in graph_context.EXPORTING_METHODS:
            value = func.value  # type: ignore[attr-defined]
            if isinstance(value, ast.Name) and value.id in ctx.params:
                out.exported_params.append(value.id)
            elif ref := ctx.resolve(value):
                out.exports.append((ref, call.lineno))
            elif isinstance(value, ast.Attribute) and value.attr == "call":
                out.exports.append((ast.unparse(value), call.lineno))  # ``self.model.call``: the project pass decides
        if name in graph_context.EXPORTING_FUNCTIONS:
            for kw in call.keywords:
                if kw.arg == "signatures":
                    out.exports.extend((ref, call.lineno) for ref in _refs_in(ctx, kw.value))
        if _weaker(out.tf1) and _tf1_here(ctx, name):
            out.tf1 = (call.lineno, call.col_offset, name or "")
        if out.tf1_eager is None and graph_context.tf1_eager_marker(name):
            out.tf1_eager = (call.lineno, call.col_offset, name or "")
    for node in ctx.scope.nodes(ast.Attribute):
        if node.attr in graph_context.TF_FUNCTION_ATTRIBUTES and (ref := ctx.resolve(node.value)):
            out.api_reads.append((ref, node.attr, node.lineno))
        if _weaker(out.tf1) and _tf1_here(ctx, name := ctx.resolve(node)):
            out.tf1 = (node.lineno, node.col_offset, name or "")
        if out.tf1_eager is None and graph_context.tf1_eager_marker(name):
            out.tf1_eager = (node.lineno, node.col_offset, name or "")
    return out


def _applied_at_once(ctx: ScopeContext) -> set[int]:
    """Ids of the calls in this scope whose result is called right away (``Lambda(f)(x)``)."""
    return ctx.scope.cached("applied_at_once", lambda: {
        id(c.func) for c in ctx.scope.nodes(ast.Call) if isinstance(c.func, ast.Call)})


def _weaker(marker: tuple[int, int, str] | None) -> bool:
    """No TF1 marker yet, or only one TF2 code uses too (``tf.compat.v1.get_variable``): a
    session or a placeholder found later says more."""
    return marker is None or graph_context.tf1_island(marker[2])


def _tf1_here(ctx: ScopeContext, name: str | None) -> bool:
    """A TF1 API used in this scope. A session counts only where something is run in it
    (``sess.run(...)``): ``InteractiveSession(config=config)`` alone is TF2 scripts' GPU-memory
    boilerplate."""
    return graph_context.tf1_marker(name) and (not (name or "").endswith("Session") or _runs_a_session(ctx))


def _runs_a_session(ctx: ScopeContext) -> bool:
    """``sess.run(...)`` (or ``session.run``, ``self.sess.run``) in this scope."""
    return any(isinstance(c.func, ast.Attribute) and c.func.attr in ("run", "eval")
               and "sess" in ast.unparse(c.func.value).lower()
               for c in ctx.scope.nodes(ast.Call))


def _not_tf_data(ctx: ScopeContext, call: ast.Call) -> bool:
    """A ``.map(...)`` that cannot be tf.data's: a keyword none of tf.data's methods takes
    (``dataset.map(f, batched=True)``), or a receiver built by a library whose ``map`` runs Python
    (``grain.MapDataset.source(...)``, ``load_dataset(...)``), directly or through one more name."""
    if any(kw.arg is not None and kw.arg not in graph_context.TF_DATA_KEYWORDS for kw in call.keywords):
        return True
    receiver = call.func.value  # type: ignore[attr-defined]
    return _built_by_foreign(ctx, receiver, 2)


def _built_by_foreign(ctx: ScopeContext, node: ast.AST, depth: int) -> bool:
    """``grain.MapDataset.source(paths)``, ``ds.shuffle(10)`` on such a pipeline, or a name bound
    to one (``depth`` names deep)."""
    while isinstance(node, ast.Call):
        if _foreign_call(ctx, node):
            return True
        if not isinstance(node.func, ast.Attribute):
            return False  # the project's own builder: not known here
        node = node.func.value  # a method of the pipeline: look at what it is called on
    if not isinstance(node, ast.Name) or depth == 0:
        return False
    return any(_built_by_foreign(ctx, v, depth - 1) for v in _assigned(ctx, node.id))


def _assigned(ctx: ScopeContext, name: str) -> list[ast.expr]:
    """Every value this scope assigns to ``name`` (``name = ...``)."""
    return [a.value for a in ctx.scope.nodes(ast.Assign)
            if any(isinstance(t, ast.Name) and t.id == name for t in a.targets)]


def _foreign_call(ctx: ScopeContext, call: ast.Call) -> bool:
    name = ctx.call_name(call) or ""
    return bool(graph_context.FOREIGN_DATA_MODULES.intersection(name.split(".")[:-1]))


def _receiver(ctx: ScopeContext, func: ast.expr) -> str:
    if not isinstance(func, ast.Attribute):
        return ""
    return ctx.resolve(func.value) or ast.unparse(func.value)


def function_refs(ctx: ScopeContext, call: ast.Call) -> list[str]:
    """Names of functions an argument may hand over: ``f``, ``self.step``, ``partial(f, ...)``,
    functions called in a ``lambda``, and those inside lists, tuples and dicts of them."""
    out: list[str] = []
    for arg in [*call.args, *(k.value for k in call.keywords)]:
        out.extend(_refs_in(ctx, arg))
    return out


def _refs_in(ctx: ScopeContext, node: ast.AST, depth: int = 0) -> list[str]:
    if isinstance(node, ast.Starred):
        node = node.value
    if isinstance(node, ast.Name) and node.id in ctx.local_names and depth == 0:
        # ``ds.map(preprocess)`` with ``preprocess = Preprocess(anchors)``: the object's __call__
        made = _assigned(ctx, node.id)
        classes = {ctx.call_name(v) if isinstance(v, ast.Call) else None for v in made}
        name = classes.pop() if len(classes) == 1 else None
        if name and name.rsplit(".", 1)[-1][:1].isupper() and not name.startswith(("tensorflow.", "keras.", "numpy.")):
            return [f"{name}.__call__"]
    if isinstance(node, ast.Name) and (node.id in ctx.params or node.id in ctx.local_names):
        return []  # ``tf.cond(train, ...)`` on a parameter or a local: not the module's ``train()``
    if isinstance(node, (ast.Name, ast.Attribute)):
        name = ctx.resolve(node)
        return [name] if name and not name.startswith(("tensorflow.", "keras.", "numpy.")) else []
    if depth > 2:
        return []
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return [r for e in node.elts for r in _refs_in(ctx, e, depth + 1)]
    if isinstance(node, ast.Dict):
        return [r for v in node.values for r in _refs_in(ctx, v, depth + 1)]
    if isinstance(node, ast.Lambda):
        return [r for n in walk(node.body) if isinstance(n, ast.Call)
                for r in _refs_in(ctx, n.func, depth + 1)]
    if isinstance(node, ast.Call):
        name = ctx.call_name(node)
        if name in ("functools.partial", "partial") and node.args:
            return _refs_in(ctx, node.args[0], depth + 1)
        if node.func is not None and isinstance(node.func, ast.Attribute) and node.func.attr == "get_concrete_function":
            return _refs_in(ctx, node.func.value, depth + 1)
    return []


def compiled_values(call: ast.Call) -> list[ast.expr]:
    """What ``model.compile(...)`` hands Keras to trace in fit: the values its ``loss``, ``metrics``
    and ``weighted_metrics`` list (``f``, ``[f, g]``, ``{"out": f}``, ``joint_loss(0.3)``); nothing
    when it asks to run eagerly."""
    if not (isinstance(call.func, ast.Attribute) and call.func.attr == "compile") or any(
            k.arg == "run_eagerly" and not (isinstance(k.value, ast.Constant) and k.value.value is False)
            for k in call.keywords):
        return []
    out: list[ast.expr] = []
    for kw in call.keywords:
        if kw.arg in ("loss", "metrics", "weighted_metrics"):
            value = kw.value
            if isinstance(value, (ast.List, ast.Tuple)):
                out.extend(value.elts)
            elif isinstance(value, ast.Dict):
                out.extend(v for v in value.values if v is not None)
            else:
                out.append(value)
    return out


def _project_call(ctx: ScopeContext, node: ast.expr) -> str | None:
    """The project function ``node`` calls (``joint_loss(0.3)``), if it is a call of one."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, (ast.Name, ast.Attribute))):
        return None
    name = ctx.resolve(node.func)
    return name if name and not name.startswith(("tensorflow.", "keras.", "numpy.")) else None


def function_wrappers(module: Scope, ctx: ScopeContext) -> list[str]:
    """Module-level names that stand for ``tf.function``: ``def function(fn, **kw): return
    tf.function(fn, ...)`` and ``function = functools.partial(tf.function, ...)`` or ``= tf.function``.

    Looks only at the calls the scope index already holds (a module-level function and the
    functions nested in it), so the cost is one resolve per call, not a walk per function."""
    out = [scope.node.name for scope in module.children
           if isinstance(scope.node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _wraps(scope, ctx)[0]]
    for stmt in module.nodes(ast.Assign):
        assert isinstance(stmt, ast.Assign)
        if len(stmt.targets) != 1 or not isinstance(stmt.targets[0], ast.Name) or ctx.enclosing(stmt):
            continue
        value = stmt.value
        if isinstance(value, ast.Call) and ctx.call_name(value) in ("functools.partial", "partial") and value.args:
            value = value.args[0]
        if isinstance(value, (ast.Name, ast.Attribute)) and tfapi.is_tf_function(ctx.resolve(value)):
            out.append(stmt.targets[0].id)
    return out


def eager_wrappers(module: Scope, ctx: ScopeContext) -> list[str]:
    """Module-level decorators (or decorator factories) that run the function they wrap through
    ``tf.py_function``/``tf.numpy_function``: ``def naive_function(sig, tout): def deco(func):
    def wrapper(*args): return tf.py_function(func, inp=args, Tout=tout)``. What they decorate runs
    eagerly, even inside a graph (heldout26: a data mapper's loaders read ``.numpy()`` there)."""
    return [scope.node.name for scope in module.children
            if isinstance(scope.node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _wraps(scope, ctx)[1]]


def _wraps(scope: Scope, ctx: ScopeContext) -> tuple[bool, bool]:
    """Whether a function hands its parameter to ``tf.function``, and whether to ``tf.py_function``
    or ``tf.numpy_function`` (directly or in a nested decorator factory): ``return tf.function(fn,
    autograph=False)``, ``tf.function(*args, **kwargs)``. One walk, cached, serves both questions."""
    return scope.cached("wraps", lambda: _find_wraps(scope, ctx))


def _runs_a_parameter_as_a_graph(node: ast.FunctionDef | ast.AsyncFunctionDef, outer: set[str],
                                 ctx: ScopeContext) -> bool:
    """``@tf.function def _decorated(*args): return strategy.run(fun, args=args)`` nested in a
    decorator whose parameter is ``fun``: what the decorator wraps runs inside that tf.function
    (heldout39: a GAN notebook's ``@distributed(...)`` step, told decorate, judged keep)."""
    if not any(tfapi.is_tf_function(ctx.imports.resolve(d.func if isinstance(d, ast.Call) else d))
               for d in node.decorator_list):
        return False
    return any(isinstance(n, ast.Name) and n.id in outer for stmt in node.body for n in walk(stmt))


def _find_wraps(scope: Scope, ctx: ScopeContext) -> tuple[bool, bool]:
    names: set[str] = set()
    found = [False, False]
    stack = [scope]
    while stack:
        current = stack.pop()
        stack.extend(current.children)
        node = current.node
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = node.args
            own = {a.arg for a in (*args.posonlyargs, *args.args, args.vararg) if a is not None}
            if not found[0] and current is not scope and _runs_a_parameter_as_a_graph(node, names - own, ctx):
                found[0] = True
            names.update(own)
        for call in current.nodes(ast.Call):
            assert isinstance(call, ast.Call)
            name = ctx.imports.resolve(call.func)
            kind = 0 if tfapi.is_tf_function(name) else 1 if name in graph_context.EAGER_FUNCTIONS else None
            if kind is None or found[kind]:
                continue
            # ``tf.function(*args, **kwargs)`` and ``partial``-style factories hand it on too
            found[kind] = (not call.args or any(isinstance(a, ast.Starred) for a in call.args)
                           or (isinstance(call.args[0], ast.Name) and call.args[0].id in names))
    return found[0], found[1]
